package ga

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// robustOptions is a small robust GA: 12 individuals, 3 elite.
func robustOptions(gens int) Settings {
	o := DefaultSettings()
	o.Variant, o.Population, o.Elite, o.Generations = VariantRobust, 12, 3, gens
	o.RaceBudget = 400
	return o
}

func newRobust(t testing.TB, o Settings, p optimize.Problem, seed uint64) optimize.Method {
	t.Helper()
	m, err := Spec.New(&o, p, rand.NewPCG(seed, 0x72))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func stepAll(t testing.TB, m optimize.Method, ref optimize.Referee) []optimize.Record {
	t.Helper()
	var recs []optimize.Record
	for !m.Done() {
		rec, err := m.Step(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		rec.Seconds, rec.Line = 0, ""
		recs = append(recs, rec)
	}
	return recs
}

// TestRobustConverges: on the synthetic noisy referee the robust GA's
// answer ends much closer to the hidden target than the initial
// population's centroid, for 5 seeds.
func TestRobustConverges(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		ref := &optimizetest.TargetReferee{Target: hiddenTarget, Temperature: 300, Pairs: 2}
		p := problem(5)
		p.Pairs = 2
		m := newRobust(t, robustOptions(40), p, seed)
		start := optimize.Centroid(m.(*RobustGA).pop)
		stepAll(t, m, ref)
		d0, d1 := ref.Distance(start), ref.Distance(m.Best())
		if d1 > d0/3 {
			t.Errorf("seed %d: distance to the target %.0f at the start, %.0f at the end", seed, d0, d1)
		}
	}
}

// TestRobustResume: a run checkpointed after any generation and restored
// gives the records and state of the uninterrupted run (race included).
func TestRobustResume(t *testing.T) {
	o := robustOptions(5)
	o.Norm, o.Pool, o.Average = 5000, []string{"centroid", "best"}, 3
	p := problem(5)
	whole := newRobust(t, o, p, 3)
	want := stepAll(t, whole, newTarget(200))
	wantState, _ := whole.MarshalState()
	for k := 0; k < 5; k++ {
		m := newRobust(t, o, p, 3)
		ref := newTarget(200)
		var recs []optimize.Record
		for range k {
			rec, err := m.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			rec.Seconds, rec.Line = 0, ""
			recs = append(recs, rec)
		}
		st, err := m.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		m, err = Spec.Restore(&o, p, st)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, stepAll(t, m, ref)...)
		// Details round-trip through JSON as a run directory keeps them.
		if a, b := mustJSON(t, recs), mustJSON(t, want); a != b {
			t.Errorf("resumed after %d generations: records differ", k)
		}
		if st, _ := m.MarshalState(); string(st) != string(wantState) {
			t.Errorf("resumed after %d generations: final state differs", k)
		}
	}
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRobustReplaysAfterAFailure: a failing referee (in the evaluation or
// in the final race) leaves the state unchanged, so the generation
// replays exactly.
func TestRobustReplaysAfterAFailure(t *testing.T) {
	o := robustOptions(2)
	p := problem(5)
	for _, failAt := range []int{0, 1, 2} { // evaluations 0 and 1, the race's first round
		m := newRobust(t, o, p, 4)
		ref := &optimizetest.FailingReferee{Ref: newTarget(200), FailAt: failAt}
		var recs []optimize.Record
		for !m.Done() {
			before, _ := m.MarshalState()
			rec, err := m.Step(context.Background(), ref)
			if err != nil {
				if !errors.Is(err, optimizetest.ErrEngine) {
					t.Fatal(err)
				}
				if after, _ := m.MarshalState(); string(after) != string(before) {
					t.Fatalf("fail at call %d: the state changed", failAt)
				}
				continue
			}
			rec.Seconds, rec.Line = 0, ""
			recs = append(recs, rec)
		}
		want := stepAll(t, newRobust(t, o, p, 4), newTarget(200))
		if mustJSON(t, recs) != mustJSON(t, want) {
			t.Errorf("fail at call %d: the replayed run differs", failAt)
		}
	}
}

// recordingReferee keeps every batch it is asked to play.
type recordingReferee struct {
	optimize.Referee
	batches [][]optimize.Match
}

func (r *recordingReferee) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	r.batches = append(r.batches, ms)
	return r.Referee.Play(ctx, seed, ms)
}

// TestRobustCommonOpponents: every individual of a generation meets each
// pool opponent on that opponent's opening set, every played vector has
// the configured norm, and the answer is the race's winner, never a
// single sample unless it won the race; the record says the race's games.
func TestRobustCommonOpponents(t *testing.T) {
	o := robustOptions(2)
	o.Norm, o.Pool = 3000, []string{"centroid", "best"}
	ref := &recordingReferee{Referee: newTarget(200)}
	m := newRobust(t, o, problem(5), 5)
	recs := stepAll(t, m, ref)
	eval := ref.batches[0]
	if len(eval) != 12*2 {
		t.Fatalf("first evaluation: %d matches, want 24", len(eval))
	}
	for i, mt := range eval {
		if mt.OpeningSet != i%2+1 {
			t.Errorf("match %d (individual %d, opponent %d): opening set %d", i, i/2, i%2, mt.OpeningSet)
		}
		if n := optimize.Norm(mt.A); math.Abs(n-3000) > 1e-9*3000 {
			t.Errorf("match %d: a vector of norm %g played", i, n)
		}
	}
	last := recs[len(recs)-1]
	gen := last.Detail.(RobustGeneration)
	if gen.Race == nil || last.Metrics["race_games"] != float64(gen.Race.Games) || gen.Race.Games == 0 {
		t.Fatalf("last generation: race %+v, metrics %v", gen.Race, last.Metrics)
	}
	if last.Games != 12*2*2+gen.Race.Games {
		t.Errorf("last generation: %d games, want the evaluation's 48 and the race's %d", last.Games, gen.Race.Games)
	}
	want := gen.Answer
	var k int
	if _, err := fmt.Sscanf(gen.Race.Candidates[gen.Race.Winner], "elite %d", &k); err == nil {
		if elite := gen.Individuals[gen.Elite[k-1]].Genes; !slices.Equal(m.Best(), elite) {
			t.Errorf("the race chose elite %d, the answer is %v", k, m.Best())
		}
	} else {
		for _, ind := range gen.Individuals {
			if slices.Equal(ind.Genes, want) {
				t.Errorf("the elite mean equals a single sample")
			}
		}
	}
	if !slices.Equal(m.Best(), want) {
		t.Errorf("Best %v, record's answer %v", m.Best(), want)
	}
}

// TestRobustWarmStart: with a start vector the first individual is the
// start (scaled) and the others lie around it.
func TestRobustWarmStart(t *testing.T) {
	o := robustOptions(1)
	p := problem(5)
	p.Start = []float64{100, 200, 300, 400, 500}
	m := newRobust(t, o, p, 6).(*RobustGA)
	if !slices.Equal(m.pop[0], p.Start) {
		t.Errorf("first individual %v, want the start", m.pop[0])
	}
	for i, x := range m.pop[1:] {
		if d := optimize.Distance(x, p.Start); d == 0 || d > 0.5*optimize.Norm(p.Start) {
			t.Errorf("individual %d at distance %g from the start", i+1, d)
		}
	}
	p.Start = []float64{1, 2}
	if err := Spec.Validate(&o, p); err == nil {
		t.Error("a start vector of 2 genes was accepted for 5")
	}
}

// TestRobustOptionLimits: every robust key is checked with its name.
func TestRobustOptionLimits(t *testing.T) {
	set := func(f func(*Settings)) func(*Settings, *optimize.Problem) {
		return func(o *Settings, _ *optimize.Problem) { f(o) }
	}
	optimizetest.CheckOptionLimits(t, Spec, func() Settings { return robustOptions(3) }, func() optimize.Problem { return problem(5) },
		[]optimizetest.OptionLimit[Settings]{
			{Key: "variant", In: set(func(o *Settings) { o.Variant, o.Groups = "chen2010", 4 }), Out: set(func(o *Settings) { o.Variant = "fast" })},
			{Key: "population", In: set(func(o *Settings) { o.Population, o.Elite = 4, 1 }), Out: set(func(o *Settings) { o.Population, o.Elite = 3, 1 })},
			{Key: "elite", In: set(func(o *Settings) { o.Elite = 11 }), Out: set(func(o *Settings) { o.Elite = 12 })},
			{Key: "crossover", In: set(func(o *Settings) { o.Crossover = 1 }), Out: set(func(o *Settings) { o.Crossover = 1.1 })},
			{Key: "mutation", In: set(func(o *Settings) { o.Mutation = 0 }), Out: set(func(o *Settings) { o.Mutation = -0.1 })},
			{Key: "sigma", In: set(func(o *Settings) { o.Sigma = 1e-6 }), Out: set(func(o *Settings) { o.Sigma = -1e-6 })},
			{Key: "sigma_end", In: set(func(o *Settings) { o.SigmaEnd = 0 }), Out: set(func(o *Settings) { o.SigmaEnd = math.Inf(1) })},
			{Key: "generations", In: set(func(o *Settings) { o.Generations = 1 }), Out: set(func(o *Settings) { o.Generations = -1 })},
			{Key: "pool", In: set(func(o *Settings) { o.Pool = []string{"best"} }), Out: set(func(o *Settings) { o.Pool = []string{"zhou2015"} })},
			{Key: "norm", In: set(func(o *Settings) { o.Norm = 0 }), Out: set(func(o *Settings) { o.Norm = -1 })},
			{Key: "memory", In: set(func(o *Settings) { o.Memory = 0 }), Out: set(func(o *Settings) { o.Memory = 1.5 })},
			{Key: "prior", In: set(func(o *Settings) { o.Prior = 0 }), Out: set(func(o *Settings) { o.Prior = -1 })},
			{Key: "prior", In: set(func(o *Settings) { o.Prior = 100 }), Out: set(func(o *Settings) { o.Prior = math.Inf(1) })},
			// 6 racers (2 means, 4 elites) × 1 opponent × 2 games × 3 rounds = 36 games.
			{Key: "race_budget", In: set(func(o *Settings) { o.RaceBudget = 36 }), Out: set(func(o *Settings) { o.RaceBudget = 35 })},
			{Key: "race_alpha", In: set(func(o *Settings) { o.RaceAlpha = 0.5 }), Out: set(func(o *Settings) { o.RaceAlpha = -0.05 })},
			{Key: "race_rounds", In: set(func(o *Settings) { o.RaceRounds = 2 }), Out: set(func(o *Settings) { o.RaceRounds = 1 })},
			{Key: "race_candidates", In: set(func(o *Settings) { o.RaceCandidates = 1 }), Out: set(func(o *Settings) { o.RaceCandidates = -1 })},
			{Key: "average", In: set(func(o *Settings) { o.Average = 0 }), Out: set(func(o *Settings) { o.Average = -1 })},
			{Key: "warm_spread", In: set(func(o *Settings) { o.WarmSpread = 0 }), Out: set(func(o *Settings) { o.WarmSpread = -1 })},
		})
}

// TestRobustRestoreChecks: a corrupt checkpoint is refused naming the field.
func TestRobustRestoreChecks(t *testing.T) {
	o := robustOptions(3)
	p := problem(5)
	m := newRobust(t, o, p, 7)
	stepAll(t, m, newTarget(200))
	st := m.(*RobustGA).State()
	for name, f := range map[string]func(*RobustState){
		"Next":       func(s *RobustState) { s.Next = 4 },
		"Population": func(s *RobustState) { s.Population = s.Population[1:] },
		"Tally":      func(s *RobustState) { s.Tally[0].Points = s.Tally[0].Games + 1 },
		"Answer":     func(s *RobustState) { s.Answer = nil },
		"Means":      func(s *RobustState) { s.Means = append(s.Means, s.Answer) },
		"Games":      func(s *RobustState) { s.Games = -1 },
		"RNG":        func(s *RobustState) { s.RNG = []byte("x") },
	} {
		bad := m.(*RobustGA).State()
		f(&bad)
		b, _ := json.Marshal(bad)
		if _, err := Spec.Restore(&o, p, b); err == nil || !containsField(err.Error(), name) {
			t.Errorf("%s: %v", name, err)
		}
	}
	b, _ := json.Marshal(st)
	if _, err := Spec.Restore(&o, p, b); err != nil {
		t.Errorf("the good state: %v", err)
	}
}

func containsField(msg, field string) bool { return strings.Contains(msg, "RobustState."+field) }
