package ga

import (
	"context"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

// BenchmarkStep times one generation in Chen's setting (49 individuals, 7
// groups, 5 genes: 168 matches, 336 games). "TargetReferee" includes the
// synthetic referee's cost (a logistic draw per game); "FreeReferee" answers
// every match 1-1 at no cost, so it measures the GA's own work: shuffling,
// fitness, selection, crossover, mutation, diversity and the record.
func BenchmarkStep(b *testing.B) {
	free := refFunc(func(_ context.Context, _ uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
		out := make([]optimize.Outcome, len(ms))
		for i := range out {
			out[i] = optimize.Outcome{Wins: 1, Losses: 1}
		}
		return out, nil
	})
	for _, bc := range []struct {
		name string
		ref  optimize.Referee
	}{{"TargetReferee", newTarget(50)}, {"FreeReferee", free}} {
		b.Run(bc.name, func(b *testing.B) {
			c := defaultConfig(5)
			c.Generations = 1 << 30
			g := mustNew(b, c, 1)
			ctx := context.Background()
			games := 0
			b.ReportAllocs()
			for b.Loop() {
				rec, err := g.Step(ctx, bc.ref)
				if err != nil {
					b.Fatal(err)
				}
				games += rec.Games
			}
			b.ReportMetric(float64(games)/float64(b.N), "games/op")
			b.ReportMetric(b.Elapsed().Seconds()*1e6/float64(games), "µs/game")
		})
	}
}
