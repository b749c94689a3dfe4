package texel

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	rt "github.com/roadtune/roadtune/optimize"
)

// Settings are Texel tuning's settings, one field an option: the [texel]
// table of a tuning config, keyed by the toml tags (as gonum's
// optimize.Settings). DefaultSettings gives their defaults and Validate
// checks them against the optimize.Problem, which brings the rest of a
// run: the genes, the initial range, the bounds and their mode, the
// match length.
//
// Zero means default (optimize.Options) for rounds, opponents, min_positions, max_batches, holdout_every, step and the pairings.
type Settings struct {
	// Rounds is the budget of rounds (one round = one step = one fit).
	Rounds int `toml:"rounds" json:"rounds"`
	// Opponents is the number of matches a batch plays: θ (A) against as
	// many perturbed copies of θ (B).
	Opponents int `toml:"opponents" json:"opponents"`
	// Sigma is σ of the opponents' multiplicative log-normal perturbation
	// x_d·exp(σ·N(0,1)), per gene (0.3: a gene is scaled by a factor in
	// [0.55, 1.8] two times in three).
	Sigma float64 `toml:"sigma" json:"sigma"`
	// MinPositions is the least number of training positions a fit needs;
	// with fewer, the round plays another batch.
	MinPositions int `toml:"min_positions" json:"min_positions"`
	// MaxBatches is the most batches a round plays to reach MinPositions;
	// short of them after that, the round fails.
	MaxBatches int `toml:"max_batches" json:"max_batches"`
	// HoldoutEvery holds out the positions of every game whose index (unique
	// within the round) is a multiple of it: 5 holds out a fifth of the
	// games. At least 2.
	HoldoutEvery int `toml:"holdout_every" json:"holdout_every"`
	// Ridge is λ of the fit's penalty λ·mean_d((g_d − θ_d)/s_d)², s_d the
	// width of gene d's initial range (FitOptions.Ridge).
	Ridge float64 `toml:"ridge" json:"ridge"`
	// Step is η of θ ← θ + η·(fit − θ), in (0, 1]: 1 takes the fit.
	Step float64 `toml:"step" json:"step"`
	// KeepScale rescales each fit to the norm of θ over the fitted genes
	// (and K by the inverse factor, so the model's predictions are the
	// same): the positions fix K·g, not g, and a θ far from the optimum
	// gets a small K and so a fit many times larger than θ, which bounds
	// would then clamp hard and which moves the dual schema's alert
	// threshold relative to its scores. The engine's move choice does not
	// depend on a common factor of the road weights. Default true.
	KeepScale bool `toml:"keep_scale" json:"keep_scale"`
	// Pairing is who plays the matches after the explore rounds: "theta",
	// θ (A) against perturbed copies (B); "perturbed", two perturbed
	// copies of θ against each other, so neither side is always θ; "self",
	// each perturbed copy against itself (no strength difference between
	// the sides to confound the positions' results).
	Pairing string `toml:"pairing" json:"pairing"`
	// ExplorePairing is who plays the explore rounds' matches:
	// "independent", two vectors drawn uniform in the initial range; "self",
	// one such vector against itself (colour-swapped games of a pair are
	// then the same game); "perturbed", one such vector against a perturbed
	// copy of it (Sigma): sides of nearly equal strength, games that differ.
	ExplorePairing string `toml:"explore_pairing" json:"explore_pairing"`
	// ExploreRounds is the number of first rounds whose matches are
	// between vectors drawn uniform in the initial range (both sides): a
	// random θ0 makes poor games, random pairs make diverse ones.
	ExploreRounds int `toml:"explore_rounds" json:"explore_rounds"`
	// Window is the number of rounds whose training positions a fit uses,
	// this round's included: 1 fits this round's only, 0 every round's.
	Window int `toml:"window" json:"window"`
	// Average is the number of latest rounds whose θ are averaged into the
	// best vector the run reports (Polyak–Ruppert averaging of a stochastic
	// approximation): θ itself goes on unaveraged, but one round's fit
	// swings around a trend and the mean of several rounds does not
	// (docs/experiments/08-methods-compared.md). 0 or 1 reports the latest
	// θ.
	Average int `toml:"average" json:"average"`
}

// The values of Settings.Pairing.
const (
	PairingTheta     = "theta"
	PairingPerturbed = "perturbed"
	PairingSelf      = "self"
	// PairingIndependent is ExplorePairing's two independent draws.
	PairingIndependent = "independent"
)

// DefaultSettings are roadtune's defaults: 10 rounds of 64 opponents with
// σ = 0.3, at least 5,000 training positions from at most 4 batches, a
// fifth of the games held out, ridge 1e-3, step 1.
func DefaultSettings() Settings {
	return Settings{
		Rounds:         10,
		Opponents:      64,
		Sigma:          0.3,
		MinPositions:   5000,
		MaxBatches:     4,
		HoldoutEvery:   5,
		Ridge:          1e-3,
		Step:           1,
		KeepScale:      true,
		Pairing:        PairingTheta,
		ExplorePairing: PairingIndependent,
		Window:         1,
	}
}

// config is a run's Settings resolved against its optimize.Problem
// (Settings.resolve). It is internal: a run is made from Settings, Texel's
// one options type, and a Problem (New).
type config struct {
	Settings
	// Problem is the run's own copy of the problem (optimize.Problem.Clone),
	// as Texel reads it: len(Genes) is the dimension; the uniform θ0 from
	// InitLo..InitHi unless Start is set, Start being θ0 (clamped to the
	// bounds when they are on); Bounds, kept whatever the mode, clamping θ0,
	// the opponents and the fit unless BoundMode is off; Pairs, for
	// Forecast only, 0 read as 1 (pairs).
	rt.Problem
	// Scale is s_d, the scale of gene d in the fit (its scaled variable is
	// g_d/s_d) and in the ridge, len(Genes) values in weight units: the
	// width of its initial range, else of its bounds, else 1.
	Scale []float64
}

// resolve is the config of o and p: o itself, a copy of p
// (optimize.Problem.Clone) with its Bounds whatever the mode, and Scale;
// it does not validate (Settings.Validate and config.validate do).
func (o Settings) resolve(p rt.Problem) config {
	c := config{Settings: o, Problem: p.Clone()}
	n := len(c.Genes)
	if len(c.InitLo) == n && len(c.InitHi) == n {
		c.Scale = make([]float64, n)
		for d := range c.Scale {
			s := c.InitHi[d] - c.InitLo[d]
			if !(s > 0) && c.Bounds != nil && len(c.Bounds.Lo) == n {
				s = c.Bounds.Hi[d] - c.Bounds.Lo[d]
			}
			if !(s > 0) || math.IsInf(s, 0) {
				s = 1
			}
			c.Scale[d] = s
		}
	}
	return c
}

// Validate checks o against p: p.Validate (an *optimize.OptionError with
// no key), then every option (an *optimize.OptionError naming its key).
func (o Settings) Validate(p rt.Problem) error {
	_, err := o.checked(p)
	return err
}

// checked is Validate's check of o against p and the config it
// resolves: New and Restore start from it, so a run resolves its settings
// once.
func (o Settings) checked(p rt.Problem) (config, error) {
	o = o.withDefaults()
	if err := p.Validate(); err != nil {
		return config{}, &rt.OptionError{Msg: err.Error()}
	}
	c := o.resolve(p)
	return c, c.validate()
}

// bounded reports whether θ is kept inside the bounds.
func (c config) bounded() bool { return c.BoundMode.Enforced() }

// validate checks the options; errors are *optimize.OptionError naming
// the option's key.
func (c config) validate() error {
	bad := rt.BadOption
	for _, f := range []struct {
		key      string
		v, least int
	}{{"rounds", c.Rounds, 1}, {"opponents", c.Opponents, 1}, {"min_positions", c.MinPositions, 1}, {"max_batches", c.MaxBatches, 1},
		{"explore_rounds", c.ExploreRounds, 0}, {"window", c.Window, 0}, {"average", c.Average, 0}} {
		if f.v < f.least {
			return bad(f.key, "must be at least %d, have %d", f.least, f.v)
		}
	}
	if c.Start != nil {
		if err := rt.CheckVector("texel: config.Start", c.Start, len(c.Genes)); err != nil {
			return &rt.OptionError{Msg: err.Error()}
		}
	}
	for _, f := range []struct {
		key string
		v   float64
	}{{"sigma", c.Sigma}, {"ridge", c.Ridge}} {
		if !finite(f.v) || f.v < 0 {
			return bad(f.key, "must be a finite number ≥ 0, have %g", f.v)
		}
	}
	if c.HoldoutEvery < 2 {
		return bad("holdout_every", "must be at least 2 (every game held out leaves none to fit), have %d", c.HoldoutEvery)
	}
	if !(c.Step > 0 && c.Step <= 1) {
		return bad("step", "must be in (0, 1], have %g", c.Step)
	}
	if c.Pairing != PairingTheta && c.Pairing != PairingPerturbed && c.Pairing != PairingSelf {
		return bad("pairing", "must be %q, %q or %q, have %q", PairingTheta, PairingPerturbed, PairingSelf, c.Pairing)
	}
	if c.ExplorePairing != PairingIndependent && c.ExplorePairing != PairingSelf && c.ExplorePairing != PairingPerturbed {
		return bad("explore_pairing", "must be %q, %q or %q, have %q", PairingIndependent, PairingSelf, PairingPerturbed, c.ExplorePairing)
	}
	// The problem's own fields were checked by Problem.Validate
	// (Settings.Validate calls it first).
	return nil
}

// pairs is Pairs with 0 read as 1.
func (c config) pairs() int { return max(c.Pairs, 1) }

// clone deep-copies the problem and Scale.
func (c config) clone() config {
	c.Problem = c.Problem.Clone()
	c.Scale = slices.Clone(c.Scale)
	return c
}

// Spec describes Texel tuning to a job runner: options from the [texel]
// table, one step a round, the budget in "rounds". The referee must be an
// optimize.Sampler.
var Spec = rt.Spec{
	Options:   func() rt.Options { s := DefaultSettings(); return &s },
	Name:      "texel",
	Unit:      "round",
	About:     "Texel tuning: logistic regression of game results on road counts (chessprogramming wiki, \"Texel's Tuning Method\")",
	BudgetKey: "rounds",
	Charts: []rt.Chart{
		{Name: "logloss", Title: "Log-loss of the game results (held out: before and after the fit; training)", YLabel: "log-loss (nats per position)",
			Metrics: []string{"logloss_before", "logloss", "logloss_train"},
			Labels:  []string{"held out, before the fit", "held out, after the fit", "training positions"}},
		{Name: "k", Title: "Scale K of σ(K·eval + b·tempo)", YLabel: "K (log-odds per evaluation unit)",
			Metrics: []string{"k"}, Labels: []string{"scale K"}},
		{Name: "score", Title: "θ's score against its perturbed opponents", YLabel: "score fraction",
			Metrics: []string{"score"}, Labels: []string{"score of θ"}, Intervals: []string{"score_ci"},
			Refs: []rt.Ref{{Name: "0.5: equal strength", Y: 0.5}},
			Note: "The score of the round's A players over all its games; the band is its 95% interval, treating games as independent (rough: the two games of a pair share an opening)."},
	},
	Unidentified: "Texel fits a gene only where its road count is non-zero on some training position. " +
		"A side to move with a 4- or 5-stone road of its own has already won, so no kept position has one (the tempo schema's M4 and M5): " +
		"the fit cannot see such a gene, and it keeps its random start value, which says nothing of its worth.",
}

// New starts a run of the options on p (New): what a job runner calls
// through optimize.Options.
func (o *Settings) New(p rt.Problem, rng *rand.PCG) (rt.Method, error) {
	return rt.Started(New(*o, p, rng))
}

// Restore continues a run of the options on p from a checkpoint's State,
// decoded strictly (Restore).
func (o *Settings) Restore(p rt.Problem, state []byte) (rt.Method, error) {
	return rt.Restored("texel", state, func(st State) (*Texel, error) { return Restore(*o, p, st) })
}

// Describe is a line about the options for reports.
func (o *Settings) Describe() string {
	d := o.withDefaults()
	o = &d
	return fmt.Sprintf("Texel, %d rounds of %d opponents (σ %g, pairing %s, %d explore rounds), ≥ %d positions from ≤ %d batches, window %d, 1/%d of games held out, ridge %g, step %g, keep scale %v, best = mean of the last %d θ",
		o.Rounds, o.Opponents, o.Sigma, o.Pairing, o.ExploreRounds, o.MinPositions, o.MaxBatches, o.Window, o.HoldoutEvery, o.Ridge, o.Step, o.KeepScale, max(o.Average, 1))
}

// withDefaults is s with the options it refuses at zero (Rounds,
// Opponents, MinPositions, MaxBatches, HoldoutEvery, Step, Pairing,
// ExplorePairing) at their DefaultSettings values where they are zero
// (gonum's "zero means default"): what checked validates and a run uses.
// Options whose zero has a meaning of its own keep it.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	s.Rounds = cmp.Or(s.Rounds, d.Rounds)
	s.Opponents = cmp.Or(s.Opponents, d.Opponents)
	s.MinPositions = cmp.Or(s.MinPositions, d.MinPositions)
	s.MaxBatches = cmp.Or(s.MaxBatches, d.MaxBatches)
	s.HoldoutEvery = cmp.Or(s.HoldoutEvery, d.HoldoutEvery)
	s.Step = cmp.Or(s.Step, d.Step)
	s.Pairing = cmp.Or(s.Pairing, d.Pairing)
	s.ExplorePairing = cmp.Or(s.ExplorePairing, d.ExplorePairing)
	return s
}
