package spsa

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// BenchmarkStep measures SPSA's own work per iteration for a 5-gene and a
// 40-gene problem with a referee that plays no games (the plus side always
// wins one pair 1–1, r = 0), record and metrics included. Compare with a
// real iteration: one match of 2·Pairs games.
func BenchmarkStep(b *testing.B) {
	for _, genes := range []int{5, 40} {
		b.Run(fmt.Sprintf("genes=%d", genes), func(b *testing.B) {
			o := DefaultSettings()
			o.Iterations = 1 << 40
			s, err := New(o, problem(genes), rand.NewPCG(1, 2))
			if err != nil {
				b.Fatal(err)
			}
			ref := &optimizetest.FixedReferee{Outcome: optimize.Outcome{Wins: 1, Losses: 1}}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Step(ctx, ref); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
		})
	}
}

// TestRunDrivesTheBudget drives a run with optimize.Run: it numbers the
// steps as Run counts them, plays exactly the games Forecast announced and
// stops at the budget.
func TestRunDrivesTheBudget(t *testing.T) {
	o := DefaultSettings()
	o.Iterations = 9
	p := problem(3)
	p.Pairs = 3
	s := mustNew(t, o, p, 9, 9)
	f := s.Forecast()
	ref := &optimizetest.TargetReferee{Target: []float64{1, 2, 3}, Temperature: 500, Pairs: 3}
	var st optimize.Status
	n := 0
	err := optimize.Run(context.Background(), s, ref, optimize.Settings{Recorder: func(r optimize.Record, _ optimize.Status) error {
		n++
		return nil
	}}, &st)
	if err != nil {
		t.Fatal(err)
	}
	if n != 9 || st.Steps != 9 || !s.Done() || st.Games != f.Games || f.Games != 9*6 || ref.Games != f.Games || s.State().Games != f.Games {
		t.Errorf("%d records, status %+v, forecast %+v, referee played %d", n, st, f, ref.Games)
	}
}
