package pso

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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

	// Variant is VariantChen ("chen2010", the default: the keys above, Chen
	// 2010 §5 bit for bit) or VariantRobust ("robust": RobustPSO, which
	// uses every key above and the ones below).
	Variant string `toml:"variant" json:"variant"`
	// Elite is the robust PSO's μ: its answer is the mean of the μ
	// personal bests with the best fitness memory; 0 = max(Particles/4, 1).
	Elite int `toml:"elite" json:"elite"`
	// Attractor is the robust PSO's social attractor g: "best" (the
	// personal best with the best fitness memory, gbest) or "elite" (the
	// mean of the elite personal bests). "" means "best".
	Attractor string `toml:"attractor" json:"attractor"`
	// NoiseOptions are the robust PSO's shared noise mechanisms: pool,
	// norm, memory, race_budget, race_alpha, race_rounds,
	// race_candidates, average, warm_spread (optimize.NoiseOptions).
	// Chen's variant ignores them.
	optimize.NoiseOptions
}

// DefaultOptions is Chen 2010 Table 5.1, as ChenConfig (49 particles,
// 15 iterations, velocities in [−200, 200], c1 = c2 = 2.05, α1 = 0.3,
// α2 = 0.2), with a velocity limit of DefaultVMaxFraction of the range,
// variant chen2010; for the robust variant: elite Particles/4 and
// optimize.DefaultNoiseOptions.
func DefaultOptions() Options {
	c := ChenConfig(0)
	return Options{
		Particles: c.Particles, Iterations: c.Iterations,
		VelLo: c.VelLo, VelHi: c.VelHi, C1: c.C1, C2: c.C2,
		Alpha1: c.Alpha1, Alpha2: c.Alpha2,
		VMaxFraction: DefaultVMaxFraction,
		Variant:      VariantChen,
		NoiseOptions: optimize.DefaultNoiseOptions(),
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

// Validate checks o against p: p.Validate, the variant, then for the
// chen2010 variant Config.Validate of o.Config(p), which holds every limit
// but one: VMaxFraction, which Config only sees as VMax, must be a finite
// number ≥ 0, checked here; Chen's swarm refuses a start vector. For the
// robust variant it checks the robust limits (Options.RobustConfig). The
// error is an *optimize.OptionError whose Key is the TOML key of the
// option at fault, or "" when the fault is the Problem's (its message
// names the field; Field "Start" for its start vector).
func (o Options) Validate(p optimize.Problem) error {
	if err := p.Validate(); err != nil {
		return &optimize.OptionError{Msg: err.Error()}
	}
	switch o.Variant {
	case "", VariantChen:
	case VariantRobust:
		_, err := o.RobustConfig(p)
		return err
	default:
		return &optimize.OptionError{Key: "variant", Msg: fmt.Sprintf("must be %q or %q, not %q", VariantChen, VariantRobust, o.Variant)}
	}
	if p.Start != nil {
		return &optimize.OptionError{Field: "Start", Msg: "the chen2010 PSO draws its whole swarm from the initial range: a start vector (a warm start) needs variant = \"robust\""}
	}
	if err := o.checkVMaxFraction(); err != nil {
		return err
	}
	return optionError(o.Config(p).Validate())
}

// checkVMaxFraction checks the one option Config does not see as such.
func (o Options) checkVMaxFraction() error {
	if !(o.VMaxFraction >= 0) || math.IsInf(o.VMaxFraction, 1) {
		return &optimize.OptionError{Key: "vmax_fraction", Msg: fmt.Sprintf("must be a finite number ≥ 0 (0 = no limit), have %g", o.VMaxFraction)}
	}
	return nil
}

// RobustConfig is the robust PSO's config for o and p, validated, every
// key up front: particles ≥ 2, iterations ≥ 1, elite in 0..particles
// (0 = max(particles/4, 1)), vmax_fraction, the keys Chen's swarm shares
// (vel_lo, vel_hi, c1, c2, alpha1, alpha2, and the problem's ranges and
// bounds, through Config.Validate), the shared noise options
// (optimize.NoiseOptions.Validate, which resolves the pool), and a start
// vector of the problem's genes. Errors are *optimize.OptionError naming
// the key, or "" (Field "Start" for the start) for the problem. It does
// not run p.Validate; Validate does.
func (o Options) RobustConfig(p optimize.Problem) (RobustConfig, error) {
	bad := func(key, format string, args ...any) (RobustConfig, error) {
		return RobustConfig{}, &optimize.OptionError{Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case o.Particles < 2:
		return bad("particles", "the robust PSO needs at least 2 particles, not %d", o.Particles)
	case o.Iterations < 1:
		return bad("iterations", "must be at least 1, not %d", o.Iterations)
	case o.Elite < 0 || o.Elite > o.Particles:
		return bad("elite", "must be 0 (particles/4) to particles = %d, not %d", o.Particles, o.Elite)
	case o.Attractor != "" && o.Attractor != AttractorBest && o.Attractor != AttractorElite:
		return bad("attractor", "must be %q (the best personal best) or %q (the elite's mean), not %q", AttractorBest, AttractorElite, o.Attractor)
	}
	if err := o.checkVMaxFraction(); err != nil {
		return RobustConfig{}, err
	}
	c := o.Config(p)
	if err := optionError(c.Validate()); err != nil {
		return RobustConfig{}, err
	}
	pool, err := o.NoiseOptions.Validate(p)
	if err != nil {
		return RobustConfig{}, err
	}
	if p.Start != nil {
		if err := optimize.CheckVector("start", p.Start, len(p.Genes)); err != nil {
			return RobustConfig{}, &optimize.OptionError{Field: "Start", Msg: "the problem's start vector: " + err.Error()}
		}
	}
	elite := o.Elite
	if elite == 0 {
		elite = max(o.Particles/4, 1)
	}
	return RobustConfig{
		Particles: c.Particles, Elite: elite, Attractor: cmp.Or(o.Attractor, AttractorBest), Genes: c.Genes,
		InitLo: c.InitLo, InitHi: c.InitHi, Start: slices.Clone(p.Start),
		VelLo: c.VelLo, VelHi: c.VelHi, C1: c.C1, C2: c.C2, Alpha1: c.Alpha1, Alpha2: c.Alpha2,
		Bounds: c.Bounds, BoundMode: c.BoundMode, VMax: c.VMax,
		Iterations: c.Iterations, Pairs: c.Pairs,
		Noise: o.NoiseOptions, Pool: pool,
	}, nil
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

// chenSpec and robustSpec are the two variants' Specs; Spec dispatches on
// Options.Variant.
var (
	chenSpec = optimize.Typed[Options, Config, State, *PSO]{
		Defaults: DefaultOptions,
		Validate: Options.Validate,
		Config:   Options.Config,
		New:      New,
		Restore:  Restore,
		Describe: describe,
	}.Spec(optimize.Spec{Name: "pso"})
	robustSpec = optimize.Typed[Options, RobustConfig, RobustState, *RobustPSO]{
		Defaults: DefaultOptions,
		Validate: Options.Validate,
		Config:   func(o Options, p optimize.Problem) RobustConfig { c, _ := o.RobustConfig(p); return c },
		New:      NewRobust,
		Restore:  RestoreRobust,
		Describe: describe,
	}.Spec(optimize.Spec{Name: "pso"})
)

// variantSpec is the Spec of the options' variant.
func variantSpec(v any) optimize.Spec {
	if o, ok := v.(*Options); ok && o != nil && o.Variant == VariantRobust {
		return robustSpec
	}
	return chenSpec
}

// Spec describes the swarm to a job runner: options from the [pso] table,
// one step an iteration, the budget in "iterations"; variant picks Chen's
// swarm (PSO) or the noise-robust one (RobustPSO). Its charts are both
// variants'; a job runner skips the metrics no record of its run has.
var Spec = optimize.Spec{
	Name:      "pso",
	Unit:      "iteration",
	About:     "focus-distance particle swarm (Chen 2010 §5), or its noise-robust variant",
	BudgetKey: "iterations",
	Options:   chenSpec.Options,
	Validate:  chenSpec.Validate,
	New: func(v any, p optimize.Problem, rng *rand.PCG) (optimize.Method, error) {
		return variantSpec(v).New(v, p, rng)
	},
	Restore: func(v any, p optimize.Problem, state []byte) (optimize.Method, error) {
		return variantSpec(v).Restore(v, p, state)
	},
	Describe: chenSpec.Describe,
	Charts: []optimize.Chart{
		{Name: "inertia", Title: "Inertia weight w and change rate k (Chen 2010 eq. 5-5, 5-6)", YLabel: "value",
			Metrics: []string{"w", "k"}, Labels: []string{"inertia weight w", "change rate k"}},
		{Name: "focus", Title: "Focus distances (Chen 2010 eq. 5-3, 5-4)", YLabel: "distance (gene units)",
			Metrics: []string{"mean_dist", "max_dist"},
			Labels:  []string{"mean distance to the focus", "largest distance to the focus"}},
		{Name: "improvements", Title: "Bests replaced by iteration", YLabel: "particles",
			Metrics: []string{"personal_bests", "global_bests"},
			Labels:  []string{"personal bests replaced", "global-best challenges won (chen2010)"}},
		{Name: "fitness", Title: "Robust PSO: fitness memory of the personal bests", YLabel: "score fraction",
			Metrics: []string{"fitness", "fitness_mean", "score_mean"},
			Labels:  []string{"global best's fitness memory", "personal bests' mean fitness memory", "positions' mean score this iteration"},
			Note:    "Scores are fractions of points against the iteration's pool (by default the personal bests' centroid), so they are relative to the swarm of their iteration, not comparable across iterations."},
		{Name: "memory", Title: "Robust PSO: games behind the personal bests' fitness", YLabel: "games",
			Metrics: []string{"pbest_games", "race_games"},
			Labels:  []string{"personal bests' mean games of memory (decayed)", "final race's games"}},
	},
}

// describe says what the options set; the bounds and their mode are the
// Problem's, which Describe does not see.
func describe(o Options) string {
	limit := "no velocity limit"
	if o.VMaxFraction > 0 {
		limit = fmt.Sprintf("velocity limit %.4g%% of the bound range", 100*o.VMaxFraction)
	}
	if o.Variant == VariantRobust {
		return fmt.Sprintf("PSO, robust variant: %d particles, elite %d, attractor %s, %d iterations, c1 %g c2 %g, %s; pool %v, norm %g, memory %g, average %d, race %d games",
			o.Particles, o.Elite, cmp.Or(o.Attractor, AttractorBest), o.Iterations, o.C1, o.C2, limit, o.Pool, o.Norm, o.Memory, o.Average, o.RaceBudget)
	}
	return fmt.Sprintf("PSO, %d particles, %d iterations, c1 %g c2 %g, %s", o.Particles, o.Iterations, o.C1, o.C2, limit)
}
