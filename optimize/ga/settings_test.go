package ga

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
	o.Population, o.Groups, o.Fitness, o.PmMode = 20, 4, "original", "adaptive"
	p := problem(3)
	p.Pairs = 2
	c := o.resolve(p)
	if c.Population != 20 || c.Groups != 4 || len(c.Genes) != 3 || c.Fitness != FitnessOriginal || c.PmMode != PmAdaptive || c.Pairs != 2 || c.Generations != 30 {
		t.Errorf("config %+v", c)
	}
	if !reflect.DeepEqual(c.Bounds, p.Bounds) || c.Bounds == p.Bounds || !slices.Equal(c.InitHi, p.InitHi) {
		t.Errorf("bounds %+v, init %v: want copies of the problem's", c.Bounds, c.InitHi)
	}
	c.InitHi[0] = 1
	if p.InitHi[0] != 4000 {
		t.Error("Config shares the problem's InitHi")
	}
	for _, mode := range []optimize.BoundMode{optimize.BoundsClamp, optimize.BoundsReflect} {
		p.BoundMode = mode
		if o.resolve(p).Bounds == nil {
			t.Errorf("bound mode %s: the GA must clamp", mode)
		}
	}
	p.BoundMode = "off"
	if b := o.resolve(p).Bounds; b != nil {
		t.Errorf("bound mode off: bounds %+v, want nil", b)
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
		{"population", func(o *Settings, _ *optimize.Problem) { o.Population, o.Groups = 2, 1 },
			func(o *Settings, _ *optimize.Problem) { o.Population, o.Groups = 1, 1 }},
		{"groups", func(o *Settings, _ *optimize.Problem) { o.Population, o.Groups = 14, 7 },
			func(o *Settings, _ *optimize.Problem) { o.Population, o.Groups = 14, 14 }}, // groups of 1
		{"groups", func(o *Settings, _ *optimize.Problem) { o.Groups = 1 },
			func(o *Settings, _ *optimize.Problem) { o.Groups = -1 }},
		{"groups", func(o *Settings, _ *optimize.Problem) { o.Population, o.Groups = 12, 4 },
			func(o *Settings, _ *optimize.Problem) { o.Population, o.Groups = 12, 5 }}, // 5 does not divide 12
		{"generations", func(o *Settings, _ *optimize.Problem) { o.Generations = 1 },
			func(o *Settings, _ *optimize.Problem) { o.Generations = -1 }},
		{"fitness", func(o *Settings, _ *optimize.Problem) { o.Fitness = "original" },
			func(o *Settings, _ *optimize.Problem) { o.Fitness = "elo" }},
		{"pm_mode", func(o *Settings, _ *optimize.Problem) { o.PmMode = "adaptive" },
			func(o *Settings, _ *optimize.Problem) { o.PmMode = "sometimes" }},
		{"", func(_ *Settings, p *optimize.Problem) { p.InitHi[1] = p.InitLo[1] },
			func(_ *Settings, p *optimize.Problem) { p.InitHi[1] = p.InitLo[1] - eps }},
		{"", func(_ *Settings, p *optimize.Problem) { p.InitLo[0] = -1e300 },
			func(_ *Settings, p *optimize.Problem) { p.InitLo[0] = math.Inf(-1) }},
		{"", func(_ *Settings, p *optimize.Problem) { p.Pairs = 1 },
			func(_ *Settings, p *optimize.Problem) { p.Pairs = 0 }},
		{"", func(_ *Settings, p *optimize.Problem) { p.BoundMode, p.Bounds = "off", nil },
			func(_ *Settings, p *optimize.Problem) { p.BoundMode, p.Bounds = "clamp", nil }},
		{"", func(_ *Settings, p *optimize.Problem) { p.Bounds.Lo[2] = p.Bounds.Hi[2] },
			func(_ *Settings, p *optimize.Problem) { p.Bounds.Lo[2] = p.Bounds.Hi[2] + eps }},
	}
	// Every probability: 0 and 1 pass, just beyond either and NaN fail.
	for _, k := range []string{"pc1", "pc2", "pm", "pm1", "pm2"} {
		set := func(o *Settings, v float64) {
			switch k {
			case "pc1":
				o.Pc1 = v
			case "pc2":
				o.Pc2 = v
			case "pm":
				o.Pm = v
			case "pm1":
				o.Pm1 = v
			case "pm2":
				o.Pm2 = v
			}
		}
		for _, e := range [][2]float64{{0, -eps}, {1, 1 + eps}, {0.5, math.NaN()}, {1, math.Inf(1)}} {
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
		if tc.key == "" && !strings.Contains(oe.Msg, "Problem") && !strings.Contains(oe.Msg, "problem") {
			t.Errorf("case %d: %q does not say the problem is at fault", i, oe.Msg)
		}
		if _, err := Spec.New(&o, p, rand.NewPCG(1, 2)); err == nil {
			t.Errorf("case %d (%s): Spec.New accepted it", i, tc.key)
		}
	}
}

func TestSpec(t *testing.T) {
	if Spec.Name != "ga" || Spec.Unit != "generation" || Spec.BudgetKey != "generations" || !strings.Contains(Spec.About, "Chen 2010 §4") {
		t.Errorf("spec %+v", Spec)
	}
	o, ok := Spec.Options().(*Settings)
	if !ok || !reflect.DeepEqual(*o, DefaultSettings()) {
		t.Fatalf("Spec.Options() = %#v", Spec.Options())
	}
	if o2 := Spec.Options().(*Settings); o2 == o {
		t.Error("Spec.Settings returns a shared value")
	}
	if d := Spec.Describe(o); d != "GA, improved fitness, 49 individuals in 7 groups, 30 generations, Pc 0.9–0.6, Pm fixed 0.15" {
		t.Errorf("Describe: %q", d)
	}
	o.PmMode = "adaptive"
	if d := Spec.Describe(o); !strings.HasSuffix(d, "Pm adaptive 0.1–0.001") {
		t.Errorf("Describe: %q", d)
	}
	metrics := map[string]bool{}
	rec, err := mustNew(t, defaultConfig(5), 1).Step(context.Background(), newTarget(100))
	if err != nil {
		t.Fatal(err)
	}
	for k := range rec.Metrics {
		metrics[k] = true
	}
	robust := DefaultSettings()
	robust.Variant, robust.Population, robust.Generations, robust.RaceBudget = VariantRobust, 8, 1, 0
	m, err := Spec.New(&robust, optimizetest.Problem(optimizetest.Letters(5)...), rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	rec, err = m.Step(context.Background(), newTarget(100))
	if err != nil {
		t.Fatal(err)
	}
	for k := range rec.Metrics {
		metrics[k] = true
	}
	for _, ch := range Spec.Charts {
		for _, m := range ch.Metrics {
			if !metrics[m] {
				t.Errorf("chart %s plots %q, which no record of either variant has", ch.Name, m)
			}
		}
	}
	optimizetest.CheckNilOptions(t, Spec, problem(5))
}

func TestSpecRoundTripContinuesIdentically(t *testing.T) {
	o := DefaultSettings()
	o.Population, o.Groups, o.Generations, o.PmMode = 20, 4, 7, "adaptive"
	p := problem(5)
	p.Pairs = 2
	ref := func() optimize.Referee {
		return &optimizetest.TargetReferee{Target: hiddenTarget, Temperature: 100, Pairs: 2}
	}
	m, err := Spec.New(&o, p, rand.NewPCG(3, 4))
	if err != nil {
		t.Fatal(err)
	}
	full := runAll(t, m, ref(), optimize.Settings{}, nil)
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
		var part []optimize.Record
		if cut > 0 {
			err := optimize.Run(context.Background(), m, ref(), optimize.Settings{Recorder: func(r optimize.Record, s optimize.Status) error {
				part = append(part, r)
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
		part = append(part, runAll(t, r, ref(), optimize.Settings{}, &st)...)
		if !reflect.DeepEqual(withoutTime(part), withoutTime(full)) {
			t.Errorf("cut %d: the restored run's records differ", cut)
		}
		if b, _ := r.MarshalState(); string(b) != string(finalState) {
			t.Errorf("cut %d: final states differ", cut)
		}
	}

	// Spec.Restore is strict about the JSON.
	good, _ := m.MarshalState()
	for name, blob := range map[string]string{
		"unknown field": strings.Replace(string(good), `"next":`, `"stall":0,"next":`, 1),
		"trailing data": string(good) + "{}",
		"not JSON":      "next=3",
		"bad state":     strings.Replace(string(good), `"next":7`, `"next":8`, 1),
	} {
		if r, err := Spec.Restore(&o, p, []byte(blob)); err == nil || r != nil {
			t.Errorf("%s: Restore accepted it", name)
		}
	}
	if _, err := Spec.Restore(&o, p, append(good, '\n', ' ')); err != nil {
		t.Errorf("trailing white space: %v", err)
	}
}

// errCut is a recorder's way to stop a run part way.
var errCut = errors.New("cut")

func TestForecastEqualsTheGamesPlayed(t *testing.T) {
	for _, tc := range []struct {
		name          string
		form          FitnessForm
		m, n, pairs   int
		perGeneration int
	}{
		{"improved", FitnessImproved, 20, 4, 1, 2 * (4*10 + 6)},
		{"improved, 3 pairs", FitnessImproved, 20, 4, 3, 6 * (4*10 + 6)},
		{"one group", FitnessImproved, 6, 1, 1, 2 * 15},
		{"original", FitnessOriginal, 20, 4, 2, 4 * 4 * 10},
	} {
		c := defaultConfig(5)
		c.Fitness, c.Population, c.Groups, c.Pairs, c.Generations = tc.form, tc.m, tc.n, tc.pairs, 4
		g := mustNew(t, c, 6)
		ref := &optimizetest.TargetReferee{Target: hiddenTarget, Temperature: 100, Pairs: tc.pairs}
		for step := range c.Generations {
			f := g.Forecast()
			left := c.Generations - step
			if f.Steps != left || f.NextGames != tc.perGeneration || f.Games != left*tc.perGeneration {
				t.Errorf("%s, step %d: forecast %+v, want %d steps of %d games", tc.name, step, f, left, tc.perGeneration)
			}
			rec, err := g.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			if rec.Games != f.NextGames {
				t.Errorf("%s, step %d: played %d games, forecast %d", tc.name, step, rec.Games, f.NextGames)
			}
		}
		if f := g.Forecast(); f != (optimize.Forecast{}) {
			t.Errorf("%s: forecast when done %+v", tc.name, f)
		}
	}
	// Pairs 0 counts as 1.
	c := defaultConfig(5)
	c.Pairs = 0
	if got := c.GenerationGames(); got != 2*(7*21+21) {
		t.Errorf("Pairs 0: %d games a generation", got)
	}
}

// TestStartVectorRefused: Chen's GA draws its whole population; a start
// vector is refused with a message naming the variant that takes one.
func TestStartVectorRefused(t *testing.T) {
	p := optimize.Problem{Genes: []string{"S1", "S2"}, InitLo: []float64{0, 0}, InitHi: []float64{1, 1}, BoundMode: "off", Pairs: 1, Start: []float64{0.5, 0.5}}
	err := DefaultSettings().Validate(p)
	var oe *optimize.OptionError
	if !errors.As(err, &oe) || oe.Key != "" || oe.Field != "Start" || !strings.Contains(oe.Msg, "robust") {
		t.Errorf("GA with a start vector: %v", err)
	}
}

// TestZeroMeansDefault: gonum's way, the options a Go program leaves at
// zero take their defaults where the GA refuses a zero (population,
// groups, generations, sigma, the race's), for either variant, and the
// run describes what it will use.
func TestZeroMeansDefault(t *testing.T) {
	for _, s := range []Settings{{}, {Variant: VariantRobust}} {
		if err := s.Validate(problem(5)); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	if d := (&Settings{}).Describe(); !strings.Contains(d, "49 individuals in 7 groups, 30 generations") {
		t.Errorf("describe: %s", d)
	}
	if _, err := New(Settings{Generations: 2}, problem(5), rand.NewPCG(1, 2)); err != nil {
		t.Errorf("New with only the budget set: %v", err)
	}
}
