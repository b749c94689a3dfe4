package pso

import (
	"math"
	"testing"
)

func TestInertiaWeightBranches(t *testing.T) {
	const a1, a2 = 0.3, 0.2
	for _, tc := range []struct {
		name string
		k, r float64
		want float64
	}{
		// 0.05 ≤ |k| ≤ 1: α1·α2 + r/2.
		{"middle", 0.5, 0.4, 0.06 + 0.2},
		{"middle r=0", 0.5, 0, 0.06},
		{"middle r=1", 0.3, 1, 0.56},
		{"upper edge k=1", 1, 0.4, 0.26},
		{"lower edge k=0.05", 0.05, 0.4, 0.26},
		{"negative k uses |k|", -0.5, 0.4, 0.26},
		{"negative r uses |r|", 0.5, -0.4, 0.26},
		// |k| < 0.05: (α1 + r/2)/|ln k|; ln 0.01 = −4.605170185988091.
		{"small k", 0.01, 0.4, 0.5 / 4.605170185988091},
		// ln 0.04 = −3.2188758248682006.
		{"just below 0.05", 0.04, 0, 0.3 / 3.2188758248682006},
		// Guard: |k| < 1e-12 takes |ln 1e-12| = 27.631021115928547.
		{"k=0 guard", 0, 0.4, 0.5 / 27.631021115928547},
		{"tiny k guard", 1e-300, 0.4, 0.5 / 27.631021115928547},
		// |k| > 1 cannot occur in a run, computed as printed: ln 4 = 2 ln 2.
		{"k=4 printed branch", 4, 0.4, 0.5 * 1.3862943611198906},
		{"k=-4 printed branch", -4, 0.4, 0.5 * 1.3862943611198906},
	} {
		got := InertiaWeight(tc.k, tc.r, a1, a2)
		if math.Abs(got-tc.want) > 1e-15*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s: InertiaWeight(%g, %g) = %.17g, want %.17g", tc.name, tc.k, tc.r, got, tc.want)
		}
	}
	if w := InertiaWeight(math.NaN(), 0.5, a1, a2); !math.IsNaN(w) {
		t.Errorf("NaN k gave %g, want NaN", w)
	}
}

func TestFocusDistances(t *testing.T) {
	for _, tc := range []struct {
		name         string
		g            []float64
		p            [][]float64
		mean, max, k float64
	}{
		// Distances 5, 0, 10, 1: mean 16/4 = 4, max 10, k = (10−4)/10.
		{"plane", []float64{0, 0}, [][]float64{{3, 4}, {0, 0}, {6, 8}, {0, 1}}, 4, 10, 0.6},
		// Distances 0 and √(2²+2²+1²) = 3: mean 1.5, max 3, k 0.5.
		{"space", []float64{1, 2, 2}, [][]float64{{1, 2, 2}, {3, 4, 3}}, 1.5, 3, 0.5},
		// All distances equal: k = 0.
		{"equal", []float64{0, 0}, [][]float64{{3, 4}, {-4, 3}, {0, -5}}, 5, 5, 0},
		// Every personal best on g: MaxDist = 0 guard, k = 0.
		{"collapsed", []float64{7, 7}, [][]float64{{7, 7}, {7, 7}}, 0, 0, 0},
		{"empty", []float64{1}, nil, 0, 0, 0},
	} {
		mean, max, k := FocusDistances(tc.g, tc.p)
		if math.Abs(mean-tc.mean) > 1e-12 || math.Abs(max-tc.max) > 1e-12 || math.Abs(k-tc.k) > 1e-12 {
			t.Errorf("%s: got mean %g max %g k %g, want %g %g %g", tc.name, mean, max, k, tc.mean, tc.max, tc.k)
		}
	}
}
