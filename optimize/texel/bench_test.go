package texel

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFit fits 100,000 positions of 5 genes (both stages) and reports
// positions per second.
func BenchmarkFit(b *testing.B) {
	const n = 100000
	pos := positions(rand.New(rand.NewPCG(1, 2)), n, truthW, truthK, truthTempo)
	start := []float64{500, 500, 500, 500, 500}
	scale := uniformScale(5, 4000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Fit(pos, start, scale, FitOptions{Ridge: 1e-3}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "positions/s")
}
