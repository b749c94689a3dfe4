// Package cluster plays a tuning run's or an arena match's games on many
// machines through NATS JetStream: a Coordinator is the run's optimize.Referee (and
// optimize.Sampler), which cuts every call into batches of matches and
// publishes them to a work-queue stream; Workers anywhere pull the
// batches, play them with the in-process engine referee
// (referee.VectorReferee.PlayRange) and publish the results, which the
// coordinator puts back in order. A run of an external engine
// (referee.External) names the engine in its batches by name and the
// SHA-256 of its program (tournament.EngineID), never by path, in the
// referee's own setup (Setup, referee.Setup); they are queued on subjects of
// that engine and fingerprint, which only the workers that declare the
// same engine (Worker.Engines) consume. A batch is a pure function of its
// content (seed, matches, game settings), so a run's results do not depend
// on the number of workers, on which worker played which batch, or on
// redeliveries: they equal the in-process referee's.
//
// The server is either embedded in the coordinator's process (StartServer,
// its storage in the run directory) or an existing NATS deployment (Dial).
// An unacknowledged batch is delivered again after the consumer's ack
// wait, so a worker that dies loses only the batch it was playing; a
// worker extends the wait with in-progress acknowledgements while it
// plays; message ids de-duplicate results, and the coordinator drops any
// result it already has. A call made again (a restarted coordinator's
// step) takes the results already stored and queues only the other
// batches, each replacing any copy of it an earlier call left in the
// queue; an error result stored before the call is not final there: its
// batch is played again.
//
// Workers are not trusted: every result is checked against its batch
// before use (counts the batch's games allow, game records and positions
// of its games), a worker's results are replayed in the coordinator's
// process until one matches, and so is a deterministic sample of the
// batches (Coordinator.VerifySample). A worker whose result fails either
// is quarantined: its results are dropped from then on (its accepted
// results of the call under way too), and its batches go back to the
// queue for other workers, twice at most, then the coordinator plays them
// itself (a mismatched batch takes the replay's result at once), so a
// run's results stay an honest run's. A worker's error result ("could not
// play it") is no end of the run either: it counts against the worker
// (quarantined after Coordinator.MaxErrors) and its batch is played
// again; a result that inflates to more than its batch can produce (a
// gzip bomb) is refused unread; batches a worker gives back (NAKs) do not
// use up their deliveries. Whatever a worker sends is quoted cut short. Timed games are not deterministic:
// they are checked, never replayed; so are an external engine's, which
// repeat only if the engine is deterministic.
//
// Of roadtune the cluster imports only the referee, optimize, tournament
// and engine (deps_test.go checks): it knows referees and games, never a
// tuning job, whose launch hooks (cmd/internal/tunecluster) sit above it.
package cluster
