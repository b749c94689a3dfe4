package spsa

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/roadtune/roadtune/optimize"
)

// The defaults of fishtest's and OpenBench's SPSA, and roadtune's budget.
const (
	DefaultIterations   = 200
	DefaultAlpha        = 0.602 // α of a_k (Spall 1998, IEEE TAES 34(3), practical values)
	DefaultGamma        = 0.101 // γ of c_k
	DefaultCEndFraction = 0.05  // c_end = range/20
	DefaultREnd         = 0.002 // r_end = a_end/c_end²
	// DefaultStabilityFraction gives A = 0.1·N when a_stability is 0.
	DefaultStabilityFraction = 0.1
)

// Settings are SPSA's settings, one field an option: the [spsa] table of a
// tuning config (the budget and the gain schedule), keyed by the toml tags
// (as gonum's optimize.Settings). DefaultSettings gives their defaults and
// Validate checks them against the optimize.Problem; Settings.resolve adds
// what the problem knows (gene names, ranges, bounds and their mode, pairs
// a match) and resolves the per-gene c_end and r_end.
//
// Zero means default (optimize.Options) for iterations, alpha, gamma, c_end_fraction, r_end.
type Settings struct {
	// Iterations is the budget N of iterations (one match each); it also
	// sets the gains, so c_k and a_k reach c_end and a_end at iteration N.
	Iterations int `toml:"iterations" json:"iterations"`
	// Alpha is α of a_k = a/(A + k)^α (fishtest: 0.602).
	Alpha float64 `toml:"alpha" json:"alpha"`
	// Gamma is γ of c_k = c/k^γ (fishtest: 0.101).
	Gamma float64 `toml:"gamma" json:"gamma"`
	// AStability is the stability constant A, in iterations; 0 means
	// DefaultStabilityFraction·Iterations (fishtest's 0.1·N).
	AStability float64 `toml:"a_stability" json:"a_stability"`
	// CEndFraction gives the default c_end of a gene as this fraction of its
	// range: Bounds.Hi − Bounds.Lo when the problem has bounds (even with
	// the bound mode off), else InitHi − InitLo (default 0.05 = range/20).
	CEndFraction float64 `toml:"c_end_fraction" json:"c_end_fraction"`
	// CEnd sets c_end in weight units: a number for every gene, or a table
	// by gene name, e.g. c_end = {S4 = 300}; genes it does not set take
	// CEndFraction of their range.
	CEnd PerGene `toml:"c_end,omitempty" json:"c_end,omitzero"`
	// REnd sets r_end = a_end/c_end²: a number for every gene (default
	// 0.002), or a table by gene name, e.g. r_end = {S1 = 0.004}; genes it
	// does not set take DefaultREnd.
	REnd PerGene `toml:"r_end" json:"r_end"`
	// Opponents is the pool each iteration plays against instead of
	// self-play: names of fixed vectors (baselines or weight files, resolved
	// by the job runner through optimize.Problem.Opponent) and "self" for
	// fishtest's θ + c_k·Δ against θ − c_k·Δ. Each iteration draws one
	// entry uniformly (repeat a name to weight it). Empty (the default) is
	// self-play alone, exactly fishtest's SPSA.
	Opponents []string `toml:"opponents,omitempty" json:"opponents,omitempty"`
}

// DefaultSettings are fishtest's: α = 0.602, γ = 0.101, A = 0.1·N,
// c_end = range/20, r_end = 0.002, with N = 200 iterations.
func DefaultSettings() Settings {
	return Settings{
		Iterations:   DefaultIterations,
		Alpha:        DefaultAlpha,
		Gamma:        DefaultGamma,
		CEndFraction: DefaultCEndFraction,
		REnd:         PerGene{All: DefaultREnd},
	}
}

// geneRange is the scale of gene d: the bound range when p has bounds,
// else the initial range.
func geneRange(p optimize.Problem, d int) float64 {
	if p.Bounds != nil && len(p.Bounds.Lo) > d {
		return p.Bounds.Hi[d] - p.Bounds.Lo[d]
	}
	return p.InitHi[d] - p.InitLo[d]
}

// resolve is the config for s and p: s itself with AStability resolved
// (0 = 0.1·Iterations); a copy of p (optimize.Problem.Clone), its
// Bounds kept whatever the mode (SPSA reads them only when the mode
// enforces them); per gene CEnd[d] from s.CEnd, else CEndFraction·range
// (geneRange), and REnd[d] from s.REnd, else DefaultREnd; the pool
// resolved through p.Opponent. It does not validate; config.validate does
// (and Settings.Validate checks s first).
func (s Settings) resolve(p optimize.Problem) config {
	c := config{Settings: s, Problem: p.Clone()}
	c.Opponents, _ = resolvePool(s.Opponents, p) // Validate reports its error
	if c.AStability == 0 {
		c.AStability = DefaultStabilityFraction * float64(s.Iterations)
	}
	if len(p.InitLo) == len(p.Genes) && len(p.InitHi) == len(p.Genes) {
		c.CEnd = make([]float64, len(p.Genes))
		c.REnd = make([]float64, len(p.Genes))
		for d, name := range p.Genes {
			c.CEnd[d] = s.CEnd.value(name, s.CEndFraction*geneRange(p, d))
			c.REnd[d] = s.REnd.value(name, DefaultREnd)
		}
	}
	return c
}

// Validate checks o against p, every option up front: iterations ≥ 1;
// alpha, gamma, c_end_fraction finite and > 0; a_stability finite and ≥ 0;
// c_end and r_end as PerGene (a number finite and ≥ 0, 0 meaning the
// default; a table's genes named in p.Genes with finite values > 0). Then
// p.Validate and config.validate of o.resolve(p), whose faults are the
// problem's (its ranges and bounds, or a gene of zero range whose c_end
// is not set). The error is an *optimize.OptionError whose Key is the
// option at fault ("c_end.S9" for one gene), or "" for the problem.
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
	if o.Iterations < 1 {
		return config{}, bad("iterations", "must be at least 1, have %d", o.Iterations)
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"alpha", o.Alpha}, {"gamma", o.Gamma}, {"c_end_fraction", o.CEndFraction}} {
		if !finite(f.v) || f.v <= 0 {
			return config{}, bad(f.key, "must be a finite number > 0, have %g", f.v)
		}
	}
	if !finite(o.AStability) || o.AStability < 0 {
		return config{}, bad("a_stability", "must be a finite number ≥ 0 (0 = 0.1 × iterations), have %g", o.AStability)
	}
	if err := o.CEnd.check("c_end", p.Genes); err != nil {
		return config{}, err
	}
	if err := o.REnd.check("r_end", p.Genes); err != nil {
		return config{}, err
	}
	if _, err := resolvePool(o.Opponents, p); err != nil {
		return config{}, err
	}
	if err := p.Validate(); err != nil {
		return config{}, &optimize.OptionError{Msg: err.Error()}
	}
	c := o.resolve(p)
	if err := c.validate(); err != nil {
		return config{}, &optimize.OptionError{Msg: fmt.Sprintf("%v (from the problem; a gene of zero range needs its c_end set)", err)}
	}
	return c, nil
}

// Spec describes SPSA to a job runner: options from the [spsa] table, one
// step an iteration, the budget in "iterations".
var Spec = optimize.Spec{
	Options:   func() optimize.Options { s := DefaultSettings(); return &s },
	Name:      "spsa",
	Unit:      "iteration",
	About:     "simultaneous perturbation stochastic approximation (Spall 1992), as fishtest runs it",
	BudgetKey: "iterations",
	Charts: []optimize.Chart{
		{Name: "theta_norm", Title: "SPSA: θ − θ0 in units of c_end", YLabel: "(θ − θ0) / c_end",
			Prefix: "theta_norm."},
		{Name: "score", Title: "SPSA: score of θ + c_k·Δ against θ − c_k·Δ (or the pool's opponent)", YLabel: "score fraction of the plus side",
			Metrics: []string{"score"}, Labels: []string{"score of the plus side"}},
		{Name: "gains", Title: "SPSA: gains and step in units of their end values", YLabel: "ratio",
			Metrics: []string{"c_k_norm", "a_k_norm", "step_norm"},
			Labels:  []string{"perturbation c_k / c_end", "gain a_k / its end value", "mean step |Δθ| / c_end"}},
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
	return optimize.Restored("spsa", state, func(st State) (*SPSA, error) { return Restore(*o, p, st) })
}

// Describe says what the options set; the ranges are the Problem's.
func (o *Settings) Describe() string {
	d := o.withDefaults()
	o = &d
	a := fmt.Sprintf("A %.4g", o.AStability)
	if o.AStability == 0 {
		a = fmt.Sprintf("A %.4g (0.1·N)", DefaultStabilityFraction*float64(o.Iterations))
	}
	cEnd := fmt.Sprintf("c_end %g of the range", o.CEndFraction)
	if o.CEnd.All != 0 || len(o.CEnd.Genes) > 0 {
		b, _ := o.CEnd.MarshalTOML()
		cEnd += fmt.Sprintf(", set %s", b)
	}
	rEnd, _ := o.REnd.MarshalTOML()
	if o.REnd.All == 0 && len(o.REnd.Genes) == 0 {
		rEnd = []byte(fmt.Sprint(DefaultREnd))
	}
	pool := ""
	if len(o.Opponents) > 0 {
		pool = fmt.Sprintf(", against a pool of %s", strings.Join(o.Opponents, ", "))
	}
	return fmt.Sprintf("SPSA, %d iterations, α %g γ %g %s, %s, r_end %s%s", o.Iterations, o.Alpha, o.Gamma, a, cEnd, rEnd, pool)
}

// withDefaults is s with the options it refuses at zero (Iterations,
// Alpha, Gamma, CEndFraction, REnd) at their DefaultSettings values where
// they are zero (gonum's "zero means default"): what checked validates and
// a run uses. Options whose zero has a meaning of its own keep it.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	s.Iterations = cmp.Or(s.Iterations, d.Iterations)
	s.Alpha = cmp.Or(s.Alpha, d.Alpha)
	s.Gamma = cmp.Or(s.Gamma, d.Gamma)
	s.CEndFraction = cmp.Or(s.CEndFraction, d.CEndFraction)
	if s.REnd.All == 0 && len(s.REnd.Genes) == 0 {
		s.REnd = d.REnd
	}
	return s
}
