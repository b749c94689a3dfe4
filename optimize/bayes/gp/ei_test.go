package gp

import (
	"math"
	"testing"
)

func TestExpectedImprovement(t *testing.T) {
	// By hand: μ = 0.6, σ² = 0.04, best = 0.5, ξ = 0.02: gain 0.08,
	// σ = 0.2, z = 0.4; Φ(0.4) = ½ erfc(−0.4/√2), φ(0.4) = e^{−0.08}/√(2π).
	phi := math.Exp(-0.08) / math.Sqrt(2*math.Pi)
	cdf := 0.5 * math.Erfc(-0.4/math.Sqrt2)
	want := 0.08*cdf + 0.2*phi
	if got := ExpectedImprovement(0.6, 0.04, 0.5, 0.02); math.Abs(got-want) > 1e-15 {
		t.Errorf("EI = %.17g, want %.17g", got, want)
	}
	// Zero variance: exactly the positive part of the gain.
	if got := ExpectedImprovement(0.3, 0, 0.5, 0.01); got != 0 {
		t.Errorf("EI far below best with no variance = %g, want 0", got)
	}
	mean, best, xi := 0.7, 0.5, 0.05
	if got := ExpectedImprovement(mean, 0, best, xi); got != mean-best-xi {
		t.Errorf("EI above best with no variance = %g, want %g", got, mean-best-xi)
	}
	// Far below best with some variance: tiny, never negative.
	if got := ExpectedImprovement(-10, 1e-4, 0.5, 0); got < 0 || got > 1e-300 {
		t.Errorf("EI 1000σ below best = %g, want 0", got)
	}
	// Increasing in the variance at an equal mean, below, at and above best.
	for _, mean := range []float64{0.4, 0.5, 0.51} {
		prev := ExpectedImprovement(mean, 0, 0.5, 0)
		for _, v := range []float64{1e-4, 1e-3, 0.01, 0.1, 1} {
			ei := ExpectedImprovement(mean, v, 0.5, 0)
			if !(ei > prev) {
				t.Errorf("mean %g: EI(variance %g) = %g, not above %g at less variance", mean, v, ei, prev)
			}
			prev = ei
		}
	}
	// A larger ξ asks for more: less expected improvement.
	if a, b := ExpectedImprovement(0.5, 0.01, 0.5, 0), ExpectedImprovement(0.5, 0.01, 0.5, 0.05); !(b < a) {
		t.Errorf("EI with ξ = 0.05 %g, not below %g with ξ = 0", b, a)
	}
	if !math.IsNaN(ExpectedImprovement(0.5, math.NaN(), 0.5, 0)) {
		t.Errorf("EI of a NaN variance is not NaN")
	}
}
