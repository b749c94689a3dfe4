package ga

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// Options are the GA's settings as the [ga] table of a tuning config. The
// rest of a Config comes from the optimize.Problem: the genes, the initial
// range, the bounds and the match length (Options.Config).
type Options struct {
	// Population is m, the number of individuals (Chen: 49).
	Population int `toml:"population" json:"population"`
	// Groups is n, the number of tournament groups (Chen: 7); it must
	// divide Population into groups of at least 2.
	Groups int `toml:"groups" json:"groups"`
	// Generations is the budget of generations (Chen reports 15 and 30).
	Generations int `toml:"generations" json:"generations"`
	// Fitness is "improved" (Chen 2010 §4.4.2.2) or "original" (§4.4.2.1).
	Fitness string `toml:"fitness" json:"fitness"`
	// Pc1, Pc2 are the crossover rates of eq. 4.3 (Chen: 0.9, 0.6).
	Pc1 float64 `toml:"pc1" json:"pc1"`
	Pc2 float64 `toml:"pc2" json:"pc2"`
	// PmMode is "fixed" (Pm) or "adaptive" (eq. 4.4 with Pm1, Pm2).
	PmMode string `toml:"pm_mode" json:"pm_mode"`
	// Pm is the fixed per-gene mutation rate (Chen Table 4.8: 0.15).
	Pm float64 `toml:"pm" json:"pm"`
	// Pm1, Pm2 are the mutation rates of eq. 4.4 (Chen: 0.1, 0.001).
	Pm1 float64 `toml:"pm1" json:"pm1"`
	Pm2 float64 `toml:"pm2" json:"pm2"`

	// Variant is VariantChen ("chen2010", the default: everything above,
	// Chen 2010 §4 bit for bit) or VariantRobust ("robust": RobustGA, which
	// uses Population, Generations and the keys below, and ignores groups,
	// fitness, pc1, pc2, pm_mode, pm, pm1 and pm2).
	Variant string `toml:"variant" json:"variant"`
	// Elite is the robust GA's μ, the survivors and parents of a
	// generation; 0 = Population/4.
	Elite int `toml:"elite" json:"elite"`
	// Crossover is the robust GA's probability that a child is bred by
	// uniform crossover of two elite parents.
	Crossover float64 `toml:"crossover" json:"crossover"`
	// Mutation is the robust GA's per-gene mutation probability.
	Mutation float64 `toml:"mutation" json:"mutation"`
	// Sigma, SigmaEnd are the robust GA's Gaussian mutation size at the
	// first and last generation, relative to the parent's norm/√genes.
	Sigma    float64 `toml:"sigma" json:"sigma"`
	SigmaEnd float64 `toml:"sigma_end" json:"sigma_end"`
	// NoiseOptions are the robust GA's shared noise mechanisms: pool,
	// norm, memory, race_budget, race_alpha, race_rounds,
	// race_candidates, warm_spread (optimize.NoiseOptions).
	optimize.NoiseOptions
}

// DefaultOptions is Chen 2010 Table 4.8, as DefaultConfig: 49 individuals
// in 7 groups, 30 generations, improved fitness, adaptive Pc (0.9, 0.6),
// fixed Pm 0.15 (Pm1 0.1, Pm2 0.001 for the adaptive mode), variant
// chen2010; for the robust variant: elite Population/4, crossover 0.5,
// mutation 0.3, sigma 0.2 falling to 0.05, optimize.DefaultNoiseOptions.
func DefaultOptions() Options {
	c := DefaultConfig(0)
	return Options{
		Population: c.Population, Groups: c.Groups, Generations: c.Generations,
		Fitness: string(c.Fitness), Pc1: c.Pc1, Pc2: c.Pc2,
		PmMode: string(c.PmMode), Pm: c.Pm, Pm1: c.Pm1, Pm2: c.Pm2,
		Variant:   VariantChen,
		Crossover: 0.5, Mutation: 0.3, Sigma: 0.2, SigmaEnd: 0.05,
		NoiseOptions: optimize.DefaultNoiseOptions(),
	}
}

// Config is the GA's Config for o and p: Genes = len(p.Genes), the initial
// range p.InitLo..p.InitHi, Bounds = p.Bounds (copied) unless p.BoundMode is
// "off" (the GA clamps in every other mode), Pairs = p.Pairs. It does not
// validate; Config.Validate does.
func (o Options) Config(p optimize.Problem) Config {
	c := Config{
		Population:  o.Population,
		Groups:      o.Groups,
		Genes:       len(p.Genes),
		InitLo:      slices.Clone(p.InitLo),
		InitHi:      slices.Clone(p.InitHi),
		Fitness:     FitnessForm(o.Fitness),
		Pc1:         o.Pc1,
		Pc2:         o.Pc2,
		PmMode:      PmMode(o.PmMode),
		Pm:          o.Pm,
		Pm1:         o.Pm1,
		Pm2:         o.Pm2,
		Generations: o.Generations,
		Pairs:       p.Pairs,
	}
	if p.BoundMode != "off" && p.Bounds != nil {
		c.Bounds = &optimize.Bounds{Lo: slices.Clone(p.Bounds.Lo), Hi: slices.Clone(p.Bounds.Hi)}
	}
	return c
}

// optionKeys maps the Config fields set from Options to their TOML keys;
// the other fields come from the Problem.
var optionKeys = map[string]string{
	"Population":  "population",
	"Groups":      "groups",
	"Generations": "generations",
	"Fitness":     "fitness",
	"Pc1":         "pc1",
	"Pc2":         "pc2",
	"PmMode":      "pm_mode",
	"Pm":          "pm",
	"Pm1":         "pm1",
	"Pm2":         "pm2",
}

// Validate checks o against p: p.Validate, then, for the chen2010
// variant, Config.Validate of o.Config(p), which holds every limit, and for
// the robust variant the robust limits (RobustConfig). The error is an
// *optimize.OptionError whose Key is the TOML key of the option at fault,
// or "" when the fault is the Problem's (its message names the field).
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
		return &optimize.OptionError{Field: "Start", Msg: "the chen2010 GA draws its whole population from the initial range: a start vector (a warm start) needs variant = \"robust\""}
	}
	return optionError(o.Config(p).Validate())
}

// RobustConfig is the robust GA's config for o and p, validated: errors
// are *optimize.OptionError naming the key (population ≥ 4, generations
// ≥ 1, elite in 1..population−1, crossover and mutation probabilities,
// sigma > 0, sigma_end ≥ 0, the shared noise options through
// optimize.NoiseOptions.Validate), or the problem's field for a start of
// the wrong length.
func (o Options) RobustConfig(p optimize.Problem) (RobustConfig, error) {
	bad := func(key, format string, args ...any) (RobustConfig, error) {
		return RobustConfig{}, &optimize.OptionError{Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	pool, err := o.NoiseOptions.Validate(p)
	if err != nil {
		return RobustConfig{}, err
	}
	elite := o.Elite
	if elite == 0 {
		elite = o.Population / 4
	}
	switch {
	case o.Population < 4:
		return bad("population", "the robust GA needs at least 4 individuals, not %d", o.Population)
	case o.Generations < 1:
		return bad("generations", "must be at least 1, not %d", o.Generations)
	case elite < 1 || elite >= o.Population:
		return bad("elite", "must be 1..population−1 = %d (0 = population/4), not %d", o.Population-1, o.Elite)
	case !(o.Crossover >= 0 && o.Crossover <= 1):
		return bad("crossover", "is a probability: must be in [0, 1], not %g", o.Crossover)
	case !(o.Mutation >= 0 && o.Mutation <= 1):
		return bad("mutation", "is a probability: must be in [0, 1], not %g", o.Mutation)
	case !(o.Sigma > 0) || math.IsInf(o.Sigma, 1):
		return bad("sigma", "must be a finite number > 0, not %g", o.Sigma)
	case !(o.SigmaEnd >= 0) || math.IsInf(o.SigmaEnd, 1):
		return bad("sigma_end", "must be a finite number ≥ 0 (0 = sigma throughout), not %g", o.SigmaEnd)
	}
	if p.Start != nil {
		if err := optimize.CheckVector("start", p.Start, len(p.Genes)); err != nil {
			return RobustConfig{}, &optimize.OptionError{Field: "Start", Msg: "the problem's start vector: " + err.Error()}
		}
	}
	c := RobustConfig{
		Population: o.Population, Elite: elite, Genes: len(p.Genes),
		InitLo: slices.Clone(p.InitLo), InitHi: slices.Clone(p.InitHi), Start: slices.Clone(p.Start),
		Pc: o.Crossover, Pm: o.Mutation, Sigma: o.Sigma, SigmaEnd: o.SigmaEnd,
		Generations: o.Generations, Pairs: p.Pairs, Noise: o.NoiseOptions, Pool: pool,
	}
	if p.BoundMode != "off" && p.Bounds != nil {
		c.Bounds = &optimize.Bounds{Lo: slices.Clone(p.Bounds.Lo), Hi: slices.Clone(p.Bounds.Hi)}
	}
	return c, nil
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
	return &optimize.OptionError{Msg: fmt.Sprintf("ga: %s from the problem: %s", fe.Field, fe.Msg)}
}

// chenSpec and robustSpec are the two variants' Specs; Spec dispatches on
// Options.Variant.
var (
	chenSpec = optimize.Typed[Options, Config, State, *GA]{
		Defaults: DefaultOptions,
		Validate: Options.Validate,
		Config:   Options.Config,
		New:      New,
		Restore:  Restore,
		Describe: func(o Options) string { return describe(&o) },
	}.Spec(optimize.Spec{Name: "ga"})
	robustSpec = optimize.Typed[Options, RobustConfig, RobustState, *RobustGA]{
		Defaults: DefaultOptions,
		Validate: Options.Validate,
		Config:   func(o Options, p optimize.Problem) RobustConfig { c, _ := o.RobustConfig(p); return c },
		New:      NewRobust,
		Restore:  RestoreRobust,
		Describe: func(o Options) string { return describe(&o) },
	}.Spec(optimize.Spec{Name: "ga"})
)

// variantSpec is the Spec of the options' variant.
func variantSpec(v any) optimize.Spec {
	if o, ok := v.(*Options); ok && o != nil && o.Variant == VariantRobust {
		return robustSpec
	}
	return chenSpec
}

// Spec describes the GA to a job runner: options from the [ga] table, one
// step a generation, the budget in "generations"; variant picks Chen's GA
// or the robust one (RobustGA).
var Spec = optimize.Spec{
	Name:      "ga",
	Unit:      "generation",
	About:     "adaptive GA with grouped tournament fitness (Chen 2010 §4), or its noise-robust variant",
	BudgetKey: "generations",
	Options:   chenSpec.Options,
	Validate:  chenSpec.Validate,
	New: func(v any, p optimize.Problem, rng *rand.PCG) (optimize.Method, error) {
		return variantSpec(v).New(v, p, rng)
	},
	Restore: func(v any, p optimize.Problem, state []byte) (optimize.Method, error) {
		return variantSpec(v).Restore(v, p, state)
	},
	Describe: describe,
	Charts: []optimize.Chart{
		{Name: "fitness", Title: "Fitness by generation", YLabel: "fitness",
			Metrics: []string{"fitness", "fitness_mean", "fitness_min"},
			Labels:  []string{"best (chen2010: best champion; robust: top elite's score)", "population mean", "population minimum"},
			Note:    "A generation's fitness comes from its own games: chen2010's from its tournament (Chen 2010 eq. 4.5), robust's from its pool (a score fraction against the population's centroid), so values are not comparable across generations."},
		{Name: "diversity", Title: "Population diversity: mean pairwise distance", YLabel: "distance (gene units)",
			Metrics: []string{"diversity"}, Labels: []string{"mean pairwise distance"}},
		{Name: "memory", Title: "Robust GA: the elite's fitness memory and mutation size", YLabel: "games / relative step",
			Metrics: []string{"elite_games", "sigma"}, Labels: []string{"elite's mean games of memory", "mutation sigma (relative)"}},
	},
}

func describe(v any) string {
	o, ok := v.(*Options)
	if !ok || o == nil {
		return fmt.Sprintf("ga: options are %T, want a non-nil *ga.Options", v)
	}
	if o.Variant == VariantRobust {
		return fmt.Sprintf("GA, robust variant: %d individuals, elite %d, %d generations, crossover %g, mutation %g, sigma %g→%g; pool %v, norm %g, memory %g, race %d games",
			o.Population, o.Elite, o.Generations, o.Crossover, o.Mutation, o.Sigma, o.SigmaEnd, o.Pool, o.Norm, o.Memory, o.RaceBudget)
	}
	c := o.Config(optimize.Problem{})
	pm := fmt.Sprintf("Pm fixed %g", c.Pm)
	if c.pmMode() == PmAdaptive {
		pm = fmt.Sprintf("Pm adaptive %g–%g", c.Pm1, c.Pm2)
	}
	return fmt.Sprintf("GA, %s fitness, %d individuals in %d groups, %d generations, Pc %g–%g, %s",
		c.form(), c.Population, c.Groups, c.Generations, c.Pc1, c.Pc2, pm)
}
