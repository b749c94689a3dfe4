package tune

import (
	"context"
	"fmt"
	"maps"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
)

// eloSeed separates the openings of the Elo measured during the run from
// the run's and the ladder's.
const eloSeed = 0x656c6f // "elo"

// The metrics of a step whose best vector's Elo was measured
// (validation.elo_every).
const (
	MetricElo      = "elo"       // Elo of the best vector against the measuring opponent
	MetricEloCI    = "elo_ci"    // half-width of its 95% interval, Elo
	MetricEloGames = "elo_games" // games of the measurement
)

// eloDue reports whether step rec.Step measures the best vector's Elo:
// after steps K−1, 2K−1, … and after the last step (the method's budget
// spent or the stall rule met: st is the status after the step).
func (j *Job) eloDue(rec optimize.Record, st optimize.Status) bool {
	k := j.cfg.Validation.EloEvery
	if k <= 0 {
		return false
	}
	return (rec.Step+1)%k == 0 || j.m.Done() || j.settings().Stalled(st)
}

// measureElo plays the step's best vector against the first opponent that
// is not Halfway, EloPairs game pairs at elo_depth and the engine width over
// openings seeded by the run's seed and the step, and stores MetricElo,
// MetricEloCI and MetricEloGames in rec.Metrics. It runs before the record
// is written, so a resumed run, which replays the step, measures the same.
func (j *Job) measureElo(ctx context.Context, rec *optimize.Record) error {
	v := j.cfg.Validation
	opp, err := baselinePlayer(j.cfg.eloOpponent())
	if err != nil {
		return err
	}
	best, err := j.vector(rec.Best)
	if err != nil {
		return fmt.Errorf("%s %d's best vector: %w", j.spec.Unit, rec.Step, err)
	}
	sum, _, err := j.play(ctx, match{
		a:     player{name: "tuned", source: fmt.Sprintf("the best vector after %s %d", j.spec.Unit, rec.Step), weights: best},
		b:     opp,
		depth: j.cfg.eloDepth(), width: j.cfg.Engine.Width, pairs: v.EloPairs,
		seed: uint64(j.cfg.Seed) ^ eloSeed ^ uint64(rec.Step+1)*seedMix,
	})
	if err != nil {
		return err
	}
	m := sum.Matchups[0]
	metrics := maps.Clone(rec.Metrics) // the method's map is not ours to change
	if metrics == nil {
		metrics = map[string]float64{}
	}
	metrics[MetricElo], metrics[MetricEloCI], metrics[MetricEloGames] = m.Elo, m.EloCI, float64(m.N)
	rec.Metrics = metrics
	return nil
}

// eloChart draws the best vector's Elo by step, with its 95% interval as
// a shaded band and the 0 Elo line, over the steps that measured it; nil
// when none did.
func eloChart(cfg Config, unit string, recs []optimize.Record) *Chart {
	var x, elo, lo, hi []float64
	for _, r := range recs {
		e, ok := r.Metrics[MetricElo]
		if !ok {
			continue
		}
		ci := r.Metrics[MetricEloCI]
		x = append(x, float64(r.Step))
		elo, lo, hi = append(elo, e), append(lo, e-ci), append(hi, e+ci)
	}
	if len(x) == 0 {
		return nil
	}
	opp := cfg.eloOpponent()
	title := fmt.Sprintf("Elo of the best vector against %s by %s", opp, unit)
	return &Chart{Name: "elo", Title: title, Chart: results.LineChart{
		Title: title, XLabel: unit,
		YLabel: fmt.Sprintf("Elo (%d game pairs, depth %d)", cfg.Validation.EloPairs, cfg.eloDepth()),
		Series: []results.Series{{Name: "Elo", X: x, Y: elo}},
		Bands:  []results.Band{{Name: "95% interval", X: x, Lo: lo, Hi: hi}},
		HLines: []results.HLine{{Name: "0 Elo", Y: 0}},
	}}
}
