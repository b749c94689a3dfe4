package ga

import (
	"fmt"
	"math"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// FitnessForm selects the grouped tournament fitness.
type FitnessForm string

const (
	// FitnessImproved is Chen 2010 §4.4.2.2: fitness starts at 1, a win
	// scores 1 and a draw ½ to each side, group champions play an elite round
	// robin, fitness is normalised by eq. 4.5 and the whole population
	// breeds. The empty string means FitnessImproved.
	FitnessImproved FitnessForm = "improved"
	// FitnessOriginal is Chen 2010 §4.4.2.1 (after Wang et al. 2005): fitness
	// starts at 0, a win +1, a loss −1, a draw 0; only the group champions
	// breed, and no elite round robin is played.
	FitnessOriginal FitnessForm = "original"
)

// PmMode selects how the mutation rate is chosen.
type PmMode string

const (
	// PmFixed mutates every gene with probability Settings.Pm (Chen 2010
	// Table 4.8: 0.15). The empty string means PmFixed.
	PmFixed PmMode = "fixed"
	// PmAdaptive uses eq. 4.4 with Settings.Pm1 and Settings.Pm2.
	PmAdaptive PmMode = "adaptive"
)

// MutationSpread is the half-width of the mutation factor: a mutating gene x
// becomes x·(1 + r), r uniform in [−MutationSpread, MutationSpread]
// (Chen 2010 §4.4.5).
const MutationSpread = 0.2

// config is a run's Settings resolved against its optimize.Problem
// (Settings.resolve). It is internal: a run is made from Settings, the
// GA's one options type, and a Problem (New, NewRobust).
type config struct {
	Settings
	// Problem is the run's own copy of the problem (optimize.Problem.Clone),
	// as the GA reads it: Genes (Chen: 5, the symmetric schema); the
	// uniform initial draw from InitLo..InitHi (Chen: [0, 4000]) unless
	// Initial is given; Bounds nil unless BoundMode enforces them, and then
	// clamping the initial population and every child after crossover and
	// after mutation (nil reproduces the thesis); Start, the robust
	// variant's warm start, its initial population drawn around it
	// (optimize.AroundStart with WarmSpread), which Chen's variant refuses;
	// Pairs, used only for Forecast and the robust variant's race, 0
	// read as 1 (pairs).
	optimize.Problem
	// Initial is an optional explicit initial population: Population
	// vectors of len(Genes) genes. It overrides InitLo/InitHi and draws
	// nothing from the random source.
	Initial [][]float64
	// Pool is the robust variant's resolved pool of opponents.
	Pool []optimize.PoolEntry
}

// form and pmMode resolve the empty defaults.
func (s Settings) form() FitnessForm {
	if s.Fitness == "" {
		return FitnessImproved
	}
	return s.Fitness
}

func (s Settings) pmMode() PmMode {
	if s.PmMode == "" {
		return PmFixed
	}
	return s.PmMode
}

// GroupSize is Population / Groups, the individuals in each group.
func (c config) GroupSize() int { return c.Population / c.Groups }

// GenerationGames is the number of games one generation plays when every
// match lasts Pairs game pairs: the groups' round robins, Groups ·
// k(k−1)/2 matches with k = GroupSize(), plus in the improved form with at
// least 2 groups the elite round robin, Groups(Groups−1)/2 matches; 2·Pairs
// games a match.
func (c config) GenerationGames() int {
	k, n := c.GroupSize(), c.Groups
	matches := n * k * (k - 1) / 2
	if c.form() == FitnessImproved && n >= 2 {
		matches += n * (n - 1) / 2
	}
	return matches * 2 * c.pairs()
}

// pairs is Pairs with 0 read as 1.
func (c config) pairs() int { return max(c.Pairs, 1) }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Validate checks the chen2010 GA's config. Errors are
// *optimize.OptionError: Key names a setting's TOML key ("population"),
// or is "" for what the problem brought, whose message reads "ga: InitHi
// from the problem: …".
func (c config) validate() error {
	bad := optimize.BadOption
	prob := func(field, format string, args ...any) error {
		return &optimize.OptionError{Msg: fmt.Sprintf("ga: %s from the problem: %s", field, fmt.Sprintf(format, args...))}
	}
	if c.Population < 2 {
		return bad("population", "must be at least 2, not %d", c.Population)
	}
	if c.Groups < 1 || c.Groups > c.Population {
		return bad("groups", "must be 1..Population (%d), not %d", c.Population, c.Groups)
	}
	if c.Population%c.Groups != 0 {
		return bad("groups", "%d groups do not divide a population of %d", c.Groups, c.Population)
	}
	if c.GroupSize() < 2 {
		return bad("groups", "groups of %d cannot play a round robin: need at least 2 individuals a group", c.GroupSize())
	}
	if c.Initial != nil {
		if len(c.Initial) != c.Population {
			return prob("Initial", "has %d individuals, want Population = %d", len(c.Initial), c.Population)
		}
		for i, x := range c.Initial {
			if len(x) != len(c.Genes) {
				return prob("Initial", "individual %d has %d genes, want %d", i, len(x), len(c.Genes))
			}
			for d, v := range x {
				if !finite(v) {
					return prob("Initial", "individual %d gene %d is %g, want a finite number", i, d, v)
				}
			}
		}
	}
	// The problem's own fields (ranges, bounds, pairs) were checked by
	// Problem.Validate: Settings.Validate calls it first.
	switch c.form() {
	case FitnessImproved, FitnessOriginal:
	default:
		return bad("fitness", "must be %q or %q, not %q", FitnessImproved, FitnessOriginal, c.Fitness)
	}
	for _, p := range []struct {
		key string
		v   float64
	}{{"pc1", c.Pc1}, {"pc2", c.Pc2}, {"pm", c.Pm}, {"pm1", c.Pm1}, {"pm2", c.Pm2}} {
		if !(p.v >= 0 && p.v <= 1) {
			return bad(p.key, "is a probability: must be in [0, 1], not %g", p.v)
		}
	}
	switch c.pmMode() {
	case PmFixed, PmAdaptive:
	default:
		return bad("pm_mode", "must be %q or %q, not %q", PmFixed, PmAdaptive, c.PmMode)
	}
	if c.Generations < 1 {
		return bad("generations", "must be at least 1, not %d", c.Generations)
	}
	return nil
}

// clone deep-copies the problem and the slices so the GA is not affected
// by later changes to the caller's settings or problem.
func (c config) clone() config {
	c.Problem = c.Problem.Clone()
	c.Initial = optimize.Clone(c.Initial)
	c.Pool = slices.Clone(c.Pool)
	return c
}
