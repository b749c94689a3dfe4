package pso

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// Options are the swarm's settings as the [pso] table of a tuning config.
// The rest of a Config comes from the optimize.Problem: the genes, the
// initial range, the bounds and their mode, the match length
// (Options.Config).
type Options struct {
	// Particles is the swarm size m (Chen: 49).
	Particles int `toml:"particles" json:"particles"`
	// Iterations is the budget of iterations (Chen: 15).
	Iterations int `toml:"iterations" json:"iterations"`
	// VelLo, VelHi is the range of the uniform initial velocities, in
	// weight units per iteration (Chen: [−200, 200]).
	VelLo float64 `toml:"vel_lo" json:"vel_lo"`
	VelHi float64 `toml:"vel_hi" json:"vel_hi"`
	// C1, C2 are the learning factors of eq. 5-1 (Chen: 2.05, 2.05).
	C1 float64 `toml:"c1" json:"c1"`
	C2 float64 `toml:"c2" json:"c2"`
	// Alpha1, Alpha2 are α1, α2 of eq. 5-6 (Chen: 0.3, 0.2).
	Alpha1 float64 `toml:"alpha1" json:"alpha1"`
	Alpha2 float64 `toml:"alpha2" json:"alpha2"`
	// VMaxFraction limits each velocity component to this fraction of its
	// gene's bound range (roadtune's remedy for Chen §6.2's runaway weights;
	// default DefaultVMaxFraction). 0, or a Problem without Bounds, means no
	// limit (Chen).
	VMaxFraction float64 `toml:"vmax_fraction" json:"vmax_fraction"`
}

// DefaultOptions is Chen 2010 Table 5.1, as ChenConfig (49 particles,
// 15 iterations, velocities in [−200, 200], c1 = c2 = 2.05, α1 = 0.3,
// α2 = 0.2), with a velocity limit of DefaultVMaxFraction of the range.
func DefaultOptions() Options {
	c := ChenConfig(0)
	return Options{
		Particles: c.Particles, Iterations: c.Iterations,
		VelLo: c.VelLo, VelHi: c.VelHi, C1: c.C1, C2: c.C2,
		Alpha1: c.Alpha1, Alpha2: c.Alpha2,
		VMaxFraction: DefaultVMaxFraction,
	}
}

// Config is the swarm's Config for o and p: Genes = len(p.Genes), the
// initial range p.InitLo..p.InitHi, Bounds = p.Bounds (copied) and
// BoundMode = p.BoundMode, Pairs = p.Pairs, and VMax[d] = VMaxFraction ·
// (Hi[d] − Lo[d]) of p.Bounds when VMaxFraction > 0 and p.Bounds is set
// (even with the bounds off: they still give the scale), else nil. It does
// not validate; Config.Validate does.
func (o Options) Config(p optimize.Problem) Config {
	c := Config{
		Particles:  o.Particles,
		Genes:      len(p.Genes),
		InitLo:     slices.Clone(p.InitLo),
		InitHi:     slices.Clone(p.InitHi),
		VelLo:      o.VelLo,
		VelHi:      o.VelHi,
		C1:         o.C1,
		C2:         o.C2,
		Alpha1:     o.Alpha1,
		Alpha2:     o.Alpha2,
		BoundMode:  BoundMode(p.BoundMode),
		Iterations: o.Iterations,
		Pairs:      p.Pairs,
	}
	if p.Bounds != nil {
		c.Bounds = &optimize.Bounds{Lo: slices.Clone(p.Bounds.Lo), Hi: slices.Clone(p.Bounds.Hi)}
		if o.VMaxFraction > 0 && len(p.Bounds.Lo) > 0 {
			c.VMax = make([]float64, len(p.Bounds.Lo))
			for d := range c.VMax {
				c.VMax[d] = o.VMaxFraction * (p.Bounds.Hi[d] - p.Bounds.Lo[d])
			}
		}
	}
	return c
}

// optionKeys maps the Config fields set from Options to their TOML keys;
// the other fields come from the Problem.
var optionKeys = map[string]string{
	"Particles":  "particles",
	"Iterations": "iterations",
	"VelLo":      "vel_lo",
	"VelHi":      "vel_hi",
	"C1":         "c1",
	"C2":         "c2",
	"Alpha1":     "alpha1",
	"Alpha2":     "alpha2",
	"VMax":       "vmax_fraction",
}

// Validate checks o against p: p.Validate, then Config.Validate of
// o.Config(p), which holds every limit but one: VMaxFraction, which Config
// only sees as VMax, must be a finite number ≥ 0, checked here. The error
// is an *optimize.OptionError whose Key is the TOML key of the option at
// fault, or "" when the fault is the Problem's (its message names the
// field).
func (o Options) Validate(p optimize.Problem) error {
	if err := p.Validate(); err != nil {
		return &optimize.OptionError{Msg: err.Error()}
	}
	if p.Start != nil {
		return &optimize.OptionError{Field: "Start", Msg: "the PSO draws its whole swarm from the initial range: a start vector applies to single-vector methods (spsa, texel)"}
	}
	if !(o.VMaxFraction >= 0) || math.IsInf(o.VMaxFraction, 1) {
		return &optimize.OptionError{Key: "vmax_fraction", Msg: fmt.Sprintf("must be a finite number ≥ 0 (0 = no limit), have %g", o.VMaxFraction)}
	}
	return optionError(o.Config(p).Validate())
}

// optionError translates a Config.Validate error.
func optionError(err error) error {
	if err == nil {
		return nil
	}
	var fe *fieldError
	if !errors.As(err, &fe) {
		return &optimize.OptionError{Msg: err.Error()}
	}
	if key, ok := optionKeys[fe.Field]; ok {
		return &optimize.OptionError{Key: key, Msg: fe.Msg}
	}
	return &optimize.OptionError{Msg: fmt.Sprintf("pso: %s%s from the problem: %s", fe.Field, fe.Index, fe.Msg)}
}

// Spec describes the swarm to a job runner: options from the [pso] table,
// one step an iteration, the budget in "iterations".
var Spec = optimize.Typed[Options, Config, State, *PSO]{
	Defaults: DefaultOptions,
	Validate: Options.Validate,
	Config:   Options.Config,
	New:      New,
	Restore:  Restore,
	Describe: describe,
}.Spec(optimize.Spec{
	Name:      "pso",
	Unit:      "iteration",
	About:     "focus-distance particle swarm (Chen 2010 §5)",
	BudgetKey: "iterations",
	Charts: []optimize.Chart{
		{Name: "inertia", Title: "Inertia weight w and change rate k (Chen 2010 eq. 5-5, 5-6)", YLabel: "value",
			Metrics: []string{"w", "k"}, Labels: []string{"inertia weight w", "change rate k"}},
		{Name: "focus", Title: "Focus distances (Chen 2010 eq. 5-3, 5-4)", YLabel: "distance (gene units)",
			Metrics: []string{"mean_dist", "max_dist"},
			Labels:  []string{"mean distance to the focus", "largest distance to the focus"}},
		{Name: "improvements", Title: "Bests replaced by iteration", YLabel: "particles",
			Metrics: []string{"personal_bests", "global_bests"},
			Labels:  []string{"personal bests replaced", "global-best challenges won"}},
	},
})

// describe says what the options set; the bounds and their mode are the
// Problem's, which Describe does not see.
func describe(o Options) string {
	limit := "no velocity limit"
	if o.VMaxFraction > 0 {
		limit = fmt.Sprintf("velocity limit %.4g%% of the bound range", 100*o.VMaxFraction)
	}
	return fmt.Sprintf("PSO, %d particles, %d iterations, c1 %g c2 %g, %s", o.Particles, o.Iterations, o.C1, o.C2, limit)
}
