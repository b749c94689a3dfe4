package cmaes

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/roadtune/roadtune/optimize"
)

// The defaults of the [cmaes] table.
const (
	DefaultGenerations = 100
	DefaultSigma       = 0.3 // σ0 as a fraction of the mean initial range
	DefaultMaxRepeats  = 4
	DefaultMaxSigma    = 4 // σ at most 4·σ0
	// Theta is θ of the rank-change limits Δlim (Hansen et al. 2009:
	// 0.2; pycma uses 0.5).
	Theta = 0.2
)

// Settings are CMA-ES's settings, one field an option: the [cmaes] table
// of a tuning config, keyed by the toml tags (as gonum's
// optimize.Settings). DefaultSettings gives their defaults and Validate
// checks them against the optimize.Problem; Settings.resolve adds what the
// problem knows (genes, ranges, bounds and their mode, the start, pairs a
// match) and resolves the automatic values.
//
// Zero means default (optimize.Options) for generations, sigma, max_repeats, cmean, the pool and the race's options.
type Settings struct {
	// Generations is the budget of generations.
	Generations int `toml:"generations" json:"generations"`
	// Lambda is λ, the candidates a generation (≥ 4); 0 means the
	// tutorial's default 4 + ⌊3 ln n⌋ for n genes (Hansen 2016, Table 1).
	// μ is ⌊λ/2⌋.
	Lambda int `toml:"lambda" json:"lambda"`
	// Sigma gives σ0 of a random start as a fraction of the mean over
	// genes of InitHi − InitLo (a start uses warm_spread instead).
	Sigma float64 `toml:"sigma" json:"sigma"`
	// NoiseHandling turns on UH-CMA-ES (Hansen et al. 2009): a few
	// candidates are re-evaluated each generation, and when the rank-change
	// measure s says noise dominates, σ grows by alpha_sigma and the
	// repeats double (up to max_repeats).
	NoiseHandling bool `toml:"noise_handling" json:"noise_handling"`
	// MaxRepeats caps the repeats r: a candidate plays each opponent of
	// the pool in r matches, each on openings of its own (≥ 1).
	MaxRepeats int `toml:"max_repeats" json:"max_repeats"`
	// AlphaSigma is α_σ, the factor σ grows by when s > 0 (≥ 1); 0 means
	// 1 + 2/(n + 10), pycma NoiseHandler's default.
	AlphaSigma float64 `toml:"alpha_sigma" json:"alpha_sigma"`
	// MaxSigma caps σ at MaxSigma·σ0 (σ0 the run's initial step size);
	// 0 = no cap. Under game noise the rank-change measure s stays > 0
	// and the treatment would raise σ without end (10²² after 100
	// generations of 2-game candidates, tempo schema, norm 10,000), until
	// the candidates are random directions; pycma bounds σ the same way
	// with its maxstd option. Like sigma, it is relative, so it serves
	// any norm or warm start.
	MaxSigma float64 `toml:"max_sigma" json:"max_sigma"`
	// CMean is the mean's learning rate c_m in (0, 1] (Hansen 2016,
	// eq. 9: m ← m + c_m·σ·⟨y⟩_w; pycma's CMA_cmean). The tutorial: "c_m
	// < 1 can be advantageous on noisy functions" — the mean then follows
	// an average of several generations' selections, as a population
	// 1/c_m times larger would. The paths and C learn from ⟨y⟩_w as
	// with c_m = 1. Default 1.
	CMean float64 `toml:"cmean" json:"cmean"`
	// ShareTies gives candidates of equal fitness equal recombination
	// weights: a run of tied ranks shares the mean of their weights
	// (mid-rank weights, as rank statistics treat ties), and μ_eff of the
	// generation's paths is 1/Σw² of the shared weights, so that p_σ keeps
	// its N(0, I) law under random selection. A match of one or two game
	// pairs has three to five results, so most candidates tie, and the
	// default ordering of ties (by candidate index) recombines an arbitrary
	// half of them. Default false (ties by index, Hansen 2016 as written).
	ShareTies bool `toml:"share_ties" json:"share_ties"`
	// NoiseOptions are the shared noise mechanisms (optimize.NoiseOptions),
	// keys of [cmaes] as well: pool, norm, race_budget, race_alpha,
	// race_rounds, race_candidates, average, warm_spread. memory and
	// prior are unused: CMA-ES keeps no vectors from one generation to the next.
	optimize.NoiseOptions
}

// DefaultSettings are 100 generations, λ automatic, σ0 0.3 of the initial
// range, noise handling on with at most 4 repeats and the default α_σ,
// and optimize.DefaultNoiseOptions (the centroid as the pool, a race of
// the mean and the 4 best over at most 2,000 games).
func DefaultSettings() Settings {
	return Settings{
		Generations:   DefaultGenerations,
		Sigma:         DefaultSigma,
		NoiseHandling: true,
		MaxRepeats:    DefaultMaxRepeats,
		MaxSigma:      DefaultMaxSigma,
		CMean:         1,
		NoiseOptions:  optimize.DefaultNoiseOptions(),
	}
}

// DefaultLambda is the tutorial's population size for n genes,
// 4 + ⌊3 ln n⌋ (Hansen 2016, Table 1).
func DefaultLambda(n int) int { return 4 + int(math.Floor(3*math.Log(float64(max(n, 1))))) }

// DefaultAlphaSigma is α_σ for n genes, 1 + 2/(n + 10).
func DefaultAlphaSigma(n int) float64 { return 1 + 2/float64(n+10) }

// resolve is the config for s and p: s itself with λ and α_σ resolved
// (0 = their defaults for n genes); a copy of p (optimize.Problem.Clone)
// whose Bounds are kept only when p.BoundMode enforces them (CMA-ES reads
// no bounds with the mode "off"); the pool resolved through p.Opponent.
// It does not validate; Validate does.
func (s Settings) resolve(p optimize.Problem) config {
	n := len(p.Genes)
	c := config{Settings: s, Problem: p.Clone()}
	if !p.BoundMode.Enforced() {
		c.Bounds = nil
	}
	c.Pool, _ = optimize.ResolvePool("pool", s.Pool, p) // Validate reports its error
	if c.Lambda == 0 {
		c.Lambda = DefaultLambda(n)
	}
	if c.AlphaSigma == 0 {
		c.AlphaSigma = DefaultAlphaSigma(n)
	}
	return c
}

// Validate checks o against p, every option up front: generations ≥ 1;
// lambda 0 or ≥ 4; sigma finite and > 0; max_repeats ≥ 1; alpha_sigma 0
// or finite and ≥ 1; the shared noise options (optimize.NoiseOptions.Validate:
// the pool, norm, memory, the race, warm_spread); with a start, a
// warm_spread > 0. Then the problem: p.Validate, a start that is not the
// zero vector, an initial range that is not empty everywhere (σ0 > 0).
// The error is an *optimize.OptionError whose Key is the option at fault,
// or "" for the problem (Field "Start" for its start).
func (o Settings) Validate(p optimize.Problem) error {
	_, err := o.checked(p)
	return err
}

// checked is Validate's check of o against p and the config it
// resolves: New and Restore start from it, so a run resolves its settings
// once.
func (o Settings) checked(p optimize.Problem) (config, error) {
	o = o.withDefaults()
	bad := optimize.BadOption
	switch {
	case o.Generations < 1:
		return config{}, bad("generations", "must be at least 1, not %d", o.Generations)
	case o.Lambda != 0 && o.Lambda < 4:
		return config{}, bad("lambda", "CMA-ES needs at least 4 candidates a generation, not %d (0 = 4 + ⌊3 ln n⌋)", o.Lambda)
	case !finite(o.Sigma) || o.Sigma <= 0:
		return config{}, bad("sigma", "must be a finite number > 0 (σ0 as a fraction of the initial range), not %g", o.Sigma)
	case o.MaxRepeats < 1:
		return config{}, bad("max_repeats", "must be at least 1 (one match per opponent), not %d", o.MaxRepeats)
	case !(o.CMean > 0 && o.CMean <= 1):
		return config{}, bad("cmean", "must be in (0, 1] (the mean's learning rate c_m), not %g", o.CMean)
	case o.MaxSigma != 0 && !(finite(o.MaxSigma) && o.MaxSigma >= 1):
		return config{}, bad("max_sigma", "must be 0 (no cap) or a finite number ≥ 1 (σ at most max_sigma·σ0), not %g", o.MaxSigma)
	case o.AlphaSigma != 0 && !(finite(o.AlphaSigma) && o.AlphaSigma >= 1):
		return config{}, bad("alpha_sigma", "must be 0 (1 + 2/(n + 10)) or a finite number ≥ 1, not %g", o.AlphaSigma)
	}
	if _, err := o.NoiseOptions.Validate(p); err != nil {
		return config{}, err
	}
	if err := p.Validate(); err != nil {
		return config{}, &optimize.OptionError{Msg: err.Error()}
	}
	if p.Start != nil {
		if !(o.WarmSpread > 0) {
			return config{}, bad("warm_spread", "must be > 0 with a start vector: σ0 = warm_spread·‖start‖/√n, and 0 would not search")
		}
		if optimize.Norm(p.Start) == 0 {
			return config{}, &optimize.OptionError{Field: "Start", Msg: "the problem's start vector is zero: CMA-ES spreads its first generation by the start's norm"}
		}
	} else if meanRange(p.InitLo, p.InitHi) <= 0 {
		return config{}, &optimize.OptionError{Msg: "the problem's initial range is empty in every gene: σ0 = sigma × the mean range would be 0"}
	}
	c := o.resolve(p)
	if err := c.validate(); err != nil {
		return config{}, &optimize.OptionError{Msg: fmt.Sprintf("from the problem: %v", err)}
	}
	return c, nil
}

// Spec describes CMA-ES to a job runner: options from the [cmaes] table,
// one step a generation, the budget in "generations".
var Spec = optimize.Spec{
	Options:   func() optimize.Options { s := DefaultSettings(); return &s },
	Name:      "cmaes",
	Unit:      "generation",
	About:     "CMA-ES with uncertainty handling (Hansen 2016; Hansen et al. 2009)",
	BudgetKey: "generations",
	Charts: []optimize.Chart{
		{Name: "fitness", Title: "CMA-ES: score of the generation's candidates against the pool", YLabel: "score fraction",
			Metrics: []string{"fitness", "fitness_mean"},
			Labels:  []string{"best candidate's score", "mean candidate score"},
			Note:    "A generation's fitness is relative to its pool (the centroid is the generation's own mean), so generations are not comparable on this scale."},
		{Name: "sigma", Title: "CMA-ES: step size σ", YLabel: "σ (weight units)",
			Metrics: []string{"sigma"}, Labels: []string{"step size σ"},
			Note: "σ is the standard deviation of the candidates' distribution along its longest axis (C is normalised to a largest eigenvalue of 1)."},
		{Name: "noise", Title: "CMA-ES: uncertainty handling", YLabel: "s (ranks), repeats",
			Metrics: []string{"noise_s", "repeats"},
			Labels:  []string{"rank-change measure s", "repeats per opponent"},
			Note:    "s > 0: re-evaluation reorders the candidates more than noise-free ranks would; σ then grows and the repeats double."},
	},
}

// New starts a run of the options on p (New): what a job runner calls
// through optimize.Options.
func (o *Settings) New(p optimize.Problem, rng *rand.PCG) (optimize.Method, error) {
	return optimize.Started(New(*o, p, rng))
}

// Restore continues a run of the options on p from a checkpoint's State,
// decoded strictly (Restore).
func (o *Settings) Restore(p optimize.Problem, state []byte) (optimize.Method, error) {
	return optimize.Restored("cmaes", state, func(st State) (*CMAES, error) { return Restore(*o, p, st) })
}

// Describe says what the options set; the genes are the Problem's.
func (o *Settings) Describe() string {
	d := o.withDefaults()
	o = &d
	lambda := "λ 4 + ⌊3 ln n⌋"
	if o.Lambda != 0 {
		lambda = fmt.Sprintf("λ %d", o.Lambda)
	}
	noise := "no noise handling"
	if o.NoiseHandling {
		a := "α_σ 1 + 2/(n + 10)"
		if o.AlphaSigma != 0 {
			a = fmt.Sprintf("α_σ %g", o.AlphaSigma)
		}
		if o.MaxSigma > 0 {
			a += fmt.Sprintf(", σ ≤ %g·σ0", o.MaxSigma)
		}
		noise = fmt.Sprintf("noise handling (repeats ≤ %d, %s)", o.MaxRepeats, a)
	}
	extra := ""
	if o.ShareTies {
		extra += ", tied candidates share their weights"
	}
	if o.CMean != 1 {
		extra += fmt.Sprintf(", c_m %g", o.CMean)
	}
	if o.Norm > 0 {
		extra += fmt.Sprintf(", norm %g", o.Norm)
	}
	if o.Average > 1 {
		extra += fmt.Sprintf(", the answer the average of the latest %d means", o.Average)
	}
	if o.RaceBudget > 0 {
		extra += fmt.Sprintf(", a race of the answer and the %d best over ≤ %d games", o.RaceCandidates, o.RaceBudget)
	}
	return fmt.Sprintf("CMA-ES, %d generations, %s, σ0 %g of the range, %s, pool %s%s",
		o.Generations, lambda, o.Sigma, noise, strings.Join(o.Pool, ", "), extra)
}

// meanRange is the mean over genes of hi − lo (0 for no genes).
func meanRange(lo, hi []float64) float64 {
	if len(lo) == 0 || len(lo) != len(hi) {
		return 0
	}
	s := 0.0
	for d := range lo {
		s += hi[d] - lo[d]
	}
	return s / float64(len(lo))
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// withDefaults is s with the options it refuses at zero (Generations,
// Sigma, MaxRepeats, CMean, the noise options' NoiseOptions.WithDefaults)
// at their DefaultSettings values where they are zero (gonum's "zero means
// default"): what checked validates and a run uses. Options whose zero has
// a meaning of its own keep it.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	s.Generations = cmp.Or(s.Generations, d.Generations)
	s.Sigma = cmp.Or(s.Sigma, d.Sigma)
	s.MaxRepeats = cmp.Or(s.MaxRepeats, d.MaxRepeats)
	s.CMean = cmp.Or(s.CMean, d.CMean)
	s.NoiseOptions = s.NoiseOptions.WithDefaults()
	return s
}
