package optimizetest

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

// Problem is Chen 2010's problem for the named genes: initial range and
// bounds [0, 4000] on every gene, clamped, one game pair a match.
func Problem(genes ...string) optimize.Problem {
	n := len(genes)
	p := optimize.Problem{
		Genes:     append([]string(nil), genes...),
		InitLo:    make([]float64, n),
		InitHi:    make([]float64, n),
		Bounds:    optimize.UniformBounds(n, 0, 4000),
		BoundMode: "clamp",
		Pairs:     1,
	}
	for d := range n {
		p.InitHi[d] = 4000
	}
	return p
}

// Letters names n genes "a", "b", … for Problem.
func Letters(n int) []string {
	out := make([]string, n)
	for d := range out {
		out[d] = string(rune('a' + d))
	}
	return out
}

// FailingReferee delegates to Ref but fails its call number FailAt (from
// 0) with Err (ErrEngine when nil); N counts the calls.
type FailingReferee struct {
	Ref    optimize.Referee
	FailAt int
	Err    error
	N      int
}

// ErrEngine is FailingReferee's error when it has none of its own.
var ErrEngine = errors.New("engine crashed")

// Play implements optimize.Referee.
func (f *FailingReferee) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	n := f.N
	f.N++
	if n == f.FailAt {
		if f.Err != nil {
			return nil, f.Err
		}
		return nil, ErrEngine
	}
	return f.Ref.Play(ctx, seed, ms)
}

// OptionLimit is one limit of a method's options O: In sets the options
// (or the problem) just inside it, Out just outside, where validation must
// fail with an *optimize.OptionError whose Key is Key ("" for a fault of
// the problem, whose message must then say "problem").
type OptionLimit[O any] struct {
	Key     string
	In, Out func(*O, *optimize.Problem)
}

// CheckOptionLimits checks every limit through spec (whose options are
// *O): from defaults() and problem(), In must pass spec.Validate, and Out
// must fail it with the limit's key and be refused by spec.New.
func CheckOptionLimits[O any, PO interface {
	*O
	optimize.Options
}](t testing.TB, spec optimize.Spec, defaults func() O, problem func() optimize.Problem, limits []OptionLimit[O]) {
	t.Helper()
	for i, tc := range limits {
		o, p := defaults(), problem()
		tc.In(&o, &p)
		if err := spec.Validate(PO(&o), p); err != nil {
			t.Errorf("case %d (%s) inside the limit: %v", i, tc.Key, err)
		}
		o, p = defaults(), problem()
		tc.Out(&o, &p)
		err := spec.Validate(PO(&o), p)
		var oe *optimize.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("case %d (%s) outside the limit: error %v is not an *optimize.OptionError", i, tc.Key, err)
			continue
		}
		if oe.Key != tc.Key || oe.Msg == "" {
			t.Errorf("case %d: key %q (%v), want %q", i, oe.Key, err, tc.Key)
		}
		if tc.Key == "" && !strings.Contains(strings.ToLower(oe.Msg), "problem") {
			t.Errorf("case %d: %q does not say the problem is at fault", i, oe.Msg)
		}
		if m, err := spec.New(PO(&o), p, rand.NewPCG(1, 2)); err == nil || m != nil {
			t.Errorf("case %d (%s): Spec.New accepted it", i, tc.Key)
		}
	}
}

// CheckProblemFaults checks that a method's Settings.Validate (validate)
// refuses each fault of problem() (a problem with bounds enforced, at
// least two genes) with an *optimize.OptionError without a key whose
// message names the Problem's field: the problem is checked once, by
// optimize.Problem.Validate, not again by the method.
func CheckProblemFaults(t testing.TB, validate func(optimize.Problem) error, problem func() optimize.Problem) {
	t.Helper()
	for _, tc := range []struct {
		field string
		edit  func(*optimize.Problem)
	}{
		{"Problem.Genes", func(p *optimize.Problem) { p.Genes = nil }},
		{"InitLo and InitHi", func(p *optimize.Problem) { p.InitHi = p.InitHi[:1] }},
		{"Problem.BoundMode", func(p *optimize.Problem) { p.BoundMode = "" }},
		{"Problem.Bounds", func(p *optimize.Problem) { p.Bounds = nil }},
		{"Problem.Bounds", func(p *optimize.Problem) { p.Bounds.Lo[0] = p.Bounds.Hi[0] + 1 }},
		{"Problem.InitLo[1]", func(p *optimize.Problem) { p.InitLo[1] = p.InitHi[1] + 1 }},
		{"Problem.Pairs", func(p *optimize.Problem) { p.Pairs = -1 }},
		{"Problem.Start", func(p *optimize.Problem) { p.Start = []float64{1} }},
	} {
		p := problem()
		tc.edit(&p)
		var oe *optimize.OptionError
		if err := validate(p); !errors.As(err, &oe) || oe.Key != "" || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: got error %v", tc.field, err)
		}
	}
}
