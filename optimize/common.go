package optimize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// The pool entries that stand for vectors of the run itself rather than
// fixed opponents: a common-opponent fitness (PoolMatches) plays every
// candidate of a step against the step's vector for each.
const (
	// PoolCentroid is the mean of the vectors of the step's population
	// (the population's centroid, scaled like its members): self-play
	// against the population's own average, so scores sit near ½ where a
	// game result carries the most information (the noisy-optimisation
	// habit of evolution strategies: nevergrad's TBPSA, Hellwig & Beyer
	// 2016).
	PoolCentroid = "centroid"
	// PoolBest is the run's current answer (Method.Best) before the step.
	PoolBest = "best"
)

// PoolEntry is one opponent of a common-opponent fitness: a fixed vector
// of the problem's genes (a baseline or a weight file, resolved by
// Problem.Opponent), or PoolCentroid or PoolBest (Genes nil: the vector is
// the run's own, filled in each step).
type PoolEntry struct {
	Name  string    `json:"name"`
	Genes []float64 `json:"genes,omitempty"`
}

// Own reports whether the entry stands for a vector of the run itself
// (PoolCentroid or PoolBest).
func (e PoolEntry) Own() bool { return e.Name == PoolCentroid || e.Name == PoolBest }

// ResolvePool resolves the names of a pool option (the TOML key key of a
// method's table): each is PoolCentroid, PoolBest, or a name p.Opponent
// resolves to a vector of the problem's genes; a name may not repeat.
// Errors are *OptionError with Key key naming the entry (from 1) and why:
// an empty pool, an empty or repeated name, a runner that offers no
// opponents by name, a name that does not resolve or resolves to a vector
// of the wrong length.
func ResolvePool(key string, names []string, p Problem) ([]PoolEntry, error) {
	bad := func(format string, args ...any) error {
		return &OptionError{Key: key, Msg: fmt.Sprintf(format, args...)}
	}
	if len(names) == 0 {
		return nil, bad("is empty: name at least one opponent (%q, %q, a baseline or a weight file)", PoolCentroid, PoolBest)
	}
	out := make([]PoolEntry, len(names))
	for i, name := range names {
		out[i].Name = name
		switch {
		case name == "":
			return nil, bad("entry %d is empty (want %q, %q, a baseline or a weight file)", i+1, PoolCentroid, PoolBest)
		case slices.Index(names, name) < i:
			return nil, bad("entry %d, %q, repeats entry %d", i+1, name, slices.Index(names, name)+1)
		case out[i].Own():
		case p.Opponent == nil:
			return nil, bad("entry %d, %q: this job runner offers no opponents by name; only %q and %q", i+1, name, PoolCentroid, PoolBest)
		default:
			g, err := p.Opponent(name)
			if err != nil {
				return nil, bad("entry %d, %q: %v", i+1, name, err)
			}
			if err := CheckVector(name, g, len(p.Genes)); err != nil {
				return nil, bad("entry %d: %v", i+1, err)
			}
			out[i].Genes = slices.Clone(g)
		}
	}
	return out, nil
}

// PoolVectors returns the pool's vectors for one step: each fixed entry's
// genes, PoolCentroid as centroid and PoolBest as best (either may be nil
// only if the pool does not name it).
func PoolVectors(pool []PoolEntry, centroid, best []float64) [][]float64 {
	out := make([][]float64, len(pool))
	for j, e := range pool {
		switch e.Name {
		case PoolCentroid:
			out[j] = centroid
		case PoolBest:
			out[j] = best
		default:
			out[j] = e.Genes
		}
	}
	return out
}

// PoolMatches is a common-opponent evaluation as one batch: candidate i
// against opponent j is match i·len(opps)+j, with OpeningSet j+1, so every
// candidate meets opponent j on the same openings (common random numbers:
// within a step, the scores of two candidates differ by their play, not by
// their draw of openings). The vectors are copied.
func PoolMatches(cands, opps [][]float64) []Match {
	ms := make([]Match, 0, len(cands)*len(opps))
	for _, c := range cands {
		for j, o := range opps {
			ms = append(ms, Match{A: slices.Clone(c), B: slices.Clone(o), OpeningSet: j + 1})
		}
	}
	return ms
}

// PoolOutcomes sums PoolMatches' outcomes per candidate: out has n·k
// outcomes for n candidates and k opponents, in PoolMatches' order.
func PoolOutcomes(out []Outcome, n, k int) []Outcome {
	sum := make([]Outcome, n)
	for i := range n {
		for j := range k {
			sum[i].Merge(out[i*k+j])
		}
	}
	return sum
}

// Tally is a vector's fitness memory: the points and games of the matches
// it has played, older ones weighted down by Decay. Its Mean is the
// fraction of points it scored; a vector that survives steps keeps adding
// games, so its fitness grows more certain instead of being judged on one
// step's few games (re-evaluation of survivors, as UH-CMA-ES and
// Diaz & Handl 2015 use it).
type Tally struct {
	// Points are the (weighted) points scored: 1 a win, ½ a draw.
	Points float64 `json:"points"`
	// Games are the (weighted) games played.
	Games float64 `json:"games"`
	// Steps counts the steps that added games.
	Steps int `json:"steps"`
}

// Add counts an outcome of the vector's (its view).
func (t *Tally) Add(o Outcome) {
	t.Points += o.Score()
	t.Games += float64(o.Games())
	t.Steps++
}

// Decay weights the games so far by f in [0, 1]: 1 keeps them whole,
// 0 forgets them (the next step's games alone count).
func (t *Tally) Decay(f float64) {
	t.Points *= f
	t.Games *= f
}

// Mean is the fraction of points scored, ½ before any game.
func (t Tally) Mean() float64 {
	if t.Games <= 0 {
		return 0.5
	}
	return t.Points / t.Games
}

// Shrunk is the fraction of points with prior games of ½ added:
// (Points + prior/2)/(Games + prior), the posterior mean under a
// Beta(prior/2, prior/2) prior (Laplace's rule of succession for prior 2).
// Ranked by Mean, a vector's 2 lucky games (1.0) beat another's 15 of 20
// (0.75), and selection keeps the luckiest: the winner's curse. Shrunk
// with prior 4, they are 0.67 and 0.71. prior 0 is Mean.
func (t Tally) Shrunk(prior float64) float64 {
	if t.Games+prior <= 0 {
		return 0.5
	}
	return (t.Points + prior/2) / (t.Games + prior)
}

// Norm is the Euclidean norm of x.
func Norm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// ScaleTo scales x in place to Euclidean norm r (r > 0) and returns it; a
// zero vector is left as it is. Road weights are scale-free (multiplying
// every weight by c > 0 leaves the engine's choices unchanged; package
// engine's scale-invariance test says within which limits), so a method
// that searches vectors of one norm spends no effort on the overall scale.
func ScaleTo(x []float64, r float64) []float64 {
	n := Norm(x)
	if n == 0 || r <= 0 {
		return x
	}
	f := r / n
	for d := range x {
		x[d] *= f
	}
	return x
}

// Centroid is the gene-wise mean of a population of equal-length vectors
// (nil for none).
func Centroid(pop [][]float64) []float64 {
	if len(pop) == 0 {
		return nil
	}
	c := make([]float64, len(pop[0]))
	for _, x := range pop {
		for d, v := range x {
			c[d] += v
		}
	}
	for d := range c {
		c[d] /= float64(len(pop))
	}
	return c
}

// AroundStart draws a warm-start population of n vectors around start:
// the first is start itself, each other one start plus independent
// Gaussian noise of standard deviation spread·‖start‖/√D per gene (D genes;
// so the whole perturbation has about spread times the start's norm), from
// rng only. A chain stage uses it to go on from an earlier stage's answer
// (e.g. a Texel run's best) instead of a uniform draw.
func AroundStart(rng *rand.Rand, start []float64, n int, spread float64) [][]float64 {
	sd := spread * Norm(start) / math.Sqrt(float64(max(len(start), 1)))
	pop := make([][]float64, n)
	for i := range pop {
		x := slices.Clone(start)
		if i > 0 {
			for d := range x {
				x[d] += sd * rng.NormFloat64()
			}
		}
		pop[i] = x
	}
	return pop
}
