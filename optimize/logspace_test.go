package optimize_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/cmaes"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// TestLogSpaceProblem: ranges, the start and opponents become logarithms;
// what has none is refused naming the gene.
func TestLogSpaceProblem(t *testing.T) {
	l := optimize.LogSpace{Norm: 100}
	p := optimizetest.Problem("a", "b")
	p.Start = []float64{1, math.E}
	p.Opponent = func(name string) ([]float64, error) {
		if name == "neg" {
			return []float64{1, -1}, nil
		}
		return []float64{math.E, 1}, nil
	}
	q, err := l.Problem(p)
	if err != nil {
		t.Fatal(err)
	}
	if q.InitLo[0] != 0 || q.InitHi[0] != math.Log(4000) || q.Bounds.Lo[1] != 0 || q.Bounds.Hi[1] != math.Log(4000) {
		t.Errorf("ranges %v..%v, bounds %v..%v", q.InitLo, q.InitHi, q.Bounds.Lo, q.Bounds.Hi)
	}
	if q.Start[0] != 0 || q.Start[1] != 1 {
		t.Errorf("start %v", q.Start)
	}
	if u, err := q.Opponent("x"); err != nil || u[0] != 1 || u[1] != 0 {
		t.Errorf("opponent %v, %v", u, err)
	}
	if _, err := q.Opponent("neg"); err == nil || !strings.Contains(err.Error(), "gene b is -1") {
		t.Errorf("negative opponent: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*optimize.Problem, *optimize.LogSpace)
		want string
	}{
		{"zero norm", func(_ *optimize.Problem, l *optimize.LogSpace) { l.Norm = 0 }, "norm"},
		{"start gene 0", func(p *optimize.Problem, _ *optimize.LogSpace) { p.Start = []float64{0, 1} }, "start: gene a is 0"},
		{"low range", func(p *optimize.Problem, _ *optimize.LogSpace) { p.InitHi[1] = 0.5 }, "initial range of gene b"},
		{"signed range", func(p *optimize.Problem, _ *optimize.LogSpace) { p.InitLo[1] = -5 }, "initial range of gene b is [-5, 4000]"},
		{"negative bounds", func(p *optimize.Problem, _ *optimize.LogSpace) { p.Bounds.Hi[0] = 1 }, "bounds of gene a"},
	} {
		p := optimizetest.Problem("a", "b")
		l := optimize.LogSpace{Norm: 100}
		tc.edit(&p, &l)
		if _, err := l.Problem(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if w := l.Weights([]float64{0, math.Log(3), 20}); math.Abs(optimize.Norm(w)-100) > 1e-9 || !(w[0] > 0) || math.Abs(w[1]/w[0]-3) > 1e-9 {
		t.Errorf("Weights %v (norm %g)", w, optimize.Norm(w))
	}
}

// recorder remembers every vector a referee is asked to play.
type recorder struct {
	ref  optimize.Referee
	seen [][]float64
}

func (r *recorder) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	for _, m := range ms {
		r.seen = append(r.seen, m.A, m.B)
	}
	return r.ref.Play(ctx, seed, ms)
}

// TestLogSpaceMethod: CMA-ES in log space plays only vectors of the norm
// with no negative gene, answers one, converges on a target whose genes span three
// orders of magnitude for 3 seeds, and resumes as the inner method does.
func TestLogSpaceMethod(t *testing.T) {
	target := optimize.ScaleTo([]float64{15, 300, 2500, 7000, 900}, 10000)
	l := optimize.LogSpace{Norm: 10000}
	o := cmaes.DefaultSettings()
	o.Generations, o.NoiseHandling, o.RaceBudget = 120, false, 0
	o.Sigma = 0.1
	p, err := l.Problem(optimizetest.Problem("a", "b", "c", "d", "e"))
	if err != nil {
		t.Fatal(err)
	}
	p.BoundMode = "off"
	for seed := uint64(1); seed <= 3; seed++ {
		inner, err := cmaes.Spec.New(&o, p, rand.NewPCG(seed, 7))
		if err != nil {
			t.Fatal(err)
		}
		m := l.Method(inner)
		ref := &recorder{ref: &optimizetest.TargetReferee{Target: target, Temperature: 300}}
		start := -1.0
		var cut []byte
		var after []optimize.Record
		for !m.Done() {
			if m.Steps() == 60 {
				if cut, err = m.MarshalState(); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := m.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			if start < 0 {
				start = ref.ref.(*optimizetest.TargetReferee).Distance(rec.Best)
			}
			if !slices.Equal(rec.Best, m.Best()) {
				t.Fatalf("record's best %v, Best %v", rec.Best, m.Best())
			}
			if m.Steps() > 60 {
				after = append(after, rec)
			}
		}
		for _, w := range append(ref.seen, m.Best()) {
			if math.Abs(optimize.Norm(w)-10000) > 1e-6 || slices.Min(w) < 0 {
				t.Fatalf("played or answered %v (norm %g)", w, optimize.Norm(w))
			}
		}
		end := ref.ref.(*optimizetest.TargetReferee).Distance(m.Best())
		t.Logf("seed %d: distance %.0f → %.0f, answer %.0f", seed, start, end, m.Best())
		if end > start/3 || end > 1500 {
			t.Errorf("seed %d: distance %.0f → %.0f, want under a third and under 1500", seed, start, end)
		}
		// Resume from generation 60: the same records.
		back, err := cmaes.Spec.Restore(&o, p, cut)
		if err != nil {
			t.Fatal(err)
		}
		r := l.Method(back)
		fresh := &optimizetest.TargetReferee{Target: target, Temperature: 300}
		for i := 0; !r.Done(); i++ {
			rec, err := r.Step(context.Background(), fresh)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(rec.Best, after[i].Best) {
				t.Fatalf("seed %d: resumed step %d best %v, uninterrupted %v", seed, rec.Step, rec.Best, after[i].Best)
			}
		}
	}
}

// TestLogCoords: only the marked coordinates go to their logarithms (the
// ranges, the bounds, the start and a resolved opponent), Weights undoes
// it, and a marked value ≤ 0 is an error naming the gene.
func TestLogCoords(t *testing.T) {
	l := optimize.LogCoords{Log: []bool{false, true}}
	p := optimize.Problem{Genes: []string{"W1", "DefendNodes"}, InitLo: []float64{-5, 100}, InitHi: []float64{5, 10000},
		Bounds: &optimize.Bounds{Lo: []float64{-5, 100}, Hi: []float64{5, 10000}}, Start: []float64{1, 1000},
		Opponent: func(string) ([]float64, error) { return []float64{2, 10}, nil }}
	q, err := l.Problem(p)
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b []float64) bool {
		for i := range a {
			if math.Abs(a[i]-b[i]) > 1e-12 {
				return false
			}
		}
		return len(a) == len(b)
	}
	if !near(q.InitLo, []float64{-5, math.Log(100)}) || !near(q.Bounds.Hi, []float64{5, math.Log(10000)}) || !near(q.Start, []float64{1, math.Log(1000)}) {
		t.Errorf("problem in log coordinates: %v %v %v", q.InitLo, q.Bounds.Hi, q.Start)
	}
	if o, err := q.Opponent("x"); err != nil || !near(o, []float64{2, math.Log(10)}) {
		t.Errorf("opponent %v, %v", o, err)
	}
	if w := l.Weights(q.Start); !near(w, p.Start) {
		t.Errorf("Weights(start) = %v, want %v", w, p.Start)
	}
	p.InitLo[1] = 0
	if _, err := l.Problem(p); err == nil || !strings.Contains(err.Error(), "DefendNodes") {
		t.Errorf("a range reaching 0: %v", err)
	}
}
