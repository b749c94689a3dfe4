package pso

import (
	"math"

	"github.com/roadtune/roadtune/optimize"
)

// KFloor is the smallest |k| whose logarithm InertiaWeight takes: below it
// (k = 0 included, which FocusDistances returns when every personal best sits
// on g) |ln k| is clamped to |ln KFloor| ≈ 27.63, so w stays finite and
// small, (α1 + r/2)/27.63 ≤ 0.029 with Chen's α1.
const KFloor = 1e-12

// InertiaWeight is the inertia weight w of Chen 2010 eq. 5-6, as printed:
//
//	w = (α1 + |r|/2)·|ln k|     if |k| > 1
//	w = α1·α2 + |r|/2           if 0.05 ≤ |k| ≤ 1
//	w = (α1 + |r|/2) / |ln k|   if |k| < 0.05
//
// k is the focus-distance change rate of eq. 5-5 and r a draw uniform in
// [0, 1] (Chen: α1 = 0.3, α2 = 0.2). The logarithm is taken of |k|. From
// eq. 5-5, 0 ≤ k ≤ 1, so the first branch cannot occur in a run; it is kept
// as printed for a direct call. Guard: in the third branch |ln k| is clamped
// to |ln KFloor| when |k| < KFloor, so k = 0 gives (α1 + |r|/2)/27.63
// instead of 0. A NaN k gives NaN.
func InertiaWeight(k, r, alpha1, alpha2 float64) float64 {
	ak := math.Abs(k)
	half := math.Abs(r) / 2
	switch {
	case math.IsNaN(k):
		return math.NaN()
	case ak > 1:
		return (alpha1 + half) * math.Abs(math.Log(ak))
	case ak >= 0.05:
		return alpha1*alpha2 + half
	default:
		return (alpha1 + half) / math.Abs(math.Log(max(ak, KFloor)))
	}
}

// FocusDistances returns the mean and maximum focus distance of the swarm
// and their change rate (Chen 2010 eq. 5-3..5-5):
//
//	mean = (1/m) Σ_i ‖g − p_i‖,  max = max_i ‖g − p_i‖,  k = (max − mean)/max
//
// with ‖·‖ Euclidean over the genes, g the global best and pbests the m
// personal bests (each as long as g). The printed eq. 5-4 carries a stray
// p_id² factor; roadtune reads it as the plain distance. Guard:
// max = 0 (every personal best on g, or m = 0) gives k = 0. 0 ≤ k ≤ 1.
func FocusDistances(g []float64, pbests [][]float64) (mean, max, k float64) {
	if len(pbests) == 0 {
		return 0, 0, 0
	}
	sum, top := 0.0, 0.0
	for _, p := range pbests {
		d := optimize.Distance(g, p)
		sum += d
		top = math.Max(top, d)
	}
	avg := sum / float64(len(pbests))
	if top == 0 {
		return avg, 0, 0
	}
	// Rounding can leave the mean a hair above the maximum when all
	// distances are equal; k is then 0.
	return avg, top, math.Max(0, (top-avg)/top)
}
