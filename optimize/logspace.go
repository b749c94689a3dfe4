package optimize

import (
	"fmt"
	"math"
	"slices"
)

// LogFloor is the smallest weight a log-space search reaches through its
// ranges: a range's lower end below it becomes ln LogFloor (a weight of
// 1, a thousandth of a typical road weight).
const LogFloor = 1.0

// LogSpace is a search over the logarithms of the weights: a method
// tunes u = ln w, and every vector it plays, and its answer, is
// w = exp(u) scaled to Norm (ScaleTo; road weights are scale-free, so the
// norm fixes the scale without changing play).
//
// Good road weights span three orders of magnitude (the robust GA's best
// vectors have 1- and 2-stone weights of 10–700 and 4-stone weights of
// 3,000–7,700 at norm 10,000): on a linear scale one step size cannot
// suit both ends, and a mutation or CMA-ES step of a few hundred weight
// units is noise for W4 and a change of sign for M1. In log space a step
// is a ratio, the same for every gene, and weights stay positive without
// bounds (0 only where a gene falls about 745 below the largest in u,
// beyond float64's exp). The search's free direction (1, …, 1) (a common factor) is
// neutral: play does not see it.
type LogSpace struct {
	// Norm > 0 is the Euclidean norm of every played vector and answer,
	// weight units.
	Norm float64
}

// Problem is p in log space: every range [lo, hi] (the initial range and
// the bounds) becomes [ln max(lo, LogFloor), ln hi], a start vector and
// the fixed opponents that Opponent resolves become their logarithms.
// Errors: a Norm that is not > 0, a range with a negative lower end (a
// signed gene, like the dual schema's alert threshold, has no logarithm)
// or an upper end not above LogFloor, a start gene ≤ 0, naming the gene. An
// opponent with a gene ≤ 0 is an error of Opponent when resolved.
func (l LogSpace) Problem(p Problem) (Problem, error) {
	if !(l.Norm > 0) || math.IsInf(l.Norm, 1) {
		return Problem{}, fmt.Errorf("log space: norm must be a finite number > 0, not %g", l.Norm)
	}
	return mapProblem(p, func(what string, lo, hi []float64) ([]float64, []float64, error) {
		return logRange(what, p.Genes, lo, hi)
	}, func(what string, w []float64) ([]float64, error) { return logVector(what, p.Genes, w) })
}

func logRange(what string, genes []string, lo, hi []float64) ([]float64, []float64, error) {
	if len(lo) != len(genes) || len(hi) != len(genes) {
		return lo, hi, nil // Problem.Validate reports the shapes
	}
	ulo, uhi := make([]float64, len(lo)), make([]float64, len(hi))
	for d := range lo {
		if lo[d] < 0 || !(hi[d] > LogFloor) {
			return nil, nil, fmt.Errorf("log space: %s of gene %s is [%g, %g]: a log-space search needs weights ≥ 0 reaching above %g (a signed gene has no logarithm)", what, genes[d], lo[d], hi[d], LogFloor)
		}
		ulo[d], uhi[d] = math.Log(max(lo[d], LogFloor)), math.Log(hi[d])
	}
	return ulo, uhi, nil
}

func logVector(what string, genes []string, w []float64) ([]float64, error) {
	if len(w) != len(genes) {
		return nil, fmt.Errorf("log space: %s has %d genes, want %d", what, len(w), len(genes))
	}
	u := make([]float64, len(w))
	for d, v := range w {
		if !(v > 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("log space: %s: gene %s is %g, and only weights > 0 have a logarithm", what, genes[d], v)
		}
		u[d] = math.Log(v)
	}
	return u, nil
}

// Weights is the played vector of u: exp(u) scaled to Norm.
func (l LogSpace) Weights(u []float64) []float64 {
	if u == nil {
		return nil
	}
	w := make([]float64, len(u))
	top := slices.Max(u) // exp(u − max u) cannot overflow; the norm fixes the scale
	for d, v := range u {
		w[d] = math.Exp(v - top)
	}
	return ScaleTo(w, l.Norm)
}

// Method wraps m, a method made for the log-space Problem: InSpace(l, m).
// Its state, records' Detail and metrics stay in log space (genes as ln w).
func (l LogSpace) Method(m Method) Method { return InSpace(l, m) }

// LogCoords is a search over the logarithms of some coordinates only: a
// method tunes u_d = ln w_d where Log[d] is set and w_d itself elsewhere,
// and every vector it plays, and its answer, has exp(u_d) there. It suits
// a search setting whose good values span orders of magnitude (a node
// budget: a [[param]] table's scale "log", after fishtest's and
// OpenBench's SPSA inputs) beside coordinates on a linear scale. Unlike
// LogSpace it keeps the vector's scale: a search setting has units of its
// own.
type LogCoords struct {
	// Log marks the coordinates searched by their logarithms; coordinates
	// past its end are searched as they are.
	Log []bool
}

// Problem is p with the marked coordinates of its ranges (the initial
// range and the bounds), its start and the fixed opponents that Opponent
// resolves replaced by their logarithms. Errors: a marked value ≤ 0,
// naming what holds it and the gene (an opponent's when resolved).
func (l LogCoords) Problem(p Problem) (Problem, error) {
	vector := func(what string, v []float64) ([]float64, error) {
		u := slices.Clone(v)
		for d, isLog := range l.Log {
			if !isLog || d >= len(u) {
				continue
			}
			if !(u[d] > 0) {
				return nil, fmt.Errorf("%s of parameter %s is %g: a log-scale parameter needs values > 0", what, p.Genes[d], u[d])
			}
			u[d] = math.Log(u[d])
		}
		return u, nil
	}
	return mapProblem(p, func(what string, lo, hi []float64) ([]float64, []float64, error) {
		ulo, err := vector(what, lo)
		if err != nil {
			return nil, nil, err
		}
		uhi, err := vector(what, hi)
		return ulo, uhi, err
	}, vector)
}

// Weights is the played vector of u: exp of the marked coordinates.
func (l LogCoords) Weights(u []float64) []float64 {
	if u == nil {
		return nil
	}
	w := slices.Clone(u)
	for d, isLog := range l.Log {
		if isLog && d < len(w) {
			w[d] = math.Exp(w[d])
		}
	}
	return w
}
