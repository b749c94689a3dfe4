package spsa

import (
	"fmt"
	"math"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// config is a run's Settings resolved against its optimize.Problem
// (Settings.resolve): every per-gene figure and the pool resolved, and the
// problem copied. It is internal: a run is made from Settings and a
// Problem (New), Settings being SPSA's one options type. Its own CEnd, REnd
// and Opponents are the settings' resolved, and hide theirs.
type config struct {
	// Settings are the options: Iterations (the budget N, at least 1,
	// which also sets the gains c and a, see C and A), Alpha and Gamma
	// (the exponents α of a_k and γ of c_k, Spall 1992; fishtest: 0.602
	// and 0.101, both > 0) and AStability (the stability constant A of
	// a_k = a/(A + k)^α, ≥ 0, resolved: fishtest's 0.1·N when the option
	// is 0).
	Settings
	// Problem is the run's own copy of the problem
	// (optimize.Problem.Clone), as SPSA reads it: Genes, whose names label
	// the "theta_norm.<gene>" metrics; the uniform θ0 from InitLo..InitHi
	// unless Start is set, Start being θ0 (put inside the bounds), a
	// vector to refine; Bounds, kept whatever the mode and enforced on θ
	// (and on the plus and minus vectors) when BoundMode is clamp or
	// reflect (θ folded back with optimize.Bounds.Reflect); Pairs, for
	// Forecast only, 0 read as 1 (pairs).
	optimize.Problem
	// CEnd is c_end per gene, the perturbation size at the last iteration,
	// in weight units, len(Genes) values each > 0.
	CEnd []float64
	// REnd is r_end per gene, a_end/c_end² at the last iteration,
	// len(Genes) values each > 0 (fishtest: 0.002).
	REnd []float64
	// Opponents is the pool of opponents (Settings.Opponents, resolved);
	// empty means self-play alone.
	Opponents []Opponent
}

// C is the perturbation scale c of gene d: c = c_end·N^γ, so that
// c_N = c_end (fishtest's parameterisation by end values).
func (c config) C(d int) float64 {
	return c.CEnd[d] * math.Pow(float64(c.Iterations), c.Gamma)
}

// A is the step scale a of gene d: a = r_end·c_end²·(A + N)^α, so that
// a_N = r_end·c_end².
func (c config) A(d int) float64 {
	return c.REnd[d] * c.CEnd[d] * c.CEnd[d] * math.Pow(c.AStability+float64(c.Iterations), c.Alpha)
}

// Gains returns the per-gene gains of iteration k (from 1):
// c_k[d] = c[d]/k^γ and a_k[d] = a[d]/(A + k)^α (Spall 1992's gain
// sequences with Spall 1998's stability constant A, as fishtest computes
// them): c_k in weight units, a_k in weight units² per game of r.
func (c config) Gains(k int) (ak, ck []float64) {
	ak, ck = make([]float64, len(c.CEnd)), make([]float64, len(c.CEnd))
	kγ := math.Pow(float64(k), c.Gamma)
	kα := math.Pow(c.AStability+float64(k), c.Alpha)
	for d := range ck {
		ck[d] = c.C(d) / kγ
		ak[d] = c.A(d) / kα
	}
	return ak, ck
}

// Gains returns the per-gene gains a_k and c_k of iteration k (from 1) of
// a run of s on p (config.Gains of the resolved settings): what a user
// checks before a run, e.g. how far an option can move in N iterations.
// It does not validate s or p.
func (s Settings) Gains(p optimize.Problem, k int) (ak, ck []float64) {
	return s.resolve(p).Gains(k)
}

// enforce keeps θ inside the bounds by the bound mode, in place.
func (c config) enforce(θ []float64) { c.BoundMode.Enforce(c.Bounds, θ) }

// pairs is Pairs with 0 read as 1.
func (c config) pairs() int { return max(c.Pairs, 1) }

// clone deep-copies the problem and the slices so a run is not affected
// by later changes to the caller's settings or problem.
func (c config) clone() config {
	c.Problem = c.Problem.Clone()
	c.CEnd, c.REnd = slices.Clone(c.CEnd), slices.Clone(c.REnd)
	c.Opponents = slices.Clone(c.Opponents)
	for i := range c.Opponents {
		c.Opponents[i].Genes = slices.Clone(c.Opponents[i].Genes)
	}
	return c
}

// validate checks the resolved settings; errors name the field and gene,
// e.g. "spsa: config field CEnd[2]: ...".
func (c config) validate() error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("spsa: config field %s: %s", field, fmt.Sprintf(format, args...))
	}
	// The problem's own fields were checked by Problem.Validate
	// (Settings.Validate calls it first); this checks what the settings
	// add and how they fit the problem.
	n := len(c.Genes)
	for _, f := range []struct {
		name string
		v    []float64
	}{{"CEnd", c.CEnd}, {"REnd", c.REnd}} {
		if len(f.v) != n {
			return bad(f.name, "has %d genes, want %d", len(f.v), n)
		}
	}
	for d := range n {
		lo, hi := c.InitLo[d], c.InitHi[d]
		if c.BoundMode.Enforced() && (lo < c.Bounds.Lo[d] || hi > c.Bounds.Hi[d]) {
			return bad(fmt.Sprintf("InitLo[%d]", d), "range [%g, %g] is not inside Bounds [%g, %g]", lo, hi, c.Bounds.Lo[d], c.Bounds.Hi[d])
		}
		if !finite(c.CEnd[d]) || c.CEnd[d] <= 0 {
			return bad(fmt.Sprintf("CEnd[%d]", d), "c_end of gene %s must be a finite number > 0, have %g", c.Genes[d], c.CEnd[d])
		}
		if !finite(c.REnd[d]) || c.REnd[d] <= 0 {
			return bad(fmt.Sprintf("REnd[%d]", d), "r_end of gene %s must be a finite number > 0, have %g", c.Genes[d], c.REnd[d])
		}
	}
	if c.Iterations < 1 {
		return bad("Iterations", "must be at least 1, have %d", c.Iterations)
	}
	for i, o := range c.Opponents {
		if err := o.check(n); err != nil {
			return bad(fmt.Sprintf("Opponents[%d]", i), "%v", err)
		}
	}
	if !finite(c.Alpha) || c.Alpha <= 0 {
		return bad("Alpha", "must be a finite number > 0, have %g", c.Alpha)
	}
	if !finite(c.Gamma) || c.Gamma <= 0 {
		return bad("Gamma", "must be a finite number > 0, have %g", c.Gamma)
	}
	if !finite(c.AStability) || c.AStability < 0 {
		return bad("AStability", "must be a finite number ≥ 0, have %g", c.AStability)
	}
	for d := range n {
		if !finite(c.C(d)) || !finite(c.A(d)) {
			return bad(fmt.Sprintf("CEnd[%d]", d), "the gains of gene %s overflow: c = %g, a = %g", c.Genes[d], c.C(d), c.A(d))
		}
	}
	return nil
}
