package ga

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

func TestMutationFactorAndBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	const trials = 20000
	orig := []float64{100, -250, 0, 3999, 1}
	lo, hi := math.Inf(1), math.Inf(-1)
	for range trials {
		x := append([]float64(nil), orig...)
		if n := mutate(rng, x, 1, nil); n != len(x) {
			t.Fatalf("pm = 1 mutated %d genes, want %d", n, len(x))
		}
		for d := range x {
			if orig[d] == 0 {
				if x[d] != 0 {
					t.Fatalf("a zero gene became %g", x[d])
				}
				continue
			}
			f := x[d] / orig[d]
			lo, hi = min(lo, f), max(hi, f)
			if f < 1-MutationSpread || f > 1+MutationSpread {
				t.Fatalf("gene %d: %g → %g, factor %g outside [0.8, 1.2]", d, orig[d], x[d], f)
			}
		}
	}
	// The factor covers its range: 80 000 draws leave gaps of ~5e-6.
	if lo > 0.8001 || hi < 1.1999 {
		t.Errorf("factors span [%g, %g], want close to [0.8, 1.2]", lo, hi)
	}

	// Mutation frequency: pm = 0.15 over 100 000 genes; σ ≈ 0.0011, so a
	// tolerance of 0.006 is over 5σ.
	n := 0
	for range trials {
		n += mutate(rng, append([]float64(nil), orig...), 0.15, nil)
	}
	if p := float64(n) / float64(trials*len(orig)); math.Abs(p-0.15) > 0.006 {
		t.Errorf("mutated fraction %g, want 0.15 ± 0.006", p)
	}

	// Bounds clamp after mutation.
	b := optimize.UniformBounds(len(orig), 0, 3000)
	for range 2000 {
		x := append([]float64(nil), orig...)
		mutate(rng, x, 1, b)
		for d, v := range x {
			if v < 0 || v > 3000 {
				t.Fatalf("gene %d = %g outside the bounds [0, 3000]", d, v)
			}
		}
	}
}

func TestCrossoverMaskIsHalf(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	const trials, genes = 20000, 5
	p1 := []float64{1, 2, 3, 4, 5}
	p2 := []float64{-1, -2, -3, -4, -5}
	perGene := make([]int, genes)
	total := 0
	for range trials {
		c1 := append([]float64(nil), p1...)
		c2 := append([]float64(nil), p2...)
		n := crossover(rng, c1, c2)
		swapped := 0
		for d := range genes {
			switch {
			case c1[d] == p2[d] && c2[d] == p1[d]:
				perGene[d]++
				swapped++
			case c1[d] == p1[d] && c2[d] == p2[d]:
			default:
				t.Fatalf("gene %d: children %g, %g are not the parents' genes", d, c1[d], c2[d])
			}
		}
		if swapped != n {
			t.Fatalf("crossover reported %d swaps, counted %d", n, swapped)
		}
		total += n
	}
	// Overall 100 000 fair bits: σ = 0.0016, tolerance 0.008 (5σ); per gene
	// 20 000 bits: σ = 0.0035, tolerance 0.0175 (5σ).
	if p := float64(total) / (trials * genes); math.Abs(p-0.5) > 0.008 {
		t.Errorf("swap frequency %g, want 0.5 ± 0.008", p)
	}
	for d, c := range perGene {
		if p := float64(c) / trials; math.Abs(p-0.5) > 0.0175 {
			t.Errorf("gene %d swap frequency %g, want 0.5 ± 0.0175", d, p)
		}
	}
}

func TestRouletteFrequenciesFollowFitness(t *testing.T) {
	// Chen 2010 Table 4.7: fitness 5, 2, 2, 1 → P = 0.5, 0.2, 0.2, 0.1; a
	// fifth slot of fitness 0 must never be drawn.
	w := newWheel([]float64{5, 2, 2, 1, 0})
	rng := rand.New(rand.NewPCG(1, 2))
	const spins = 100000
	count := make([]int, 5)
	for range spins {
		count[w.spin(rng)]++
	}
	if count[4] != 0 {
		t.Fatalf("zero-fitness slot drawn %d times", count[4])
	}
	want := []float64{0.5, 0.2, 0.2, 0.1}
	chi2 := 0.0
	for i, p := range want {
		e := p * spins
		d := float64(count[i]) - e
		chi2 += d * d / e
	}
	// χ²(3 d.f.) exceeds 16.27 with probability 0.001.
	if chi2 > 16.27 {
		t.Errorf("counts %v: χ² = %.2f > 16.27 (3 d.f., p = 0.001)", count, chi2)
	}

	// All-zero weights: uniform.
	z := newWheel([]float64{0, 0, 0, 0})
	zc := make([]int, 4)
	for range 40000 {
		zc[z.spin(rng)]++
	}
	for i, c := range zc {
		if math.Abs(float64(c)-10000) > 500 { // σ ≈ 87
			t.Errorf("all-zero wheel slot %d drawn %d times, want 10000 ± 500", i, c)
		}
	}
}

func TestAdaptiveRateByHand(t *testing.T) {
	const eps = 1e-15
	cases := []struct {
		name                 string
		p1, p2, f, fAvg, fMx float64
		want                 float64
	}{
		// eq. 4.3 with Chen's Pc1 = 0.9, Pc2 = 0.6, f_avg = 2, f_max = 6.
		{"Pc below average", 0.9, 0.6, 1, 2, 6, 0.9},
		{"Pc at average", 0.9, 0.6, 2, 2, 6, 0.9},
		{"Pc halfway", 0.9, 0.6, 4, 2, 6, 0.9 - 0.3*2/4},
		{"Pc at max", 0.9, 0.6, 6, 2, 6, 0.6},
		// eq. 4.4 with Pm1 = 0.1, Pm2 = 0.001: 0.1 − 0.099·3/4 = 0.02575.
		{"Pm three quarters", 0.1, 0.001, 5, 2, 6, 0.02575},
		// f_max = f_avg: every fitness equal; defined as p2.
		{"Pc flat population", 0.9, 0.6, 3, 3, 3, 0.6},
		{"Pm flat population", 0.1, 0.001, 3, 3, 3, 0.001},
	}
	for _, c := range cases {
		if got := AdaptiveRate(c.p1, c.p2, c.f, c.fAvg, c.fMx); math.Abs(got-c.want) > eps {
			t.Errorf("%s: AdaptiveRate = %.17g, want %.17g", c.name, got, c.want)
		}
	}
}
