package bayes

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/optimize"
)

// The names of the kernel and acquisition options.
const (
	// KernelMatern52 is the Matérn 5/2 kernel with one length scale per
	// gene (Rasmussen & Williams 2006, eq. 4.17), chess-tuning-tools'
	// default.
	KernelMatern52 = "matern52"
	// AcquisitionEI is expected improvement over the best posterior mean
	// at a point played (Jones, Schonlau & Welch 1998).
	AcquisitionEI = "ei"
	// AcquisitionUCB is the upper confidence bound μ + β·σ (Srinivas et
	// al. 2010).
	AcquisitionUCB = "ucb"
)

// The defaults of the [bayes] table.
const (
	DefaultIterations     = 100
	DefaultBatch          = 4
	DefaultRepeats        = 2
	DefaultXi             = 0.005 // EI's margin ξ, in score fractions (about 3.5 Elo near ½)
	DefaultBeta           = 2     // UCB's β, in posterior standard deviations
	DefaultRefit          = 5
	DefaultCandidates     = 1000
	DefaultMinLengthScale = 0.05
	DefaultMaxLengthScale = 20
	DefaultSpread         = 0.5
)

// Settings are the Bayesian optimiser's settings, one field an option:
// the [bayes] table of a tuning config, keyed by the toml tags (as gonum's
// optimize.Settings). DefaultSettings gives their defaults and Validate
// checks them against the optimize.Problem.
//
// Zero means default, as in gonum's optimize.Settings: every option but
// xi takes its DefaultSettings value when left at zero (xi = 0 is plain
// expected improvement, a meaning of its own).
type Settings struct {
	// Iterations is the step budget. Each iteration plays Batch points;
	// the first ⌈Initial/Batch⌉ iterations play the initial design.
	Iterations int `toml:"iterations" json:"iterations"`
	// Initial is the number of points of the initial design, a Latin
	// hypercube over the search box (McKay, Beckman & Conover 1979); 0
	// means 2·n + 2 for n genes. It must not exceed Iterations·Batch.
	Initial int `toml:"initial" json:"initial"`
	// Batch is the number of points an iteration plays, chosen one after
	// the other with the points before taken at their posterior mean
	// ("kriging believer", Ginsbourger et al. 2010), so the matches of a
	// batch play concurrently.
	Batch int `toml:"batch" json:"batch"`
	// Repeats is the number of matches a point plays against each
	// opponent of the pool, each on openings of its own (a match lasts
	// the problem's pairs).
	Repeats int `toml:"repeats" json:"repeats"`
	// Pool names the fixed opponents every point plays (baselines or
	// weight files, resolved by the job runner through
	// optimize.Problem.Opponent). A point's result is its score over all
	// of them, so the model's optimum is the vector that scores best
	// against the pool. Required: a model of results needs an opponent
	// that does not move, so "centroid" and "best" are refused.
	Pool []string `toml:"pool" json:"pool"`
	// Kernel is the covariance function: "matern52" (the only one).
	Kernel string `toml:"kernel" json:"kernel"`
	// Acquisition chooses the next point: "ei" (expected improvement) or
	// "ucb" (upper confidence bound).
	Acquisition string `toml:"acquisition" json:"acquisition"`
	// Xi is ξ of expected improvement, the margin over the best posterior
	// mean a point must promise, in score fractions (≥ 0).
	Xi float64 `toml:"xi" json:"xi"`
	// Beta is β of the upper confidence bound (> 0).
	Beta float64 `toml:"beta" json:"beta"`
	// LengthScaleMin and LengthScaleMax bound the fitted length scales, in
	// units of the search box's side (the box is the problem's initial
	// range): 0 < min < max.
	LengthScaleMin float64 `toml:"length_scale_min" json:"length_scale_min"`
	LengthScaleMax float64 `toml:"length_scale_max" json:"length_scale_max"`
	// Refit is how often the kernel's hyperparameters are fitted again
	// (maximum marginal likelihood), in iterations; in between the
	// posterior is updated with the last fitted ones.
	Refit int `toml:"refit" json:"refit"`
	// Candidates is the number of points the acquisition and the model's
	// optimum are searched over each time: half uniform over the box,
	// half near the points of highest posterior mean.
	Candidates int `toml:"candidates" json:"candidates"`
	// Spread sizes the search box of a run with a start (a refinement,
	// a later stage of a chain): gene d ranges over start_d·(1 ± Spread),
	// or [0, Spread·(InitHi_d − InitLo_d)] for a gene that starts at 0,
	// within the bounds; the start is the design's first point. Without
	// a start the box is the problem's initial range. In (0, 1].
	Spread float64 `toml:"spread" json:"spread"`
}

// DefaultSettings are 100 iterations of 4 points, 2 matches a point
// against each opponent of the pool (which the caller must name), the
// Matérn 5/2 kernel with length scales in [0.05, 20] refitted every 5
// iterations, expected improvement with ξ = 0.005, 1,000 candidates.
func DefaultSettings() Settings {
	return Settings{
		Iterations:     DefaultIterations,
		Batch:          DefaultBatch,
		Repeats:        DefaultRepeats,
		Kernel:         KernelMatern52,
		Acquisition:    AcquisitionEI,
		Xi:             DefaultXi,
		Beta:           DefaultBeta,
		LengthScaleMin: DefaultMinLengthScale,
		LengthScaleMax: DefaultMaxLengthScale,
		Refit:          DefaultRefit,
		Candidates:     DefaultCandidates,
		Spread:         DefaultSpread,
	}
}

// withDefaults is s with every option but Xi at its DefaultSettings value
// where it is zero (gonum's "zero means default").
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	s.Iterations = cmp.Or(s.Iterations, d.Iterations)
	s.Batch = cmp.Or(s.Batch, d.Batch)
	s.Repeats = cmp.Or(s.Repeats, d.Repeats)
	s.Kernel = cmp.Or(s.Kernel, d.Kernel)
	s.Acquisition = cmp.Or(s.Acquisition, d.Acquisition)
	s.Beta = cmp.Or(s.Beta, d.Beta)
	s.LengthScaleMin = cmp.Or(s.LengthScaleMin, d.LengthScaleMin)
	s.LengthScaleMax = cmp.Or(s.LengthScaleMax, d.LengthScaleMax)
	s.Refit = cmp.Or(s.Refit, d.Refit)
	s.Candidates = cmp.Or(s.Candidates, d.Candidates)
	s.Spread = cmp.Or(s.Spread, d.Spread)
	return s
}

// config is a run's Settings resolved against its optimize.Problem: the
// defaults applied, the initial design's size resolved, the pool's
// vectors resolved and the problem copied.
type config struct {
	Settings
	// Problem is the run's own copy of the problem
	// (optimize.Problem.Clone), as the optimiser reads it: len(Genes) is
	// the dimension; InitLo..InitHi and Start set the search box Lo..Hi;
	// Bounds, nil unless BoundMode enforces them, and then a point is
	// clamped into them before it plays; Pairs, at least 1
	// (Problem.Validate), weighs a match's variance and counts its games.
	optimize.Problem
	// Lo and Hi are the search box, len(Genes) limits each in weight
	// units: the problem's initial range, or with a start the box Spread
	// gives around it. Points are modelled in the unit cube over it.
	Lo, Hi []float64
	// Pool is the resolved pool of fixed opponents (Settings.Pool, the
	// names, through optimize.ResolvePool).
	Pool []optimize.PoolEntry
}

// Validate checks o against p, every option up front: iterations, batch,
// repeats, refit and candidates ≥ 1; initial ≥ 2 and at most
// iterations·batch (the initial design must fit the budget); a known
// kernel and acquisition; xi finite and ≥ 0, beta finite and > 0;
// 0 < length_scale_min < length_scale_max, both finite; a pool of fixed
// opponents that p.Opponent resolves. Then p.Validate. The error is an
// *optimize.OptionError whose Key is the option at fault, or "" for the
// problem.
func (o Settings) Validate(p optimize.Problem) error {
	_, err := o.checked(p)
	return err
}

// checked is Validate's check of o against p and the config it resolves.
func (o Settings) checked(p optimize.Problem) (config, error) {
	o = o.withDefaults()
	bad := optimize.BadOption
	for _, f := range []struct {
		key string
		v   int
	}{{"iterations", o.Iterations}, {"batch", o.Batch}, {"repeats", o.Repeats}, {"refit", o.Refit}, {"candidates", o.Candidates}} {
		if f.v < 1 {
			return config{}, bad(f.key, "must be at least 1, have %d", f.v)
		}
	}
	if o.Kernel != KernelMatern52 {
		return config{}, bad("kernel", "unknown kernel %q: the kernels are %q", o.Kernel, KernelMatern52)
	}
	if o.Acquisition != AcquisitionEI && o.Acquisition != AcquisitionUCB {
		return config{}, bad("acquisition", "unknown acquisition function %q: want %q (expected improvement) or %q (upper confidence bound)", o.Acquisition, AcquisitionEI, AcquisitionUCB)
	}
	if !finite(o.Xi) || o.Xi < 0 {
		return config{}, bad("xi", "must be a finite number ≥ 0 (a score fraction), have %g", o.Xi)
	}
	if !finite(o.Beta) || o.Beta <= 0 {
		return config{}, bad("beta", "must be a finite number > 0, have %g", o.Beta)
	}
	if !finite(o.Spread) || o.Spread <= 0 || o.Spread > 1 {
		return config{}, bad("spread", "must be in (0, 1] (a fraction of the start's genes), have %g", o.Spread)
	}
	if !finite(o.LengthScaleMin) || o.LengthScaleMin <= 0 {
		return config{}, bad("length_scale_min", "must be a finite number > 0 (a fraction of the search box's side), have %g", o.LengthScaleMin)
	}
	if !finite(o.LengthScaleMax) || o.LengthScaleMax <= o.LengthScaleMin {
		return config{}, bad("length_scale_max", "must be a finite number > length_scale_min = %g, have %g", o.LengthScaleMin, o.LengthScaleMax)
	}
	if err := p.Validate(); err != nil {
		return config{}, &optimize.OptionError{Msg: err.Error()}
	}
	n := len(p.Genes)
	if o.Initial == 0 {
		o.Initial = 2*n + 2
	}
	if budget := o.Iterations * o.Batch; o.Initial < 2 || o.Initial > budget {
		return config{}, bad("initial", "the initial design needs 2 to iterations × batch = %d × %d = %d points (the budget), have %d", o.Iterations, o.Batch, budget, o.Initial)
	}
	if len(o.Pool) == 0 {
		return config{}, bad("pool", "is empty: name the fixed opponents every point plays (a baseline or a weight file)")
	}
	pool, err := optimize.ResolvePool("pool", o.Pool, p)
	if err != nil {
		return config{}, err
	}
	for i, e := range pool {
		if e.Own() {
			return config{}, bad("pool", "entry %d, %q: the model needs opponents that do not move; name baselines or weight files", i+1, e.Name)
		}
	}
	c := config{Settings: o, Problem: p.Clone(), Lo: slices.Clone(p.InitLo), Hi: slices.Clone(p.InitHi), Pool: pool}
	if !p.BoundMode.Enforced() {
		c.Bounds = nil // the optimiser reads no bounds with the mode "off"
	}
	if p.Start != nil {
		for d, v := range p.Start {
			c.Lo[d], c.Hi[d] = v*(1-o.Spread), v*(1+o.Spread)
			if v < 0 {
				c.Lo[d], c.Hi[d] = c.Hi[d], c.Lo[d]
			}
			if v == 0 {
				c.Lo[d], c.Hi[d] = 0, o.Spread*(p.InitHi[d]-p.InitLo[d])
			}
			if c.Bounds != nil {
				c.Lo[d] = min(max(c.Lo[d], c.Bounds.Lo[d]), c.Bounds.Hi[d])
				c.Hi[d] = min(max(c.Hi[d], c.Bounds.Lo[d]), c.Bounds.Hi[d])
			}
		}
	}
	return c, nil
}

// pointGames is the number of games one point plays.
func (c config) pointGames() int { return len(c.Pool) * c.Repeats * 2 * c.Pairs }

// Spec describes the Bayesian optimiser to a job runner: options from the
// [bayes] table, one step an iteration of Batch points, the budget in
// "iterations".
var Spec = optimize.Spec{
	Options:   func() optimize.Options { s := DefaultSettings(); return &s },
	Name:      "bayes",
	Unit:      "iteration",
	About:     "Bayesian optimisation: a Gaussian process over match scores against a fixed pool, the next points by expected improvement (chess-tuning-tools)",
	BudgetKey: "iterations",
	Profiles:  profilesOf,
	Charts: []optimize.Chart{
		{Name: "optimum", Title: "Bayesian optimisation: the model's optimum against the pool", YLabel: "Elo against the pool",
			Metrics: []string{"opt_elo", "played_elo"}, Labels: []string{"the model's optimum (95% credible band)", "the iteration's points, as played"},
			Intervals: []string{"opt_elo_ci", ""}, Refs: []optimize.Ref{{Name: "the pool's strength", Y: 0}},
			Note: "The optimum's Elo is the model's estimate, not a verification: the ladder's matches are the verdict."},
		{Name: "length_scales", Title: "Bayesian optimisation: fitted length scales", YLabel: "length scale (fraction of the search range)",
			Prefix: "ls."},
		{Name: "noise", Title: "Bayesian optimisation: signal and noise", YLabel: "standard deviation (score fraction)",
			Metrics: []string{"signal_sd", "noise_sd"}, Labels: []string{"signal σ_f of the kernel", "noise σ of one match's score"}},
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
	return optimize.Restored("bayes", state, func(st State) (*Bayes, error) { return Restore(*o, p, st) })
}

// Describe says what the options set.
func (o *Settings) Describe() string {
	d := o.withDefaults()
	initial := "2n + 2"
	if d.Initial > 0 {
		initial = fmt.Sprint(d.Initial)
	}
	acq := fmt.Sprintf("expected improvement (ξ %g)", d.Xi)
	if d.Acquisition == AcquisitionUCB {
		acq = fmt.Sprintf("upper confidence bound (β %g)", d.Beta)
	}
	return fmt.Sprintf("Bayesian optimisation, %d iterations of %d points (initial design %s), %d matches a point against each of %s; %s kernel (length scales %g–%g, refitted every %d iterations), %s over %d candidates; a start's box ±%g of it",
		d.Iterations, d.Batch, initial, d.Repeats, strings.Join(d.Pool, ", "), d.Kernel, d.LengthScaleMin, d.LengthScaleMax, d.Refit, acq, d.Candidates, d.Spread)
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
