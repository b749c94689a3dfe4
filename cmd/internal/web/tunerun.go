package web

import (
	"time"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
)

// TuneRuns reads tuning runs' directories for the pages (Options.Tune).
// The tune command gives one (package cmd/internal/web/tuneweb, which reads
// them with package tune); without it, as in arena, no directory is a
// tuning run, and the web pages link no tuning code.
type TuneRuns interface {
	// Files are a tuning run's files, in the order its page links them;
	// the first one's presence makes a directory a tuning run, and a
	// change to any of them (or to games/) changes the run's status.
	Files() []string
	// Open reads the run in dir; an error wrapping fs.ErrNotExist means
	// the run has not written its files yet.
	Open(dir string) (*TuneRun, error)
	// Ladder reads the run's verification ladder and its verdict line:
	// nil, "" and no error when none was played yet.
	Ladder(dir string) (rungs []Rung, verdict string, err error)
	// Group says whether dir holds runs played as one: kind "chain" with
	// its stages' directories in order (started or not), "sweep" with its
	// seeds' directories; kind "" for any other directory.
	Group(dir string) (kind string, members []string, err error)
}

// TuneRun is what the pages show of a tuning run, read from its files.
type TuneRun struct {
	Method string // "ga", "pso", …
	Unit   string // a step: "generation", "iteration"
	About  string // the method in a sentence
	Phase  string // "optimize", "verify" or "done", as checkpointed
	// Status is what the optimisation did: steps checkpointed, its games
	// and seconds.
	Status optimize.Status
	// Budget is the steps of the method's budget (0 when unknown).
	Budget int
	Genes  []string  // gene names
	Best   []float64 // the best vector so far (nil before the first step)
	// End is a budgeted run's planned end (wall-clock; zero for none).
	End time.Time
	// Charts builds the run's charts; the pages call it again only when
	// the run's files change.
	Charts func() ([]results.NamedChart, error)
}

// Rung is one rung of a tuning run's verification ladder: the tuned
// vector against Opponent with both sides searching at Depth and Width.
type Rung struct {
	Opponent     string
	Depth, Width int
	Verdict      string                  // "stronger", "weaker" or "inconclusive"
	Match        tournament.MatchSummary // the match, the tuned vector's view
}
