package pso

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/optimize"
)

// BoundMode says how a move that leaves the bounds is handled.
type BoundMode string

// The bound modes. BoundsOff reproduces Chen 2010, whose best vector had a
// negative weight (Chen 2010 §6.2 lists it as a defect).
const (
	BoundsClamp   BoundMode = "clamp"   // clamp the gene, zero that velocity component
	BoundsReflect BoundMode = "reflect" // fold the gene back in, negate that velocity component
	BoundsOff     BoundMode = "off"     // no bounds (Chen 2010)
)

// Config is the swarm's settings. Field names follow Chen 2010 Table 5.1.
type Config struct {
	// Particles is the swarm size m (Chen: 49, the GA's population). At least 2.
	Particles int
	// Genes is the dimension D of a position, the schema's gene count (Chen: 5).
	Genes int
	// InitLo, InitHi are per-gene ranges, length Genes, of the uniform initial
	// positions (Chen: [0, 4000]). Not used when Initial is set.
	InitLo, InitHi []float64
	// Initial optionally gives the initial positions, Particles × Genes
	// (e.g. the same initial population as a GA run, Chen 2010 §5.4.1).
	// It is copied; nil means draw them from InitLo, InitHi.
	Initial [][]float64
	// VelLo, VelHi is the range of the uniform initial velocities, in weight
	// units per iteration (Chen: [−200, 200]).
	VelLo, VelHi float64
	// C1, C2 are the learning factors of eq. 5-1 (Chen: 2.05, 2.05).
	C1, C2 float64
	// Alpha1, Alpha2 are α1, α2 of eq. 5-6 (Chen: 0.3, 0.2).
	Alpha1, Alpha2 float64
	// Bounds are the per-gene limits enforced after each move when BoundMode
	// is clamp or reflect; required then, ignored when BoundMode is off.
	Bounds *optimize.Bounds
	// BoundMode is BoundsClamp, BoundsReflect or BoundsOff.
	BoundMode BoundMode
	// VMax optionally limits each velocity component to [−VMax[d], VMax[d]]
	// (weight units per iteration), after eq. 5-1 and on the initial
	// velocities. nil = no limit (Chen); otherwise length Genes, each ≥ 0
	// (+Inf = no limit on that gene).
	VMax []float64
	// Iterations is the budget of Steps (Chen: 15). At least 1.
	Iterations int
	// Pairs is the number of game pairs a match lasts, used only for
	// Forecast (the referee decides how long a match really is); 0 means 1.
	Pairs int
}

// DefaultVMaxFraction is roadtune's default velocity limit as a fraction of
// each gene's bound width (DefaultConfig: 0.2 · 4000 = 800 per iteration).
const DefaultVMaxFraction = 0.2

// DefaultConfig is Chen 2010 Table 5.1 for genes genes, plus roadtune's
// remedies for the negative weights Chen §6.2 complains of: bounds [0, 4000]
// on every gene in clamp mode (the initial range) and a velocity limit of
// DefaultVMaxFraction of the bound width (800).
func DefaultConfig(genes int) Config {
	c := ChenConfig(genes)
	c.Bounds = optimize.UniformBounds(genes, 0, 4000)
	c.BoundMode = BoundsClamp
	c.VMax = make([]float64, genes)
	for d := range c.VMax {
		c.VMax[d] = DefaultVMaxFraction * (c.Bounds.Hi[d] - c.Bounds.Lo[d])
	}
	return c
}

// ChenConfig is Chen 2010 Table 5.1 as printed: 49 particles, positions
// uniform in [0, 4000], velocities uniform in [−200, 200], c1 = c2 = 2.05,
// α1 = 0.3, α2 = 0.2, 15 iterations, no bounds and no velocity limit; one
// game pair a match (Chen plays one).
func ChenConfig(genes int) Config {
	c := Config{
		Particles:  49,
		Genes:      genes,
		InitLo:     make([]float64, genes),
		InitHi:     make([]float64, genes),
		VelLo:      -200,
		VelHi:      200,
		C1:         2.05,
		C2:         2.05,
		Alpha1:     0.3,
		Alpha2:     0.2,
		BoundMode:  BoundsOff,
		Iterations: 15,
		Pairs:      1,
	}
	for d := range genes {
		c.InitHi[d] = 4000
	}
	return c
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// fieldError is a Config.Validate error: Field is the Config field at
// fault and Index the gene or particle in it ("[2]", "[1][0]" or ""), so
// Options.Validate can name the option without parsing text.
type fieldError struct {
	Field string
	Index string
	Msg   string
}

func (e *fieldError) Error() string {
	return "pso: config field " + e.Field + e.Index + ": " + e.Msg
}

func fieldErr(field, format string, args ...any) error {
	return &fieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// fieldErrAt is fieldErr for one gene or particle of a field: index is
// one or two indices.
func fieldErrAt(field string, index []int, format string, args ...any) error {
	var b strings.Builder
	for _, i := range index {
		fmt.Fprintf(&b, "[%d]", i)
	}
	return &fieldError{Field: field, Index: b.String(), Msg: fmt.Sprintf(format, args...)}
}

// pairs is Pairs with 0 read as 1.
func (c Config) pairs() int { return max(c.Pairs, 1) }

// clone deep-copies the slices so the swarm is not affected by later
// changes to the caller's Config.
func (c Config) clone() Config {
	c.InitLo, c.InitHi = slices.Clone(c.InitLo), slices.Clone(c.InitHi)
	c.Initial = optimize.Clone(c.Initial)
	c.VMax = slices.Clone(c.VMax)
	if c.Bounds != nil {
		c.Bounds = &optimize.Bounds{Lo: slices.Clone(c.Bounds.Lo), Hi: slices.Clone(c.Bounds.Hi)}
	}
	return c
}

// bounded reports whether the mode enforces bounds.
func (c Config) bounded() bool { return c.BoundMode == BoundsClamp || c.BoundMode == BoundsReflect }

// Validate checks the settings. Its errors name the offending field (and
// gene or particle), e.g. "pso: config field InitHi[2]: ...".
func (c Config) Validate() error {
	if c.Particles < 2 {
		return fieldErr("Particles", "must be at least 2 (the knockout needs a pair), have %d", c.Particles)
	}
	if c.Genes < 1 {
		return fieldErr("Genes", "must be at least 1, have %d", c.Genes)
	}
	switch c.BoundMode {
	case BoundsClamp, BoundsReflect, BoundsOff:
	default:
		return fieldErr("BoundMode", "must be %q, %q or %q, not %q", BoundsClamp, BoundsReflect, BoundsOff, c.BoundMode)
	}
	if c.bounded() {
		if c.Bounds == nil || len(c.Bounds.Lo) == 0 {
			return fieldErr("Bounds", "required when BoundMode is %q", c.BoundMode)
		}
		if err := c.Bounds.Validate(c.Genes); err != nil {
			return fieldErr("Bounds", "%v", err)
		}
	}
	if c.Initial != nil {
		if len(c.Initial) != c.Particles {
			return fieldErr("Initial", "has %d positions, want Particles = %d", len(c.Initial), c.Particles)
		}
		for i, x := range c.Initial {
			if len(x) != c.Genes {
				return fieldErrAt("Initial", []int{i}, "has %d genes, want %d", len(x), c.Genes)
			}
			for d, v := range x {
				if !finite(v) {
					return fieldErrAt("Initial", []int{i, d}, "must be finite, have %g", v)
				}
				if c.bounded() && (v < c.Bounds.Lo[d] || v > c.Bounds.Hi[d]) {
					return fieldErrAt("Initial", []int{i, d}, "%g is outside Bounds [%g, %g]", v, c.Bounds.Lo[d], c.Bounds.Hi[d])
				}
			}
		}
	} else {
		if len(c.InitLo) != c.Genes || len(c.InitHi) != c.Genes {
			return fieldErr("InitLo", "InitLo and InitHi have %d and %d genes, want %d each", len(c.InitLo), len(c.InitHi), c.Genes)
		}
		for d := range c.Genes {
			lo, hi := c.InitLo[d], c.InitHi[d]
			if !finite(lo) || !finite(hi) || lo > hi {
				return fieldErrAt("InitLo", []int{d}, "range [%g, %g] must be finite with InitLo ≤ InitHi", lo, hi)
			}
			if c.bounded() && (lo < c.Bounds.Lo[d] || hi > c.Bounds.Hi[d]) {
				return fieldErrAt("InitLo", []int{d}, "range [%g, %g] is not inside Bounds [%g, %g]", lo, hi, c.Bounds.Lo[d], c.Bounds.Hi[d])
			}
		}
	}
	if !finite(c.VelLo) {
		return fieldErr("VelLo", "must be finite, have %g", c.VelLo)
	}
	if !finite(c.VelHi) {
		return fieldErr("VelHi", "must be finite, have %g", c.VelHi)
	}
	if c.VelLo > c.VelHi {
		return fieldErr("VelLo", "range [%g, %g] must have VelLo ≤ VelHi", c.VelLo, c.VelHi)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"C1", c.C1}, {"C2", c.C2}, {"Alpha1", c.Alpha1}, {"Alpha2", c.Alpha2}} {
		if !finite(f.v) || f.v < 0 {
			return fieldErr(f.name, "must be a finite number ≥ 0, have %g", f.v)
		}
	}
	if c.VMax != nil {
		if len(c.VMax) != c.Genes {
			return fieldErr("VMax", "has %d genes, want %d (or nil for no limit)", len(c.VMax), c.Genes)
		}
		for d, v := range c.VMax {
			if math.IsNaN(v) || v < 0 {
				return fieldErrAt("VMax", []int{d}, "must be ≥ 0 (+Inf = no limit), have %g", v)
			}
		}
	}
	if c.Iterations < 1 {
		return fieldErr("Iterations", "must be at least 1, have %d", c.Iterations)
	}
	if c.Pairs < 0 {
		return fieldErr("Pairs", "must be 0 (one pair) or more, have %d", c.Pairs)
	}
	return nil
}
