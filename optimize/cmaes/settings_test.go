package cmaes

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

func TestDefaults(t *testing.T) {
	want := Settings{Generations: 100, Sigma: 0.3, NoiseHandling: true, MaxRepeats: 4, MaxSigma: 4, CMean: 1, NoiseOptions: optimize.DefaultNoiseOptions()}
	if o := DefaultSettings(); !reflect.DeepEqual(o, want) {
		t.Errorf("DefaultSettings %+v, want %+v", o, want)
	}
	p := problem(5)
	c := DefaultSettings().resolve(p)
	if c.Lambda != 8 || c.AlphaSigma != 1+2.0/15 || c.Bounds == nil || len(c.Pool) != 1 || c.Pool[0].Name != "centroid" || c.RaceBudget != 2000 {
		t.Errorf("config %+v", c)
	}
	p.BoundMode = "off"
	o := DefaultSettings()
	o.Lambda, o.AlphaSigma = 12, 1.5
	if c := o.resolve(p); c.Lambda != 12 || c.AlphaSigma != 1.5 || c.Bounds != nil {
		t.Errorf("set: λ %d α_σ %g bounds %v", c.Lambda, c.AlphaSigma, c.Bounds)
	}
}

func TestOptionsValidateNamesTheKey(t *testing.T) {
	type edit = func(*Settings, *optimize.Problem)
	lim := func(key string, in, out edit) optimizetest.OptionLimit[Settings] {
		return optimizetest.OptionLimit[Settings]{Key: key, In: in, Out: out}
	}
	start := func(p *optimize.Problem) { p.Start = []float64{1000, 1000, 1000, 1000, 1000} }
	cases := []optimizetest.OptionLimit[Settings]{
		lim("generations", func(o *Settings, _ *optimize.Problem) { o.Generations = 1 },
			func(o *Settings, _ *optimize.Problem) { o.Generations = -1 }),
		lim("lambda", func(o *Settings, _ *optimize.Problem) { o.Lambda = 4 },
			func(o *Settings, _ *optimize.Problem) { o.Lambda = 3 }),
		lim("lambda", func(o *Settings, _ *optimize.Problem) { o.Lambda = 0 },
			func(o *Settings, _ *optimize.Problem) { o.Lambda = -1 }),
		lim("sigma", func(o *Settings, _ *optimize.Problem) { o.Sigma = 1e-9 },
			func(o *Settings, _ *optimize.Problem) { o.Sigma = -1e-9 }),
		lim("sigma", func(o *Settings, _ *optimize.Problem) { o.Sigma = 5 },
			func(o *Settings, _ *optimize.Problem) { o.Sigma = math.NaN() }),
		lim("sigma", func(o *Settings, _ *optimize.Problem) { o.Sigma = 1 },
			func(o *Settings, _ *optimize.Problem) { o.Sigma = math.Inf(1) }),
		lim("max_repeats", func(o *Settings, _ *optimize.Problem) { o.MaxRepeats = 1 },
			func(o *Settings, _ *optimize.Problem) { o.MaxRepeats = -1 }),
		lim("cmean", func(o *Settings, _ *optimize.Problem) { o.CMean = 1 },
			func(o *Settings, _ *optimize.Problem) { o.CMean = 1.01 }),
		lim("cmean", func(o *Settings, _ *optimize.Problem) { o.CMean = 1e-6 },
			func(o *Settings, _ *optimize.Problem) { o.CMean = -1e-6 }),
		lim("max_sigma", func(o *Settings, _ *optimize.Problem) { o.MaxSigma = 1 },
			func(o *Settings, _ *optimize.Problem) { o.MaxSigma = 0.99 }),
		lim("max_sigma", func(o *Settings, _ *optimize.Problem) { o.MaxSigma = 0 },
			func(o *Settings, _ *optimize.Problem) { o.MaxSigma = math.NaN() }),
		lim("alpha_sigma", func(o *Settings, _ *optimize.Problem) { o.AlphaSigma = 1 },
			func(o *Settings, _ *optimize.Problem) { o.AlphaSigma = 0.99 }),
		lim("alpha_sigma", func(o *Settings, _ *optimize.Problem) { o.AlphaSigma = 0 },
			func(o *Settings, _ *optimize.Problem) { o.AlphaSigma = math.Inf(1) }),
		// The shared noise options.
		lim("pool", func(o *Settings, _ *optimize.Problem) { o.Pool = []string{"best"} },
			func(o *Settings, _ *optimize.Problem) { o.Pool = []string{""} }),
		lim("pool", func(o *Settings, p *optimize.Problem) {
			o.Pool = []string{"centroid", "x"}
			p.Opponent = func(string) ([]float64, error) { return []float64{1, 2, 3, 4, 5}, nil }
		}, func(o *Settings, _ *optimize.Problem) { o.Pool = []string{"centroid", "x"} }),
		lim("norm", func(o *Settings, _ *optimize.Problem) { o.Norm = 0 },
			func(o *Settings, _ *optimize.Problem) { o.Norm = -1 }),
		lim("memory", func(o *Settings, _ *optimize.Problem) { o.Memory = 0 },
			func(o *Settings, _ *optimize.Problem) { o.Memory = 1.5 }),
		// A race of the answer, the mean (optimize.RaceMeans counts both,
		// whatever average) and 4 best against 1 opponent, 2 games a match,
		// 3 rounds before a drop: at least 6·1·2·3 = 36 games.
		lim("race_budget", func(o *Settings, _ *optimize.Problem) { o.RaceBudget = 36 },
			func(o *Settings, _ *optimize.Problem) { o.RaceBudget = 35 }),
		lim("race_budget", func(o *Settings, _ *optimize.Problem) { o.RaceBudget = 0 },
			func(o *Settings, _ *optimize.Problem) { o.RaceBudget = -1 }),
		lim("race_alpha", func(o *Settings, _ *optimize.Problem) { o.RaceAlpha = 0.5 },
			func(o *Settings, _ *optimize.Problem) { o.RaceAlpha = -0.05 }),
		lim("race_rounds", func(o *Settings, _ *optimize.Problem) { o.RaceRounds = 2 },
			func(o *Settings, _ *optimize.Problem) { o.RaceRounds = 1 }),
		lim("race_candidates", func(o *Settings, _ *optimize.Problem) { o.RaceCandidates = 1 },
			func(o *Settings, _ *optimize.Problem) { o.RaceCandidates = -1 }),
		lim("average", func(o *Settings, _ *optimize.Problem) { o.Average = 0 },
			func(o *Settings, _ *optimize.Problem) { o.Average = -1 }),
		lim("warm_spread", func(o *Settings, p *optimize.Problem) { start(p); o.WarmSpread = 1e-6 },
			func(o *Settings, p *optimize.Problem) { start(p); o.WarmSpread = 0 }),
		lim("warm_spread", func(o *Settings, _ *optimize.Problem) { o.WarmSpread = 0 },
			func(o *Settings, _ *optimize.Problem) { o.WarmSpread = math.Inf(1) }),
		// From the problem.
		lim("", func(_ *Settings, p *optimize.Problem) { p.Pairs = 1 },
			func(_ *Settings, p *optimize.Problem) { p.Pairs = 0 }),
		lim("", func(_ *Settings, p *optimize.Problem) { p.BoundMode = "off" },
			func(_ *Settings, p *optimize.Problem) { p.BoundMode = "wrap" }),
		lim("", func(_ *Settings, p *optimize.Problem) { start(p) },
			func(_ *Settings, p *optimize.Problem) { p.Start = make([]float64, 5) }),
		lim("", func(_ *Settings, p *optimize.Problem) { p.InitHi = []float64{0, 0, 0, 0, 1} },
			func(_ *Settings, p *optimize.Problem) { p.InitHi = make([]float64, 5) }),
	}
	optimizetest.CheckOptionLimits(t, Spec, DefaultSettings, func() optimize.Problem { return problem(5) }, cases)
	o := DefaultSettings()
	o.Lambda = 3
	var oe *optimize.OptionError
	if err := o.Validate(problem(5)); !errors.As(err, &oe) || oe.Key != "lambda" || !strings.Contains(oe.Msg, "at least 4 candidates") {
		t.Errorf("lambda 3: %v", err)
	}
	p := problem(5)
	p.Start = make([]float64, 5)
	if err := o.Validate(p); err == nil {
		t.Error("a zero start accepted")
	}
	o = DefaultSettings()
	if err := o.Validate(p); !errors.As(err, &oe) || oe.Field != "Start" {
		t.Errorf("zero start: %v", err)
	}
}

// TestConfigValidateNamesTheField: New refuses a Config that Settings
// could not make, naming the field.
func TestConfigValidateNamesTheField(t *testing.T) {
	optimizetest.CheckProblemFaults(t, DefaultSettings().Validate, func() optimize.Problem { return problem(3) })
	for _, tc := range []struct {
		field string
		edit  func(*config)
	}{
		{"Start", func(c *config) { c.Start = []float64{0, 0, 0} }},
		{"WarmSpread", func(c *config) { c.Start, c.WarmSpread = []float64{1, 2, 3}, 0 }},
		{"Generations", func(c *config) { c.Generations = 0 }},
		{"Lambda", func(c *config) { c.Lambda = 3 }},
		{"Sigma", func(c *config) { c.Sigma = -1 }},
		{"MaxRepeats", func(c *config) { c.MaxRepeats = 0 }},
		{"AlphaSigma", func(c *config) { c.AlphaSigma = 0 }},
		{"MaxSigma", func(c *config) { c.MaxSigma = 0.5 }},
		{"CMean", func(c *config) { c.CMean = 0 }},
		{"Pool", func(c *config) { c.Pool = nil }},
		{"Pool[0]", func(c *config) { c.Pool = []optimize.PoolEntry{{Name: "x", Genes: []float64{1}}} }},
		{"Norm", func(c *config) { c.Norm = math.NaN() }},
		{"RaceCandidates", func(c *config) { c.RaceCandidates = 0 }},
		{"Race", func(c *config) { c.RaceBudget = 5 }},
	} {
		c := DefaultSettings().resolve(problem(3))
		tc.edit(&c)
		if err := c.validate(); err == nil || !strings.Contains(err.Error(), "field "+tc.field+":") {
			t.Errorf("field %s: got error %v", tc.field, err)
		}
	}
	if _, err := New(DefaultSettings(), problem(3), nil); err == nil {
		t.Error("New accepted a nil PCG")
	}
}

// TestTOML decodes a [cmaes] table whose keys include the embedded
// optimize.NoiseOptions' and encodes it back the way a job writes its
// resolved config.
func TestTOML(t *testing.T) {
	doc := `
[cmaes]
generations = 40
lambda = 12
noise_handling = false
alpha_sigma = 1.2
pool = ["centroid", "zhou2015"]
norm = 3000.0
race_budget = 0
warm_spread = 0.05
`
	var raw map[string]toml.Primitive
	md, err := toml.Decode(doc, &raw)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultSettings()
	if err := md.PrimitiveDecode(raw["cmaes"], &o); err != nil {
		t.Fatal(err)
	}
	if und := md.Undecoded(); len(und) > 1 { // the [cmaes] primitive itself
		t.Errorf("undecoded keys %v", und)
	}
	want := DefaultSettings()
	want.Generations, want.Lambda, want.NoiseHandling, want.AlphaSigma = 40, 12, false, 1.2
	want.Pool, want.Norm, want.RaceBudget, want.WarmSpread = []string{"centroid", "zhou2015"}, 3000, 0, 0.05
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("decoded %+v, want %+v", o, want)
	}
	for _, o := range []Settings{want, DefaultSettings()} {
		var b bytes.Buffer
		b.WriteString("[cmaes]\n")
		if err := toml.NewEncoder(&b).Encode(o); err != nil {
			t.Fatal(err)
		}
		var raw map[string]toml.Primitive
		md, err := toml.Decode(b.String(), &raw)
		if err != nil {
			t.Fatalf("%v in\n%s", err, b.String())
		}
		var back Settings
		if err := md.PrimitiveDecode(raw["cmaes"], &back); err != nil {
			t.Fatal(err)
		}
		if len(raw) != 1 || !reflect.DeepEqual(back, o) || strings.Contains(b.String(), "NoiseOptions") {
			t.Errorf("round trip of\n%s gave %+v, want %+v", b.String(), back, o)
		}
		js, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var fromJSON Settings
		if err := json.Unmarshal(js, &fromJSON); err != nil || !reflect.DeepEqual(fromJSON, o) || !strings.Contains(string(js), `"race_budget"`) {
			t.Errorf("JSON round trip of %s: %+v, %v", js, fromJSON, err)
		}
	}
}

func TestSpec(t *testing.T) {
	if Spec.Name != "cmaes" || Spec.Unit != "generation" || Spec.BudgetKey != "generations" || !strings.Contains(Spec.About, "Hansen 2016") {
		t.Errorf("spec %+v", Spec)
	}
	o, ok := Spec.Options().(*Settings)
	if !ok || !reflect.DeepEqual(*o, DefaultSettings()) {
		t.Fatalf("Spec.Options() = %#v", Spec.Options())
	}
	if d := Spec.Describe(o); d != "CMA-ES, 100 generations, λ 4 + ⌊3 ln n⌋, σ0 0.3 of the range, noise handling (repeats ≤ 4, α_σ 1 + 2/(n + 10), σ ≤ 4·σ0), pool centroid, a race of the answer and the 4 best over ≤ 2000 games" {
		t.Errorf("Describe: %q", d)
	}
	o2 := *o
	o2.Lambda, o2.NoiseHandling, o2.Norm, o2.RaceBudget, o2.Average = 10, false, 2000, 0, 5
	if d := Spec.Describe(&o2); !strings.Contains(d, "λ 10,") || !strings.Contains(d, "no noise handling") || !strings.HasSuffix(d, "norm 2000, the answer the average of the latest 5 means") {
		t.Errorf("Describe: %q", d)
	}
	p := problem(5)
	m, err := Spec.New(o, p, rand.NewPCG(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := m.Step(context.Background(), &optimizetest.TargetReferee{Target: []float64{1, 2, 3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	optimizetest.CheckCharts(t, Spec, rec, p.Genes)
	for _, k := range []string{"fitness", "fitness_mean", "sigma", "noise_s", "repeats", "diversity", "gene_std"} {
		if v, ok := rec.Metrics[k]; !ok || math.IsNaN(v) {
			t.Errorf("metric %s: %v", k, v)
		}
	}
	if _, err := json.Marshal(rec); err != nil || rec.Line == "" {
		t.Errorf("record: %v, line %q", err, rec.Line)
	}
	for _, c := range Spec.Charts {
		if len(c.Labels) != len(c.Metrics) {
			t.Errorf("chart %s: %d labels for %d metrics", c.Name, len(c.Labels), len(c.Metrics))
		}
		for i := range c.Metrics {
			if !strings.Contains(c.Label(i), " ") {
				t.Errorf("chart %s: label %q is not words", c.Name, c.Label(i))
			}
		}
	}
	optimizetest.CheckNilOptions(t, Spec, p)
}

// TestZeroMeansDefault: gonum's way, the options a Go program leaves at
// zero take their defaults where CMA-ES refuses a zero (generations, σ0,
// repeats, c_m, the pool and the race's); Lambda 0 keeps its own
// meaning, 4 + ⌊3 ln n⌋.
func TestZeroMeansDefault(t *testing.T) {
	if err := (Settings{}).Validate(problem(5)); err != nil {
		t.Fatal(err)
	}
	if got := (Settings{}).withDefaults(); got.Generations != DefaultGenerations || got.Lambda != 0 || len(got.Pool) != 1 {
		t.Errorf("zero settings resolve to %+v", got)
	}
}
