package bayes

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

// problem is optimizetest's [0, 4000] problem with n genes and one
// opponent by name, "ref", at the box's centre.
func problem(n int) optimize.Problem {
	p := optimizetest.Problem(optimizetest.Letters(n)...)
	p.Opponent = func(name string) ([]float64, error) {
		if name != "ref" {
			return nil, fmt.Errorf("no opponent %q", name)
		}
		v := make([]float64, n)
		for d := range v {
			v[d] = 2000
		}
		return v, nil
	}
	return p
}

func settings(iterations int) Settings {
	s := DefaultSettings()
	s.Iterations = iterations
	s.Pool = []string{"ref"}
	s.Candidates = 300
	return s
}

// target is the synthetic referee: a game is won by the side nearer
// (1000, 3000, 2500), distances in thousands of weight units, at
// temperature 0.5, so the target scores 0.95 against the centre.
func target() *optimizetest.TargetReferee {
	return &optimizetest.TargetReferee{Target: []float64{1000, 3000, 2500}, Scale: []float64{1000, 1000, 1000}, Temperature: 0.5}
}

func run(t *testing.T, s Settings, p optimize.Problem, seed uint64, ref optimize.Referee) (*Bayes, []optimize.Record) {
	t.Helper()
	b, err := New(s, p, rand.NewPCG(seed, 7))
	if err != nil {
		t.Fatal(err)
	}
	var recs []optimize.Record
	for !b.Done() {
		rec, err := b.Step(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, rec)
	}
	return b, recs
}

// The method finds the synthetic optimum at a low signal-to-noise ratio
// (one game pair a match: a point's score has a standard deviation of
// about 0.25, the design's points differ by about 0.1): within 30
// iterations of 4 points (120 points, 480 games) the model's optimum lies
// within 0.6 (thousand weight units) of the target, a true score of at
// least 0.86 against the opponent where the target scores 0.95 and the
// initial design's points lie 2 away on average, for 5 seeds.
func TestConvergesOnTarget(t *testing.T) {
	for seed := range uint64(5) {
		ref := target()
		b, recs := run(t, settings(30), problem(3), seed+1, ref)
		design := 0.0
		for _, u := range b.design {
			design += ref.Distance(b.cfg.genes(u)) / float64(len(b.design))
		}
		d := ref.Distance(b.Best())
		t.Logf("seed %d: optimum %.0f, distance %.3f (the design's mean %.2f), opt_elo %+.0f, %d games", seed+1, b.Best(), d, design, recs[len(recs)-1].Metrics["opt_elo"], ref.Games)
		if d > 0.6 || design < 1.5 {
			t.Errorf("seed %d: the optimum %.0f is %.2f (thousands) from the target, the design's points %.2f", seed+1, b.Best(), d, design)
		}
		if ref.Games != 30*4*2*2 {
			t.Errorf("seed %d: %d games, want %d", seed+1, ref.Games, 30*4*2*2)
		}
	}
}

// A run stopped after any step and restored from its JSON state plays
// exactly the records of the uninterrupted run.
func TestResumeEqualsUninterrupted(t *testing.T) {
	s := settings(12)
	p := problem(3)
	_, want := run(t, s, p, 3, target())
	for _, stop := range []int{1, 2, 4, 7, 11} {
		b, err := New(s, p, rand.NewPCG(3, 7))
		if err != nil {
			t.Fatal(err)
		}
		ref := target()
		var got []optimize.Record
		for range stop {
			rec, err := b.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, rec)
		}
		state, err := b.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		opts := s
		m, err := opts.Restore(p, state)
		if err != nil {
			t.Fatal(err)
		}
		for !m.Done() {
			rec, err := m.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, rec)
		}
		if len(got) != len(want) {
			t.Fatalf("stop %d: %d records, want %d", stop, len(got), len(want))
		}
		for i := range want {
			if a, b := optimizetest.RecordJSON(t, got[i]), optimizetest.RecordJSON(t, want[i]); a != b {
				t.Fatalf("stop %d: record %d differs:\n%s\n%s", stop, i, a, b)
			}
		}
	}
}

// A failing referee leaves the run as it was: the retried step equals the
// step of a run that never failed.
func TestFailureLeavesStateUnchanged(t *testing.T) {
	s := settings(6)
	p := problem(3)
	_, want := run(t, s, p, 5, target())
	b, err := New(s, p, rand.NewPCG(5, 7))
	if err != nil {
		t.Fatal(err)
	}
	ref := &optimizetest.FailingReferee{Ref: target(), FailAt: 3}
	var got []optimize.Record
	for !b.Done() {
		rec, err := b.Step(context.Background(), ref)
		if errors.Is(err, optimizetest.ErrEngine) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, rec)
	}
	for i := range want {
		if a, b := optimizetest.RecordJSON(t, got[i]), optimizetest.RecordJSON(t, want[i]); a != b {
			t.Fatalf("record %d differs after a failure:\n%s\n%s", i, a, b)
		}
	}
	if _, err := b.Step(context.Background(), target()); !errors.Is(err, optimize.ErrDone) {
		t.Errorf("Step after the budget: %v, want ErrDone", err)
	}
}

// Every record has the metrics the charts plot; the forecast counts the
// games exactly; the design comes first, one point per slice of every
// coordinate; the start replaces the first design point.
func TestRecordsForecastDesign(t *testing.T) {
	s := settings(5)
	s.Initial = 6
	p := problem(3)
	b, err := New(s, p, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	for d := range 3 {
		var slice []int
		for _, u := range b.design {
			slice = append(slice, int(u[d]*6))
		}
		slices.Sort(slice)
		if !slices.Equal(slice, []int{0, 1, 2, 3, 4, 5}) {
			t.Errorf("gene %d: the design's slices are %v, want one point in each of 6", d, slice)
		}
	}
	ref := target()
	for k := range 5 {
		f := b.Forecast()
		if f.Steps != 5-k || f.NextGames != 4*2*2 || f.Games != (5-k)*16 {
			t.Errorf("iteration %d: forecast %+v", k, f)
		}
		before := ref.Games
		rec, it := optimizetest.Step[Iteration](t, b, ref)
		if rec.Games != ref.Games-before || rec.Games != 16 {
			t.Errorf("iteration %d: record says %d games, the referee played %d", k, rec.Games, ref.Games-before)
		}
		optimizetest.CheckCharts(t, Spec, rec, p.Genes)
		for j, pt := range it.Points {
			wantDesign := k*4+j < 6
			if (pt.Source == "design") != wantDesign {
				t.Errorf("iteration %d point %d: source %q", k, j, pt.Source)
			}
		}
		if lo, hi := rec.Metrics["opt_elo_lo"], rec.Metrics["opt_elo_hi"]; !(lo <= rec.Metrics["opt_elo"] && rec.Metrics["opt_elo"] <= hi) {
			t.Errorf("iteration %d: the optimum's Elo %g lies outside its interval [%g, %g]", k, rec.Metrics["opt_elo"], lo, hi)
		}
	}
	if f := b.Forecast(); f != (optimize.Forecast{}) {
		t.Errorf("forecast after the budget: %+v", f)
	}
	p.Start = []float64{1000, 2000, 3000}
	w, err := New(s, p, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(w.cfg.genes(w.design[0]), p.Start) || !slices.Equal(w.design[1], b.design[1]) {
		t.Errorf("with a start the design begins %v, %v", w.cfg.genes(w.design[0]), w.design[1])
	}
}

// Bad options are refused with the key at fault, before anything runs.
func TestOptionsNameTheKey(t *testing.T) {
	p := problem(3)
	for _, c := range []struct {
		key string
		set func(*Settings)
	}{
		{"kernel", func(s *Settings) { s.Kernel = "rbf" }},
		{"acquisition", func(s *Settings) { s.Acquisition = "pi" }},
		{"length_scale_min", func(s *Settings) { s.LengthScaleMin = -1 }},
		{"length_scale_max", func(s *Settings) { s.LengthScaleMax = 0.01 }},
		{"length_scale_max", func(s *Settings) { s.LengthScaleMax = math.Inf(1) }},
		{"initial", func(s *Settings) { s.Initial = 41 }}, // 10 iterations × 4 points
		{"initial", func(s *Settings) { s.Initial = 1 }},
		{"pool", func(s *Settings) { s.Pool = nil }},
		{"pool", func(s *Settings) { s.Pool = []string{"centroid"} }},
		{"pool", func(s *Settings) { s.Pool = []string{"nobody"} }},
		{"xi", func(s *Settings) { s.Xi = -0.1 }},
		{"beta", func(s *Settings) { s.Beta = math.NaN() }},
		{"batch", func(s *Settings) { s.Batch = -1 }},
		{"repeats", func(s *Settings) { s.Repeats = -2 }},
	} {
		s := settings(10)
		c.set(&s)
		err := s.Validate(p)
		var oe *optimize.OptionError
		if !errors.As(err, &oe) || oe.Key != c.key {
			t.Errorf("%s: %v", c.key, err)
			continue
		}
		if _, err := New(s, p, rand.NewPCG(1, 1)); err == nil {
			t.Errorf("%s: New accepted what Validate refused", c.key)
		}
	}
	s := settings(10)
	s.Initial = 40
	if err := s.Validate(p); err != nil {
		t.Errorf("an initial design of the whole budget: %v", err)
	}
	if err := s.Validate(optimize.Problem{}); err == nil || !strings.Contains(err.Error(), "genes") {
		t.Errorf("empty problem: %v", err)
	}
	optimizetest.CheckNilOptions(t, Spec, p)
}

// A state that does not fit the settings is refused, naming the field.
func TestRestoreNamesTheField(t *testing.T) {
	s := settings(6)
	p := problem(3)
	b, _ := run(t, s, p, 2, target())
	for _, c := range []struct {
		field string
		edit  func(*State)
	}{
		{"Iteration", func(st *State) { st.Iteration = 99 }},
		{"Design", func(st *State) { st.Design = st.Design[1:] }},
		{"Points", func(st *State) { st.Points = st.Points[1:] }},
		{"Points[2].U", func(st *State) { st.Points[2].U = []float64{1} }},
		{"Points[0].Results", func(st *State) { st.Points[0].Results = nil }},
		{"Kernel.Variance", func(st *State) { st.Kernel.Variance = 0 }},
		{"Optimum", func(st *State) { st.Optimum = nil }},
		{"RNG", func(st *State) { st.RNG = []byte("x") }},
	} {
		st := b.State()
		c.edit(&st)
		if _, err := Restore(s, p, st); err == nil || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: %v", c.field, err)
		}
	}
}

func TestElo(t *testing.T) {
	for _, c := range []struct{ s, elo float64 }{{0.5, 0}, {0.75, 190.848501887865}, {0.25, -190.848501887865}, {1, 1199.8261952903774}, {0, -1199.8261952903774}} {
		if got := Elo(c.s); math.Abs(got-c.elo) > 1e-3 {
			t.Errorf("Elo(%g) = %g, want %g", c.s, got, c.elo)
		}
	}
}

// With a start the box is the start ± spread of itself (a gene at 0:
// [0, spread of its initial range]), inside the bounds, and the start is
// the design's first point; a spread outside (0, 1] is refused.
func TestStartBox(t *testing.T) {
	p := problem(3)
	p.Start = []float64{1000, 0, 3000}
	s := settings(5)
	s.Spread = 0.4
	b, err := New(s, p, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.cfg.Lo, []float64{600, 0, 1800}) || !slices.Equal(b.cfg.Hi, []float64{1400, 1600, 4000}) {
		t.Errorf("box %v – %v", b.cfg.Lo, b.cfg.Hi)
	}
	if got := b.cfg.genes(b.design[0]); !slices.Equal(got, p.Start) {
		t.Errorf("the design's first point is %v, want the start", got)
	}
	for _, bad := range []float64{-0.1, 1.5, math.NaN()} {
		s.Spread = bad
		var oe *optimize.OptionError
		if err := s.Validate(p); !errors.As(err, &oe) || oe.Key != "spread" {
			t.Errorf("spread %g: %v", bad, err)
		}
	}
}

// The last record's profiles are the model's: rebuilt from the run's
// points and kernel, the model predicts every profile point's mean and
// band; Spec.Profiles reads them from the record in memory and from its
// JSON; earlier records carry none.
func TestProfilesMatchTheModel(t *testing.T) {
	b, recs := run(t, settings(4), problem(3), 9, target())
	ps := Spec.Profiles(recs[len(recs)-1])
	if len(ps) != 3 {
		t.Fatalf("%d profiles, want one a gene", len(ps))
	}
	if got := Spec.Profiles(recs[0]); got != nil {
		t.Errorf("the first record has profiles: %v", got)
	}
	model, err := b.Model()
	if err != nil {
		t.Fatal(err)
	}
	it := recs[len(recs)-1].Detail.(Iteration)
	for d, p := range ps {
		if p.Gene != b.cfg.Genes[d] || len(p.X) != profilePoints || p.At != b.cfg.Lo[d]+it.OptimumU[d]*(b.cfg.Hi[d]-b.cfg.Lo[d]) {
			t.Fatalf("profile %d: %s, %d points, at %g", d, p.Gene, len(p.X), p.At)
		}
		for k, x := range p.X {
			u := slices.Clone(it.OptimumU)
			u[d] = (x - b.cfg.Lo[d]) / (b.cfg.Hi[d] - b.cfg.Lo[d])
			m, v := model.Predict(u)
			sd := math.Sqrt(v)
			if math.Abs(Elo(m)-p.Mean[k]) > 1e-6 || math.Abs(Elo(m-1.96*sd)-p.Lo[k]) > 1e-6 || math.Abs(Elo(m+1.96*sd)-p.Hi[k]) > 1e-6 {
				t.Errorf("gene %s at %g: profile %g [%g, %g], model %g ± %g", p.Gene, x, p.Mean[k], p.Lo[k], p.Hi[k], Elo(m), sd)
			}
			if !(p.Lo[k] <= p.Mean[k] && p.Mean[k] <= p.Hi[k]) {
				t.Errorf("gene %s at %g: the mean lies outside its band", p.Gene, x)
			}
		}
	}
	data, err := json.Marshal(recs[len(recs)-1].Detail)
	if err != nil {
		t.Fatal(err)
	}
	back := Spec.Profiles(optimize.Record{Detail: json.RawMessage(data)})
	if len(back) != 3 || !slices.Equal(back[1].Mean, ps[1].Mean) {
		t.Errorf("profiles through JSON: %v", back)
	}
}
