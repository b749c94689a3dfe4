package pso

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/roadtune/roadtune/optimize"
)

// Settings are the swarm's settings, one field an option: the [pso] table
// of a tuning config, keyed by the toml tags (as gonum's
// optimize.Settings). DefaultSettings gives their defaults and Validate
// checks them against the optimize.Problem, which brings the rest (genes,
// initial range, bounds and their mode, match length: Settings.resolve).
//
// Zero means default (optimize.Options) for particles, iterations and the race's options.
type Settings struct {
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
	// limit (Chen). Settings.resolve resolves it into config.VMax.
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

// DefaultSettings is Chen 2010 Table 5.1 (49 particles, 15 iterations,
// velocities in [−200, 200], c1 = c2 = 2.05, α1 = 0.3, α2 = 0.2), with a
// velocity limit of DefaultVMaxFraction of the range, variant chen2010;
// for the robust variant: elite Particles/4 and
// optimize.DefaultNoiseOptions.
func DefaultSettings() Settings {
	return Settings{
		Particles: 49, Iterations: 15,
		VelLo: -200, VelHi: 200, C1: 2.05, C2: 2.05,
		Alpha1: 0.3, Alpha2: 0.2,
		VMaxFraction: DefaultVMaxFraction,
		Variant:      VariantChen,
		NoiseOptions: optimize.DefaultNoiseOptions(),
	}
}

// resolve is the swarm's config for s and p: s itself, a copy of p
// (optimize.Problem.Clone) with its Bounds whatever the mode (with the
// bounds off they still give VMax its scale); VMax[d] = VMaxFraction ·
// (Hi[d] − Lo[d]) of p.Bounds when VMaxFraction > 0 and p.Bounds is set,
// else nil; for the robust variant the pool resolved through p. It does
// not validate; Validate does.
func (s Settings) resolve(p optimize.Problem) config {
	c := config{Settings: s, Problem: p.Clone()}
	if s.VMaxFraction > 0 && p.Bounds != nil && len(p.Bounds.Lo) > 0 {
		c.VMax = make([]float64, len(p.Bounds.Lo))
		for d := range c.VMax {
			c.VMax[d] = s.VMaxFraction * (p.Bounds.Hi[d] - p.Bounds.Lo[d])
		}
	}
	if s.Variant == VariantRobust {
		c.Pool, _ = optimize.ResolvePool("pool", s.Pool, p) // Validate reports its error
	}
	return c
}

// Validate checks s against p: p.Validate, the variant, then every limit.
// For the chen2010 variant: vmax_fraction a finite number ≥ 0, no start
// vector, then config.validate of s.resolve(p). For the robust variant,
// every key up front: particles ≥ 2, iterations ≥ 1, elite in
// 0..particles, the attractor, vmax_fraction, the keys Chen's swarm shares
// (through config.validate), the shared noise options
// (optimize.NoiseOptions.Validate); p.Validate checks the start vector.
// The error is an *optimize.OptionError whose Key is the TOML key of the
// option at fault, or "" when the fault is the Problem's (its message
// names the field; Field "Start" for its start vector).
func (s Settings) Validate(p optimize.Problem) error {
	_, err := s.checked(p)
	return err
}

// checked is Validate's check of s against p and the config it resolves:
// New and Restore start from it, so a run resolves its settings once.
func (s Settings) checked(p optimize.Problem) (config, error) {
	s = s.withDefaults()
	robust, err := optimize.CheckVariant(p, s.Variant, "the chen2010 PSO draws its whole swarm")
	switch {
	case err != nil:
		return config{}, err
	case robust:
		return s.checkedRobust(p)
	}
	if err := s.checkVMaxFraction(); err != nil {
		return config{}, err
	}
	c := s.resolve(p)
	if err := c.validate(); err != nil {
		return config{}, err
	}
	return c, nil
}

// checkVMaxFraction checks the one option the config sees only as VMax.
func (s Settings) checkVMaxFraction() error {
	if !(s.VMaxFraction >= 0) || math.IsInf(s.VMaxFraction, 1) {
		return optimize.BadOption("vmax_fraction", "must be a finite number ≥ 0 (0 = no limit), have %g", s.VMaxFraction)
	}
	return nil
}

// checkedRobust is checked for the robust variant.
func (s Settings) checkedRobust(p optimize.Problem) (config, error) {
	bad := optimize.BadOption
	switch {
	case s.Particles < 2:
		return config{}, bad("particles", "the robust PSO needs at least 2 particles, not %d", s.Particles)
	case s.Iterations < 1:
		return config{}, bad("iterations", "must be at least 1, not %d", s.Iterations)
	case s.Elite < 0 || s.Elite > s.Particles:
		return config{}, bad("elite", "must be 0 (particles/4) to particles = %d, not %d", s.Particles, s.Elite)
	case s.Attractor != "" && s.Attractor != AttractorBest && s.Attractor != AttractorElite:
		return config{}, bad("attractor", "must be %q (the best personal best) or %q (the elite's mean), not %q", AttractorBest, AttractorElite, s.Attractor)
	}
	if err := s.checkVMaxFraction(); err != nil {
		return config{}, err
	}
	c := s.resolve(p)
	if err := c.validate(); err != nil {
		return config{}, err
	}
	if _, err := s.NoiseOptions.Validate(p); err != nil {
		return config{}, err
	}
	return c, nil
}

// elite is the robust PSO's μ: Elite, or max(Particles/4, 1) when 0.
func (s Settings) elite() int {
	if s.Elite == 0 {
		return max(s.Particles/4, 1)
	}
	return s.Elite
}

// variants are the PSO's two forms, for Settings.New and Restore.
var variants = optimize.Variants[Settings, *PSO, *RobustPSO, State, RobustState]{Name: "pso",
	New: New, NewRobust: NewRobust, Restore: Restore, RestoreRobust: RestoreRobust}

// New starts a run of the options on p: Chen's swarm (New), or the robust one
// (NewRobust) when Variant is "robust"; what a job runner calls through
// optimize.Options.
func (s *Settings) New(p optimize.Problem, rng *rand.PCG) (optimize.Method, error) {
	return variants.Start(s.Variant, *s, p, rng)
}

// Restore continues a run of the options on p from a checkpoint's state,
// decoded strictly: a State (Restore), or a RobustState (RestoreRobust)
// when Variant is "robust".
func (s *Settings) Restore(p optimize.Problem, state []byte) (optimize.Method, error) {
	return variants.Continue(s.Variant, *s, p, state)
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
	Options:   func() optimize.Options { s := DefaultSettings(); return &s },
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

// Describe says what the options set; the bounds and their mode are the
// Problem's, which it does not see.
func (o *Settings) Describe() string {
	d := o.withDefaults()
	o = &d
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

// withDefaults is s with the options it refuses at zero (Particles,
// Iterations, the noise options' NoiseOptions.WithDefaults) at their
// DefaultSettings values where they are zero (gonum's "zero means
// default"): what checked validates and a run uses. Options whose zero has
// a meaning of its own keep it.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	s.Particles = cmp.Or(s.Particles, d.Particles)
	s.Iterations = cmp.Or(s.Iterations, d.Iterations)
	s.NoiseOptions = s.NoiseOptions.WithDefaults()
	return s
}
