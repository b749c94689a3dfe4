package bayes

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// BenchmarkIteration times one iteration of 4 points (choosing them,
// updating the model, searching its optimum) with 300 points already in
// the model, 12 genes, on the synthetic referee: the optimiser's own cost
// a step, which at 500 points and more dwarfs the games of a fast engine.
func BenchmarkIteration(b *testing.B) {
	const genes, played = 12, 300
	p := optimizetest.Problem(optimizetest.Letters(genes)...)
	p.Opponent = func(string) ([]float64, error) {
		v := make([]float64, genes)
		for d := range v {
			v[d] = 2000
		}
		return v, nil
	}
	s := DefaultSettings()
	s.Pool = []string{"ref"}
	s.Iterations = played/s.Batch + 1000
	s.Refit = 1000 // the kernel's fit is timed by gp's BenchmarkFit
	m, err := New(s, p, rand.NewPCG(1, 2))
	if err != nil {
		b.Fatal(err)
	}
	target := make([]float64, genes)
	for d := range target {
		target[d] = float64(500 + 250*d)
	}
	ref := &optimizetest.TargetReferee{Target: target, Temperature: 1000}
	ctx := context.Background()
	for range played / s.Batch {
		if _, err := m.Step(ctx, ref); err != nil {
			b.Fatal(err)
		}
	}
	state, err := m.MarshalState()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		r, err := s.Restore(p, state)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := r.Step(ctx, ref); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*s.Batch)/b.Elapsed().Seconds(), "points/s")
}
