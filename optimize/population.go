package optimize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Bounds are per-gene limits [Lo[d], Hi[d]] on weight vectors. A nil Bounds
// (or one with empty slices) means unbounded, which reproduces the theses.
type Bounds struct {
	Lo, Hi []float64
}

// BoundMode says how a method keeps its vectors inside a problem's Bounds
// (Problem.BoundMode): the config key bounds.mode. Its text form is its
// value; UnmarshalText refuses anything else.
type BoundMode string

// The bound modes.
const (
	BoundsOff     BoundMode = "off"     // no limits enforced (the theses)
	BoundsClamp   BoundMode = "clamp"   // a gene past a limit is set to it
	BoundsReflect BoundMode = "reflect" // a gene past a limit is folded back in (Bounds.Reflect)
)

// Validate checks that m is one of the bound modes.
func (m BoundMode) Validate() error {
	switch m {
	case BoundsOff, BoundsClamp, BoundsReflect:
		return nil
	}
	return fmt.Errorf("bound mode must be %q, %q or %q, not %q", BoundsOff, BoundsClamp, BoundsReflect, string(m))
}

// Enforced reports whether m keeps vectors inside the bounds (clamp or
// reflect).
func (m BoundMode) Enforced() bool { return m == BoundsClamp || m == BoundsReflect }

// Enforce keeps x inside b by m, in place: Clamp, Reflect (without
// directions) or nothing.
func (m BoundMode) Enforce(b *Bounds, x []float64) {
	switch m {
	case BoundsClamp:
		b.Clamp(x)
	case BoundsReflect:
		b.Reflect(x, nil)
	}
}

// MarshalText returns m's name.
func (m BoundMode) MarshalText() ([]byte, error) { return []byte(m), nil }

// UnmarshalText sets m from its name, refusing an unknown one.
func (m *BoundMode) UnmarshalText(text []byte) error {
	v := BoundMode(text)
	if err := v.Validate(); err != nil {
		return err
	}
	*m = v
	return nil
}

// UniformBounds returns bounds [lo, hi] for every one of n genes.
func UniformBounds(n int, lo, hi float64) *Bounds {
	b := &Bounds{Lo: make([]float64, n), Hi: make([]float64, n)}
	for d := range n {
		b.Lo[d], b.Hi[d] = lo, hi
	}
	return b
}

// Clone is a deep copy of b: new Lo and Hi slices of the same genes; nil
// for nil.
func (b *Bounds) Clone() *Bounds {
	if b == nil {
		return nil
	}
	return &Bounds{Lo: slices.Clone(b.Lo), Hi: slices.Clone(b.Hi)}
}

// Validate checks that the bounds have n genes and Lo[d] ≤ Hi[d], all finite.
func (b *Bounds) Validate(n int) error {
	if b == nil {
		return nil
	}
	if len(b.Lo) != n || len(b.Hi) != n {
		return fmt.Errorf("bounds: have %d lower and %d upper limits, want %d each", len(b.Lo), len(b.Hi), n)
	}
	for d := range n {
		lo, hi := b.Lo[d], b.Hi[d]
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
			return fmt.Errorf("bounds: gene %d: limits must be finite numbers", d)
		}
		if lo > hi {
			return fmt.Errorf("bounds: gene %d: lower limit %g above upper limit %g", d, lo, hi)
		}
	}
	return nil
}

// Clamp moves every gene of x into its bounds, in place. A nil receiver does
// nothing.
func (b *Bounds) Clamp(x []float64) {
	if b == nil || len(b.Lo) == 0 {
		return
	}
	for d := range x {
		x[d] = min(max(x[d], b.Lo[d]), b.Hi[d])
	}
}

// Reflect folds every gene of x back into its bounds as a mirror would
// (x = hi + e becomes hi − e), in place, and reports per gene whether it was
// reflected in dir (+1 reflected off the upper limit, −1 off the lower,
// 0 not reflected) so a PSO can turn the velocity round. dir may be nil.
// A gene of a zero-width interval is set to that value.
func (b *Bounds) Reflect(x []float64, dir []int) {
	if b == nil || len(b.Lo) == 0 {
		return
	}
	for d := range x {
		lo, hi := b.Lo[d], b.Hi[d]
		w := hi - lo
		r := 0
		if w <= 0 {
			if x[d] != lo {
				r = 1
			}
			x[d] = lo
		} else if x[d] < lo || x[d] > hi {
			// Unfold on a period of 2w: [lo, hi] then back down.
			t := math.Mod(x[d]-lo, 2*w)
			if t < 0 {
				t += 2 * w
			}
			if x[d] > hi {
				r = 1
			} else {
				r = -1
			}
			if t > w {
				t = 2*w - t
			}
			x[d] = lo + t
		}
		if dir != nil {
			dir[d] = r
		}
	}
}

// UniformPopulation draws n weight vectors with gene d uniform in
// [lo[d], hi[d]], from rng only. The GA and the PSO both start from it, so a
// run of each seeded alike starts from the same population, as Chen 2010
// Table 5.1 compares them.
func UniformPopulation(rng *rand.Rand, n int, lo, hi []float64) [][]float64 {
	pop := make([][]float64, n)
	for i := range pop {
		x := make([]float64, len(lo))
		for d := range x {
			x[d] = lo[d] + rng.Float64()*(hi[d]-lo[d])
		}
		pop[i] = x
	}
	return pop
}

// Distance is the Euclidean distance between two weight vectors of equal
// length.
func Distance(a, b []float64) float64 {
	s := 0.0
	for d := range a {
		e := a[d] - b[d]
		s += e * e
	}
	return math.Sqrt(s)
}

// Diversity measures how spread out a population of weight vectors is.
type Diversity struct {
	// MeanDistance is the mean Euclidean distance over all m(m−1)/2 pairs
	// of vectors, in gene units.
	MeanDistance float64 `json:"mean_distance"`
	// GeneStd[d] is the population standard deviation (divisor m) of gene d.
	GeneStd []float64 `json:"gene_std"`
}

// MeanGeneStd is the mean of GeneStd over the genes (0 with no genes), the
// "gene_std" metric of a Record.
func (dv Diversity) MeanGeneStd() float64 {
	if len(dv.GeneStd) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range dv.GeneStd {
		s += v
	}
	return s / float64(len(dv.GeneStd))
}

// PopulationDiversity computes the Diversity of a population of equal-length
// vectors. An empty population has zero diversity and no genes.
func PopulationDiversity(pop [][]float64) Diversity {
	m := len(pop)
	if m == 0 {
		return Diversity{}
	}
	genes := len(pop[0])
	dv := Diversity{GeneStd: make([]float64, genes)}
	if m > 1 {
		s := 0.0
		for i := range pop {
			for j := i + 1; j < m; j++ {
				s += Distance(pop[i], pop[j])
			}
		}
		dv.MeanDistance = s / float64(m*(m-1)/2)
	}
	for d := range genes {
		mean := 0.0
		for _, x := range pop {
			mean += x[d]
		}
		mean /= float64(m)
		v := 0.0
		for _, x := range pop {
			e := x[d] - mean
			v += e * e
		}
		dv.GeneStd[d] = math.Sqrt(v / float64(m))
	}
	return dv
}
