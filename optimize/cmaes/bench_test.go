package cmaes

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// BenchmarkGeneration measures whole generations on the synthetic target
// referee, its games included (a few microseconds each), for the 5-gene
// symmetric, the 10-gene asymmetric and the 21-gene dual schema's
// dimension, with the default options (noise handling on, race off so
// every step is a plain generation).
func BenchmarkGeneration(b *testing.B) {
	for _, genes := range []int{5, 10, 21} {
		b.Run(fmt.Sprintf("genes=%d", genes), func(b *testing.B) {
			o := DefaultSettings()
			o.Generations, o.RaceBudget = 1<<40, 0
			tgt := make([]float64, genes)
			for d := range tgt {
				tgt[d] = float64(100 + 150*d)
			}
			s, err := New(o, problem(genes), rand.NewPCG(1, 2))
			if err != nil {
				b.Fatal(err)
			}
			ref := &optimizetest.TargetReferee{Target: tgt, Temperature: 300}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Step(ctx, ref); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "generations/s")
		})
	}
}
