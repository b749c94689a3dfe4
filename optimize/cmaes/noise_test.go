package cmaes

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRankChange checks the rank-change measure against cases worked by
// hand for λ = 4, θ = 0.2: the limits Δlim(R) are the 10th percentile of
// the 7 distances {|1 − R|, …, |7 − R|}, position 10·7/100 − 0.5 = 0.2,
// so 0.8·d[0] + 0.2·d[1] of the sorted distances.
func TestRankChange(t *testing.T) {
	for _, tc := range []struct {
		name    string
		old, re []float64
		want    float64
	}{
		// Joint values 0.1 0.3 0.3 0.4 0.4 0.8 0.9 0.9: 0.1 has rank 1,
		// 0.8 rank 6, Δ = 6 − 1 − 1 = 4 (the four values between). R of
		// 0.8 among the others is 5 (0.1 below it is its partner):
		// distances 4 3 2 1 0 1 2, Δlim = 0.2; R of 0.1 is 1: distances
		// 0 … 6, Δlim = 0.2. s = 2·4 − 0.2 − 0.2.
		{"four between", []float64{0.1, 0.4, 0.3, 0.9}, []float64{0.8}, 7.6},
		// A re-evaluation equal to its first value: Δ = 0 (no change),
		// both at mid-rank 3.5, 3 among the others: Δlim(3) = 0.2.
		{"same value", []float64{0.5, 0.2, 0.7, 0.9}, []float64{0.5}, -0.4},
		// Next to its first value, no tie: Δ = 0, the same as above.
		{"adjacent", []float64{0.5, 0.2, 0.7, 0.9}, []float64{0.55}, -0.4},
		// Ties with others: joint values 0.2 ×3, 0.5 ×2, 0.7 ×3, mid-ranks
		// 2, 4.5 and 7. Candidate 0 goes from 0.2 to 0.7: Δ = 7 − 2 − 1 =
		// 4 = the two 0.5 between plus half of the other two 0.2 and half
		// of the other two 0.7. R of 0.7 among the others is 6
		// (distances 5 4 3 2 1 0 1), of 0.2 it is 2 (1 0 1 2 3 4 5): both
		// Δlim = 0.2. s = 2·4 − 0.4.
		{"ties", []float64{0.2, 0.2, 0.5, 0.7}, []float64{0.7}, 7.6},
	} {
		s, each := RankChange(tc.old, tc.re, Theta)
		if math.Abs(s-tc.want) > 1e-12 || len(each) != len(tc.re) {
			t.Errorf("%s: s = %g (%v), want %g", tc.name, s, each, tc.want)
		}
		neg := func(v []float64) []float64 {
			out := make([]float64, len(v))
			for i, x := range v {
				out[i] = -x
			}
			return out
		}
		if s2, _ := RankChange(neg(tc.old), neg(tc.re), Theta); math.Abs(s2-s) > 1e-12 {
			t.Errorf("%s: negated values give s = %g, want %g", tc.name, s2, s)
		}
	}
	// Two re-evaluations: s is the mean of the two terms.
	s, each := RankChange([]float64{0.1, 0.5, 0.3, 0.9}, []float64{0.8, 0.5}, Theta)
	if len(each) != 2 || math.Abs(s-(each[0]+each[1])/2) > 1e-12 || each[1] >= 0 {
		t.Errorf("s %g from %v", s, each)
	}
	if s, each := RankChange([]float64{1, 2}, nil, Theta); s != 0 || each != nil {
		t.Errorf("no re-evaluation: %g %v", s, each)
	}
}

// TestRankChangeSeparatesNoise: identical re-evaluations always give
// s < 0; independent ones (pure noise) give s > 0 on average, for
// continuous values and for coarse score fractions with many ties.
func TestRankChangeSeparatesNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, lambda := range []int{4, 8, 13, 40} {
		reev := 2 + lambda/20
		for _, coarse := range []float64{0, 4, 16} {
			draw := func() float64 {
				if coarse == 0 {
					return rng.Float64()
				}
				return math.Round(rng.Float64()*coarse) / coarse
			}
			sum := 0.0
			for range 200 {
				old := make([]float64, lambda)
				for i := range old {
					old[i] = draw()
				}
				same, _ := RankChange(old, old[:reev], Theta)
				if same >= 0 {
					t.Fatalf("λ %d: identical re-evaluations give s = %g", lambda, same)
				}
				re := make([]float64, reev)
				for i := range re {
					re[i] = draw()
				}
				s, _ := RankChange(old, re, Theta)
				sum += s
			}
			if sum <= 0 {
				t.Errorf("λ %d, coarse %g: pure noise gives mean s = %g", lambda, coarse, sum/200)
			}
		}
	}
}

func TestPrctile(t *testing.T) {
	d := []float64{4, 1, 3, 2}
	for _, tc := range []struct{ p, want float64 }{
		{0, 1}, {10, 1}, {12.5, 1}, {25, 1.5}, {50, 2.5}, {75, 3.5}, {100, 4},
	} {
		if got := Prctile(d, tc.p); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Prctile(%v, %g) = %g, want %g", d, tc.p, got, tc.want)
		}
	}
	if d[0] != 4 || Prctile(nil, 50) != 0 {
		t.Error("Prctile changed its data or misread no data")
	}
}

func TestMidRanks(t *testing.T) {
	got := midRanks([]float64{0.5, 0.1, 0.5, 0.9, 0.5})
	want := []float64{3, 1, 3, 5, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("midRanks = %v, want %v", got, want)
		}
	}
}
