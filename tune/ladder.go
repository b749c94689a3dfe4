package tune

import (
	"context"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/param"
	"github.com/roadtune/roadtune/tune/report"
)

// The metrics of a step whose best vector's Elo was measured
// (validation.elo_every): ladder's, under the names a reader of
// generations.jsonl has always used.
const (
	MetricElo      = ladder.MetricElo      // Elo of the best vector against the measuring opponent
	MetricEloCI    = ladder.MetricEloCI    // half-width of its 95% interval, Elo
	MetricEloGames = ladder.MetricEloGames // games of the measurement
)

// ladderEngine is the run's vectors as the ladder asks for them
// (ladder.Engine), from its config.
type ladderEngine struct{ c *Config }

func (e ladderEngine) Referee(depth, width int) (*referee.VectorReferee, error) {
	return e.c.playerRef(depth, width)
}

func (e ladderEngine) Played(vec []float64) []float64 { return param.Played(e.c.Params, vec) }

func (e ladderEngine) Format(vec []float64) string { return e.c.formatVector(vec) }

func (e ladderEngine) Start() ([]float64, string, error) {
	c := e.c
	if c.External != nil {
		return c.paramStarts(), "the [[param]] tables' starts", nil
	}
	genes, err := c.startVector()
	if err != nil {
		return nil, "", err
	}
	if len(c.Params) > 0 {
		genes = append(genes, c.paramStarts()...)
	}
	return genes, c.Start, nil
}

// ladderRun is what the ladder needs of the job (ladder.Run): its engine's
// search, move cap, concurrency, openings, seed and log, Options.Remote
// for the games of in-process engines, and its vectors through its config.
func (j *Job) ladderRun() *ladder.Run {
	c := &j.cfg
	r := &ladder.Run{Engine: ladderEngine{c}, Depth: c.Engine.Depth, Width: c.Engine.Width, MaxMoves: c.Engine.MaxMoves,
		Concurrency: c.Concurrency, Remote: j.opts.Remote, Seed: uint64(c.Seed), Unit: j.spec.Unit, Log: j.opts.Log}
	if !c.generatedOpenings() {
		r.Suite = c.Openings
	}
	if x := c.External; x != nil {
		r.External = &ladder.External{Engine: x.Describe(), Search: x.Search(), Tuned: c.tunedText()}
	}
	return r
}

// ladder plays the checkpoint's best vector (never best.json, which a
// user may have edited) against every opponent at every depth and clock
// (Config.ladderDepths, ladderClocks; ladder.Run.Verify), writing each
// rung's games under games/, ladder.json and validation.json, and saves
// its charts under plots/.
func (j *Job) ladder(ctx context.Context, recs []optimize.Record) (*ladder.Result, []report.Plot, error) {
	v := j.cfg.Validation
	depths, width := j.cfg.ladderDepths()
	clocks, err := j.cfg.ladderClocks()
	if err != nil {
		return nil, nil, err
	}
	best := FileBest
	if j.cfg.External != nil {
		best = FileBestSettings
	}
	res, err := j.ladderRun().Verify(ctx, ladder.Plan{
		Opponents: v.Opponents, Depths: depths, Width: width, Clocks: clocks, Pairs: v.Pairs, SPRT: v.SPRT,
		Best: j.cp.Best, BestFrom: best + " (the checkpoint's best vector)", Records: recs,
		Games: j.dir.Path(DirGames), Validation: j.dir.Path(FileValidation), File: j.dir.Path(ladder.File),
		Verify: j.opts.Events.Verify, Progress: j.opts.Events.Games, Rung: j.opts.Events.Rung,
	})
	if err != nil {
		return nil, nil, err
	}
	var plots []report.Plot
	for _, c := range res.Charts {
		ref, err := report.SavePlot(j.dir.Path(DirPlots), c.Name, c.Chart, c.Title)
		if err != nil {
			return nil, nil, err
		}
		plots = append(plots, ref)
	}
	return res, plots, nil
}

// eloDue reports whether step rec.Step measures the best vector's Elo:
// after steps K−1, 2K−1, … and after the last step (the method's budget
// spent, the stall rule met or the clock's safety valve ending it: st is
// the status after the step).
func (j *Job) eloDue(rec optimize.Record, st optimize.Status) bool {
	k := j.cfg.Validation.EloEvery
	if k <= 0 {
		return false
	}
	return (rec.Step+1)%k == 0 || j.m.Done() || j.settings().Stalled(st) || j.stopping
}

// elo is the Elo measured during the run (validation.elo_every): against
// the first opponent that is not Halfway or the start, at elo_depth
// (ladder.Run.MeasureElo, ladder.EloChart).
func (c *Config) elo() ladder.Elo {
	return ladder.Elo{Opponent: c.EloOpponent(), Depth: c.EloDepth(), Pairs: c.Validation.EloPairs}
}
