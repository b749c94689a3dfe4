package gp

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// m52 is the Matérn 5/2 correlation at distance r, written out for the
// tests independently of the package's helper.
func m52(r float64) float64 {
	return (1 + math.Sqrt(5)*r + 5*r*r/3) * math.Exp(-math.Sqrt(5)*r)
}

func TestKernelCov(t *testing.T) {
	k := Kernel{LengthScales: []float64{0.5, 2}, Variance: 0.09}
	a, b := []float64{0.1, 0.2}, []float64{0.4, 1.0}
	r := math.Hypot(0.3/0.5, 0.8/2)
	if got, want := k.Cov(a, b), 0.09*m52(r); math.Abs(got-want) > 1e-15 {
		t.Errorf("Cov(a, b) = %.17g, want %.17g", got, want)
	}
	if k.Cov(a, b) != k.Cov(b, a) {
		t.Errorf("Cov is not symmetric")
	}
	if got := k.Cov(a, a); got != 0.09 {
		t.Errorf("Cov(a, a) = %g, want the variance 0.09", got)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Cov of a 1-D point with a 2-D kernel did not panic")
		}
	}()
	k.Cov([]float64{0}, b)
}

// The posterior of two 1-D points worked by hand with the closed-form
// 2×2 inverse: x = 0 and 1, y = 0.2 and 0.6 (prior mean 0.4), noise 0.01
// and 0.04, ℓ = 0.5, σ_f² = 0.09, predicted at 0.5.
func TestPredictTwoPointsByHand(t *testing.T) {
	k := Kernel{LengthScales: []float64{0.5}, Variance: 0.09}
	g, err := New(k, [][]float64{{0}, {1}}, []float64{0.2, 0.6}, []float64{0.01, 0.04})
	if err != nil {
		t.Fatal(err)
	}
	k01 := 0.09 * m52(2) // r = |0 − 1|/0.5
	ks := 0.09 * m52(1)  // r = 0.5/0.5 to either point
	a, b, c := 0.09+0.01, k01, 0.09+0.04
	det := a*c - b*b
	inv := [2][2]float64{{c / det, -b / det}, {-b / det, a / det}}
	r := [2]float64{0.2 - 0.4, 0.6 - 0.4}
	alpha := [2]float64{inv[0][0]*r[0] + inv[0][1]*r[1], inv[1][0]*r[0] + inv[1][1]*r[1]}
	wantMean := 0.4 + ks*alpha[0] + ks*alpha[1]
	wantVar := 0.09 - ks*(inv[0][0]+inv[0][1]+inv[1][0]+inv[1][1])*ks
	m, v := g.Predict([]float64{0.5})
	if math.Abs(m-wantMean) > 1e-12 || math.Abs(v-wantVar) > 1e-12 {
		t.Errorf("Predict(0.5) = %.15g, %.15g, want %.15g, %.15g", m, v, wantMean, wantVar)
	}
	if math.Abs(g.Mean()-0.4) > 1e-15 || g.Len() != 2 {
		t.Errorf("Mean() = %g, Len() = %d, want 0.4, 2", g.Mean(), g.Len())
	}
	// The asymmetric noise pulls the mean toward the surer point.
	if !(m < 0.4) {
		t.Errorf("Predict(0.5) mean %g, want below 0.4 (y = 0.2 has the smaller noise)", m)
	}
}

// At a training point with tiny noise the posterior is its target with
// no variance; far from every point it is the prior.
func TestPredictNearAndFar(t *testing.T) {
	k := Kernel{LengthScales: []float64{0.3, 0.3}, Variance: 0.04}
	x := [][]float64{{0.1, 0.1}, {0.5, 0.9}, {0.9, 0.4}, {0.45, 0.5}}
	y := []float64{0.3, 0.7, 0.5, 0.55}
	g, err := New(k, x, y, []float64{1e-10, 1e-10, 1e-10, 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	for i := range x {
		m, v := g.Predict(x[i])
		if math.Abs(m-y[i]) > 1e-6 || v > 1e-8 {
			t.Errorf("at point %d: %g, variance %g, want %g, 0", i, m, v, y[i])
		}
	}
	m, v := g.Predict([]float64{40, -40}) // ≫ ℓ from every point
	if math.Abs(m-g.Mean()) > 1e-12 || math.Abs(v-0.04) > 1e-12 {
		t.Errorf("far away: %g, variance %g, want the prior %g, 0.04", m, v, g.Mean())
	}
}

// randomData is n points of the d-cube with a smooth target in x_0 plus
// noise, and per-point noise variances, from a seeded generator.
func randomData(seed uint64, n, d int) (x [][]float64, y, noise []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	x = make([][]float64, n)
	y = make([]float64, n)
	noise = make([]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = rng.Float64()
		}
		noise[i] = 0.001 + 0.004*rng.Float64()
		y[i] = 0.5 + 0.2*math.Sin(4*x[i][0]) + math.Sqrt(noise[i])*rng.NormFloat64()
	}
	return x, y, noise
}

func kernelOf(d int, l, v float64) Kernel {
	k := Kernel{LengthScales: make([]float64, d), Variance: v}
	for j := range k.LengthScales {
		k.LengthScales[j] = l * (1 + 0.1*float64(j))
	}
	return k
}

// Adding points one by one equals conditioning on all of them at once,
// and leaves the receiver as it was.
func TestAddEqualsNew(t *testing.T) {
	x, y, noise := randomData(1, 13, 3)
	k := kernelOf(3, 0.4, 0.05)
	g, err := New(k, x[:10], y[:10], noise[:10])
	if err != nil {
		t.Fatal(err)
	}
	probe := [][]float64{{0.5, 0.5, 0.5}, {0.1, 0.9, 0.3}, x[11], {1.2, -0.1, 0.7}}
	before := make([][2]float64, len(probe))
	for i, p := range probe {
		before[i][0], before[i][1] = g.Predict(p)
	}
	lml0 := g.LogMarginalLikelihood()
	added := g
	for i := 10; i < 13; i++ {
		if added, err = added.Add(x[i], y[i], noise[i]); err != nil {
			t.Fatal(err)
		}
	}
	all, err := New(k, x, y, noise)
	if err != nil {
		t.Fatal(err)
	}
	if added.Len() != 13 || math.Abs(added.Mean()-all.Mean()) > 1e-12 {
		t.Errorf("after Add: Len %d, Mean %g, want 13, %g", added.Len(), added.Mean(), all.Mean())
	}
	for _, p := range probe {
		m1, v1 := added.Predict(p)
		m2, v2 := all.Predict(p)
		if math.Abs(m1-m2) > 1e-9 || math.Abs(v1-v2) > 1e-9 {
			t.Errorf("at %v: Add gives %g, %g; New gives %g, %g", p, m1, v1, m2, v2)
		}
	}
	if l1, l2 := added.LogMarginalLikelihood(), all.LogMarginalLikelihood(); math.Abs(l1-l2) > 1e-9 {
		t.Errorf("LML after Add %.12g, New %.12g", l1, l2)
	}
	// The receiver is unchanged.
	if g.Len() != 10 || g.LogMarginalLikelihood() != lml0 {
		t.Errorf("the receiver changed: Len %d, LML %g (was %g)", g.Len(), g.LogMarginalLikelihood(), lml0)
	}
	for i, p := range probe {
		if m, v := g.Predict(p); m != before[i][0] || v != before[i][1] {
			t.Errorf("the receiver's prediction at %v changed: %g, %g (was %g, %g)", p, m, v, before[i][0], before[i][1])
		}
	}
	// Two Adds on one receiver do not share state.
	a1, err1 := g.Add([]float64{0.2, 0.2, 0.2}, 0.9, 0.001)
	a2, err2 := g.Add([]float64{0.8, 0.8, 0.8}, 0.1, 0.001)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	m1, _ := a1.Predict([]float64{0.2, 0.2, 0.2})
	m2, _ := a2.Predict([]float64{0.2, 0.2, 0.2})
	if !(m1 > m2+0.1) {
		t.Errorf("sibling Adds interfere: %g vs %g at the first's point", m1, m2)
	}
}

// Adding a repeat of a zero-noise point with zero noise leaves no positive
// diagonal: Add refactors with the jitter, as New does.
func TestAddRefactorsWhenNotPositiveDefinite(t *testing.T) {
	k := Kernel{LengthScales: []float64{0.5}, Variance: 1}
	g, err := New(k, [][]float64{{0.3}}, []float64{0.6}, []float64{0})
	if err != nil {
		t.Fatal(err)
	}
	if g.jitter != 0 {
		t.Fatalf("one point needed a jitter")
	}
	a, err := g.Add([]float64{0.3}, 0.6, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a.jitter != jitterFactor {
		t.Errorf("Add of a repeat: jitter %g, want %g (the refactor)", a.jitter, jitterFactor)
	}
	b, err := New(k, [][]float64{{0.3}, {0.3}}, []float64{0.6, 0.6}, []float64{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []float64{0.3, 0.5, 2} {
		m1, v1 := a.Predict([]float64{p})
		m2, v2 := b.Predict([]float64{p})
		if m1 != m2 || v1 != v2 {
			t.Errorf("at %g: Add gives %g, %g; New gives %g, %g", p, m1, v1, m2, v2)
		}
	}
	if m, v := a.Predict([]float64{0.3}); math.Abs(m-0.6) > 1e-6 || v > 1e-6 {
		t.Errorf("at the repeated point: %g, %g, want 0.6, 0", m, v)
	}
}

func TestAddErrors(t *testing.T) {
	g, err := New(Kernel{LengthScales: []float64{1, 1}, Variance: 1}, [][]float64{{0, 0}}, []float64{0}, []float64{0.1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		x     []float64
		y, nv float64
		want  string
	}{
		{"dimension", []float64{0}, 0, 0, "x has 1 coordinates"},
		{"x NaN", []float64{0, math.NaN()}, 0, 0, "x[1]"},
		{"y Inf", []float64{0, 1}, math.Inf(1), 0, "y ="},
		{"noise negative", []float64{0, 1}, 0, -1e-3, "noise ="},
		{"noise NaN", []float64{0, 1}, 0, math.NaN(), "noise ="},
	} {
		_, err := g.Add(c.x, c.y, c.nv)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
	// A new diagonal that overflows goes to the refactor, which fails.
	big, err := New(Kernel{LengthScales: []float64{1}, Variance: 1e308}, [][]float64{{0}}, []float64{0}, []float64{0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := big.Add([]float64{1}, 0, 1e308); err == nil || !strings.Contains(err.Error(), "positive definite") {
		t.Errorf("overflowing Add: error %v, want one about positive definiteness", err)
	}
}

// The log marginal likelihood equals −½ rᵀK⁻¹r − ½ log|K| − (n/2) log 2π
// computed with a dense inverse and determinant.
func TestLogMarginalLikelihood(t *testing.T) {
	x, y, noise := randomData(2, 5, 2)
	k := Kernel{LengthScales: []float64{0.3, 0.7}, Variance: 0.02}
	g, err := New(k, x, y, noise)
	if err != nil {
		t.Fatal(err)
	}
	n := len(x)
	var mean float64
	for _, v := range y {
		mean += v / float64(n)
	}
	K := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			K.Set(i, j, k.Cov(x[i], x[j]))
		}
		K.Set(i, i, K.At(i, i)+noise[i])
	}
	var inv mat.Dense
	if err := inv.Inverse(K); err != nil {
		t.Fatal(err)
	}
	r := make([]float64, n)
	for i := range r {
		r[i] = y[i] - mean
	}
	rv := mat.NewVecDense(n, r)
	logDet, sign := mat.LogDet(K)
	if sign <= 0 {
		t.Fatalf("determinant sign %g", sign)
	}
	want := -0.5*mat.Inner(rv, &inv, rv) - 0.5*logDet - float64(n)/2*math.Log(2*math.Pi)
	if got := g.LogMarginalLikelihood(); math.Abs(got-want) > 1e-10 {
		t.Errorf("LogMarginalLikelihood = %.15g, want %.15g", got, want)
	}
}

func TestKernelIsACopy(t *testing.T) {
	ls := []float64{0.5}
	g, err := New(Kernel{LengthScales: ls, Variance: 1}, [][]float64{{0}}, []float64{1}, []float64{0.1})
	if err != nil {
		t.Fatal(err)
	}
	ls[0] = 9
	k := g.Kernel()
	k.LengthScales[0] = 7
	if got := g.Kernel().LengthScales[0]; got != 0.5 {
		t.Errorf("the GP's length scale is %g after its caller's slices changed, want 0.5", got)
	}
}

// Every bad input of New is an error naming what is wrong.
func TestNewErrors(t *testing.T) {
	good := func() (Kernel, [][]float64, []float64, []float64) {
		return Kernel{LengthScales: []float64{0.5, 0.5}, Variance: 0.1},
			[][]float64{{0, 0}, {1, 1}}, []float64{0.4, 0.6}, []float64{0.01, 0.02}
	}
	for _, c := range []struct {
		name  string
		spoil func(k *Kernel, x *[][]float64, y, noise *[]float64)
		want  string
	}{
		{"no points", func(k *Kernel, x *[][]float64, y, n *[]float64) { *x, *y, *n = nil, nil, nil }, "no observations"},
		{"no coordinates", func(k *Kernel, x *[][]float64, y, n *[]float64) { *x = [][]float64{{}, {}} }, "x[0]"},
		{"ragged x", func(k *Kernel, x *[][]float64, y, n *[]float64) { (*x)[1] = []float64{1} }, "x[1]"},
		{"x NaN", func(k *Kernel, x *[][]float64, y, n *[]float64) { (*x)[1][0] = math.NaN() }, "x[1][0]"},
		{"x Inf", func(k *Kernel, x *[][]float64, y, n *[]float64) { (*x)[0][1] = math.Inf(-1) }, "x[0][1]"},
		{"short y", func(k *Kernel, x *[][]float64, y, n *[]float64) { *y = (*y)[:1] }, "len(y)"},
		{"long noise", func(k *Kernel, x *[][]float64, y, n *[]float64) { *n = append(*n, 0) }, "len(noise)"},
		{"y NaN", func(k *Kernel, x *[][]float64, y, n *[]float64) { (*y)[1] = math.NaN() }, "y[1]"},
		{"noise negative", func(k *Kernel, x *[][]float64, y, n *[]float64) { (*n)[0] = -0.01 }, "noise[0]"},
		{"noise Inf", func(k *Kernel, x *[][]float64, y, n *[]float64) { (*n)[1] = math.Inf(1) }, "noise[1]"},
		{"kernel dimension", func(k *Kernel, x *[][]float64, y, n *[]float64) { k.LengthScales = []float64{1} }, "LengthScales"},
		{"length scale zero", func(k *Kernel, x *[][]float64, y, n *[]float64) { k.LengthScales[1] = 0 }, "LengthScales[1]"},
		{"length scale NaN", func(k *Kernel, x *[][]float64, y, n *[]float64) { k.LengthScales[0] = math.NaN() }, "LengthScales[0]"},
		{"variance negative", func(k *Kernel, x *[][]float64, y, n *[]float64) { k.Variance = -1 }, "Variance"},
		{"variance Inf", func(k *Kernel, x *[][]float64, y, n *[]float64) { k.Variance = math.Inf(1) }, "Variance"},
		{"not positive definite", func(k *Kernel, x *[][]float64, y, n *[]float64) {
			// Finite parameters whose matrix overflows.
			k.Variance = 1e308
			*n = []float64{1e308, 1e308}
		}, "positive definite"},
	} {
		k, x, y, noise := good()
		c.spoil(&k, &x, &y, &noise)
		g, err := New(k, x, y, noise)
		if err == nil || g != nil {
			t.Errorf("%s: New returned no error", c.name)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %q, want it to name %q", c.name, err, c.want)
		}
	}
}

// PredictMean is Predict's mean bit for bit, at points played and not.
func TestPredictMeanIsPredictsMean(t *testing.T) {
	k := Kernel{LengthScales: []float64{0.4, 0.9}, Variance: 0.03}
	x := [][]float64{{0.1, 0.2}, {0.7, 0.4}, {0.3, 0.9}, {0.5, 0.5}}
	g, err := New(k, x, []float64{0.2, 0.6, 0.4, 0.55}, []float64{0.01, 0.02, 0.01, 0.03})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range append(x, []float64{0.33, 0.71}, []float64{2, -1}) {
		m, _ := g.Predict(p)
		if pm := g.PredictMean(p); pm != m {
			t.Errorf("at %v: PredictMean %v, Predict's mean %v", p, pm, m)
		}
	}
}
