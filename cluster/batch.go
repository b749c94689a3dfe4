package cluster

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// EngineBuild names the version of the game play (engine search, move
// generation, threat search, adjudication, opening suites) that workers
// must share with the coordinator. Bump it with every change that can
// alter a game for the same settings: a worker of another build then
// refuses the batches instead of playing different games.
const EngineBuild = "roadtune-play-1"

// protocol is the version of the batch and result messages (2: games
// batches and game records; 3: retries of refused results).
const protocol = 3

// The JetStream names: a work-queue stream of batches (one subject per
// batch), a stream of results (one subject per run and call seed) and the
// durable pull consumer every worker shares.
const (
	BatchStream   = "ROADTUNE_BATCHES"
	ResultStream  = "ROADTUNE_RESULTS"
	WorkerGroup   = "roadtune-workers"
	batchSubjects = "roadtune.batch."
	resultPrefix  = "roadtune.result."
)

// Setup is what a batch's games are played by besides its matches: the
// settings of the referee that plays it (referee.Setup, which the
// coordinator's VectorReferee holds), sent as it is. Its JSON, which
// Fingerprint hashes, names an external engine by name and SHA-256 and
// never by path: each worker runs its own copy (RefereeWith).
type Setup = referee.Setup

// SetupOf is the setup a batch of r's games carries: r's own, with Pairs
// at least 1 and a copy of its external engine named
// (referee.DefaultEngineName of its program when it has no name), whose
// SHA-256 the coordinator fills in (EngineOf).
func SetupOf(r *referee.VectorReferee) Setup {
	s := r.Setup
	s.Pairs = max(s.Pairs, 1)
	if s.External != nil {
		x := *s.External
		if x.Name == "" && x.Program != "" {
			x.Name = referee.DefaultEngineName(x.Program)
		}
		s.External = &x
	}
	return s
}

// RefereeWith is the referee that plays the setup's games with
// concurrency games at once; a setup of an external engine plays it with
// this process's engine of its name (one of engines: its program and
// directory instead of the coordinator's), its values files (the file
// ways) in fileDir. Close the referee to end the engine's processes.
// Errors: for an external setup, no engine of its name in engines, one
// whose program has another SHA-256 (both named); then what
// referee.Setup.Check refuses (a schema, engine setting, opening or
// early-stop rule, parameter name or time control this build cannot
// read; options or a way of passing values the referee refuses).
func RefereeWith(s Setup, concurrency int, engines []tournament.Engine, fileDir string) (*referee.VectorReferee, error) {
	if s.External != nil {
		x, err := ownExternal(s.External, engines, fileDir)
		if err != nil {
			return nil, err
		}
		s.External = x
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	return &referee.VectorReferee{Setup: s, Concurrency: concurrency}, nil
}

// Fingerprint identifies what a batch's games depend on besides its
// matches and seed: the engine build, the message protocol and the setup
// as this build encodes it (16 hex digits of a SHA-256). A build whose
// settings gained or lost a field encodes the same setup differently, so
// its fingerprint differs too.
func Fingerprint(build string, s Setup) string {
	data, err := json.Marshal(s)
	if err != nil { // a Setup holds only numbers and strings
		panic(err)
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\n%d\n%s", build, protocol, data))
	return hex.EncodeToString(sum[:8])
}

// Batch is one unit of work: matches [First, First+len(Matches)) of a
// Referee call of Total matches with seed Seed (referee.Range), with all a
// worker needs to play them.
type Batch struct {
	Protocol    int              `json:"protocol"`
	Kind        string           `json:"kind,omitempty"` // "" (kindGames: a GamesBatch)
	Build       string           `json:"build"`          // the coordinator's EngineBuild
	Fingerprint string           `json:"fingerprint"`    // Fingerprint(Build, Setup)
	Run         string           `json:"run"`
	Seed        uint64           `json:"seed"`
	First       int              `json:"first"`
	Total       int              `json:"total"`
	Sample      bool             `json:"sample,omitempty"`  // return the positions too (optimize.Sampler)
	Games       bool             `json:"records,omitempty"` // return the game records too (output.games)
	Setup       Setup            `json:"setup"`
	Matches     []optimize.Match `json:"matches"`
	// Retry counts the times the batch was queued again because a result
	// of it was refused: a new key, so the result of the new copy is not
	// taken for a duplicate of the refused one.
	Retry int `json:"retry,omitempty"`
}

// again is the batch queued once more (Retry + 1).
func (b *Batch) again() (work, bool) {
	c := *b
	c.Retry++
	return &c, true
}

// Key is the batch's identity, its message id and the key of its result:
// run, seed and first match, then a digest of the whole batch, so that
// re-publishing the same batch is recognised as a duplicate and two calls
// with the same seed but other matches are not.
func (b *Batch) Key() string {
	data, _ := json.Marshal(b)
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%s.%016x.%d.%s", b.Run, b.Seed, b.First, hex.EncodeToString(sum[:8]))
}

// Range is the batch's place in its call.
func (b *Batch) Range() referee.Range { return referee.Range{First: b.First, Total: b.Total} }

// Result is what a worker sends back for a batch: the outcomes of its
// matches in order and, for a Sample batch, the positions of its games
// (referee.VectorReferee.SampleRange), or the reason it could not play it.
type Result struct {
	Key       string              `json:"key"`
	Worker    string              `json:"worker"`
	Outcomes  []optimize.Outcome  `json:"outcomes,omitempty"`
	Positions []optimize.Position `json:"positions,omitempty"`
	// Records are a GamesBatch's games in order, or a Batch's games
	// (Batch.Games) in game order, numbered as in the whole call.
	Records []tournament.GameRecord `json:"records,omitempty"`
	Seconds float64                 `json:"seconds"` // wall time of the play
	Error   string                  `json:"error,omitempty"`
}

// batchSubject is where the batch with key is queued: a subject of its
// own, so that the coordinator can find and replace a copy an earlier call
// left in the queue.
func batchSubject(key string) string { return batchSubjects + key }

// runBatches matches the subjects of a run's batches (the key of a Batch
// and of a GamesBatch begins with the run).
func runBatches(run string) string { return batchSubjects + run + ".>" }

// ResultSubject is where a worker publishes the batch's result (the
// subject of its call's results).
func (b *Batch) ResultSubject() string { return resultSubject(b.Run, b.Seed) }

// resultSubject is where the results of one call (run, seed) go.
func resultSubject(run string, seed uint64) string {
	return fmt.Sprintf("%s%s.%016x", resultPrefix, run, seed)
}

// RunName turns a name (e.g. a run directory's) into a subject token:
// letters, digits, '-' and '_' kept, anything else '_'.
func RunName(name string) string {
	if s := referee.SubjectToken(name); s != "" {
		return s
	}
	return "run"
}

// EncodeResult is a result as a worker publishes it: gzip-compressed JSON
// (positions repeat a lot: a tenth of the size). Errors: JSON's.
func EncodeResult(r Result) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := json.NewEncoder(zw).Encode(r); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Bounds of a result's inflated size (resultBound): generous, so an
// honest result never reaches them, and small enough that a result
// compressed a thousandfold (a gzip bomb) is refused long before it takes
// memory: a game record's fixed part (names, opening, reason, forfeit
// detail, times: well under perGameBytes) and perMoveBytes a move (its
// notation and thinking time in JSON) for every point of the board; a
// position perPositionBytes plus perFeatureBytes a feature; an outcome
// perOutcomeBytes; resultSlack for the rest (key, worker, error text).
const (
	perGameBytes     = 64 << 10
	perMoveBytes     = 64
	perPositionBytes = 128
	perFeatureBytes  = 32
	perOutcomeBytes  = 128
	resultSlack      = 1 << 20
)

// resultBound is the most bytes the JSON of a result of games games
// (each at most engine.NumPoints moves), outcomes outcomes and
// positions positions of features features each can take, by the
// per-item bounds above.
func resultBound(games, outcomes, positions, features int) int64 {
	return resultSlack + int64(games)*(perGameBytes+perMoveBytes*engine.NumPoints) +
		int64(outcomes)*perOutcomeBytes + int64(positions)*(perPositionBytes+perFeatureBytes*int64(features))
}

// maxResult is the most bytes b's result can inflate to (resultBound):
// 2·Pairs games a match, their records when asked for, and for a Sample
// batch maxPositionsPerGame positions a game of the longest match
// vector's features.
func (b *Batch) maxResult() int64 {
	games := 2 * max(b.Setup.Pairs, 1) * len(b.Matches)
	positions, features := 0, 0
	if b.Sample {
		positions = maxPositionsPerGame * games
		for _, m := range b.Matches {
			features = max(features, len(m.A), len(m.B))
		}
	}
	return resultBound(games, len(b.Matches), positions, features)
}

// errTooLarge says a result inflates to more than its batch can produce.
var errTooLarge = errors.New("inflates to more than its batch can produce")

// decodeResult reads a result message (EncodeResult's form), inflating at
// most limit bytes: a message that inflates to more is refused with
// errTooLarge, without reading the rest, and the Result then holds the key
// and worker its first bytes name (EncodeResult writes them first), so
// that the refusal counts against that worker. Errors: gzip's, JSON's,
// errTooLarge.
func decodeResult(data []byte, limit int64) (Result, error) {
	var r Result
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return r, err
	}
	body, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return r, err
	}
	if int64(len(body)) > limit {
		r.Key, r.Worker = resultHead(body)
		return r, fmt.Errorf("the result %w (more than %d bytes)", errTooLarge, limit)
	}
	return r, json.Unmarshal(body, &r)
}

// resultHead reads the key and worker of a result's JSON from its
// leading string fields, "" for those it does not find there.
func resultHead(body []byte) (key, worker string) {
	d := json.NewDecoder(bytes.NewReader(body))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return "", ""
	}
	for key == "" || worker == "" {
		name, err := d.Token()
		if err != nil {
			break
		}
		value, err := d.Token()
		s, ok := value.(string)
		if err != nil || !ok {
			break
		}
		switch name {
		case "key":
			key = s
		case "worker":
			worker = s
		}
	}
	return key, worker
}

// buildOr is build, or EngineBuild when it is "" (the field's default).
func buildOr(build string) string {
	if build == "" {
		return EngineBuild
	}
	return build
}

// foreign is a worker's reason to refuse a batch whose fingerprint given
// its own build computes as mine.
func foreign(given, mine, coordBuild, workerBuild string) string {
	return fmt.Sprintf("fingerprint %s is not this worker's %s for the same settings: the coordinator plays engine build %q, this worker %q (or another roadtune version's engine settings); run workers built from the coordinator's version",
		given, mine, coordBuild, workerBuild)
}
