package spsa

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// problem is optimizetest.Problem with genes S1, S2, …: initial range
// and bounds [0, 4000] clamped, one pair a match.
func problem(genes int) optimize.Problem {
	names := make([]string, genes)
	for d := range names {
		names[d] = fmt.Sprintf("S%d", d+1)
	}
	return optimizetest.Problem(names...)
}

func mustNew(t testing.TB, o Settings, p optimize.Problem, a, b uint64) *SPSA {
	t.Helper()
	if err := o.Validate(p); err != nil {
		t.Fatal(err)
	}
	s, err := New(o, p, rand.NewPCG(a, b))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func step(t testing.TB, s *SPSA, ref optimize.Referee) (optimize.Record, Iteration) {
	t.Helper()
	return optimizetest.Step[Iteration](t, s, ref)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func nearAll(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !near(a[i], b[i]) {
			return false
		}
	}
	return true
}

// TestHandWorkedIterations checks two iterations against arithmetic done
// by hand, with round gains: N = 4, γ = ½, α = 1, A = 1, c_end = (100, 10),
// r_end = (0.002, 0.01), no bounds.
func TestHandWorkedIterations(t *testing.T) {
	p := problem(2)
	p.Bounds, p.BoundMode, p.Pairs = nil, "off", 2
	p.InitLo, p.InitHi = []float64{1000, 1000}, []float64{2000, 2000}
	o := DefaultSettings()
	o.Iterations, o.Gamma, o.Alpha, o.AStability = 4, 0.5, 1, 1
	o.CEnd = PerGene{Genes: map[string]float64{"S1": 100, "S2": 10}}
	o.REnd = PerGene{Genes: map[string]float64{"S2": 0.01}} // S1 keeps 0.002
	c := o.resolve(p)
	// c = c_end·N^γ = (100·4^½, 10·4^½) = (200, 20).
	// a = r_end·c_end²·(A + N)^α = (0.002·100²·5, 0.01·10²·5) = (100, 5).
	if !near(c.C(0), 200) || !near(c.C(1), 20) || !near(c.A(0), 100) || !near(c.A(1), 5) {
		t.Fatalf("c = (%g, %g), a = (%g, %g); want (200, 20), (100, 5)", c.C(0), c.C(1), c.A(0), c.A(1))
	}
	// The plus side wins 3 games of 4 and loses 1: r = 2.
	ref := &optimizetest.FixedReferee{Outcome: optimize.Outcome{Wins: 3, Losses: 1}}
	s := mustNew(t, o, p, 7, 8)
	θ0 := s.Theta0()
	if s.Best() != nil || θ0[0] < 1000 || θ0[0] > 2000 || θ0[1] < 1000 || θ0[1] > 2000 {
		t.Fatalf("θ0 %v is not in the initial range, or Best %v is set before a step", θ0, s.Best())
	}
	f := s.Forecast()
	if f.Steps != 4 || f.NextGames != 4 || f.Games != 16 {
		t.Errorf("forecast %+v, want 4 steps, 4 games next, 16 in all", f)
	}

	// k = 1: c_1 = c/1^½ = (200, 20); a_1 = a/(1 + 1)^1 = (50, 2.5).
	// θ_d += a_1·r/c_1·Δ_d: (50·2/200, 2.5·2/20) = (0.5, 0.25) times Δ.
	// k = 2: c_2 = c/√2 = (141.42…, 14.142…); a_2 = a/3 = (33.33…, 1.6667).
	// θ_d += a_2·r/c_2·Δ_d: ((100/3)·2·√2/200, (5/3)·2·√2/20) = (√2/3, √2/6)·Δ.
	wantCK := [][]float64{{200, 20}, {200 / math.Sqrt2, 20 / math.Sqrt2}}
	wantAK := [][]float64{{50, 2.5}, {100.0 / 3, 5.0 / 3}}
	wantMove := [][]float64{{0.5, 0.25}, {math.Sqrt2 / 3, math.Sqrt2 / 6}}
	θ := θ0
	for k := 1; k <= 2; k++ {
		rec, it := step(t, s, ref)
		if rec.Step != k-1 || it.K != k || rec.Games != 4 || it.R != 2 || ref.Calls != k || len(ref.Matches) != 1 {
			t.Fatalf("k %d: step %d, K %d, games %d, r %d, %d calls of %d matches", k, rec.Step, it.K, rec.Games, it.R, ref.Calls, len(ref.Matches))
		}
		if !nearAll(it.CK, wantCK[k-1]) || !nearAll(it.AK, wantAK[k-1]) {
			t.Errorf("k %d: c_k %v a_k %v, want %v %v", k, it.CK, it.AK, wantCK[k-1], wantAK[k-1])
		}
		Δ := it.Delta
		plus := []float64{θ[0] + wantCK[k-1][0]*float64(Δ[0]), θ[1] + wantCK[k-1][1]*float64(Δ[1])}
		minus := []float64{θ[0] - wantCK[k-1][0]*float64(Δ[0]), θ[1] - wantCK[k-1][1]*float64(Δ[1])}
		m := ref.Matches[0]
		if !nearAll(m.A, plus) || !nearAll(m.B, minus) || !reflect.DeepEqual(it.Plus, m.A) || !reflect.DeepEqual(it.Minus, m.B) {
			t.Errorf("k %d: played %v against %v, want θ ± c_k·Δ = %v, %v", k, m.A, m.B, plus, minus)
		}
		want := []float64{θ[0] + wantMove[k-1][0]*float64(Δ[0]), θ[1] + wantMove[k-1][1]*float64(Δ[1])}
		if !nearAll(it.Theta, want) || !reflect.DeepEqual(rec.Best, it.Theta) || !reflect.DeepEqual(s.Best(), it.Theta) {
			t.Errorf("k %d: θ %v, want %v (best %v)", k, it.Theta, want, rec.Best)
		}
		if !reflect.DeepEqual(it.ThetaBefore, θ) || it.Seed != ref.Seed {
			t.Errorf("k %d: θ before %v, want %v; seed %d, played %d", k, it.ThetaBefore, θ, it.Seed, ref.Seed)
		}
		// Metrics: the plus side scored 3/4; θ moved (0.5, 0.25) = (0.005,
		// 0.025) c_end at k = 1, mean 0.015.
		if rec.Metrics["score"] != 0.75 || rec.Metrics["r"] != 2 {
			t.Errorf("k %d: metrics %v", k, rec.Metrics)
		}
		for d, name := range p.Genes {
			if got, want := rec.Metrics["theta_norm."+name], (it.Theta[d]-θ0[d])/[]float64{100, 10}[d]; !near(got, want) {
				t.Errorf("k %d: theta_norm.%s = %g, want %g", k, name, got, want)
			}
		}
		stepNorm := (wantMove[k-1][0]/100 + wantMove[k-1][1]/10) / 2
		if !near(rec.Metrics["step_norm"], stepNorm) {
			t.Errorf("k %d: step_norm %g, want %g", k, rec.Metrics["step_norm"], stepNorm)
		}
		// c_k/c_end = (N/k)^γ: 2, √2; a_k/a_end = ((A+N)/(A+k))^α: 5/2, 5/3.
		if !near(rec.Metrics["c_k_norm"], []float64{2, math.Sqrt2}[k-1]) || !near(rec.Metrics["a_k_norm"], []float64{2.5, 5.0 / 3}[k-1]) {
			t.Errorf("k %d: c_k_norm %g a_k_norm %g", k, rec.Metrics["c_k_norm"], rec.Metrics["a_k_norm"])
		}
		if !strings.HasPrefix(rec.Line, "plus side +3 =0 −1 (r +2)") {
			t.Errorf("line %q", rec.Line)
		}
		θ = it.Theta
	}
	// At k = N the gains are the end values: c_N = c_end, a_N = r_end·c_end².
	aN, cN := c.Gains(4)
	if !nearAll(cN, []float64{100, 10}) || !nearAll(aN, []float64{0.002 * 100 * 100, 0.01 * 10 * 10}) {
		t.Errorf("gains at N: a %v c %v", aN, cN)
	}
}

// TestDeltaIsRademacher checks that Δ is ±1 and both signs come up about
// equally often on every gene.
func TestDeltaIsRademacher(t *testing.T) {
	o := DefaultSettings()
	o.Iterations = 2000
	s := mustNew(t, o, problem(3), 1, 2)
	ref := &optimizetest.FixedReferee{Outcome: optimize.Outcome{Wins: 1, Losses: 1}}
	plus := make([]int, 3)
	seeds := map[uint64]bool{}
	for range o.Iterations {
		_, it := step(t, s, ref)
		for d, δ := range it.Delta {
			if δ != 1 && δ != -1 {
				t.Fatalf("Δ %v", it.Delta)
			}
			if δ == 1 {
				plus[d]++
			}
		}
		seeds[it.Seed] = true
	}
	for d, n := range plus {
		// 2000 draws: the count of +1 has sd √500 ≈ 22; 5 sd is 112.
		if n < 1000-112 || n > 1000+112 {
			t.Errorf("gene %d: %d of 2000 draws +1", d, n)
		}
	}
	if len(seeds) != o.Iterations {
		t.Errorf("%d distinct batch seeds in %d iterations", len(seeds), o.Iterations)
	}
	if _, err := s.Step(context.Background(), ref); !errors.Is(err, optimize.ErrDone) || s.Forecast() != (optimize.Forecast{}) {
		t.Errorf("after the budget: %v, forecast %+v", err, s.Forecast())
	}
}

// TestBoundsKeepVectorsInside checks both bound modes: with c_end the
// whole range every plus and minus gene lands outside and is clamped, and θ
// stays inside however far r pushes it.
func TestBoundsKeepVectorsInside(t *testing.T) {
	for _, mode := range []optimize.BoundMode{optimize.BoundsClamp, optimize.BoundsReflect} {
		p := problem(3)
		p.BoundMode = mode
		o := DefaultSettings()
		o.Iterations, o.CEndFraction = 30, 1
		o.REnd = PerGene{All: 1}
		s := mustNew(t, o, p, 3, 3)
		ref := &optimizetest.FixedReferee{Outcome: optimize.Outcome{Wins: 2}}
		for range o.Iterations {
			_, it := step(t, s, ref)
			for d := range 3 {
				// c_k ≥ c_end = 4000, so θ ± c_k is beyond a bound.
				hi, lo := 4000.0, 0.0
				if it.Delta[d] < 0 {
					hi, lo = 0, 4000
				}
				if it.Plus[d] != hi || it.Minus[d] != lo {
					t.Fatalf("%s: gene %d: played %g against %g, want the bounds %g, %g", mode, d, it.Plus[d], it.Minus[d], hi, lo)
				}
				if it.Theta[d] < 0 || it.Theta[d] > 4000 {
					t.Fatalf("%s: θ %v left the bounds", mode, it.Theta)
				}
			}
		}
	}
	// Bounds off: the vectors go where the formulas send them.
	p := problem(1)
	p.BoundMode = "off"
	o := DefaultSettings()
	o.CEndFraction = 1
	s := mustNew(t, o, p, 3, 3)
	_, it := step(t, s, &optimizetest.FixedReferee{Outcome: optimize.Outcome{Wins: 2}})
	if !near(math.Abs(it.Plus[0]-it.Minus[0]), 2*it.CK[0]) {
		t.Errorf("bounds off: plus %g minus %g, c_k %g", it.Plus[0], it.Minus[0], it.CK[0])
	}
}

// TestConvergesOnTarget runs SPSA against the synthetic target referee
// from five random θ0 with the default options: the distance to the target
// must shrink to under a tenth of where it started and below 100 (half of
// c_end = 200). Measured (2,000 iterations of 4 pairs, 16,000 games,
// 5 genes in [0, 4000], temperature 200): seeds 1..5 went from 2545, 3113,
// 3460, 4593, 1269 to 32, 33, 14, 21, 12 (ratios 0.004–0.013).
func TestConvergesOnTarget(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		start, end := climb(t, problem(5), nil, 200, seed)
		if end > start/10 || end > 100 {
			t.Errorf("seed %d: distance %.0f → %.0f, want under a tenth and under 100", seed, start, end)
		}
	}
}

// TestResumeEqualsUninterrupted cuts a run at several steps, restores it
// through Spec.Restore from its JSON state and checks that the records and
// the final state equal an uninterrupted run's.
func TestResumeEqualsUninterrupted(t *testing.T) {
	o := DefaultSettings()
	o.Iterations = 12
	o.CEnd = PerGene{Genes: map[string]float64{"S2": 150}}
	p := problem(3)
	p.BoundMode, p.Pairs = "reflect", 2
	ref := func() optimize.Referee {
		return &optimizetest.TargetReferee{Target: []float64{500, 2500, 1200}, Temperature: 200, Pairs: 2}
	}
	m, final := checkResume(t, o, p, ref)
	good := final
	for name, blob := range map[string]string{
		"unknown field": strings.Replace(string(good), `"iteration":`, `"k":0,"iteration":`, 1),
		"trailing data": string(good) + "{}",
		"not JSON":      "iteration=3",
		"too far":       strings.Replace(string(good), `"iteration":12`, `"iteration":13`, 1),
		"short theta":   strings.Replace(string(good), `"theta":[`, `"theta":[1],"x":[`, 1),
		"bad rng":       strings.Replace(string(good), `"rng":"`, `"rng":"AA`, 1),
	} {
		if r, err := Spec.Restore(&o, p, []byte(blob)); err == nil || r != nil {
			t.Errorf("%s: Restore accepted it", name)
		}
	}
	st := m.(*SPSA).State()
	for name, edit := range map[string]func(*State){
		"Theta":     func(s *State) { s.Theta = s.Theta[:2] },
		"Theta0":    func(s *State) { s.Theta0[1] = math.NaN() },
		"Games":     func(s *State) { s.Games = -1 },
		"Iteration": func(s *State) { s.Iteration = -1 },
	} {
		s := m.(*SPSA).State()
		edit(&s)
		if _, err := Restore(o, p, s); err == nil || !strings.Contains(err.Error(), "state field "+name) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Restore(o, p, st); err != nil {
		t.Error(err)
	}
}

// cancelling cancels the context of the Play call it receives, as a
// signal during the games would, and reports it.
type cancelling context.CancelFunc

func (c cancelling) Play(ctx context.Context, _ uint64, _ []optimize.Match) ([]optimize.Outcome, error) {
	c()
	return nil, ctx.Err()
}

// short answers no outcome at all.
type short struct{}

func (short) Play(context.Context, uint64, []optimize.Match) ([]optimize.Outcome, error) {
	return nil, nil
}

// TestFailureLeavesStateUnchanged fails the referee, cancels the context
// and answers too few outcomes at step 3: each time the state is as before
// and the retried step gives the uninterrupted run's record.
func TestFailureLeavesStateUnchanged(t *testing.T) {
	o := DefaultSettings()
	o.Iterations = 6
	p := problem(4)
	target := &optimizetest.TargetReferee{Target: []float64{100, 200, 300, 400}, Temperature: 300}
	clean := mustNew(t, o, p, 5, 6)
	var want []string
	for !clean.Done() {
		rec, _ := step(t, clean, target)
		want = append(want, optimizetest.RecordJSON(t, rec))
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for name, try := range map[string]func(*SPSA) error{
		"referee error": func(s *SPSA) error {
			_, err := s.Step(context.Background(), &optimizetest.FailingReferee{Ref: target})
			if !errors.Is(err, optimizetest.ErrEngine) {
				return errors.New("error does not wrap the referee's: " + err.Error())
			}
			return err
		},
		"cancelled": func(s *SPSA) error {
			_, err := s.Step(cancelled, target)
			return err
		},
		"cancelled in play": func(s *SPSA) error {
			ctx, cancel := context.WithCancel(context.Background())
			_, err := s.Step(ctx, cancelling(cancel))
			if !errors.Is(err, context.Canceled) {
				return errors.New("error does not wrap context.Canceled: " + err.Error())
			}
			return err
		},
		"short answer": func(s *SPSA) error {
			_, err := s.Step(context.Background(), short{})
			return err
		},
	} {
		s := mustNew(t, o, p, 5, 6)
		var got []string
		for s.Steps() < o.Iterations {
			if s.Steps() == 3 {
				before, _ := s.MarshalState()
				if err := try(s); err == nil {
					t.Fatalf("%s: no error", name)
				}
				if after, _ := s.MarshalState(); string(after) != string(before) {
					t.Fatalf("%s: the state changed", name)
				}
			}
			rec, _ := step(t, s, target)
			got = append(got, optimizetest.RecordJSON(t, rec))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the retried run's records differ", name)
		}
	}
}

// TestStartVector: a Problem's Start is θ0 (inside the bounds), and the
// run's random draws after it are those of a random start with the same
// seed.
func TestStartVector(t *testing.T) {
	o := DefaultSettings()
	o.Iterations = 3
	p := problem(3)
	ref := &optimizetest.FixedReferee{Outcome: optimize.Outcome{Wins: 2, Losses: 0}}
	random := mustNew(t, o, p, 5, 6)
	p.Start = []float64{100, 200, 300}
	started := mustNew(t, o, p, 5, 6)
	if !slices.Equal(started.Theta0(), p.Start) {
		t.Fatalf("θ0 %v, want the start %v", started.Theta0(), p.Start)
	}
	_, a := step(t, random, ref)
	_, b := step(t, started, ref)
	if !slices.Equal(a.Delta, b.Delta) || a.Seed != b.Seed {
		t.Errorf("the start changed the draws: Δ %v/%v, seeds %d/%d", a.Delta, b.Delta, a.Seed, b.Seed)
	}
	p.Start = []float64{1, 2}
	if err := o.Validate(p); err == nil {
		t.Error("a start vector of 2 genes for 3 accepted")
	}
}

// checkResume runs o on p to the end, then again cut at several steps and
// restored through Spec.Restore from its JSON state, and checks that the
// records and the final state equal the uninterrupted run's; it returns
// the uninterrupted run and its final state.
func checkResume(t *testing.T, o Settings, p optimize.Problem, ref func() optimize.Referee) (optimize.Method, []byte) {
	t.Helper()
	run := func(m optimize.Method, r optimize.Referee, n int) []string {
		var out []string
		for range n {
			rec, err := m.Step(context.Background(), r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, optimizetest.RecordJSON(t, rec))
		}
		return out
	}
	m, err := Spec.New(&o, p, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	full := run(m, ref(), o.Iterations)
	final, _ := m.MarshalState()
	best := m.Best()
	for _, cut := range []int{0, 1, o.Iterations / 2, o.Iterations} {
		m, err := Spec.New(&o, p, rand.NewPCG(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		part := run(m, ref(), cut)
		blob, err := m.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Spec.Restore(&o, p, blob)
		if err != nil {
			t.Fatal(err)
		}
		if back.Steps() != cut || !slices.Equal(back.Best(), m.Best()) || back.Forecast() != m.Forecast() {
			t.Fatalf("cut %d: restored at step %d, best %v, forecast %+v", cut, back.Steps(), back.Best(), back.Forecast())
		}
		part = append(part, run(back, ref(), o.Iterations-cut)...)
		if !reflect.DeepEqual(part, full) {
			t.Errorf("cut %d: the restored run's records differ", cut)
		}
		if b, _ := back.MarshalState(); string(b) != string(final) || !slices.Equal(back.Best(), best) {
			t.Errorf("cut %d: final states or bests differ", cut)
		}
	}
	return m, final
}

// climbTarget is the synthetic referee's hidden optimum of climb.
var climbTarget = []float64{1000, 3000, 2000, 500, 3500}

// climb runs 2,000 iterations of 4 game pairs on p (5 genes) with the pool
// opponents against a TargetReferee at this temperature, and returns θ0's
// and the end θ's distance to climbTarget.
func climb(t *testing.T, p optimize.Problem, opponents []string, temperature float64, seed uint64) (start, end float64) {
	t.Helper()
	p.Pairs = 4
	o := DefaultSettings()
	o.Iterations = 2000
	o.Opponents = opponents
	ref := &optimizetest.TargetReferee{Target: climbTarget, Temperature: temperature, Pairs: 4}
	s := mustNew(t, o, p, seed, 99)
	start = ref.Distance(s.Theta0())
	for !s.Done() {
		step(t, s, ref)
	}
	end = ref.Distance(s.Best())
	t.Logf("seed %d, pool %v: distance %.0f → %.0f (ratio %.3f), %d games", seed, opponents, start, end, end/start, ref.Games)
	return start, end
}
