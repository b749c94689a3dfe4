package tune

import (
	"context"
	"fmt"
	"maps"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune/ladder"
)

// eloSeed separates the openings of the Elo measured during the run from
// the run's and the ladder's.
const eloSeed = 0x656c6f // "elo"

// The metrics of a step whose best vector's Elo was measured
// (validation.elo_every): ladder's, under the names a reader of
// generations.jsonl has always used.
const (
	MetricElo      = ladder.MetricElo      // Elo of the best vector against the measuring opponent
	MetricEloCI    = ladder.MetricEloCI    // half-width of its 95% interval, Elo
	MetricEloGames = ladder.MetricEloGames // games of the measurement
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

// elo is the Elo measured during the run (validation.elo_every), for
// its chart (ladder.EloChart).
func (c *Config) elo() ladder.Elo {
	return ladder.Elo{Opponent: c.EloOpponent(), Depth: c.EloDepth(), Pairs: c.Validation.EloPairs}
}
