package pso

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// instant is a Referee that costs nothing: A wins every other match.
type instant struct{}

func (instant) Play(_ context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	out := make([]optimize.Outcome, len(ms))
	for i := range out {
		if (seed+uint64(i))%2 == 0 {
			out[i] = optimize.Outcome{Wins: 2}
		} else {
			out[i] = optimize.Outcome{Losses: 2}
		}
	}
	return out, nil
}

// BenchmarkStep measures the swarm's own work per iteration in Chen's
// setting (49 particles, 5 genes; roadtune's bounds and VMax so an endless
// run stays finite) with a referee that plays no games. Compare with a real
// iteration: about 49 + 25 matches of 2 games each.
func BenchmarkStep(b *testing.B) {
	c := defaultConfig(5)
	c.Iterations = 1 << 40
	p, err := start(c, rand.NewPCG(1, 2))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	if _, err := p.Step(ctx, instant{}); err != nil { // the knockout
		b.Fatal(err)
	}
	matches := 0
	b.ReportAllocs()
	for b.Loop() {
		rec, err := p.Step(ctx, instant{})
		if err != nil {
			b.Fatal(err)
		}
		matches += len(rec.Detail.(Iteration).Matches)
	}
	b.ReportMetric(float64(matches)/float64(b.N), "matches/iter")
}

// BenchmarkRobustStep measures the robust swarm's own work per iteration
// in Chen's setting (49 particles, 5 genes, bounds and VMax as
// DefaultConfig, the centroid as the pool, no race) with a referee that
// plays no games. A real iteration plays 49 to 98 matches of 2 games each.
func BenchmarkRobustStep(b *testing.B) {
	o := DefaultSettings()
	o.Variant, o.Iterations, o.RaceBudget = VariantRobust, 1<<40, 0
	p := optimizetest.Problem(optimizetest.Letters(5)...)
	if err := o.Validate(p); err != nil {
		b.Fatal(err)
	}
	c := o.resolve(p)
	q, err := startRobust(c, rand.NewPCG(1, 2))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	matches := 0
	b.ReportAllocs()
	for b.Loop() {
		rec, err := q.Step(ctx, instant{})
		if err != nil {
			b.Fatal(err)
		}
		matches += rec.Detail.(RobustIteration).Played * len(c.Pool)
	}
	b.ReportMetric(float64(matches)/float64(b.N), "matches/iter")
}
