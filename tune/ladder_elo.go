package tune

import (
	"context"
	"fmt"
	"maps"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune/ladder"
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
// spent, the stall rule met or the clock's safety valve ending it: st is
// the status after the step).
func (j *Job) eloDue(rec optimize.Record, st optimize.Status) bool {
	k := j.cfg.Validation.EloEvery
	if k <= 0 {
		return false
	}
	return (rec.Step+1)%k == 0 || j.m.Done() || j.settings().Stalled(st) || j.stopping
}

// measureElo plays the step's best vector against the first opponent that
// is not Halfway, EloPairs game pairs at elo_depth and the engine width over
// openings seeded by the run's seed and the step, and stores MetricElo,
// MetricEloCI and MetricEloGames in rec.Metrics. It runs before the record
// is written, so a resumed run, which replays the step, measures the same.
func (j *Job) measureElo(ctx context.Context, rec *optimize.Record) error {
	v := j.cfg.Validation
	opp, err := j.fixedPlayer(j.cfg.EloOpponent())
	if err != nil {
		return err
	}
	best, err := j.runPlayer("tuned", fmt.Sprintf("the best vector after %s %d", j.spec.Unit, rec.Step), rec.Best)
	if err != nil {
		return fmt.Errorf("%s %d's best vector: %w", j.spec.Unit, rec.Step, err)
	}
	sum, _, err := j.play(ctx, match{
		a:     best,
		b:     opp,
		depth: j.cfg.EloDepth(), width: j.cfg.Engine.Width, pairs: v.EloPairs,
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

// eloChart draws the best vector's Elo by step, over the steps that
// measured it, marked as the rough guide it is (validation.elo_pairs game
// pairs a point): its 95% interval as a shaded band, the 0 Elo line and,
// when the ladder has played the same opponent at the same depth, the
// ladder's Elo as a reference; nil when no step measured it.
func eloChart(cfg Config, unit string, recs []optimize.Record, rungs []ladder.Rung) *results.NamedChart {
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
	opp, pairs, depth := cfg.EloOpponent(), cfg.Validation.EloPairs, cfg.EloDepth()
	title := fmt.Sprintf("Elo of the best vector against %s by %s (rough: %d game pairs a point)", opp, unit, pairs)
	note := fmt.Sprintf("Each point is a quick check during the run: %d game pairs (%d games) at depth %d, so its 95%% interval (shaded) is wide; "+
		"a point's swing from the one before is mostly noise. The verification ladder, played after the run over many more games, is the verdict.", pairs, 2*pairs, depth)
	lc := results.LineChart{
		Title: title, XLabel: unit,
		YLabel: fmt.Sprintf("Elo against %s at depth %d", opp, depth),
		Series: []results.Series{{Name: fmt.Sprintf("Elo, rough (%d pairs)", pairs), X: x, Y: elo}},
		Bands:  []results.Band{{Name: "95% interval", X: x, Lo: lo, Hi: hi}},
		HLines: []results.HLine{{Name: "0 Elo", Y: 0}},
		Note:   note,
	}
	for _, r := range rungs {
		if r.Opponent == opp && r.Depth == depth && r.Clock == "" {
			m := r.Match()
			lc.HLines = append(lc.HLines, results.HLine{Name: fmt.Sprintf("ladder: %s (%d games)", ladder.EloText(m, 0), m.N), Y: m.Elo})
			lc.Note += fmt.Sprintf(" The ladder measured %s over %d games at this depth (dotted line).", ladder.EloText(m, 0), m.N)
		}
	}
	return &results.NamedChart{Name: "elo", Title: title, Chart: lc}
}
