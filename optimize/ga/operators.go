package ga

import (
	"math/rand/v2"
	"sort"

	"github.com/roadtune/roadtune/optimize"
)

// AdaptiveRate is the adaptive rate of Chen 2010 eq. 4.3 (crossover, p1 = Pc1,
// p2 = Pc2, f = the larger fitness of the two parents) and eq. 4.4 (mutation,
// p1 = Pm1, p2 = Pm2, f = the fitness of the individual mutated), after
// Srinivas & Patnaik 1994:
//
//	p1 − (p1 − p2)(f − fAvg)/(fMax − fAvg)   if f ≥ fAvg
//	p1                                     if f < fAvg
//
// fMax and fAvg are the largest and the mean fitness of the breeding pool.
// When fMax ≤ fAvg (every fitness equal) the fraction is undefined and the
// rate is p2: the limit of the formula as f → fMax.
func AdaptiveRate(p1, p2, f, fAvg, fMax float64) float64 {
	if f < fAvg {
		return p1
	}
	if fMax <= fAvg {
		return p2
	}
	return p1 - (p1-p2)*(f-fAvg)/(fMax-fAvg)
}

// wheel is a roulette wheel (Chen 2010 §4.4.3): P(i) = w[i] / Σ w.
type wheel struct {
	cum []float64 // cumulative weights
}

// newWheel builds a wheel over non-negative weights. If they sum to zero,
// every slot gets the same chance.
func newWheel(w []float64) wheel {
	cum := make([]float64, len(w))
	s := 0.0
	for i, x := range w {
		s += max(x, 0)
		cum[i] = s
	}
	if s <= 0 {
		for i := range cum {
			cum[i] = float64(i + 1)
		}
	}
	return wheel{cum: cum}
}

// spin draws one slot: the first i with cum[i] > u, u uniform in
// [0, Σ w). A zero-weight slot is never drawn (unless all are zero).
func (w wheel) spin(rng *rand.Rand) int {
	u := rng.Float64() * w.cum[len(w.cum)-1]
	i := sort.Search(len(w.cum), func(i int) bool { return w.cum[i] > u })
	return min(i, len(w.cum)-1)
}

// crossover is roadtune's reading of Chen 2010 §4.4.4 (uniform crossover):
// the children start as copies of their parents and each gene is swapped
// between them with probability ½, one draw per gene. Whether a pair
// crosses at all (probability Pc) is decided by the caller. It returns the
// number of genes swapped.
func crossover(rng *rand.Rand, c1, c2 []float64) int {
	n := 0
	for d := range c1 {
		if rng.Uint64()&1 == 1 {
			c1[d], c2[d] = c2[d], c1[d]
			n++
		}
	}
	return n
}

// mutate is Chen 2010 §4.4.5: each gene mutates with probability pm, a
// mutating gene x becoming x·(1 + r), r uniform in [−MutationSpread,
// MutationSpread]; then b (if not nil) clamps x. It returns the number of
// genes mutated. Per gene it draws one uniform, and a second for r if the
// gene mutates.
func mutate(rng *rand.Rand, x []float64, pm float64, b *optimize.Bounds) int {
	n := 0
	for d := range x {
		if rng.Float64() < pm {
			r := (2*rng.Float64() - 1) * MutationSpread
			x[d] *= 1 + r
			n++
		}
	}
	b.Clamp(x)
	return n
}
