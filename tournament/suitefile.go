// This file holds the two things a balanced suite needs besides its
// games (balance.go): seeded random reference players (RandomReference)
// and the opening file a balanced suite is written as (BalancedSuiteFile),
// which ReadOpenings reads back.

package tournament

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/roadtune/roadtune/engine"
)

// randomRefStream is the PCG stream of the random references ("randrefs").
const randomRefStream = 0x72616e6472656673

// RandomReference returns the k-th (from 1) seeded random reference of
// the symmetric schema, a player for BalanceSuite besides the baselines:
// genes uniform in [0, 4000] (the tuning range of Chen 2010's GA),
// rounded to integers. The same seed and k give the same weights.
func RandomReference(seed uint64, k int) (engine.Weights, error) {
	rng := rand.New(rand.NewPCG(seed, randomRefStream+uint64(k)))
	genes := make([]float64, engine.Symmetric.NumGenes())
	for i := range genes {
		genes[i] = math.Round(4000 * rng.Float64())
	}
	return engine.NewWeights(engine.Symmetric, genes)
}

// BalancedSuiteFile is a balanced suite as an opening file (ReadOpenings
// reads it back as kept): the header lines as comments ("# " before
// each: how the suite was made, by which command and references), the
// report's criteria and the bias before and after the cut as comments,
// then one opening per line with its Black score and colour-decided
// fraction from rep.PerOpening as a trailing comment.
func BalancedSuiteFile(header []string, kept []Opening, rep *BalanceReport) []byte {
	var b bytes.Buffer
	for _, l := range header {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	c := rep.Criteria
	fmt.Fprintf(&b, "# kept: colour-decided fraction ≤ %g and Black score in [%g, %g]: %d of %d (%.1f%%)\n",
		c.MaxColourDecided, c.BlackLo, c.BlackHi, rep.Kept, rep.Candidates, 100*rep.KeptFraction)
	fmt.Fprintf(&b, "# Black score: before %.3f, after %.3f\n", rep.Before.BlackScore, rep.After.BlackScore)
	fmt.Fprintf(&b, "# colour-decided fraction: before %.3f, after %.3f\n", rep.Before.ColourDecided, rep.After.ColourDecided)
	fmt.Fprintf(&b, "# (after is measured on the games that chose the suite: optimistic; check on other references)\n")
	fmt.Fprintf(&b, "# Each line: the opening, then its Black score and colour-decided fraction.\n")
	byName := make(map[string]OpeningBias, len(rep.PerOpening))
	for _, ob := range rep.PerOpening {
		byName[ob.Opening.String()] = ob
	}
	for _, op := range kept {
		ob := byName[op.String()]
		fmt.Fprintf(&b, "%-10s # Black %.3f, colour-decided %.3f\n", op, ob.BlackScore(), ob.ColourDecided())
	}
	return b.Bytes()
}
