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
	o := DefaultOptions()
	want := Options{Iterations: 200, Alpha: 0.602, Gamma: 0.101, CEndFraction: 0.05, REnd: PerGene{All: 0.002}}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("DefaultOptions %+v, want %+v", o, want)
	}
	p := problem(3)
	p.Bounds.Hi[1] = 8000
	p.InitHi[2] = 2000
	c := o.Config(p)
	// A = 0.1·N = 20; c_end = range/20 of the bounds: 200, 400, 200.
	if c.Stability != 20 || !reflect.DeepEqual(c.CEnd, []float64{200, 400, 200}) || !reflect.DeepEqual(c.REnd, []float64{0.002, 0.002, 0.002}) {
		t.Errorf("config: A %g, c_end %v, r_end %v", c.Stability, c.CEnd, c.REnd)
	}
	// Without bounds the range is the initial one.
	p.Bounds, p.BoundMode = nil, "off"
	if c := o.Config(p); !reflect.DeepEqual(c.CEnd, []float64{200, 200, 100}) {
		t.Errorf("no bounds: c_end %v, want the initial range / 20", c.CEnd)
	}
	// a_stability set; c_end and r_end by gene, as numbers for every gene.
	o.AStability = 7
	o.CEnd = PerGene{All: 30, Genes: map[string]float64{"S2": 50}}
	o.REnd = PerGene{Genes: map[string]float64{"S3": 0.01}}
	if c := o.Config(p); c.Stability != 7 || !reflect.DeepEqual(c.CEnd, []float64{30, 50, 30}) || !reflect.DeepEqual(c.REnd, []float64{0.002, 0.002, 0.01}) {
		t.Errorf("overrides: A %g, c_end %v, r_end %v", c.Stability, c.CEnd, c.REnd)
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}

func TestOptionsValidateNamesTheKey(t *testing.T) {
	type edit func(*Options, *optimize.Problem)
	cases := []struct {
		key     string
		in, out edit // just inside the limit (passes), just outside (fails)
	}{
		{"iterations", func(o *Options, _ *optimize.Problem) { o.Iterations = 1 },
			func(o *Options, _ *optimize.Problem) { o.Iterations = 0 }},
		{"alpha", func(o *Options, _ *optimize.Problem) { o.Alpha = 1e-9 },
			func(o *Options, _ *optimize.Problem) { o.Alpha = 0 }},
		{"alpha", func(o *Options, _ *optimize.Problem) { o.Alpha = 1 },
			func(o *Options, _ *optimize.Problem) { o.Alpha = math.NaN() }},
		{"gamma", func(o *Options, _ *optimize.Problem) { o.Gamma = 1e-9 },
			func(o *Options, _ *optimize.Problem) { o.Gamma = -0.101 }},
		{"gamma", func(o *Options, _ *optimize.Problem) { o.Gamma = 1 },
			func(o *Options, _ *optimize.Problem) { o.Gamma = math.Inf(1) }},
		{"a_stability", func(o *Options, _ *optimize.Problem) { o.AStability = 0 },
			func(o *Options, _ *optimize.Problem) { o.AStability = -1 }},
		{"a_stability", func(o *Options, _ *optimize.Problem) { o.AStability = 1e6 },
			func(o *Options, _ *optimize.Problem) { o.AStability = math.Inf(1) }},
		{"c_end_fraction", func(o *Options, _ *optimize.Problem) { o.CEndFraction = 1e-6 },
			func(o *Options, _ *optimize.Problem) { o.CEndFraction = 0 }},
		{"c_end", func(o *Options, _ *optimize.Problem) { o.CEnd.All = 0 },
			func(o *Options, _ *optimize.Problem) { o.CEnd.All = -1 }},
		{"c_end", func(o *Options, _ *optimize.Problem) { o.CEnd.All = 300 },
			func(o *Options, _ *optimize.Problem) { o.CEnd.All = math.NaN() }},
		{"c_end.S4", func(o *Options, _ *optimize.Problem) { o.CEnd.Genes = map[string]float64{"S4": 300} },
			func(o *Options, _ *optimize.Problem) { o.CEnd.Genes = map[string]float64{"S4": 0} }},
		{"c_end.S9", func(o *Options, _ *optimize.Problem) { o.CEnd.Genes = map[string]float64{"S5": 1} },
			func(o *Options, _ *optimize.Problem) { o.CEnd.Genes = map[string]float64{"S5": 1, "S9": 1} }},
		{"r_end", func(o *Options, _ *optimize.Problem) { o.REnd.All = 1e-9 },
			func(o *Options, _ *optimize.Problem) { o.REnd.All = -0.002 }},
		{"r_end.S1", func(o *Options, _ *optimize.Problem) { o.REnd.Genes = map[string]float64{"S1": 0.004} },
			func(o *Options, _ *optimize.Problem) { o.REnd.Genes = map[string]float64{"S1": math.Inf(1)} }},
		{"r_end.s1", func(o *Options, _ *optimize.Problem) { o.REnd.Genes = map[string]float64{"S1": 0.004} },
			func(o *Options, _ *optimize.Problem) { o.REnd.Genes = map[string]float64{"s1": 0.004} }},
		// From the problem: its shapes, and the initial range inside clamped
		// bounds; a gene of zero range is fine once its c_end is set.
		{"", func(_ *Options, p *optimize.Problem) { p.Pairs = 1 },
			func(_ *Options, p *optimize.Problem) { p.Pairs = 0 }},
		{"", func(_ *Options, p *optimize.Problem) { p.InitHi[1] = 4000 },
			func(_ *Options, p *optimize.Problem) { p.InitHi[1] = 4001 }},
		{"", func(_ *Options, p *optimize.Problem) { p.InitHi[1], p.BoundMode = 4001, "off" },
			func(_ *Options, p *optimize.Problem) { p.InitHi[1], p.BoundMode = 4001, "reflect" }},
		{"", func(o *Options, p *optimize.Problem) {
			p.Bounds, p.BoundMode, p.InitHi[2] = nil, "off", 0
			o.CEnd.Genes = map[string]float64{"S3": 10}
		}, func(_ *Options, p *optimize.Problem) { p.Bounds, p.BoundMode, p.InitHi[2] = nil, "off", 0 }},
		{"", func(_ *Options, p *optimize.Problem) { p.BoundMode = "off" },
			func(_ *Options, p *optimize.Problem) { p.BoundMode = "wrap" }},
	}
	for i, tc := range cases {
		o, p := DefaultOptions(), problem(5)
		tc.in(&o, &p)
		if err := o.Validate(p); err != nil {
			t.Errorf("case %d (%s) inside the limit: %v", i, tc.key, err)
		}
		if err := Spec.Validate(&o, p); err != nil {
			t.Errorf("case %d (%s) inside the limit, Spec.Validate: %v", i, tc.key, err)
		}
		o, p = DefaultOptions(), problem(5)
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
	o := DefaultOptions()
	if err := md.PrimitiveDecode(raw["spsa"], &o); err != nil {
		t.Fatal(err)
	}
	if und := md.Undecoded(); len(und) > 1 { // the [spsa] primitive itself
		t.Errorf("undecoded keys %v", und)
	}
	want := DefaultOptions()
	want.Iterations = 50
	want.CEnd = PerGene{Genes: map[string]float64{"S4": 300, "S1": 12.5}}
	want.REnd = PerGene{Genes: map[string]float64{"S1": 0.004}}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("decoded %+v, want %+v", o, want)
	}
	for _, o := range []Options{want, DefaultOptions(), {Iterations: 3, REnd: PerGene{All: 0.5}, CEnd: PerGene{All: 7}}} {
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
		var back Options
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
		var fromJSON Options
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
	o, ok := Spec.Options().(*Options)
	if !ok || !reflect.DeepEqual(*o, DefaultOptions()) {
		t.Fatalf("Spec.Options() = %#v", Spec.Options())
	}
	if d := Spec.Describe(o); d != "SPSA, 200 iterations, α 0.602 γ 0.101 A 20 (0.1·N), c_end 0.05 of the range, r_end 0.002" {
		t.Errorf("Describe: %q", d)
	}
	o2 := *o
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
	for _, ch := range Spec.Charts {
		for _, k := range ch.Metrics {
			if _, ok := rec.Metrics[k]; !ok {
				t.Errorf("chart %s plots %q, which no record has", ch.Name, k)
			}
		}
		if ch.Prefix != "" {
			for _, g := range p.Genes {
				if _, ok := rec.Metrics[ch.Prefix+g]; !ok {
					t.Errorf("chart %s plots %q, which no record has", ch.Name, ch.Prefix+g)
				}
			}
		}
	}
	if len(rec.Metrics) != 5+len(p.Genes) {
		t.Errorf("metrics %v", rec.Metrics)
	}
	for _, bad := range []any{DefaultOptions(), (*Options)(nil), nil, "spsa"} {
		if err := Spec.Validate(bad, p); err == nil || !strings.Contains(err.Error(), "*spsa.Options") {
			t.Errorf("Validate(%T): %v", bad, err)
		}
		if m, err := Spec.New(bad, p, rand.NewPCG(1, 1)); err == nil || m != nil {
			t.Errorf("New(%T): %v", bad, err)
		}
		if m, err := Spec.Restore(bad, p, []byte("{}")); err == nil || m != nil {
			t.Errorf("Restore(%T): %v", bad, err)
		}
	}
	if _, err := New(o.Config(p), nil); err == nil {
		t.Error("New accepted a nil PCG")
	}
}

func TestConfigValidateNamesTheField(t *testing.T) {
	for _, tc := range []struct {
		field string
		edit  func(*Config)
	}{
		{"Genes", func(c *Config) { c.Genes = nil }},
		{"InitHi", func(c *Config) { c.InitHi = c.InitHi[:1] }},
		{"CEnd", func(c *Config) { c.CEnd = nil }},
		{"BoundMode", func(c *Config) { c.BoundMode = "" }},
		{"Bounds", func(c *Config) { c.Bounds = nil }},
		{"Bounds", func(c *Config) { c.Bounds.Lo[0] = 5000 }},
		{"InitLo[1]", func(c *Config) { c.InitLo[1] = 4500 }},
		{"CEnd[2]", func(c *Config) { c.CEnd[2] = 0 }},
		{"REnd[0]", func(c *Config) { c.REnd[0] = math.NaN() }},
		{"CEnd[1]", func(c *Config) { c.CEnd[1] = 1e300 }},
		{"Iterations", func(c *Config) { c.Iterations = 0 }},
		{"Alpha", func(c *Config) { c.Alpha = 0 }},
		{"Gamma", func(c *Config) { c.Gamma = math.Inf(1) }},
		{"Stability", func(c *Config) { c.Stability = -1 }},
		{"Pairs", func(c *Config) { c.Pairs = -1 }},
	} {
		c := DefaultOptions().Config(problem(3))
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "field "+tc.field+":") {
			t.Errorf("field %s: got error %v", tc.field, err)
		}
	}
}
