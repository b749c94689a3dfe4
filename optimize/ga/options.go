package ga

import (
	"errors"
	"fmt"
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
}

// DefaultOptions is Chen 2010 Table 4.8, as DefaultConfig: 49 individuals
// in 7 groups, 30 generations, improved fitness, adaptive Pc (0.9, 0.6),
// fixed Pm 0.15 (Pm1 0.1, Pm2 0.001 for the adaptive mode).
func DefaultOptions() Options {
	c := DefaultConfig(0)
	return Options{
		Population: c.Population, Groups: c.Groups, Generations: c.Generations,
		Fitness: string(c.Fitness), Pc1: c.Pc1, Pc2: c.Pc2,
		PmMode: string(c.PmMode), Pm: c.Pm, Pm1: c.Pm1, Pm2: c.Pm2,
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

// Validate checks o against p: p.Validate, then Config.Validate of
// o.Config(p), which holds every limit. The error is an
// *optimize.OptionError whose Key is the TOML key of the option at fault,
// or "" when the fault is the Problem's (its message names the field).
func (o Options) Validate(p optimize.Problem) error {
	if err := p.Validate(); err != nil {
		return &optimize.OptionError{Msg: err.Error()}
	}
	if p.Start != nil {
		return &optimize.OptionError{Field: "Start", Msg: "the GA draws its whole population from the initial range: a start vector applies to single-vector methods (spsa, texel)"}
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
	return &optimize.OptionError{Msg: fmt.Sprintf("ga: %s from the problem: %s", fe.Field, fe.Msg)}
}

// Spec describes the GA to a job runner: options from the [ga] table, one
// step a generation, the budget in "generations".
var Spec = optimize.Typed[Options, Config, State, *GA]{
	Defaults: DefaultOptions,
	Validate: Options.Validate,
	Config:   Options.Config,
	New:      New,
	Restore:  Restore,
	Describe: describe,
}.Spec(optimize.Spec{
	Name:      "ga",
	Unit:      "generation",
	About:     "adaptive GA with grouped tournament fitness (Chen 2010 §4)",
	BudgetKey: "generations",
	Charts: []optimize.Chart{
		{Name: "fitness", Title: "Normalised fitness by generation (Chen 2010 eq. 4.5)", YLabel: "fitness",
			Metrics: []string{"fitness", "fitness_mean", "fitness_min"},
			Labels:  []string{"best champion", "population mean", "population minimum"},
			Note:    "A generation's fitness comes from its own tournament among that generation's individuals, so values are not comparable across generations."},
		{Name: "diversity", Title: "Population diversity: mean pairwise distance", YLabel: "distance (gene units)",
			Metrics: []string{"diversity"}, Labels: []string{"mean pairwise distance"}},
	},
})

func describe(o Options) string {
	c := o.Config(optimize.Problem{})
	pm := fmt.Sprintf("Pm fixed %g", c.Pm)
	if c.pmMode() == PmAdaptive {
		pm = fmt.Sprintf("Pm adaptive %g–%g", c.Pm1, c.Pm2)
	}
	return fmt.Sprintf("GA, %s fitness, %d individuals in %d groups, %d generations, Pc %g–%g, %s",
		c.form(), c.Population, c.Groups, c.Generations, c.Pc1, c.Pc2, pm)
}
