package ga

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/roadtune/roadtune/optimize"
)

// Settings are the GA's settings, one field an option: the [ga] table of
// a tuning config, keyed by the toml tags (as gonum's optimize.Settings,
// a plain struct). DefaultSettings gives their defaults and Validate checks
// them against the optimize.Problem, which brings the rest (genes, initial
// range, bounds, match length: Settings.resolve).
//
// Zero means default (optimize.Options) for population, groups, generations, sigma and the race's options.
type Settings struct {
	// Population is m, the number of individuals (Chen: 49).
	Population int `toml:"population" json:"population"`
	// Groups is n, the number of tournament groups (Chen: 7); it must
	// divide Population into groups of at least 2.
	Groups int `toml:"groups" json:"groups"`
	// Generations is the budget of generations (Chen reports 15 and 30).
	Generations int `toml:"generations" json:"generations"`
	// Fitness is the tournament form: FitnessImproved (Chen 2010
	// §4.4.2.2) or FitnessOriginal (§4.4.2.1); "" means FitnessImproved.
	Fitness FitnessForm `toml:"fitness" json:"fitness"`
	// Pc1, Pc2 are the crossover rates of eq. 4.3 (Chen: 0.9, 0.6); set
	// Pc1 = Pc2 for a fixed rate.
	Pc1 float64 `toml:"pc1" json:"pc1"`
	Pc2 float64 `toml:"pc2" json:"pc2"`
	// PmMode is PmFixed (Pm) or PmAdaptive (eq. 4.4 with Pm1, Pm2); ""
	// means PmFixed.
	PmMode PmMode `toml:"pm_mode" json:"pm_mode"`
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

// DefaultSettings is Chen 2010 Table 4.8: 49 individuals in 7 groups, 30
// generations, improved fitness, adaptive Pc (0.9, 0.6), fixed Pm 0.15
// (Pm1 0.1, Pm2 0.001 for the adaptive mode), variant chen2010; for the
// robust variant: elite Population/4, crossover 0.5, mutation 0.3, sigma
// 0.2 falling to 0.05, optimize.DefaultNoiseOptions.
func DefaultSettings() Settings {
	return Settings{
		Population: 49, Groups: 7, Generations: 30,
		Fitness: FitnessImproved, Pc1: 0.9, Pc2: 0.6,
		PmMode: PmFixed, Pm: 0.15, Pm1: 0.1, Pm2: 0.001,
		Variant:   VariantChen,
		Crossover: 0.5, Mutation: 0.3, Sigma: 0.2, SigmaEnd: 0.05,
		NoiseOptions: optimize.DefaultNoiseOptions(),
	}
}

// resolve is the GA's config for s and p: s itself, a copy of p
// (optimize.Problem.Clone) whose Bounds are kept only when p.BoundMode
// enforces them (the GA clamps in every mode but "off", and reads no
// bounds then), and for the robust variant the pool resolved through p.
// It does not validate; Validate does.
func (s Settings) resolve(p optimize.Problem) config {
	c := config{Settings: s, Problem: p.Clone()}
	if !p.BoundMode.Enforced() {
		c.Bounds = nil
	}
	if s.Variant == VariantRobust {
		c.Pool, _ = optimize.ResolvePool("pool", s.Pool, p) // Validate reports its error
	}
	return c
}

// Validate checks s against p: p.Validate, the variant, then for the
// chen2010 variant config.validate of s.resolve(p), which holds every limit
// (Chen's GA refuses a start vector), and for the robust variant the
// robust limits: population ≥ 4, generations ≥ 1, elite in
// 1..population−1, crossover and mutation probabilities, sigma > 0,
// sigma_end ≥ 0 and the shared noise options
// (optimize.NoiseOptions.Validate). The error is an
// *optimize.OptionError whose Key is the TOML key of the option at fault,
// or "" when the fault is the Problem's (its message names the field;
// Field "Start" for its start vector).
func (s Settings) Validate(p optimize.Problem) error {
	_, err := s.checked(p)
	return err
}

// checked is Validate's check of s against p and the config it resolves:
// New and Restore start from it, so a run resolves its settings once.
func (s Settings) checked(p optimize.Problem) (config, error) {
	s = s.withDefaults()
	robust, err := optimize.CheckVariant(p, s.Variant, "the chen2010 GA draws its whole population")
	switch {
	case err != nil:
		return config{}, err
	case robust:
		if err := s.validateRobust(p); err != nil {
			return config{}, err
		}
		return s.resolve(p), nil
	}
	c := s.resolve(p)
	if err := c.validate(); err != nil {
		return config{}, err
	}
	return c, nil
}

// validateRobust checks the robust variant's limits (Validate).
func (s Settings) validateRobust(p optimize.Problem) error {
	bad := optimize.BadOption
	if _, err := s.NoiseOptions.Validate(p); err != nil {
		return err
	}
	switch elite := s.elite(); {
	case s.Population < 4:
		return bad("population", "the robust GA needs at least 4 individuals, not %d", s.Population)
	case s.Generations < 1:
		return bad("generations", "must be at least 1, not %d", s.Generations)
	case elite < 1 || elite >= s.Population:
		return bad("elite", "must be 1..population−1 = %d (0 = population/4), not %d", s.Population-1, s.Elite)
	case !(s.Crossover >= 0 && s.Crossover <= 1):
		return bad("crossover", "is a probability: must be in [0, 1], not %g", s.Crossover)
	case !(s.Mutation >= 0 && s.Mutation <= 1):
		return bad("mutation", "is a probability: must be in [0, 1], not %g", s.Mutation)
	case !(s.Sigma > 0) || math.IsInf(s.Sigma, 1):
		return bad("sigma", "must be a finite number > 0, not %g", s.Sigma)
	case !(s.SigmaEnd >= 0) || math.IsInf(s.SigmaEnd, 1):
		return bad("sigma_end", "must be a finite number ≥ 0 (0 = sigma throughout), not %g", s.SigmaEnd)
	}
	return nil
}

// Refined is s for a refinement phase of a restart schedule
// (optimize.Refiner): warm-started from a converged answer, the mutation
// size starts at sigma_end (where the schedule that found the answer
// ended) instead of sigma, and keeps falling to half of it.
func (s *Settings) Refined() optimize.Options {
	r := *s
	if s.SigmaEnd > 0 {
		r.Sigma, r.SigmaEnd = s.SigmaEnd, s.SigmaEnd/2
	}
	return &r
}

// elite is the robust GA's μ: Elite, or Population/4 when 0.
func (s Settings) elite() int {
	if s.Elite == 0 {
		return s.Population / 4
	}
	return s.Elite
}

// variants are the GA's two forms, for Settings.New and Restore.
var variants = optimize.Variants[Settings, *GA, *RobustGA, State, RobustState]{Name: "ga",
	New: New, NewRobust: NewRobust, Restore: Restore, RestoreRobust: RestoreRobust}

// New starts a run of the options on p: Chen's GA (New), or the robust one
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

// Spec describes the GA to a job runner: options from the [ga] table, one
// step a generation, the budget in "generations"; variant picks Chen's GA
// or the robust one (RobustGA).
var Spec = optimize.Spec{
	Name:      "ga",
	Unit:      "generation",
	About:     "adaptive GA with grouped tournament fitness (Chen 2010 §4), or its noise-robust variant",
	BudgetKey: "generations",
	Options:   func() optimize.Options { s := DefaultSettings(); return &s },
	Charts: []optimize.Chart{
		{Name: "fitness", Title: "Fitness by generation (Chen 2010 GA)", YLabel: "fitness (points per game)", Requires: "fitness_min",
			Metrics: []string{"fitness", "fitness_mean", "fitness_min"},
			Labels:  []string{"best champion", "population mean", "population minimum"},
			Note:    "A generation's fitness comes from its own grouped tournament (Chen 2010 eq. 4.5), so values are not comparable across generations."},
		{Name: "fitness", Title: "Fitness by generation (robust GA)", YLabel: "score fraction against the centroid", Requires: "elite_games",
			Metrics: []string{"elite_mean", "fitness_mean"},
			Labels:  []string{"elite's mean fitness (the μ survivors, memory-weighted)", "population mean"},
			Note:    "Scores are fractions of points against the generation's pool (by default the population's centroid), so they are relative to the population of their generation, not comparable across generations."},
		{Name: "diversity", Title: "Population diversity: mean pairwise distance", YLabel: "distance (gene units)",
			Metrics: []string{"diversity"}, Labels: []string{"mean pairwise distance"}},
		{Name: "memory", Title: "Robust GA: games behind the elite's fitness", YLabel: "games", Requires: "elite_games",
			Metrics: []string{"elite_games"}, Labels: []string{"elite's mean games of memory (decayed)"}},
		{Name: "sigma", Title: "Robust GA: mutation size by generation", YLabel: "mutation σ (relative to norm/√genes)", Requires: "sigma",
			Metrics: []string{"sigma"}, Labels: []string{"mutation σ"}},
	},
}

// Describe says what the options set; the ranges and bounds are the
// Problem's.
func (s *Settings) Describe() string {
	d := s.withDefaults()
	s = &d
	if s.Variant == VariantRobust {
		return fmt.Sprintf("GA, robust variant: %d individuals, elite %d, %d generations, crossover %g, mutation %g, sigma %g→%g; pool %v, norm %g, memory %g, race %d games",
			s.Population, s.Elite, s.Generations, s.Crossover, s.Mutation, s.Sigma, s.SigmaEnd, s.Pool, s.Norm, s.Memory, s.RaceBudget)
	}
	pm := fmt.Sprintf("Pm fixed %g", s.Pm)
	if s.pmMode() == PmAdaptive {
		pm = fmt.Sprintf("Pm adaptive %g–%g", s.Pm1, s.Pm2)
	}
	return fmt.Sprintf("GA, %s fitness, %d individuals in %d groups, %d generations, Pc %g–%g, %s",
		s.form(), s.Population, s.Groups, s.Generations, s.Pc1, s.Pc2, pm)
}

// withDefaults is s with the options it refuses at zero (Population,
// Groups, Generations, Sigma, the noise options'
// NoiseOptions.WithDefaults) at their DefaultSettings values where they
// are zero (gonum's "zero means default"): what checked validates and a
// run uses. Options whose zero has a meaning of its own keep it.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	s.Population = cmp.Or(s.Population, d.Population)
	s.Groups = cmp.Or(s.Groups, d.Groups)
	s.Generations = cmp.Or(s.Generations, d.Generations)
	s.Sigma = cmp.Or(s.Sigma, d.Sigma)
	s.NoiseOptions = s.NoiseOptions.WithDefaults()
	return s
}
