package texel

import (
	"errors"
	"math"
	"strings"
	"testing"

	rt "github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

func TestOptionsValidateNamesTheKey(t *testing.T) {
	p := problem(5)
	if err := DefaultSettings().Validate(p); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, tc := range []struct {
		key  string
		edit func(*Settings)
	}{
		{"rounds", func(o *Settings) { o.Rounds = -1 }},
		{"opponents", func(o *Settings) { o.Opponents = -1 }},
		{"sigma", func(o *Settings) { o.Sigma = -0.1 }},
		{"sigma", func(o *Settings) { o.Sigma = math.Inf(1) }},
		{"min_positions", func(o *Settings) { o.MinPositions = -1 }},
		{"max_batches", func(o *Settings) { o.MaxBatches = -1 }},
		{"holdout_every", func(o *Settings) { o.HoldoutEvery = 1 }},
		{"ridge", func(o *Settings) { o.Ridge = math.NaN() }},
		{"ridge", func(o *Settings) { o.Ridge = -1e-3 }},
		{"step", func(o *Settings) { o.Step = -0.5 }},
		{"step", func(o *Settings) { o.Step = 1.5 }},
		{"explore_rounds", func(o *Settings) { o.ExploreRounds = -1 }},
		{"window", func(o *Settings) { o.Window = -1 }},
		{"average", func(o *Settings) { o.Average = -1 }},
		{"pairing", func(o *Settings) { o.Pairing = "both" }},
		{"explore_pairing", func(o *Settings) { o.ExplorePairing = "theta" }},
	} {
		o := DefaultSettings()
		tc.edit(&o)
		err := Spec.Validate(&o, p)
		var oe *rt.OptionError
		if !errors.As(err, &oe) || oe.Key != tc.key || !strings.HasPrefix(err.Error(), "option "+tc.key+": ") {
			t.Errorf("%s: got %#v", tc.key, err)
		}
	}
	// Limits just inside pass.
	o := DefaultSettings()
	o.Rounds, o.Opponents, o.Sigma, o.MinPositions, o.MaxBatches, o.HoldoutEvery, o.Ridge, o.Step = 1, 1, 0, 1, 1, 2, 0, 1e-9
	if err := o.Validate(p); err != nil {
		t.Errorf("limits: %v", err)
	}
	// The problem's faults carry no key.
	bad := problem(5)
	bad.InitHi = bad.InitHi[:3]
	var oe *rt.OptionError
	if err := DefaultSettings().Validate(bad); !errors.As(err, &oe) || oe.Key != "" {
		t.Errorf("problem fault: %v", err)
	}
	optimizetest.CheckNilOptions(t, Spec, p)
	optimizetest.CheckProblemFaults(t, DefaultSettings().Validate, func() rt.Problem { return problem(3) })
	if _, err := New(DefaultSettings(), p, nil); err == nil {
		t.Error("nil PCG accepted")
	}
}

func TestConfigScales(t *testing.T) {
	p := problem(3)
	p.InitLo, p.InitHi = []float64{0, 5, 5}, []float64{100, 5, 5}
	p.Bounds = &rt.Bounds{Lo: []float64{0, 0, 5}, Hi: []float64{4000, 40, 5}}
	c := DefaultSettings().resolve(p)
	if c.Scale[0] != 100 || c.Scale[1] != 40 || c.Scale[2] != 1 {
		t.Errorf("scales %v, want init width 100, bound width 40, else 1", c.Scale)
	}
	if err := c.validate(); err != nil {
		t.Error(err)
	}
	if d := Spec.Describe(&[]Settings{DefaultSettings()}[0]); !strings.Contains(d, "10 rounds of 64 opponents") {
		t.Errorf("describe %q", d)
	}
	if Spec.Name != "texel" || Spec.BudgetKey != "rounds" || len(Spec.Charts) != 3 {
		t.Errorf("spec %+v", Spec)
	}
	if o, ok := Spec.Options().(*Settings); !ok || *o != DefaultSettings() {
		t.Errorf("Spec.Settings %v", Spec.Options())
	}
}

// TestZeroMeansDefault: gonum's way, the options a Go program leaves at
// zero take their defaults where Texel refuses a zero (rounds,
// opponents, positions, batches, hold-out, step, pairings); Window 0
// keeps its own meaning, every round's positions.
func TestZeroMeansDefault(t *testing.T) {
	if err := (Settings{}).Validate(problem(5)); err != nil {
		t.Fatal(err)
	}
	if got := (Settings{}).withDefaults(); got.Rounds != 10 || got.Pairing != PairingTheta || got.Window != 0 {
		t.Errorf("zero settings resolve to %+v", got)
	}
}
