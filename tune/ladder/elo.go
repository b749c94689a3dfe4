package ladder

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

// The metrics of a step whose best vector's Elo was measured during the
// run (validation.elo_every), in its optimize.Record.Metrics.
const (
	MetricElo      = "elo"       // Elo of the best vector against the measuring opponent
	MetricEloCI    = "elo_ci"    // half-width of its 95% interval, Elo
	MetricEloGames = "elo_games" // games of the measurement
)

// Elo is the quick Elo of a run's best vector measured during the run
// (validation.elo_every): against Opponent (a baseline name, a
// weight-file path, an external engine's option list or
// DefaultsOpponent), Pairs game pairs at search depth Depth.
type Elo struct {
	Opponent     string
	Depth, Pairs int
}

// MeasureElo plays the step's best vector (rec.Best) against e.Opponent
// (Run.Opponent), e.Pairs game pairs at e.Depth and the run's width over
// openings seeded by the run's seed and the step, and stores MetricElo,
// MetricEloCI and MetricEloGames in a copy of rec.Metrics (the method's
// map is not the ladder's to change). It runs before the record is
// written, so a resumed run, which replays the step, measures the same.
// Errors: the opponent's, the best vector's (naming the step), the
// match's (ctx cancelled among them).
func (r *Run) MeasureElo(ctx context.Context, e Elo, rec *optimize.Record) error {
	opp, err := r.Opponent(e.Opponent)
	if err != nil {
		return err
	}
	best, err := r.Player("tuned", fmt.Sprintf("the best vector after %s %d", r.Unit, rec.Step), rec.Best)
	if err != nil {
		return fmt.Errorf("%s %d's best vector: %w", r.Unit, rec.Step, err)
	}
	sum, _, err := r.Play(ctx, Match{
		A: best, B: opp, Depth: e.Depth, Width: r.Width, Pairs: e.Pairs,
		Seed: r.Seed ^ eloSeed ^ uint64(rec.Step+1)*SeedMix,
	})
	if err != nil {
		return err
	}
	m := sum.Matchups[0]
	metrics := maps.Clone(rec.Metrics)
	if metrics == nil {
		metrics = map[string]float64{}
	}
	metrics[MetricElo], metrics[MetricEloCI], metrics[MetricEloGames] = m.Elo, m.EloCI, float64(m.N)
	rec.Metrics = metrics
	return nil
}

// EloChart draws the best vector's Elo by step (unit: "generation"), over
// the records (recs) that measured it (MetricElo), marked as the rough
// guide it is (e.Pairs game pairs a point): its 95% interval as a shaded
// band, the 0 Elo line and, when the ladder (rungs) has played the same
// opponent at the same depth, the ladder's Elo as a reference; nil when
// no step measured it.
func EloChart(e Elo, unit string, recs []optimize.Record, rungs []Rung) *results.NamedChart {
	var x, elo, lo, hi []float64
	for _, r := range recs {
		v, ok := r.Metrics[MetricElo]
		if !ok {
			continue
		}
		ci := r.Metrics[MetricEloCI]
		x = append(x, float64(r.Step))
		elo, lo, hi = append(elo, v), append(lo, v-ci), append(hi, v+ci)
	}
	if len(x) == 0 {
		return nil
	}
	opp, pairs, depth := e.Opponent, e.Pairs, e.Depth
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
			lc.HLines = append(lc.HLines, results.HLine{Name: fmt.Sprintf("ladder: %s (%d games)", EloText(m, 0), m.N), Y: m.Elo})
			lc.Note += fmt.Sprintf(" The ladder measured %s over %d games at this depth (dotted line).", EloText(m, 0), m.N)
		}
	}
	return &results.NamedChart{Name: "elo", Title: title, Chart: lc}
}
