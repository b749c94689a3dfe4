package gp

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkFit fits a 12-D kernel to 300 observations; it reports the
// likelihood evaluations per fit and the time per evaluation (an O(n³)
// factorisation plus, with the gradient, an O(n³) inverse).
func BenchmarkFit(b *testing.B) {
	x, y, noise := randomData(5, 300, 12)
	init := kernelOf(12, 0.5, 0.01)
	var evals int
	for b.Loop() {
		_, st, err := fit(init, x, y, noise, FitSettings{})
		if err != nil {
			b.Fatal(err)
		}
		evals += st.evals
	}
	b.ReportMetric(float64(evals)/float64(b.N), "evals/op")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(evals), "ms/eval")
}

// BenchmarkPredict is one posterior mean and variance of a 12-D model of
// 1000 observations, O(n·d + n²).
func BenchmarkPredict(b *testing.B) {
	x, y, noise := randomData(6, 1000, 12)
	g, err := New(kernelOf(12, 0.5, 0.01), x, y, noise)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	probes := make([][]float64, 64)
	for i := range probes {
		probes[i] = make([]float64, 12)
		for j := range probes[i] {
			probes[i][j] = rng.Float64()
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		g.Predict(probes[i%len(probes)])
		i++
	}
}

// BenchmarkAdd is one kriging-believer step on a 12-D model of 1000
// observations, O(n²), against BenchmarkNew's O(n³) for 1001.
func BenchmarkAdd(b *testing.B) {
	x, y, noise := randomData(8, 1001, 12)
	g, err := New(kernelOf(12, 0.5, 0.01), x[:1000], y[:1000], noise[:1000])
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := g.Add(x[1000], y[1000], noise[1000]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNew(b *testing.B) {
	x, y, noise := randomData(8, 1001, 12)
	for b.Loop() {
		if _, err := New(kernelOf(12, 0.5, 0.01), x, y, noise); err != nil {
			b.Fatal(err)
		}
	}
}
