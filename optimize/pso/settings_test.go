package pso

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// problem is Chen's problem for genes genes: initial range [0, 4000],
// bounds [0, 4000] clamped, one game pair a match.
func problem(genes int) optimize.Problem {
	return optimizetest.Problem(optimizetest.Letters(genes)...)
}

func TestOptionsConfig(t *testing.T) {
	o := DefaultSettings()
	o.Particles, o.VMaxFraction = 10, 0.5
	p := problem(2)
	p.Bounds = &optimize.Bounds{Lo: []float64{-100, 0}, Hi: []float64{100, 4000}}
	p.InitLo, p.Pairs = []float64{-100, 0}, 3
	c := o.resolve(p)
	if c.Particles != 10 || len(c.Genes) != 2 || c.Iterations != 15 || c.Pairs != 3 || c.BoundMode != optimize.BoundsClamp {
		t.Errorf("config %+v", c)
	}
	if !slices.Equal(c.VMax, []float64{100, 2000}) {
		t.Errorf("VMax %v, want half of each gene's range", c.VMax)
	}
	if !reflect.DeepEqual(c.Bounds, p.Bounds) || c.Bounds == p.Bounds || &c.InitLo[0] == &p.InitLo[0] {
		t.Error("bounds and ranges must be copies of the problem's")
	}
	// The bounds off still give the velocity limit its scale.
	p.BoundMode = "off"
	if c := o.resolve(p); c.BoundMode != optimize.BoundsOff || !slices.Equal(c.VMax, []float64{100, 2000}) {
		t.Errorf("bounds off: mode %q VMax %v", c.BoundMode, c.VMax)
	}
	p.Bounds = nil
	if c := o.resolve(p); c.VMax != nil || c.Bounds != nil {
		t.Errorf("no bounds: VMax %v bounds %v, want none", c.VMax, c.Bounds)
	}
	p = problem(2)
	o.VMaxFraction = 0
	if c := o.resolve(p); c.VMax != nil {
		t.Errorf("vmax_fraction 0: VMax %v, want nil", c.VMax)
	}
}

func TestOptionsValidateNamesTheKey(t *testing.T) {
	const eps = 1e-9
	type edit func(*Settings, *optimize.Problem)
	type limit struct {
		key     string
		in, out edit // just inside the limit (passes), just outside (fails)
	}
	cases := []limit{
		{"particles", func(o *Settings, _ *optimize.Problem) { o.Particles = 2 },
			func(o *Settings, _ *optimize.Problem) { o.Particles = 1 }},
		{"iterations", func(o *Settings, _ *optimize.Problem) { o.Iterations = 1 },
			func(o *Settings, _ *optimize.Problem) { o.Iterations = -1 }},
		{"vel_lo", func(o *Settings, _ *optimize.Problem) { o.VelLo, o.VelHi = 5, 5 },
			func(o *Settings, _ *optimize.Problem) { o.VelLo, o.VelHi = 5+eps, 5 }},
		{"vel_lo", func(o *Settings, _ *optimize.Problem) { o.VelLo = -1e300 },
			func(o *Settings, _ *optimize.Problem) { o.VelLo = math.Inf(-1) }},
		{"vel_lo", func(o *Settings, _ *optimize.Problem) { o.VelLo = 0 },
			func(o *Settings, _ *optimize.Problem) { o.VelLo = math.NaN() }},
		{"vel_hi", func(o *Settings, _ *optimize.Problem) { o.VelHi = 1e300 },
			func(o *Settings, _ *optimize.Problem) { o.VelHi = math.Inf(1) }},
		{"vel_hi", func(o *Settings, _ *optimize.Problem) { o.VelHi = 0 },
			func(o *Settings, _ *optimize.Problem) { o.VelHi = math.NaN() }},
		{"vmax_fraction", func(o *Settings, _ *optimize.Problem) { o.VMaxFraction = 0 },
			func(o *Settings, _ *optimize.Problem) { o.VMaxFraction = -eps }},
		{"vmax_fraction", func(o *Settings, _ *optimize.Problem) { o.VMaxFraction = 1e6 },
			func(o *Settings, _ *optimize.Problem) { o.VMaxFraction = math.Inf(1) }},
		{"vmax_fraction", func(o *Settings, p *optimize.Problem) { o.VMaxFraction, p.Bounds, p.BoundMode = 0, nil, "off" },
			func(o *Settings, p *optimize.Problem) { o.VMaxFraction, p.Bounds, p.BoundMode = math.NaN(), nil, "off" }},
		// From the problem: the initial range must lie inside clamped bounds,
		// but need not with the bounds off.
		{"", func(_ *Settings, p *optimize.Problem) { p.InitHi[1] = 4000 },
			func(_ *Settings, p *optimize.Problem) { p.InitHi[1] = 4000 + eps }},
		{"", func(_ *Settings, p *optimize.Problem) { p.InitHi[1], p.BoundMode = 4000+eps, "off" },
			func(_ *Settings, p *optimize.Problem) { p.InitHi[1], p.BoundMode = 4000+eps, "reflect" }},
		{"", func(_ *Settings, p *optimize.Problem) { p.InitLo[2] = p.InitHi[2] },
			func(_ *Settings, p *optimize.Problem) { p.InitLo[2] = p.InitHi[2] + eps }},
		{"", func(_ *Settings, p *optimize.Problem) { p.Pairs = 1 },
			func(_ *Settings, p *optimize.Problem) { p.Pairs = 0 }},
		{"", func(_ *Settings, p *optimize.Problem) { p.BoundMode = "reflect" },
			func(_ *Settings, p *optimize.Problem) { p.BoundMode = "wrap" }},
		{"", func(_ *Settings, p *optimize.Problem) { p.BoundMode, p.Bounds = "off", nil },
			func(_ *Settings, p *optimize.Problem) { p.BoundMode, p.Bounds = "clamp", nil }},
	}
	// c1, c2, α1, α2: 0 and any finite number pass; below 0, NaN, ∞ fail.
	for _, k := range []string{"c1", "c2", "alpha1", "alpha2"} {
		set := func(o *Settings, v float64) {
			switch k {
			case "c1":
				o.C1 = v
			case "c2":
				o.C2 = v
			case "alpha1":
				o.Alpha1 = v
			case "alpha2":
				o.Alpha2 = v
			}
		}
		for _, e := range [][2]float64{{0, -eps}, {1e300, math.Inf(1)}, {1, math.NaN()}} {
			cases = append(cases, limit{k, func(o *Settings, _ *optimize.Problem) { set(o, e[0]) }, func(o *Settings, _ *optimize.Problem) { set(o, e[1]) }})
		}
	}
	for i, tc := range cases {
		o, p := DefaultSettings(), problem(5)
		tc.in(&o, &p)
		if err := o.Validate(p); err != nil {
			t.Errorf("case %d (%s) inside the limit: %v", i, tc.key, err)
		}
		if err := Spec.Validate(&o, p); err != nil {
			t.Errorf("case %d (%s) inside the limit, Spec.Validate: %v", i, tc.key, err)
		}
		o, p = DefaultSettings(), problem(5)
		tc.out(&o, &p)
		err := o.Validate(p)
		var oe *optimize.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("case %d (%s) outside the limit: error %v is not an *optimize.OptionError", i, tc.key, err)
			continue
		}
		if oe.Key != tc.key || oe.Msg == "" {
			t.Errorf("case %d: key %q (%v), want %q", i, oe.Key, err, tc.key)
		}
		if tc.key == "" && !strings.Contains(strings.ToLower(oe.Msg), "problem") {
			t.Errorf("case %d: %q does not say the problem is at fault", i, oe.Msg)
		}
		if _, err := Spec.New(&o, p, rand.NewPCG(1, 2)); err == nil {
			t.Errorf("case %d (%s): Spec.New accepted it", i, tc.key)
		}
	}
}

func TestSpec(t *testing.T) {
	if Spec.Name != "pso" || Spec.Unit != "iteration" || Spec.BudgetKey != "iterations" || !strings.Contains(Spec.About, "Chen 2010 §5") {
		t.Errorf("spec %+v", Spec)
	}
	o, ok := Spec.Options().(*Settings)
	if !ok || !reflect.DeepEqual(*o, DefaultSettings()) {
		t.Fatalf("Spec.Options() = %#v", Spec.Options())
	}
	if d := Spec.Describe(o); d != "PSO, 49 particles, 15 iterations, c1 2.05 c2 2.05, velocity limit 20% of the bound range" {
		t.Errorf("Describe: %q", d)
	}
	o.VMaxFraction = 0
	if d := Spec.Describe(o); !strings.HasSuffix(d, "no velocity limit") {
		t.Errorf("Describe: %q", d)
	}
	m, err := Spec.New(o, problem(5), rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.Step(context.Background(), &optimizetest.TargetReferee{Target: []float64{1, 2, 3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	metrics := map[string]bool{}
	for k := range rec.Metrics {
		metrics[k] = true
	}
	// The robust variant's last iteration, raced.
	robust := DefaultSettings()
	robust.Variant, robust.Particles, robust.Iterations, robust.RaceBudget = VariantRobust, 8, 1, 200
	if d := Spec.Describe(&robust); !strings.HasPrefix(d, "PSO, robust variant: 8 particles") {
		t.Errorf("Describe: %q", d)
	}
	m, err = Spec.New(&robust, problem(5), rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := m.(*RobustPSO); !ok {
		t.Fatalf("variant robust made a %T", m)
	}
	rec, err = m.Step(context.Background(), &optimizetest.TargetReferee{Target: []float64{1, 2, 3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	for k := range rec.Metrics {
		metrics[k] = true
	}
	for _, ch := range Spec.Charts {
		for _, k := range ch.Metrics {
			if !metrics[k] {
				t.Errorf("chart %s plots %q, which no record of either variant has", ch.Name, k)
			}
		}
	}
	optimizetest.CheckNilOptions(t, Spec, problem(5))
}

var errCut = errors.New("cut")

func TestSpecRoundTripContinuesIdentically(t *testing.T) {
	o := DefaultSettings()
	o.Particles, o.Iterations = 10, 7
	p := problem(3)
	p.BoundMode, p.Pairs = "reflect", 2
	ref := func() optimize.Referee {
		return &optimizetest.TargetReferee{Target: []float64{500, 2500, 1200}, Temperature: 200, Pairs: 2}
	}
	m, err := Spec.New(&o, p, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	var full []string
	for _, rec := range runAll(t, m, ref(), optimize.Settings{}, nil) {
		full = append(full, optimizetest.RecordJSON(t, rec))
	}
	finalState, err := m.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{0, 1, 4, 7} {
		m, err := Spec.New(&o, p, rand.NewPCG(3, 4))
		if err != nil {
			t.Fatal(err)
		}
		var st optimize.Status
		var part []string
		if cut > 0 {
			err := optimize.Run(context.Background(), m, ref(), optimize.Settings{Recorder: func(r optimize.Record, s optimize.Status) error {
				part = append(part, optimizetest.RecordJSON(t, r))
				if s.Steps == cut {
					return errCut
				}
				return nil
			}}, &st)
			if !errors.Is(err, errCut) || len(part) != cut {
				t.Fatalf("cut %d: %v after %d records", cut, err, len(part))
			}
		}
		blob, err := m.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		r, err := Spec.Restore(&o, p, blob)
		if err != nil {
			t.Fatal(err)
		}
		if r.Steps() != cut || !slices.Equal(r.Best(), m.Best()) || r.Forecast() != m.Forecast() {
			t.Fatalf("cut %d: restored at step %d, best %v, forecast %+v", cut, r.Steps(), r.Best(), r.Forecast())
		}
		for _, rec := range runAll(t, r, ref(), optimize.Settings{}, &st) {
			part = append(part, optimizetest.RecordJSON(t, rec))
		}
		if !reflect.DeepEqual(part, full) {
			t.Errorf("cut %d: the restored run's records differ", cut)
		}
		if b, _ := r.MarshalState(); string(b) != string(finalState) {
			t.Errorf("cut %d: final states differ", cut)
		}
	}

	good, _ := m.MarshalState()
	for name, blob := range map[string]string{
		"unknown field": strings.Replace(string(good), `"iteration":`, `"unchanged":0,"iteration":`, 1),
		"trailing data": string(good) + "{}",
		"not JSON":      "iteration=3",
		"bad state":     strings.Replace(string(good), `"iteration":7`, `"iteration":8`, 1),
	} {
		if r, err := Spec.Restore(&o, p, []byte(blob)); err == nil || r != nil {
			t.Errorf("%s: Restore accepted it", name)
		}
	}
}

func TestForecastBoundsTheGames(t *testing.T) {
	for _, pairs := range []int{1, 3} {
		c := smallConfig() // 8 particles, 6 iterations
		c.Pairs = pairs
		batch := 2 * pairs * c.Particles
		knockout := 2 * pairs * (c.Particles - 1)

		// A referee under which no new position ever wins: no challenges,
		// so the forecast is exact.
		never := &scripted{decide: func(call, i int, _ optimize.Match) optimize.Outcome {
			return optimize.Outcome{Losses: 2 * pairs}
		}}
		p := mustNew(t, c, 2, 2)
		f := p.Forecast()
		if f.Steps != 6 || f.NextGames != knockout+batch || f.Games != knockout+6*batch {
			t.Fatalf("pairs %d: first forecast %+v", pairs, f)
		}
		for p.Steps() < c.Iterations {
			f := p.Forecast()
			rec, _ := step(t, p, never)
			if rec.Games != f.NextGames {
				t.Errorf("pairs %d, step %d: played %d games, forecast %d", pairs, rec.Step, rec.Games, f.NextGames)
			}
		}

		// The target referee: challenges come on top, never fewer games.
		p = mustNew(t, c, 2, 2)
		ref := &optimizetest.TargetReferee{Target: []float64{500, 2500, 1200}, Temperature: 200, Pairs: pairs}
		total := p.Forecast().Games
		extra := 0
		for p.Steps() < c.Iterations {
			f := p.Forecast()
			if f.Steps != c.Iterations-p.Steps() {
				t.Errorf("step %d: %d steps left", p.Steps(), f.Steps)
			}
			rec, it := step(t, p, ref)
			_, gb := it.Improvements()
			if rec.Games < f.NextGames {
				t.Errorf("pairs %d, step %d: played %d games, fewer than the forecast %d", pairs, rec.Step, rec.Games, f.NextGames)
			}
			extra += rec.Games - f.NextGames
			// The difference is the global-best challenges, one match each.
			if pb, _ := it.Improvements(); rec.Games-f.NextGames != 2*pairs*pb {
				t.Errorf("pairs %d, step %d: %d games beyond the forecast, %d challenges (%d won)", pairs, rec.Step, rec.Games-f.NextGames, pb, gb)
			}
		}
		if ref.Games != total+extra || extra == 0 {
			t.Errorf("pairs %d: played %d games, forecast %d + %d challenge games", pairs, ref.Games, total, extra)
		}
	}
}

// TestStartVectorRefused: Chen's swarm is drawn whole; a start vector is
// refused with a message naming the variant that takes one.
func TestStartVectorRefused(t *testing.T) {
	p := optimize.Problem{Genes: []string{"S1", "S2"}, InitLo: []float64{0, 0}, InitHi: []float64{1, 1}, BoundMode: "off", Pairs: 1, Start: []float64{0.5, 0.5}}
	err := DefaultSettings().Validate(p)
	var oe *optimize.OptionError
	if !errors.As(err, &oe) || oe.Key != "" || oe.Field != "Start" || !strings.Contains(oe.Msg, `needs variant = "robust"`) {
		t.Errorf("PSO with a start vector: %v", err)
	}
}

// TestZeroMeansDefault: gonum's way, the options a Go program leaves at
// zero take their defaults where the swarm refuses a zero (particles,
// iterations, the race's), for either variant; VMaxFraction 0 keeps its
// own meaning, no limit.
func TestZeroMeansDefault(t *testing.T) {
	for _, s := range []Settings{{}, {Variant: VariantRobust}} {
		if err := s.Validate(problem(5)); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	if d := (&Settings{}).Describe(); !strings.Contains(d, "49 particles, 15 iterations") || !strings.Contains(d, "no velocity limit") {
		t.Errorf("describe: %s", d)
	}
}
