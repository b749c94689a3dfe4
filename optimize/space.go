package optimize

import (
	"context"
	"fmt"
)

// Space is a change of coordinates: a method searches vectors u of the
// Problem that Problem returns, and every vector it plays, and its answer,
// is Weights(u) in the schema's genes. LogSpace (u = ln w) and ChainSpace
// (monotone chains through their increments) are the two roadtune has.
type Space interface {
	// Problem is p in the search coordinates: its ranges, start and fixed
	// opponents mapped; an error says which gene or range has no image.
	Problem(p Problem) (Problem, error)
	// Weights is the played vector of u, genes in the schema's order; nil
	// for nil.
	Weights(u []float64) []float64
}

// mapProblem is p with its ranges (the initial range, then the bounds)
// through ranges and its start and the fixed opponents that Opponent
// resolves through vector, each told what it maps ("initial range",
// "bounds", "start", `opponent "name"`) for its errors: the part every
// Space's Problem shares. A nil start stays nil; an opponent is mapped
// when resolved.
func mapProblem(p Problem, ranges func(what string, lo, hi []float64) ([]float64, []float64, error), vector func(what string, w []float64) ([]float64, error)) (Problem, error) {
	q := p
	var err error
	if q.InitLo, q.InitHi, err = ranges("initial range", p.InitLo, p.InitHi); err != nil {
		return Problem{}, err
	}
	if p.Bounds != nil {
		lo, hi, err := ranges("bounds", p.Bounds.Lo, p.Bounds.Hi)
		if err != nil {
			return Problem{}, err
		}
		q.Bounds = &Bounds{Lo: lo, Hi: hi}
	}
	if p.Start != nil {
		if q.Start, err = vector("start", p.Start); err != nil {
			return Problem{}, err
		}
	}
	if p.Opponent != nil {
		q.Opponent = func(name string) ([]float64, error) {
			w, err := p.Opponent(name)
			if err != nil {
				return nil, err
			}
			return vector(fmt.Sprintf("opponent %q", name), w)
		}
	}
	return q, nil
}

// InSpace wraps m, a method made for s.Problem(p): its Step plays through
// a referee that turns every match's vectors into s.Weights, and its
// records' Best and its Best are Weights. Its state, records' Detail and
// metrics stay in the search coordinates. The wrapper keeps no state, so
// MarshalState and a Restore of the inner method round-trip as the method
// does.
func InSpace(s Space, m Method) Method { return spaceMethod{Method: m, space: s} }

type spaceMethod struct {
	Method
	space Space
}

func (m spaceMethod) Best() []float64 { return m.space.Weights(m.Method.Best()) }

func (m spaceMethod) Step(ctx context.Context, ref Referee) (Record, error) {
	rec, err := m.Method.Step(ctx, spaceReferee{ref: ref, space: m.space})
	rec.Best = m.space.Weights(rec.Best)
	return rec, err
}

// spaceReferee plays matches of search-space vectors as their Weights.
type spaceReferee struct {
	ref   Referee
	space Space
}

func (r spaceReferee) Play(ctx context.Context, seed uint64, matches []Match) ([]Outcome, error) {
	played := make([]Match, len(matches))
	for i, m := range matches {
		m.A, m.B = r.space.Weights(m.A), r.space.Weights(m.B)
		played[i] = m
	}
	return r.ref.Play(ctx, seed, played)
}

// ChainSpace searches weights that must not fall along chains of genes
// (a road of 4 stones worth at least one of 3, of 3 at least one of 2 …)
// through their increments: for a chain g0, g1, …, gk the method searches
// u[g0] = w[g0] and u[gi] = w[gi] − w[gi−1], and plays the running sums.
// With increments bounded below by 0 (Problem maps the bounds so), every
// vector the method plays keeps its chains in order, whatever the method
// does to u; the map is linear, so scaling u scales w (road weights are
// scale-free, and a method's norm works in u as in w).
//
// Every vector published or tuned for roadtune's schemas orders its 1- to
// 4-stone roads this way (zhou2015, Chen 2010's GA and PSO vectors, the
// tuned vectors of docs/experiments.md); the 5-stone weight does not (the
// search sees a five as a threat), so a chain for it is the user's choice.
// Genes outside every chain keep their own coordinates.
type ChainSpace struct {
	// Chains lists gene indices, each chain from its smallest weight to
	// its largest, at least 2 genes a chain; no gene in two chains.
	Chains [][]int
}

// Problem is p over increments: a chain's first gene keeps its ranges;
// gene gi's initial range and bounds become [0, hi[gi] − lo[gi−1]], the
// increment from the lowest w[gi−1] to the highest w[gi] (an
// increment's lower bound is 0 whatever the range, which is what keeps
// the chain in order). The bounds hold the increments, not the running
// sums: a played w[gi] may pass hi[gi] (at most by the sum of the
// chain's earlier upper bounds), which a norm, where the method has one,
// scales back; road weights are scale-free, so only ratios matter. A start vector and the fixed opponents map
// to their increments (a chain out of order gives a negative increment,
// which the bounds then lift to 0 where the method enforces them).
// Errors: a gene index out of range or in two chains, a chain of fewer
// than 2 genes, a range whose upper end is not above the lower end of
// the gene before it, naming the genes.
func (c ChainSpace) Problem(p Problem) (Problem, error) {
	n := len(p.Genes)
	seen := make([]bool, n)
	for _, ch := range c.Chains {
		if len(ch) < 2 {
			return Problem{}, fmt.Errorf("chain space: a chain needs at least 2 genes, not %d", len(ch))
		}
		for _, g := range ch {
			if g < 0 || g >= n {
				return Problem{}, fmt.Errorf("chain space: gene index %d is outside the %d genes", g, n)
			}
			if seen[g] {
				return Problem{}, fmt.Errorf("chain space: gene %s is in two chains", p.Genes[g])
			}
			seen[g] = true
		}
	}
	return mapProblem(p, func(what string, lo, hi []float64) ([]float64, []float64, error) {
		return c.chainRange(what, p.Genes, lo, hi)
	}, func(_ string, w []float64) ([]float64, error) { return c.Increments(w), nil })
}

func (c ChainSpace) chainRange(what string, genes []string, lo, hi []float64) ([]float64, []float64, error) {
	if len(lo) != len(genes) || len(hi) != len(genes) {
		return lo, hi, nil // Problem.Validate reports the shapes
	}
	ulo, uhi := append([]float64(nil), lo...), append([]float64(nil), hi...)
	for _, ch := range c.Chains {
		for i := 1; i < len(ch); i++ {
			prev, g := ch[i-1], ch[i]
			width := hi[g] - lo[prev]
			if !(width > 0) {
				return nil, nil, fmt.Errorf("chain space: %s of gene %s ends at %g, not above %s's lower end %g: no increment ≥ 0 fits", what, genes[g], hi[g], genes[prev], lo[prev])
			}
			ulo[g], uhi[g] = 0, width
		}
	}
	return ulo, uhi, nil
}

// Increments is w in the search coordinates (the inverse of Weights): a
// chain's later genes become their differences from the gene before.
// w is not changed; a vector of the wrong length comes back as a copy.
func (c ChainSpace) Increments(w []float64) []float64 {
	u := append([]float64(nil), w...)
	for _, ch := range c.Chains {
		for i := len(ch) - 1; i > 0; i-- {
			if ch[i] < len(w) && ch[i-1] < len(w) {
				u[ch[i]] = w[ch[i]] - w[ch[i-1]]
			}
		}
	}
	return u
}

// Weights is the played vector of u: along each chain the running sums
// of its increments, the other genes as they are.
func (c ChainSpace) Weights(u []float64) []float64 {
	if u == nil {
		return nil
	}
	w := append([]float64(nil), u...)
	for _, ch := range c.Chains {
		for i := 1; i < len(ch); i++ {
			if ch[i] < len(w) && ch[i-1] < len(w) {
				w[ch[i]] = w[ch[i-1]] + u[ch[i]]
			}
		}
	}
	return w
}
