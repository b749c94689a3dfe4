package spsa

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
	o := DefaultSettings()
	want := Settings{Iterations: 200, Alpha: 0.602, Gamma: 0.101, CEndFraction: 0.05, REnd: PerGene{All: 0.002}}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("DefaultSettings %+v, want %+v", o, want)
	}
	p := problem(3)
	p.Bounds.Hi[1] = 8000
	p.InitHi[2] = 2000
	c := o.resolve(p)
	// A = 0.1·N = 20; c_end = range/20 of the bounds: 200, 400, 200.
	if c.AStability != 20 || !reflect.DeepEqual(c.CEnd, []float64{200, 400, 200}) || !reflect.DeepEqual(c.REnd, []float64{0.002, 0.002, 0.002}) {
		t.Errorf("config: A %g, c_end %v, r_end %v", c.AStability, c.CEnd, c.REnd)
	}
	// Without bounds the range is the initial one.
	p.Bounds, p.BoundMode = nil, "off"
	if c := o.resolve(p); !reflect.DeepEqual(c.CEnd, []float64{200, 200, 100}) {
		t.Errorf("no bounds: c_end %v, want the initial range / 20", c.CEnd)
	}
	// a_stability set; c_end and r_end by gene, as numbers for every gene.
	o.AStability = 7
	o.CEnd = PerGene{All: 30, Genes: map[string]float64{"S2": 50}}
	o.REnd = PerGene{Genes: map[string]float64{"S3": 0.01}}
	if c := o.resolve(p); c.AStability != 7 || !reflect.DeepEqual(c.CEnd, []float64{30, 50, 30}) || !reflect.DeepEqual(c.REnd, []float64{0.002, 0.002, 0.01}) {
		t.Errorf("overrides: A %g, c_end %v, r_end %v", c.AStability, c.CEnd, c.REnd)
	}
	if err := c.validate(); err != nil {
		t.Error(err)
	}
}

func TestOptionsValidateNamesTheKey(t *testing.T) {
	type edit = func(*Settings, *optimize.Problem)
	lim := func(key string, in, out edit) optimizetest.OptionLimit[Settings] {
		return optimizetest.OptionLimit[Settings]{Key: key, In: in, Out: out}
	}
	cases := []optimizetest.OptionLimit[Settings]{
		lim("iterations", func(o *Settings, _ *optimize.Problem) { o.Iterations = 1 },
			func(o *Settings, _ *optimize.Problem) { o.Iterations = -1 }),
		lim("alpha", func(o *Settings, _ *optimize.Problem) { o.Alpha = 1e-9 },
			func(o *Settings, _ *optimize.Problem) { o.Alpha = -1e-9 }),
		lim("alpha", func(o *Settings, _ *optimize.Problem) { o.Alpha = 1 },
			func(o *Settings, _ *optimize.Problem) { o.Alpha = math.NaN() }),
		lim("gamma", func(o *Settings, _ *optimize.Problem) { o.Gamma = 1e-9 },
			func(o *Settings, _ *optimize.Problem) { o.Gamma = -0.101 }),
		lim("gamma", func(o *Settings, _ *optimize.Problem) { o.Gamma = 1 },
			func(o *Settings, _ *optimize.Problem) { o.Gamma = math.Inf(1) }),
		lim("a_stability", func(o *Settings, _ *optimize.Problem) { o.AStability = 0 },
			func(o *Settings, _ *optimize.Problem) { o.AStability = -1 }),
		lim("a_stability", func(o *Settings, _ *optimize.Problem) { o.AStability = 1e6 },
			func(o *Settings, _ *optimize.Problem) { o.AStability = math.Inf(1) }),
		lim("c_end_fraction", func(o *Settings, _ *optimize.Problem) { o.CEndFraction = 1e-6 },
			func(o *Settings, _ *optimize.Problem) { o.CEndFraction = -1e-6 }),
		lim("c_end", func(o *Settings, _ *optimize.Problem) { o.CEnd.All = 0 },
			func(o *Settings, _ *optimize.Problem) { o.CEnd.All = -1 }),
		lim("c_end", func(o *Settings, _ *optimize.Problem) { o.CEnd.All = 300 },
			func(o *Settings, _ *optimize.Problem) { o.CEnd.All = math.NaN() }),
		lim("c_end.S4", func(o *Settings, _ *optimize.Problem) { o.CEnd.Genes = map[string]float64{"S4": 300} },
			func(o *Settings, _ *optimize.Problem) { o.CEnd.Genes = map[string]float64{"S4": 0} }),
		lim("c_end.S9", func(o *Settings, _ *optimize.Problem) { o.CEnd.Genes = map[string]float64{"S5": 1} },
			func(o *Settings, _ *optimize.Problem) { o.CEnd.Genes = map[string]float64{"S5": 1, "S9": 1} }),
		lim("r_end", func(o *Settings, _ *optimize.Problem) { o.REnd.All = 1e-9 },
			func(o *Settings, _ *optimize.Problem) { o.REnd.All = -0.002 }),
		lim("r_end.S1", func(o *Settings, _ *optimize.Problem) { o.REnd.Genes = map[string]float64{"S1": 0.004} },
			func(o *Settings, _ *optimize.Problem) { o.REnd.Genes = map[string]float64{"S1": math.Inf(1)} }),
		lim("r_end.s1", func(o *Settings, _ *optimize.Problem) { o.REnd.Genes = map[string]float64{"S1": 0.004} },
			func(o *Settings, _ *optimize.Problem) { o.REnd.Genes = map[string]float64{"s1": 0.004} }),
		// From the problem: its shapes, and the initial range inside clamped
		// bounds; a gene of zero range is fine once its c_end is set.
		lim("", func(_ *Settings, p *optimize.Problem) { p.Pairs = 1 },
			func(_ *Settings, p *optimize.Problem) { p.Pairs = 0 }),
		lim("", func(_ *Settings, p *optimize.Problem) { p.InitHi[1] = 4000 },
			func(_ *Settings, p *optimize.Problem) { p.InitHi[1] = 4001 }),
		lim("", func(_ *Settings, p *optimize.Problem) { p.InitHi[1], p.BoundMode = 4001, "off" },
			func(_ *Settings, p *optimize.Problem) { p.InitHi[1], p.BoundMode = 4001, "reflect" }),
		lim("", func(o *Settings, p *optimize.Problem) {
			p.Bounds, p.BoundMode, p.InitHi[2] = nil, "off", 0
			o.CEnd.Genes = map[string]float64{"S3": 10}
		}, func(_ *Settings, p *optimize.Problem) { p.Bounds, p.BoundMode, p.InitHi[2] = nil, "off", 0 }),
		lim("", func(_ *Settings, p *optimize.Problem) { p.BoundMode = "off" },
			func(_ *Settings, p *optimize.Problem) { p.BoundMode = "wrap" }),
	}
	optimizetest.CheckOptionLimits(t, Spec, DefaultSettings, func() optimize.Problem { return problem(5) }, cases)
	// Settings.Validate is what Spec.Validate calls.
	o := DefaultSettings()
	o.CEnd.Genes = map[string]float64{"S9": 1}
	var oe *optimize.OptionError
	if err := o.Validate(problem(5)); !errors.As(err, &oe) || oe.Key != "c_end.S9" {
		t.Errorf("Settings.Validate: %v", err)
	}
}

// TestPerGeneTOML decodes the [spsa] table of a config and encodes it back
// the way a job writes its resolved config: after a "[spsa]" header, so a
// table must be written inline to stay in the method's table.
func TestPerGeneTOML(t *testing.T) {
	doc := `
[spsa]
iterations = 50
c_end = {S4 = 300, S1 = 12.5}
r_end = {S1 = 0.004}
`
	var raw map[string]toml.Primitive
	md, err := toml.Decode(doc, &raw)
	if err != nil {
		t.Fatal(err)
	}
	o := DefaultSettings()
	if err := md.PrimitiveDecode(raw["spsa"], &o); err != nil {
		t.Fatal(err)
	}
	if und := md.Undecoded(); len(und) > 1 { // the [spsa] primitive itself
		t.Errorf("undecoded keys %v", und)
	}
	want := DefaultSettings()
	want.Iterations = 50
	want.CEnd = PerGene{Genes: map[string]float64{"S4": 300, "S1": 12.5}}
	want.REnd = PerGene{Genes: map[string]float64{"S1": 0.004}}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("decoded %+v, want %+v", o, want)
	}
	for _, o := range []Settings{want, DefaultSettings(), {Iterations: 3, REnd: PerGene{All: 0.5}, CEnd: PerGene{All: 7}}} {
		var b bytes.Buffer
		b.WriteString("[spsa]\n")
		if err := toml.NewEncoder(&b).Encode(o); err != nil {
			t.Fatal(err)
		}
		var raw map[string]toml.Primitive
		md, err := toml.Decode(b.String(), &raw)
		if err != nil {
			t.Fatalf("%v in\n%s", err, b.String())
		}
		var back Settings
		if err := md.PrimitiveDecode(raw["spsa"], &back); err != nil {
			t.Fatal(err)
		}
		if len(raw) != 1 || !reflect.DeepEqual(back, o) {
			t.Errorf("round trip of\n%s gave %+v, want %+v", b.String(), back, o)
		}
		js, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var fromJSON Settings
		if err := json.Unmarshal(js, &fromJSON); err != nil || !reflect.DeepEqual(fromJSON, o) {
			t.Errorf("JSON round trip of %s: %+v, %v", js, fromJSON, err)
		}
	}
	// A number replaces a table and the reverse; anything else is an error.
	var v PerGene
	for _, in := range []any{map[string]any{"S1": int64(2)}, 0.5} {
		if err := v.UnmarshalTOML(in); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(v, PerGene{All: 0.5}) {
		t.Errorf("after a table and a number: %+v", v)
	}
	for _, in := range []any{"300", map[string]any{"S1": "x"}, true} {
		if err := v.UnmarshalTOML(in); err == nil {
			t.Errorf("UnmarshalTOML(%#v) accepted it", in)
		}
	}
	if err := json.Unmarshal([]byte(`"300"`), &v); err == nil {
		t.Error(`UnmarshalJSON("300") accepted it`)
	}
	if b, _ := (PerGene{Genes: map[string]float64{"a b": 1, "S1": 2}}).MarshalTOML(); string(b) != `{S1 = 2, "a b" = 1}` {
		t.Errorf("MarshalTOML: %s", b)
	}
}

func TestSpec(t *testing.T) {
	if Spec.Name != "spsa" || Spec.Unit != "iteration" || Spec.BudgetKey != "iterations" || !strings.Contains(Spec.About, "Spall 1992") {
		t.Errorf("spec %+v", Spec)
	}
	o, ok := Spec.Options().(*Settings)
	if !ok || !reflect.DeepEqual(*o, DefaultSettings()) {
		t.Fatalf("Spec.Options() = %#v", Spec.Options())
	}
	if d := Spec.Describe(o); d != "SPSA, 200 iterations, α 0.602 γ 0.101 A 20 (0.1·N), c_end 0.05 of the range, r_end 0.002" {
		t.Errorf("Describe: %q", d)
	}
	o2 := *o
	o2.Iterations = 6 // A = 0.6, not 0.6000000000000001
	if d := Spec.Describe(&o2); !strings.Contains(d, "A 0.6 (0.1·N)") {
		t.Errorf("Describe: %q", d)
	}
	o2.AStability = 5
	o2.CEnd = PerGene{Genes: map[string]float64{"S4": 300}}
	o2.REnd = PerGene{Genes: map[string]float64{"S1": 0.004}}
	if d := Spec.Describe(&o2); !strings.Contains(d, "A 5,") || !strings.Contains(d, "set {S4 = 300}") || !strings.HasSuffix(d, "r_end {S1 = 0.004}") {
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
	if len(rec.Metrics) != 5+len(p.Genes) {
		t.Errorf("metrics %v", rec.Metrics)
	}
	optimizetest.CheckNilOptions(t, Spec, p)
	if _, err := New(*o, p, nil); err == nil {
		t.Error("New accepted a nil PCG")
	}
}

func TestConfigValidateNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*config)
	}{
		{"CEnd", func(c *config) { c.CEnd = nil }},
		{"InitLo[1]", func(c *config) { c.Bounds.Hi[1] = c.InitHi[1] - 1 }},
		{"CEnd[2]", func(c *config) { c.CEnd[2] = 0 }},
		{"REnd[0]", func(c *config) { c.REnd[0] = math.NaN() }},
		{"CEnd[1]", func(c *config) { c.CEnd[1] = 1e300 }},
		{"Iterations", func(c *config) { c.Iterations = 0 }},
		{"Alpha", func(c *config) { c.Alpha = 0 }},
		{"Gamma", func(c *config) { c.Gamma = math.Inf(1) }},
		{"AStability", func(c *config) { c.AStability = -1 }},
	} {
		c := DefaultSettings().resolve(problem(3))
		tc.edit(&c)
		if err := c.validate(); err == nil || !strings.Contains(err.Error(), "field "+tc.field+":") {
			t.Errorf("field %s: got error %v", tc.field, err)
		}
	}
}

// TestProblemFaults checks that the problem's own faults are found once,
// by optimize.Problem.Validate through Settings.Validate.
func TestProblemFaults(t *testing.T) {
	optimizetest.CheckProblemFaults(t, DefaultSettings().Validate, func() optimize.Problem { return problem(3) })
}

// TestZeroMeansDefault: gonum's way, the options a Go program leaves at
// zero take fishtest's defaults where SPSA refuses a zero (iterations,
// α, γ, c_end_fraction, r_end).
func TestZeroMeansDefault(t *testing.T) {
	if err := (Settings{}).Validate(problem(5)); err != nil {
		t.Fatal(err)
	}
	if got, want := (Settings{}).withDefaults(), DefaultSettings(); got.Iterations != want.Iterations || got.Alpha != want.Alpha || got.Gamma != want.Gamma || got.REnd.All != want.REnd.All {
		t.Errorf("zero settings resolve to %+v, want %+v", got, want)
	}
}
