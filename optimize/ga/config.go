// Package ga is the adaptive genetic algorithm with grouped tournament fitness
// of Chen 2010 §4: a population of weight vectors (genes) is shuffled into
// groups, each group plays a round robin, the group champions play an elite
// round robin, fitness is normalised across groups (eq. 4.5), the champions
// pass unchanged into the next generation and the rest of it is bred by
// roulette-wheel selection, uniform crossover with an adaptive rate (eq. 4.3)
// and multiplicative mutation (fixed rate, or eq. 4.4).
//
// The GA never sees an engine: it hands batches of matches to an
// optimize.Referee and gets optimize.Outcomes back. *GA implements
// optimize.Method, one Step a generation numbered from 0, and Spec describes
// it to a job runner (options as the [ga] table of a tuning config). Every
// random choice draws from the *rand.PCG given to New, which the GA keeps and
// whose state is part of State, so a run is reproducible from its seed and
// resumable from any checkpoint.
//
// Chen's original tournament (§4.4.2.1: start 0, win +1, loss −1, only the
// champions breed) is kept as FitnessOriginal for comparison.
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
	// PmFixed mutates every gene with probability Config.Pm (Chen 2010
	// Table 4.8: 0.15). The empty string means PmFixed.
	PmFixed PmMode = "fixed"
	// PmAdaptive uses eq. 4.4 with Config.Pm1 and Config.Pm2.
	PmAdaptive PmMode = "adaptive"
)

// MutationSpread is the half-width of the mutation factor: a mutating gene x
// becomes x·(1 + r), r uniform in [−MutationSpread, MutationSpread]
// (Chen 2010 §4.4.5).
const MutationSpread = 0.2

// Config holds the GA's settings. DefaultConfig gives Chen 2010 Table 4.8.
//
// Pc is always eq. 4.3 between Pc1 and Pc2; set Pc1 = Pc2 for a fixed
// crossover rate.
type Config struct {
	// Population is m, the number of individuals (Chen: 49).
	Population int `json:"population"`
	// Groups is n, the number of tournament groups (Chen: 7). Population
	// must be a multiple of Groups, and each group must hold at least 2
	// individuals.
	Groups int `json:"groups"`
	// Genes is the genome length (Chen: 5, the symmetric schema).
	Genes int `json:"genes"`
	// InitLo and InitHi bound the uniform initial draw, one limit per gene
	// (Chen: [0, 4000]). Ignored when Initial is given.
	InitLo []float64 `json:"init_lo,omitempty"`
	InitHi []float64 `json:"init_hi,omitempty"`
	// Initial is an optional explicit initial population: Population
	// vectors of Genes genes. It overrides InitLo/InitHi and draws nothing
	// from the random source.
	Initial [][]float64 `json:"initial,omitempty"`
	// Bounds, if not nil, are enforced by clamping the initial population
	// and every child after crossover and after mutation. nil reproduces the
	// thesis.
	Bounds *optimize.Bounds `json:"bounds,omitempty"`
	// Fitness is the tournament form; "" means FitnessImproved.
	Fitness FitnessForm `json:"fitness"`
	// Pc1 and Pc2 are the crossover rates of eq. 4.3 (Chen: 0.9, 0.6).
	Pc1 float64 `json:"pc1"`
	Pc2 float64 `json:"pc2"`
	// PmMode chooses a fixed mutation rate Pm or eq. 4.4 with Pm1, Pm2;
	// "" means PmFixed.
	PmMode PmMode `json:"pm_mode"`
	// Pm is the fixed per-gene mutation probability (Chen Table 4.8: 0.15).
	Pm float64 `json:"pm"`
	// Pm1 and Pm2 are the mutation rates of eq. 4.4 (Chen: 0.1, 0.001).
	Pm1 float64 `json:"pm1"`
	Pm2 float64 `json:"pm2"`
	// Generations is how many generations are evaluated before Done.
	Generations int `json:"generations"`
	// Pairs is the number of game pairs a match lasts, used only for
	// Forecast (the referee decides how long a match really is); 0 means 1.
	Pairs int `json:"pairs"`
}

// DefaultConfig returns Chen 2010 Table 4.8 for a genome of the given length:
// 49 individuals in 7 groups, initial genes uniform in [0, 4000], improved
// fitness, adaptive Pc (0.9, 0.6), fixed Pm 0.15 (Pm1 0.1, Pm2 0.001 ready for
// PmAdaptive), 30 generations (the thesis reports generations 15 and 30), no
// bounds, one game pair a match.
func DefaultConfig(genes int) Config {
	lo := make([]float64, genes)
	hi := make([]float64, genes)
	for d := range hi {
		hi[d] = 4000
	}
	return Config{
		Population: 49, Groups: 7, Genes: genes,
		InitLo: lo, InitHi: hi,
		Fitness: FitnessImproved,
		Pc1:     0.9, Pc2: 0.6,
		PmMode: PmFixed, Pm: 0.15, Pm1: 0.1, Pm2: 0.001,
		Generations: 30, Pairs: 1,
	}
}

// form and pmMode resolve the empty defaults.
func (c Config) form() FitnessForm {
	if c.Fitness == "" {
		return FitnessImproved
	}
	return c.Fitness
}

func (c Config) pmMode() PmMode {
	if c.PmMode == "" {
		return PmFixed
	}
	return c.PmMode
}

// GroupSize is Population / Groups, the individuals in each group.
func (c Config) GroupSize() int { return c.Population / c.Groups }

// GenerationGames is the number of games one generation plays when every
// match lasts Pairs game pairs: the groups' round robins, Groups ·
// k(k−1)/2 matches with k = GroupSize(), plus in the improved form with at
// least 2 groups the elite round robin, Groups(Groups−1)/2 matches; 2·Pairs
// games a match.
func (c Config) GenerationGames() int {
	k, n := c.GroupSize(), c.Groups
	matches := n * k * (k - 1) / 2
	if c.form() == FitnessImproved && n >= 2 {
		matches += n * (n - 1) / 2
	}
	return matches * 2 * c.pairs()
}

// pairs is Pairs with 0 read as 1.
func (c Config) pairs() int { return max(c.Pairs, 1) }

// fieldError is a Config.Validate error: Field is the Config field at
// fault, so Options.Validate can name the option without parsing text.
type fieldError struct {
	Field string
	Msg   string
}

func (e *fieldError) Error() string { return "ga: Config." + e.Field + ": " + e.Msg }

func fieldErr(field, format string, args ...any) error {
	return &fieldError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Validate checks the settings. Each error starts "ga: Config.<Field>:".
func (c Config) Validate() error {
	if c.Genes < 1 {
		return fieldErr("Genes", "must be at least 1, not %d", c.Genes)
	}
	if c.Population < 2 {
		return fieldErr("Population", "must be at least 2, not %d", c.Population)
	}
	if c.Groups < 1 || c.Groups > c.Population {
		return fieldErr("Groups", "must be 1..Population (%d), not %d", c.Population, c.Groups)
	}
	if c.Population%c.Groups != 0 {
		return fieldErr("Groups", "%d groups do not divide a population of %d", c.Groups, c.Population)
	}
	if c.GroupSize() < 2 {
		return fieldErr("Groups", "groups of %d cannot play a round robin: need at least 2 individuals a group", c.GroupSize())
	}
	if c.Initial != nil {
		if len(c.Initial) != c.Population {
			return fieldErr("Initial", "has %d individuals, want Population = %d", len(c.Initial), c.Population)
		}
		for i, x := range c.Initial {
			if len(x) != c.Genes {
				return fieldErr("Initial", "individual %d has %d genes, want %d", i, len(x), c.Genes)
			}
			for d, v := range x {
				if !finite(v) {
					return fieldErr("Initial", "individual %d gene %d is %g, want a finite number", i, d, v)
				}
			}
		}
	} else {
		if len(c.InitLo) != c.Genes {
			return fieldErr("InitLo", "has %d limits, want Genes = %d", len(c.InitLo), c.Genes)
		}
		if len(c.InitHi) != c.Genes {
			return fieldErr("InitHi", "has %d limits, want Genes = %d", len(c.InitHi), c.Genes)
		}
		for d := range c.Genes {
			if !finite(c.InitLo[d]) {
				return fieldErr("InitLo", "gene %d is %g, want a finite number", d, c.InitLo[d])
			}
			if !finite(c.InitHi[d]) {
				return fieldErr("InitHi", "gene %d is %g, want a finite number", d, c.InitHi[d])
			}
			if c.InitLo[d] > c.InitHi[d] {
				return fieldErr("InitHi", "gene %d: upper limit %g below lower limit %g", d, c.InitHi[d], c.InitLo[d])
			}
		}
	}
	if err := c.Bounds.Validate(c.Genes); err != nil {
		return fieldErr("Bounds", "%v", err)
	}
	switch c.form() {
	case FitnessImproved, FitnessOriginal:
	default:
		return fieldErr("Fitness", "must be %q or %q, not %q", FitnessImproved, FitnessOriginal, c.Fitness)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"Pc1", c.Pc1}, {"Pc2", c.Pc2}, {"Pm", c.Pm}, {"Pm1", c.Pm1}, {"Pm2", c.Pm2}} {
		if !(p.v >= 0 && p.v <= 1) {
			return fieldErr(p.name, "is a probability: must be in [0, 1], not %g", p.v)
		}
	}
	switch c.pmMode() {
	case PmFixed, PmAdaptive:
	default:
		return fieldErr("PmMode", "must be %q or %q, not %q", PmFixed, PmAdaptive, c.PmMode)
	}
	if c.Generations < 1 {
		return fieldErr("Generations", "must be at least 1, not %d", c.Generations)
	}
	if c.Pairs < 0 {
		return fieldErr("Pairs", "must be 0 (one pair) or more, not %d", c.Pairs)
	}
	return nil
}

// clone deep-copies the slices so the GA is not affected by later changes
// to the caller's Config.
func (c Config) clone() Config {
	c.InitLo = slices.Clone(c.InitLo)
	c.InitHi = slices.Clone(c.InitHi)
	c.Initial = optimize.Clone(c.Initial)
	if c.Bounds != nil {
		c.Bounds = &optimize.Bounds{Lo: slices.Clone(c.Bounds.Lo), Hi: slices.Clone(c.Bounds.Hi)}
	}
	return c
}
