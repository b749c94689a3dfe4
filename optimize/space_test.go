package optimize_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/ga"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// TestChainSpaceProblem: a chain's later genes become increments with
// ranges [0, hi − lo of the gene before]; start and opponents map to
// their increments and back; bad chains are refused naming the genes.
func TestChainSpaceProblem(t *testing.T) {
	c := optimize.ChainSpace{Chains: [][]int{{0, 1, 2}}}
	p := optimizetest.Problem("a", "b", "c", "d")
	p.InitLo[0], p.Bounds.Lo[1] = 100, -50
	p.Start = []float64{10, 30, 20, 7}
	p.Opponent = func(string) ([]float64, error) { return []float64{1, 2, 4, 8}, nil }
	q, err := c.Problem(p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.InitLo, []float64{100, 0, 0, 0}) || !slices.Equal(q.InitHi, []float64{4000, 3900, 4000, 4000}) {
		t.Errorf("initial range %v..%v", q.InitLo, q.InitHi)
	}
	if !slices.Equal(q.Bounds.Lo, []float64{0, 0, 0, 0}) || !slices.Equal(q.Bounds.Hi, []float64{4000, 4000, 4050, 4000}) {
		t.Errorf("bounds %v..%v", q.Bounds.Lo, q.Bounds.Hi)
	}
	if !slices.Equal(q.Start, []float64{10, 20, -10, 7}) {
		t.Errorf("start %v (a chain out of order gives a negative increment)", q.Start)
	}
	if u, err := q.Opponent("x"); err != nil || !slices.Equal(u, []float64{1, 1, 2, 8}) {
		t.Errorf("opponent %v, %v", u, err)
	}
	if w := c.Weights(q.Start); !slices.Equal(w, p.Start) {
		t.Errorf("Weights(Increments(start)) = %v, want %v", w, p.Start)
	}
	if !slices.Equal(p.Start, []float64{10, 30, 20, 7}) {
		t.Errorf("Problem changed the caller's start: %v", p.Start)
	}
	for _, tc := range []struct {
		chains [][]int
		edit   func(*optimize.Problem)
		want   string
	}{
		{[][]int{{0}}, nil, "at least 2 genes"},
		{[][]int{{0, 4}}, nil, "gene index 4"},
		{[][]int{{0, 1}, {1, 2}}, nil, "gene b is in two chains"},
		{[][]int{{0, 1}}, func(p *optimize.Problem) { p.InitLo[0], p.InitHi[1] = 500, 400 }, "initial range of gene b ends at 400"},
	} {
		p := optimizetest.Problem("a", "b", "c", "d")
		if tc.edit != nil {
			tc.edit(&p)
		}
		if _, err := (optimize.ChainSpace{Chains: tc.chains}).Problem(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("chains %v: %v, want %q", tc.chains, err, tc.want)
		}
	}
}

// TestChainSpaceMethod: the robust GA in a chain space plays only vectors
// whose chain is in order, and reaches a target in order (its norm too:
// the map is linear), for 3 seeds.
func TestChainSpaceMethod(t *testing.T) {
	target := optimize.ScaleTo([]float64{30, 600, 2200, 5000, 1500}, 10000)
	c := optimize.ChainSpace{Chains: [][]int{{0, 1, 2, 3}}}
	p, err := c.Problem(optimizetest.Problem("a", "b", "c", "d", "e"))
	if err != nil {
		t.Fatal(err)
	}
	o := ga.DefaultSettings()
	o.Variant, o.Population, o.Elite, o.Generations, o.RaceBudget = ga.VariantRobust, 24, 6, 60, 0
	for seed := uint64(1); seed <= 3; seed++ {
		inner, err := ga.Spec.New(&o, p, rand.NewPCG(seed, 9))
		if err != nil {
			t.Fatal(err)
		}
		m := optimize.InSpace(c, inner)
		ref := &recorder{ref: &optimizetest.TargetReferee{Target: target, Temperature: 300}}
		var start float64
		for !m.Done() {
			rec, err := m.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Step == 0 {
				start = ref.ref.(*optimizetest.TargetReferee).Distance(rec.Best)
			}
		}
		for _, w := range append(ref.seen, m.Best()) {
			if !(w[0] <= w[1] && w[1] <= w[2] && w[2] <= w[3]) {
				t.Fatalf("seed %d: played or answered %v, out of order", seed, w)
			}
		}
		end := ref.ref.(*optimizetest.TargetReferee).Distance(m.Best())
		t.Logf("seed %d: distance %.0f → %.0f, answer %.0f", seed, start, end, m.Best())
		if end > start/2 || math.IsNaN(end) {
			t.Errorf("seed %d: distance %.0f → %.0f, want under half", seed, start, end)
		}
	}
}
