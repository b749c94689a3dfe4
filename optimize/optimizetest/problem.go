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
func CheckOptionLimits[O any](t testing.TB, spec optimize.Spec, defaults func() O, problem func() optimize.Problem, limits []OptionLimit[O]) {
	t.Helper()
	for i, tc := range limits {
		o, p := defaults(), problem()
		tc.In(&o, &p)
		if err := spec.Validate(&o, p); err != nil {
			t.Errorf("case %d (%s) inside the limit: %v", i, tc.Key, err)
		}
		o, p = defaults(), problem()
		tc.Out(&o, &p)
		err := spec.Validate(&o, p)
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
		if m, err := spec.New(&o, p, rand.NewPCG(1, 2)); err == nil || m != nil {
			t.Errorf("case %d (%s): Spec.New accepted it", i, tc.Key)
		}
	}
}
