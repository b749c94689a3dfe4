package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// Coordinator is an optimize.Referee and optimize.Sampler that plays its
// matches on workers. Set its fields before the first call; it is safe for
// one call at a time.
type Coordinator struct {
	// Conn is the connection to the NATS server.
	Conn *nats.Conn
	// Run names the run on the server (RunName of it is used): the subject
	// its batches and results go to.
	Run string
	// Referee holds the game settings (schema, engine settings, pairs,
	// openings, early stop, move limit) sent with every batch; its
	// concurrency and callbacks are not used.
	Referee *referee.VectorReferee
	// BatchGames is the least number of games of a batch (default 16): a
	// batch holds ⌈BatchGames / (2·Pairs)⌉ matches, the last one of a call
	// fewer.
	BatchGames int
	// AckWait is how long a worker may hold a batch without acknowledging
	// it or reporting progress before it is delivered to another (default
	// 30 s); MaxDeliver the most deliveries of a batch (default 5) that
	// end without a result (a worker stopped, failed or ended it), after
	// which the call fails. Both configure the workers' consumer. A
	// delivery a worker gives back (a refusal: a NAK, which the server
	// announces) does not count: the coordinator queues a batch whose
	// deliveries refusals used up again, so a worker that refuses every
	// batch costs nothing but time.
	AckWait    time.Duration
	MaxDeliver int
	// MaxErrors is the number of error results (a worker's "could not
	// play it") a worker may send before it is quarantined (default
	// DefaultMaxErrors). An error result never ends the call: its batch
	// goes to another worker, and the coordinator plays it itself after
	// maxRequeues, so an error every worker meets is the coordinator's
	// own in the end.
	MaxErrors int
	// Progress, when set, is told the games of the call's finished batches
	// and the games scheduled (2·Pairs per match).
	Progress func(done, total int)
	// Build is the engine build announced in batches (default EngineBuild);
	// tests change it.
	Build string
	// Log, when set, receives a line when a worker refuses batches (once
	// per worker and reason), when a worker's result is refused or differs
	// from the coordinator's replay, and when a worker is quarantined.
	Log io.Writer
	// VerifySample is the share of batches (0 to 1) whose results the
	// coordinator replays in this process and compares, on top of every
	// result of a worker until one of its results has been verified so;
	// 0 means DefaultVerifySample, a negative value no sampled replays.
	// Batches of timed games are never replayed (they are not
	// deterministic): their results are only checked for consistency.
	VerifySample float64
	// VerifySeed picks the sampled batches (with each batch's key): set it
	// from the run's seed, which workers do not see, so that the sample is
	// the same in every run with that seed and no worker can foresee it.
	VerifySeed uint64
	// ReplayConcurrency is the number of games a replay plays at once
	// (default 1: the replays take a core of the coordinator's machine at
	// most).
	ReplayConcurrency int
	// Roster, when set, is the live view of the workers the coordinator
	// asks, during a call whose batches need an external engine, whether
	// a live worker announces that engine (Heartbeat.Engines); nil: the
	// call follows the heartbeats itself. Session sets its own.
	Roster *Roster
	// EngineWait is how long such a call waits with no live worker
	// announcing its engine before it says so on Log, and how often it
	// says it again (default DefaultEngineWait). A worker that announces
	// another program under the engine's name is named on Log and told
	// (a Notice) at once, both fingerprints given.
	EngineWait time.Duration

	mu          sync.Mutex
	js          jetstream.JetStream
	refusals    map[string]bool   // logged
	failures    map[string]int    // error results by worker
	quarantined map[string]string // worker → why
	trusted     map[string]bool   // workers a replay verified
	stats       VerifyStats
	replaying   chan struct{} // one replay at a time, whatever the calls in flight
	gameLog     func(tournament.GameRecord) error
	engineFor   *referee.External // the referee's external engine engineVal is of
	engineVal   tournament.Engine
	engineSaid  map[string]bool // engine mismatches told (worker ID and SHA-256)
}

// replaySlot is the token a replay holds while it plays.
func (c *Coordinator) replaySlot() chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.replaying == nil {
		c.replaying = make(chan struct{}, 1)
	}
	return c.replaying
}

// DefaultMaxErrors is the number of error results a worker may send
// before it is quarantined unless Coordinator.MaxErrors says otherwise.
const DefaultMaxErrors = 3

// VerifyStats count what the coordinator's checks and replays did over its
// life: games accepted (of results taken, the replays' included) and
// replayed, results refused by the consistency checks (or for their size),
// results that differed from their replay, accepted results revoked when
// their worker was quarantined, error results taken instead of a result.
type VerifyStats struct {
	Accepted, Replayed                   int64
	Refused, Mismatched, Revoked, Failed int
}

// Stats is what the checks and replays did so far.
func (c *Coordinator) Stats() VerifyStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Quarantined reports whether worker's results are dropped: one of them
// failed the consistency checks or differed from the coordinator's
// replay. Quarantine lasts the coordinator's life.
func (c *Coordinator) Quarantined(worker string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.quarantined[worker]
	return ok
}

// QuarantinedWorkers are the names of the quarantined workers, sorted.
func (c *Coordinator) QuarantinedWorkers() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(maps.Keys(c.quarantined))
}

// quarantine drops worker's results from now on and logs why (once).
func (c *Coordinator) quarantine(worker, why string) {
	c.mu.Lock()
	if c.quarantined == nil {
		c.quarantined = map[string]string{}
	}
	_, old := c.quarantined[worker]
	if !old {
		c.quarantined[worker] = why
	}
	c.mu.Unlock()
	if !old {
		c.logf("cluster: worker %s quarantined: %s; its results are dropped from now on and its batches of this call played again", worker, why)
	}
}

// failed counts an error result of worker and reports whether the worker
// has now sent MaxErrors of them.
func (c *Coordinator) failed(worker string) (n int, last bool) {
	limit := c.MaxErrors
	if limit <= 0 {
		limit = DefaultMaxErrors
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failures == nil {
		c.failures = map[string]int{}
	}
	c.failures[worker]++
	c.stats.Failed++
	return c.failures[worker], c.failures[worker] >= limit
}

// maxLogged is the most bytes of a worker's text (an error result, a
// refusal's reason) a log line or error quotes.
const maxLogged = 200

// clip is s cut to maxLogged bytes (at a character's start), the length
// of the whole said after it: a worker's text is the worker's to choose,
// and a 64 MiB error must not become a 64 MB log line.
func clip(s string) string {
	if len(s) <= maxLogged {
		return s
	}
	cut := maxLogged
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", s[:cut], len(s))
}

// trust marks worker as verified by a replay.
func (c *Coordinator) trust(worker string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.trusted == nil {
		c.trusted = map[string]bool{}
	}
	c.trusted[worker] = true
}

// mustReplay reports whether the result of worker for the batch with key
// is replayed: the worker is not verified yet, or the batch is sampled.
func (c *Coordinator) mustReplay(key, worker string) bool {
	share := c.VerifySample
	if share == 0 {
		share = DefaultVerifySample
	}
	c.mu.Lock()
	trusted := c.trusted[worker]
	c.mu.Unlock()
	return !trusted || sampled(c.VerifySeed, key, share)
}

// count updates the stats.
func (c *Coordinator) count(f func(*VerifyStats)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(&c.stats)
}

// logf writes a line to Log, if set.
func (c *Coordinator) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, format+"\n", args...)
	}
}

// SetGameLog makes every later call ask the workers for the game records
// too and pass them to log in game order once the call's batches are all
// in (referee.GameLogger, for output.games).
func (c *Coordinator) SetGameLog(log func(tournament.GameRecord) error) { c.gameLog = log }

var (
	_ optimize.Referee   = (*Coordinator)(nil)
	_ optimize.Sampler   = (*Coordinator)(nil)
	_ referee.GameLogger = (*Coordinator)(nil)
)

// Play plays the matches on the workers and returns their outcomes in
// order: those referee.VectorReferee.Play gives with the same settings and
// seed. A batch a worker refuses (Refusal) goes to another worker; a
// result that fails the checks or its replay is dropped, its worker
// quarantined and the batch played again (see the package doc).
// A worker's error result counts against it (MaxErrors) and its batch is
// played again. Errors: no connection or queue, a batch the coordinator
// cannot play itself (its reason), a batch delivered MaxDeliver times
// without a result, refusals not counted (with the refusals of it seen),
// a cancelled ctx (wrapping ctx.Err()).
func (c *Coordinator) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	out, _, err := c.call(ctx, seed, matches, false)
	return out, err
}

// Sample plays the matches as Play does and also returns the positions of
// their games: those referee.VectorReferee.Sample gives. Errors: as Play.
func (c *Coordinator) Sample(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, []optimize.Position, error) {
	return c.call(ctx, seed, matches, true)
}

// Prepare creates the queue (CreateQueue) if it is not there yet; the
// first call does it otherwise. Errors: no connection, a server without
// JetStream.
func (c *Coordinator) Prepare(ctx context.Context) error {
	_, err := c.queue(ctx)
	return err
}

// queue creates (or updates) the streams and the workers' consumer once.
func (c *Coordinator) queue(ctx context.Context) (jetstream.JetStream, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.js != nil {
		return c.js, nil
	}
	if c.Conn == nil {
		return nil, errors.New("cluster: the coordinator has no connection")
	}
	js, err := jetstream.New(c.Conn)
	if err != nil {
		return nil, err
	}
	if err := CreateQueue(ctx, js, c.AckWait, c.MaxDeliver); err != nil {
		return nil, err
	}
	c.js = js
	return js, nil
}

// CreateQueue creates or updates the streams (file storage) and the
// workers' durable pull consumer: explicit acks, ackWait (default 30 s),
// maxDeliver deliveries at most (default 5). Results are kept a day, long
// enough for a restarted coordinator to find those of its last step.
// The batch stream also holds the batches of external engines, each
// engine's on subjects of its own (createEngineConsumer).
func CreateQueue(ctx context.Context, js jetstream.JetStream, ackWait time.Duration, maxDeliver int) error {
	ackWait, maxDeliver = queueDefaults(ackWait, maxDeliver)
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: BatchStream, Subjects: []string{batchSubjects + ">", engineBatches + ">"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: 2 * time.Minute,
	}); err != nil {
		return fmt.Errorf("cluster: stream %s: %w", BatchStream, err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: ResultStream, Subjects: []string{resultPrefix + ">"},
		Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage, Duplicates: 2 * time.Minute, MaxAge: 24 * time.Hour,
	}); err != nil {
		return fmt.Errorf("cluster: stream %s: %w", ResultStream, err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, BatchStream, jetstream.ConsumerConfig{
		Durable: WorkerGroup, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxDeliver: maxDeliver,
		FilterSubject: batchSubjects + ">",
	}); err != nil {
		return fmt.Errorf("cluster: consumer %s: %w", WorkerGroup, err)
	}
	return nil
}

// queueDefaults are the consumers' ack wait and maximum deliveries with
// their defaults (30 s, 5) for values ≤ 0.
func queueDefaults(ackWait time.Duration, maxDeliver int) (time.Duration, int) {
	if ackWait <= 0 {
		ackWait = 30 * time.Second
	}
	if maxDeliver <= 0 {
		maxDeliver = 5
	}
	return ackWait, maxDeliver
}

// createEngineConsumer creates or updates the durable pull consumer of
// the batches that need engine id, configured as CreateQueue configures
// the workers' consumer.
func createEngineConsumer(ctx context.Context, js jetstream.JetStream, id tournament.EngineID, ackWait time.Duration, maxDeliver int) (jetstream.Consumer, error) {
	ackWait, maxDeliver = queueDefaults(ackWait, maxDeliver)
	cons, err := js.CreateOrUpdateConsumer(ctx, BatchStream, jetstream.ConsumerConfig{
		Durable: engineConsumer(id), AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxDeliver: maxDeliver,
		FilterSubject: engineSubjects(id) + ">",
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: consumer %s of engine %s: %w", engineConsumer(id), id.Name, err)
	}
	return cons, nil
}

// engine is the external engine of the referee (EngineOf), nil for the
// in-process engine; its SHA-256 is read once per referee.
func (c *Coordinator) engine() (*tournament.Engine, error) {
	if c.Referee == nil || c.Referee.External == nil {
		return nil, nil
	}
	x := c.Referee.External
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.engineFor != x {
		e, err := EngineOf(x)
		if err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
		c.engineFor, c.engineVal = x, e
	}
	e := c.engineVal
	return &e, nil
}

// batches cuts a call into batches of at least BatchGames games; those of
// an external engine name it by name and fingerprint (engine).
func (c *Coordinator) batches(seed uint64, matches []optimize.Match, sample bool) ([]*Batch, error) {
	setup := SetupOf(c.Referee)
	need, err := c.engine()
	if err != nil {
		return nil, err
	}
	if need != nil {
		setup.External.Name, setup.External.SHA256 = need.Name, need.SHA256
	}
	build := buildOr(c.Build)
	games := c.BatchGames
	if games <= 0 {
		games = 16
	}
	per := max(1, (games+2*setup.Pairs-1)/(2*setup.Pairs))
	var out []*Batch
	for first := 0; first < len(matches); first += per {
		end := min(first+per, len(matches))
		out = append(out, &Batch{Protocol: protocol, Build: build, Fingerprint: Fingerprint(build, setup),
			Run: RunName(c.Run), Seed: seed, First: first, Total: len(matches), Sample: sample, Games: c.gameLog != nil,
			Setup: setup, Matches: matches[first:end]})
	}
	return out, nil
}

// advisory is the part of a JetStream consumer advisory the coordinator
// reads (max deliveries reached, message terminated).
type advisory struct {
	StreamSeq  uint64 `json:"stream_seq"`
	Deliveries uint64 `json:"deliveries"`
	Reason     string `json:"reason"`
	kind       string
}

// call publishes the call's batches and gathers their results.
func (c *Coordinator) call(ctx context.Context, seed uint64, matches []optimize.Match, sample bool) ([]optimize.Outcome, []optimize.Position, error) {
	if len(matches) == 0 {
		return nil, nil, nil
	}
	if c.Referee == nil {
		return nil, nil, errors.New("cluster: the coordinator has no referee settings")
	}
	batches, err := c.batches(seed, matches, sample)
	if err != nil {
		return nil, nil, err
	}
	need, err := c.engine()
	if err != nil {
		return nil, nil, err
	}
	if need != nil {
		js, err := c.queue(ctx)
		if err != nil {
			return nil, nil, err
		}
		if _, err := createEngineConsumer(ctx, js, need.ID(), c.AckWait, c.MaxDeliver); err != nil {
			return nil, nil, err
		}
	}
	out := make([]optimize.Outcome, len(matches))
	var pos []optimize.Position
	var games []tournament.GameRecord
	pairs := SetupOf(c.Referee).Pairs
	total, done := 2*pairs*len(matches), 0
	parcels := make([]parcel, len(batches))
	for i, b := range batches {
		parcels[i] = newParcel(b, describe(b))
	}
	err = c.exchange(ctx, batches[0].Run, resultSubject(batches[0].Run, seed), parcels, need, func(p parcel, sign int) {
		done += sign * 2 * pairs * len(p.batch.(*Batch).Matches)
		if c.Progress != nil {
			c.Progress(done, total)
		}
	}, func(p parcel, r Result) error {
		b := p.batch.(*Batch)
		copy(out[b.First:], r.Outcomes)
		pos = append(pos, r.Positions...)
		games = append(games, r.Records...)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Each batch's positions are in game order; games of different
	// batches interleave (referee.Range), so merge by game number.
	slices.SortStableFunc(pos, func(a, b optimize.Position) int { return a.Game - b.Game })
	if c.gameLog != nil {
		slices.SortFunc(games, func(a, b tournament.GameRecord) int { return a.Game - b.Game })
		for _, g := range games {
			if err := c.gameLog(g); err != nil {
				return nil, nil, err
			}
		}
	}
	return out, pos, nil
}

// subjects returns the stream's message count of every subject that
// matches filter and holds messages.
func subjects(ctx context.Context, js jetstream.JetStream, stream, filter string) (map[string]uint64, error) {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return nil, fmt.Errorf("cluster: stream %s: %w", stream, err)
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(filter))
	if err != nil {
		return nil, fmt.Errorf("cluster: stream %s, subjects %s: %w", stream, filter, err)
	}
	return info.State.Subjects, nil
}

// enqueue queues p's batch and returns its stream sequence. With old (a
// copy an earlier call left in the queue, a killed coordinator's), that
// copy is removed first: it may have been delivered MaxDeliver times, and
// then is never delivered again; and once the server's de-duplication
// window has passed, a copy published beside it would be played twice. A
// worker still playing the old copy sends a result that counts all the
// same.
func enqueue(ctx context.Context, js jetstream.JetStream, p parcel, old bool) (uint64, error) {
	data, err := json.Marshal(p.batch)
	if err != nil {
		return 0, err
	}
	if old {
		if err := unqueue(ctx, js, p); err != nil {
			return 0, err
		}
	}
	ack, err := js.PublishMsg(ctx, &nats.Msg{Subject: p.queue, Data: data})
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// unqueue removes p's copies from the queue, whether a worker plays them
// or not.
func unqueue(ctx context.Context, js jetstream.JetStream, p parcel) error {
	s, err := js.Stream(ctx, BatchStream)
	if err == nil {
		err = s.Purge(ctx, jetstream.WithPurgeSubject(p.queue))
	}
	if err != nil {
		return fmt.Errorf("removing a copy of batch %s from the queue: %w", p.name, err)
	}
	return nil
}

// advisorySubject is where the server tells of kind (MAX_DELIVERIES,
// MSG_TERMINATED) happening to a batch of any of the workers' consumers
// (WorkerGroup's and those of external engines).
func advisorySubject(kind string) string {
	return fmt.Sprintf("$JS.EVENT.ADVISORY.CONSUMER.%s.%s.*", kind, BatchStream)
}

// describe names a batch in messages.
func describe(b *Batch) string {
	return fmt.Sprintf("(run %s, seed %d, matches %d–%d of %d)", b.Run, b.Seed, b.First, b.First+len(b.Matches)-1, b.Total)
}
