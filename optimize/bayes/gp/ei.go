package gp

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ExpectedImprovement is E[max(f − best − xi, 0)] for f ~ N(mean,
// variance), the acquisition function of Jones, Schonlau & Welch 1998
// (eq. 15), for maximisation:
//
//	(μ − best − ξ)·Φ(z) + σ·φ(z),  z = (μ − best − ξ)/σ,  σ = √variance,
//
// with Φ and φ the standard normal CDF and density. It is exactly
// max(μ − best − ξ, 0) when variance ≤ 0, and never negative (round-off
// far below best is clamped); NaN in, NaN out. mean, best and xi are in
// target units, variance in target units²; the result is in target units.
func ExpectedImprovement(mean, variance, best, xi float64) float64 {
	gain := mean - best - xi
	if !(variance > 0) {
		if math.IsNaN(variance) {
			return math.NaN()
		}
		return max(gain, 0)
	}
	sd := math.Sqrt(variance)
	z := gain / sd
	return max(gain*distuv.UnitNormal.CDF(z)+sd*distuv.UnitNormal.Prob(z), 0)
}
