package tuneweb

import (
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/roadtune/roadtune/cmd/internal/web"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/runs"
)

// Runs reads tuning runs with package tune; it implements web.TuneRuns.
type Runs struct{}

var _ web.TuneRuns = Runs{}

// Files are a run's files in the order its page links them, config.toml
// (which makes a directory a tuning run) first.
func (Runs) Files() []string {
	return []string{tune.FileConfig, tune.FileBest, tune.FileReport, "report.html", tune.FileRecords,
		ladder.File, tune.FileValidation, tune.FileCheckpoint}
}

// Open reads the run in dir (runs.Open); the budget is the method's
// budget key in its config (0 when it cannot be read). Errors: runs.Open's.
func (Runs) Open(dir string) (*web.TuneRun, error) {
	res, err := runs.Open(dir)
	if err != nil {
		return nil, err
	}
	return &web.TuneRun{Method: res.Config.Method, Unit: res.Spec.Unit, About: res.Spec.About, Phase: res.Phase,
		Status: res.Status, Budget: res.Budget(), Genes: res.Config.GeneNames(), Best: res.Best, End: plannedEnd(res),
		Charts: res.Charts}, nil
}

// plannedEnd is a budgeted run's planned end, zero for another.
func plannedEnd(res *runs.RunResults) time.Time {
	if res.Clock == nil {
		return time.Time{}
	}
	return res.Clock.End
}

// Ladder reads the run's ladder.json and its verdict line
// (ladder.VerdictLine); a run without one has no rungs (nil, "", nil).
// Errors: a ladder.json that cannot be read.
func (Runs) Ladder(dir string) ([]web.Rung, string, error) {
	var rungs []ladder.Rung
	err := results.ReadJSON(filepath.Join(dir, ladder.File), &rungs)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	if len(rungs) == 0 {
		return nil, "", nil
	}
	out := make([]web.Rung, len(rungs))
	for i, g := range rungs {
		out[i] = rung(g)
	}
	return out, ladder.VerdictLine(rungs), nil
}

// rung is a ladder's rung for the pages.
func rung(g ladder.Rung) web.Rung {
	return web.Rung{Opponent: g.Opponent, Depth: g.Depth, Width: g.Width, Verdict: g.Verdict, Match: g.Match()}
}

// Group is runs.Group: a chain's stages or a sweep's seeds.
func (Runs) Group(dir string) (string, []string, error) { return runs.Group(dir) }

// Events returns events that keep t up to date and then call next's (any
// may be nil): the plan and each step set the steps and games
// (Tracker.Step), each game of a batch the batch's count, the rate and the
// ETA (Tracker.BatchGames), Verify the phase "verify" (Tracker.Verify),
// each rung of the ladder the page's table (Tracker.Rung).
func Events(t *web.Tracker, next tune.Events) tune.Events {
	return tune.Events{
		Plan: func(p tune.Plan) {
			t.Step(p.Status, p.Forecast)
			if !p.End.IsZero() {
				t.PlannedEnd(p.End)
			}
			if next.Plan != nil {
				next.Plan(p)
			}
		},
		Calibrate: next.Calibrate,
		Games: func(done, total int) {
			t.BatchGames(done, total)
			if next.Games != nil {
				next.Games(done, total)
			}
		},
		Step: func(rec optimize.Record, st optimize.Status, f optimize.Forecast) {
			t.Step(st, f)
			if next.Step != nil {
				next.Step(rec, st, f)
			}
		},
		Verify: func(games int) {
			t.Verify(games)
			if next.Verify != nil {
				next.Verify(games)
			}
		},
		Rung: func(r ladder.Rung, k, n int) {
			t.Rung(rung(r), k, n)
			if next.Rung != nil {
				next.Rung(r, k, n)
			}
		},
	}
}
