package pso

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/optimize"
)

// config is a swarm's Settings resolved against its optimize.Problem
// (Settings.resolve). It is internal: a swarm is made from Settings, the
// PSO's one options type, and a Problem (New, NewRobust). Field names
// follow Chen 2010 Table 5.1; vectors are genes in the schema's order, in
// weight units.
type config struct {
	Settings
	// Problem is the run's own copy of the problem
	// (optimize.Problem.Clone), as the swarm reads it: Genes, the
	// dimension D of a position (Chen: 5); the uniform initial positions
	// from InitLo..InitHi (Chen: [0, 4000]) unless Initial or Start is
	// set; Bounds, enforced after each move when BoundMode is clamp (a
	// gene past a limit is clamped and that velocity component zeroed) or
	// reflect (folded back in, that component negated), and kept with the
	// mode off too, as the scale of VMax (off is Chen 2010, whose best
	// vector had a negative weight: §6.2 lists it as a defect); Start, the
	// robust swarm's warm start, its initial positions drawn around it
	// (optimize.AroundStart with WarmSpread), which Chen's swarm refuses;
	// Pairs, used only for Forecast and the robust swarm's race, 0 read
	// as 1 (pairs).
	optimize.Problem
	// Initial optionally gives Chen's swarm its initial positions,
	// Particles × len(Genes) (e.g. the same initial population as a GA
	// run, Chen 2010 §5.4.1). It is copied; nil means draw them from
	// InitLo, InitHi.
	Initial [][]float64
	// VMax optionally limits each velocity component to [−VMax[d], VMax[d]]
	// (weight units per iteration), after eq. 5-1 and on the initial
	// velocities: Settings.VMaxFraction resolved. nil = no limit (Chen);
	// otherwise len(Genes) limits, each ≥ 0 (+Inf = no limit on that gene).
	VMax []float64
	// Pool is the robust swarm's resolved pool of opponents.
	Pool []optimize.PoolEntry
}

// DefaultVMaxFraction is roadtune's default velocity limit as a fraction of
// each gene's bound width (0.2 · 4000 = 800 per iteration on bounds
// [0, 4000]).
const DefaultVMaxFraction = 0.2

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// pairs is Pairs with 0 read as 1.
func (c config) pairs() int { return max(c.Pairs, 1) }

// clone deep-copies the problem and the slices so the swarm is not
// affected by later changes to the caller's settings or problem.
func (c config) clone() config {
	c.Problem = c.Problem.Clone()
	c.Initial = optimize.Clone(c.Initial)
	c.VMax = slices.Clone(c.VMax)
	c.Pool = slices.Clone(c.Pool)
	return c
}

// bounded reports whether the mode enforces bounds.
func (c config) bounded() bool { return c.BoundMode.Enforced() }

// Validate checks the config's shared limits, those of Chen's swarm and
// the robust one's alike. Errors are *optimize.OptionError: Key names a
// setting's TOML key ("particles"; "vmax_fraction" for VMax), or is ""
// for what the problem brought, whose message names the field and gene or
// particle: "pso: InitLo[2] from the problem: …".
func (c config) validate() error {
	bad := optimize.BadOption
	prob := func(field string, index []int, format string, args ...any) error {
		var b strings.Builder
		for _, i := range index {
			fmt.Fprintf(&b, "[%d]", i)
		}
		return &optimize.OptionError{Msg: fmt.Sprintf("pso: %s%s from the problem: %s", field, b.String(), fmt.Sprintf(format, args...))}
	}
	if c.Particles < 2 {
		return bad("particles", "must be at least 2 (the knockout needs a pair), have %d", c.Particles)
	}
	// The problem's own fields were checked by Problem.Validate
	// (Settings.Validate calls it first); this checks what the settings
	// add and how they fit the problem.
	if c.Initial != nil {
		if len(c.Initial) != c.Particles {
			return prob("Initial", nil, "has %d positions, want Particles = %d", len(c.Initial), c.Particles)
		}
		for i, x := range c.Initial {
			if len(x) != len(c.Genes) {
				return prob("Initial", []int{i}, "has %d genes, want %d", len(x), len(c.Genes))
			}
			for d, v := range x {
				if !finite(v) {
					return prob("Initial", []int{i, d}, "must be finite, have %g", v)
				}
				if c.bounded() && (v < c.Bounds.Lo[d] || v > c.Bounds.Hi[d]) {
					return prob("Initial", []int{i, d}, "%g is outside Bounds [%g, %g]", v, c.Bounds.Lo[d], c.Bounds.Hi[d])
				}
			}
		}
	} else {
		for d := range c.Genes {
			lo, hi := c.InitLo[d], c.InitHi[d]
			if c.bounded() && (lo < c.Bounds.Lo[d] || hi > c.Bounds.Hi[d]) {
				return prob("InitLo", []int{d}, "range [%g, %g] is not inside Bounds [%g, %g]", lo, hi, c.Bounds.Lo[d], c.Bounds.Hi[d])
			}
		}
	}
	if !finite(c.VelLo) {
		return bad("vel_lo", "must be finite, have %g", c.VelLo)
	}
	if !finite(c.VelHi) {
		return bad("vel_hi", "must be finite, have %g", c.VelHi)
	}
	if c.VelLo > c.VelHi {
		return bad("vel_lo", "range [%g, %g] must have VelLo ≤ VelHi", c.VelLo, c.VelHi)
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"c1", c.C1}, {"c2", c.C2}, {"alpha1", c.Alpha1}, {"alpha2", c.Alpha2}} {
		if !finite(f.v) || f.v < 0 {
			return bad(f.key, "must be a finite number ≥ 0, have %g", f.v)
		}
	}
	if c.VMax != nil {
		if len(c.VMax) != len(c.Genes) {
			return bad("vmax_fraction", "has %d genes, want %d (or nil for no limit)", len(c.VMax), len(c.Genes))
		}
		for _, v := range c.VMax {
			if math.IsNaN(v) || v < 0 {
				return bad("vmax_fraction", "must be ≥ 0 (+Inf = no limit), have %g", v)
			}
		}
	}
	if c.Iterations < 1 {
		return bad("iterations", "must be at least 1, have %d", c.Iterations)
	}
	return nil
}
