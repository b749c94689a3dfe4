package gp

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// jitterFactor times the signal variance is the jitter added to the
// diagonal of the covariance matrix when it is not positive definite as it
// stands (duplicate points with zero noise, or round-off).
const jitterFactor = 1e-10

const sqrt5 = 2.23606797749978969640917366873127623544061835961152572427089 // √5

// Kernel is the Matérn 5/2 kernel with automatic relevance determination
// (Rasmussen & Williams 2006, eq. 4.17, one length scale per input
// dimension):
//
//	k(a, b) = σ_f²·(1 + √5 r + 5r²/3)·exp(−√5 r),  r = sqrt(Σ_d ((a_d−b_d)/ℓ_d)²).
//
// A kernel of d dimensions has len(LengthScales) = d; New, Add and Fit
// reject one whose dimension differs from the points' or whose parameters
// are not finite and positive.
type Kernel struct {
	LengthScales []float64 `json:"length_scales"` // ℓ_d > 0, one per dimension, in unit-cube units
	Variance     float64   `json:"variance"`      // signal variance σ_f² > 0, in target units²
}

// Cov is the covariance k(a, b) of the latent function at points a and b,
// in target units²; Cov(a, a) = Variance. a and b must have
// len(k.LengthScales) coordinates each; Cov panics otherwise.
func (k Kernel) Cov(a, b []float64) float64 {
	if len(a) != len(k.LengthScales) || len(b) != len(k.LengthScales) {
		panic(fmt.Sprintf("gp: Kernel.Cov of points of %d and %d coordinates with a kernel of %d dimensions",
			len(a), len(b), len(k.LengthScales)))
	}
	var r2 float64
	for d, l := range k.LengthScales {
		t := (a[d] - b[d]) / l
		r2 += t * t
	}
	return k.Variance * matern52(r2)
}

// matern52 is the Matérn 5/2 correlation (1 + √5 r + 5r²/3)·exp(−√5 r) of
// the scaled squared distance r2 = r².
func matern52(r2 float64) float64 {
	r := math.Sqrt(r2)
	return (1 + sqrt5*r + 5*r2/3) * math.Exp(-sqrt5*r)
}

// sqDist is Σ_d ((a_d−b_d)·inv_d)², the squared distance scaled by the
// inverse length scales inv.
func sqDist(a, b, inv []float64) float64 {
	var r2 float64
	for d, s := range inv {
		t := (a[d] - b[d]) * s
		r2 += t * t
	}
	return r2
}

// check reports what is wrong with k as the kernel of d-dimensional points.
func (k Kernel) check(d int) error {
	if len(k.LengthScales) != d {
		return fmt.Errorf("gp: kernel has %d LengthScales, want %d (the points' dimension)", len(k.LengthScales), d)
	}
	for i, l := range k.LengthScales {
		if !(l > 0) || math.IsInf(l, 0) {
			return fmt.Errorf("gp: kernel LengthScales[%d] = %g, want finite and > 0", i, l)
		}
	}
	if !(k.Variance > 0) || math.IsInf(k.Variance, 0) {
		return fmt.Errorf("gp: kernel Variance = %g, want finite and > 0", k.Variance)
	}
	return nil
}

func (k Kernel) clone() Kernel {
	return Kernel{LengthScales: slices.Clone(k.LengthScales), Variance: k.Variance}
}

func (k Kernel) inverseLengthScales() []float64 {
	inv := make([]float64, len(k.LengthScales))
	for i, l := range k.LengthScales {
		inv[i] = 1 / l
	}
	return inv
}

// GP is the posterior of a zero-mean Gaussian process on y − Mean() given
// the observations (Rasmussen & Williams 2006, Algorithm 2.1, with a
// diagonal of per-point noise variances in place of one σ_n²). It holds
// copies of its inputs, is immutable, and is safe for concurrent use.
type GP struct {
	kernel Kernel
	inv    []float64 // 1/ℓ_d
	n, d   int
	x      []float64 // n×d, row-major
	y      []float64 // n targets
	noise  []float64 // n noise variances
	mean   float64   // constant prior mean: the mean of y
	jitter float64   // added to every diagonal entry: 0, or jitterFactor·σ_f²
	l      *mat.TriDense
	alpha  []float64 // (K + diag(noise) + jitter·I)⁻¹ (y − mean)
}

// data is a validated set of observations in the layout of GP. GPs built
// from one data share its slices, which nothing modifies.
type data struct {
	n, d     int
	x        []float64 // n×d, row-major
	y, noise []float64
}

// New conditions the kernel k on n observations: the points x (n slices
// of d coordinates each, d = len(k.LengthScales)), the targets y (n
// values, target units) and their noise variances noise (n values ≥ 0,
// target units²). The GP's constant prior mean is the plain (unweighted)
// mean of y. New copies its arguments; it costs O(n²·d + n³).
//
// New returns an error naming the offending argument when n = 0, when x
// is ragged or of another dimension than k, when y or noise is not of
// length n, when a value is not finite, when a noise variance is
// negative, when a kernel parameter is not finite and positive, or when
// K + diag(noise) is not positive definite (or overflows) even with a
// jitter of 1e-10·σ_f² added to its diagonal.
func New(k Kernel, x [][]float64, y, noise []float64) (*GP, error) {
	dt, err := flatten(x, y, noise)
	if err != nil {
		return nil, err
	}
	if err := k.check(dt.d); err != nil {
		return nil, err
	}
	g, _, err := condition(k, dt)
	return g, err
}

// flatten validates the observations and copies them into a data.
func flatten(x [][]float64, y, noise []float64) (data, error) {
	n := len(x)
	if n == 0 {
		return data{}, errors.New("gp: no observations (x is empty)")
	}
	d := len(x[0])
	if d == 0 {
		return data{}, errors.New("gp: x[0] has no coordinates, want at least 1")
	}
	if len(y) != n {
		return data{}, fmt.Errorf("gp: len(y) = %d, want %d (one target per point of x)", len(y), n)
	}
	if len(noise) != n {
		return data{}, fmt.Errorf("gp: len(noise) = %d, want %d (one variance per point of x)", len(noise), n)
	}
	dt := data{n: n, d: d, x: make([]float64, 0, n*d), y: slices.Clone(y), noise: slices.Clone(noise)}
	for i, p := range x {
		if len(p) != d {
			return data{}, fmt.Errorf("gp: x[%d] has %d coordinates, want %d (as x[0])", i, len(p), d)
		}
		for j, v := range p {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return data{}, fmt.Errorf("gp: x[%d][%d] = %g is not finite", i, j, v)
			}
		}
		dt.x = append(dt.x, p...)
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return data{}, fmt.Errorf("gp: y[%d] = %g is not finite", i, v)
		}
	}
	for i, v := range noise {
		if !(v >= 0) || math.IsInf(v, 0) {
			return data{}, fmt.Errorf("gp: noise[%d] = %g, want finite and ≥ 0", i, v)
		}
	}
	return dt, nil
}

// condition builds the GP of a checked kernel and checked data, returning
// also the Cholesky factorisation it used (for the gradient in Fit). The
// GP keeps dt's slices.
func condition(k Kernel, dt data) (*GP, *mat.Cholesky, error) {
	g := &GP{kernel: k.clone(), inv: k.inverseLengthScales(), n: dt.n, d: dt.d, x: dt.x, y: dt.y, noise: dt.noise}
	n, d := dt.n, dt.d
	cov := mat.NewSymDense(n, nil)
	raw := cov.RawSymmetric() // upper triangle, row-major
	for i := 0; i < n; i++ {
		xi := g.x[i*d : (i+1)*d]
		row := raw.Data[i*raw.Stride:]
		row[i] = k.Variance + g.noise[i]
		for j := i + 1; j < n; j++ {
			row[j] = k.Variance * matern52(sqDist(xi, g.x[j*d:(j+1)*d], g.inv))
		}
	}
	var chol mat.Cholesky
	if !factorize(&chol, cov) {
		g.jitter = jitterFactor * k.Variance
		for i := 0; i < n; i++ {
			raw.Data[i*raw.Stride+i] += g.jitter
		}
		if !factorize(&chol, cov) {
			return nil, nil, fmt.Errorf("gp: the %d×%d covariance matrix K + diag(noise) is not positive definite, or overflows, even with a jitter of %g on its diagonal",
				n, n, g.jitter)
		}
	}
	g.l = mat.NewTriDense(n, mat.Lower, nil)
	chol.LTo(g.l)
	g.setAlpha()
	return g, &chol, nil
}

// factorize factorizes a into c, reporting whether a is positive definite
// with a finite factor (gonum's Cholesky lets an infinite diagonal pass).
func factorize(c *mat.Cholesky, a *mat.SymDense) bool {
	if !c.Factorize(a) {
		return false
	}
	ld := c.LogDet()
	return !math.IsInf(ld, 0) && !math.IsNaN(ld)
}

// setAlpha sets the mean of y and α = (L Lᵀ)⁻¹ (y − mean) from g.y and g.l
// (R&W Algorithm 2.1, line 3).
func (g *GP) setAlpha() {
	g.mean = floats.Sum(g.y) / float64(g.n)
	g.alpha = make([]float64, g.n)
	for i, v := range g.y {
		g.alpha[i] = v - g.mean
	}
	t := g.l.RawTriangular()
	v := blas64.Vector{N: g.n, Data: g.alpha, Inc: 1}
	blas64.Trsv(blas.NoTrans, t, v)
	blas64.Trsv(blas.Trans, t, v)
}

// Kernel is a copy of the GP's kernel.
func (g *GP) Kernel() Kernel { return g.kernel.clone() }

// Len is the number of observations n.
func (g *GP) Len() int { return g.n }

// Mean is the constant prior mean, the plain mean of the observed targets,
// in target units.
func (g *GP) Mean() float64 { return g.mean }

// Predict is the posterior mean and variance of the latent f at x (d
// coordinates; no observation noise added), R&W eq. 2.25–2.26: mean in
// target units, variance in target units², clamped to ≥ 0. Far from the
// observations (distance ≫ the length scales) they tend to Mean() and
// σ_f². Predict costs O(n·d + n²) and panics if len(x) is not the GP's
// dimension.
func (g *GP) Predict(x []float64) (mean, variance float64) {
	if len(x) != g.d {
		panic(fmt.Sprintf("gp: Predict at a point of %d coordinates, want %d", len(x), g.d))
	}
	ks := g.crossCov(x)
	mean = g.mean + floats.Dot(ks, g.alpha)
	blas64.Trsv(blas.NoTrans, g.l.RawTriangular(), blas64.Vector{N: g.n, Data: ks, Inc: 1})
	variance = g.kernel.Variance - floats.Dot(ks, ks)
	return mean, max(variance, 0)
}

// PredictMean is Predict's posterior mean alone, bit for bit, without
// the O(n²) triangular solve of the variance: O(n·d), what a search of
// the posterior mean over many points (a model's optimum) needs.
func (g *GP) PredictMean(x []float64) float64 {
	if len(x) != g.d {
		panic(fmt.Sprintf("gp: PredictMean at a point of %d coordinates, want %d", len(x), g.d))
	}
	return g.mean + floats.Dot(g.crossCov(x), g.alpha)
}

// crossCov is the vector k(x_i, x) over the observed points.
func (g *GP) crossCov(x []float64) []float64 {
	ks := make([]float64, g.n)
	s2, d := g.kernel.Variance, g.d
	for i := range ks {
		ks[i] = s2 * matern52(sqDist(g.x[i*d:(i+1)*d], x, g.inv))
	}
	return ks
}

// Add returns a new GP conditioned on the receiver's observations and one
// more, the point x (d coordinates) with target y and noise variance noise
// (≥ 0); the receiver is unchanged. The prior mean becomes the mean of all
// n+1 targets. Add costs O(n·d + n²) and errors as New does for the new
// point. Kriging-believer batches add a proposed point at its own
// posterior mean.
func (g *GP) Add(x []float64, y, noise float64) (*GP, error) {
	if len(x) != g.d {
		return nil, fmt.Errorf("gp: Add: x has %d coordinates, want %d", len(x), g.d)
	}
	for j, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("gp: Add: x[%d] = %g is not finite", j, v)
		}
	}
	if math.IsNaN(y) || math.IsInf(y, 0) {
		return nil, fmt.Errorf("gp: Add: y = %g is not finite", y)
	}
	if !(noise >= 0) || math.IsInf(noise, 0) {
		return nil, fmt.Errorf("gp: Add: noise = %g, want finite and ≥ 0", noise)
	}
	n, d := g.n, g.d
	next := &GP{kernel: g.kernel.clone(), inv: slices.Clone(g.inv), n: n + 1, d: d, jitter: g.jitter,
		x: append(slices.Clip(slices.Clone(g.x)), x...),
		y: append(slices.Clone(g.y), y), noise: append(slices.Clone(g.noise), noise)}

	// The new row of the lower factor L' of [[K, k], [kᵀ, k**]] is
	// [lᵀ, δ] with L l = k (one forward substitution) and
	// δ = sqrt(k** − lᵀl); the first n rows of L' are those of L. That is
	// O(n²), where refactoring the whole matrix would be O(n³). (gonum's
	// Cholesky.ExtendVecSym does the same on the upper factor, which
	// Predict would then need transposed.)
	l := g.crossCov(x)
	blas64.Trsv(blas.NoTrans, g.l.RawTriangular(), blas64.Vector{N: n, Data: l, Inc: 1})
	d2 := g.kernel.Variance + noise + g.jitter - floats.Dot(l, l)
	if !(d2 > 0) || math.IsInf(d2, 1) {
		// Not positive definite as it stands (typically the point
		// repeats an observed one and both have zero noise), or
		// overflowing: refactor all n+1 points from scratch, with the
		// jitter if needed, as New would.
		dt := data{n: n + 1, d: d, x: next.x, y: next.y, noise: next.noise}
		ng, _, err := condition(g.kernel, dt)
		if err != nil {
			return nil, fmt.Errorf("gp: Add: %w", err)
		}
		return ng, nil
	}
	next.l = mat.NewTriDense(n+1, mat.Lower, nil)
	src, dst := g.l.RawTriangular(), next.l.RawTriangular()
	for i := 0; i < n; i++ {
		copy(dst.Data[i*dst.Stride:i*dst.Stride+i+1], src.Data[i*src.Stride:i*src.Stride+i+1])
	}
	last := dst.Data[n*dst.Stride : n*dst.Stride+n+1]
	copy(last, l)
	last[n] = math.Sqrt(d2)
	next.setAlpha()
	return next, nil
}

// LogMarginalLikelihood is log p(y | X, θ), the log density of the
// observed targets under the prior (R&W eq. 2.30 with the noise diagonal):
//
//	−½ (y−m)ᵀ (K + diag(noise))⁻¹ (y−m) − ½ log|K + diag(noise)| − (n/2) log 2π,
//
// with m = Mean() and K including the jitter when New needed it; in nats.
func (g *GP) LogMarginalLikelihood() float64 {
	var fit float64
	for i, v := range g.y {
		fit += (v - g.mean) * g.alpha[i]
	}
	t := g.l.RawTriangular()
	var logDet float64
	for i := 0; i < g.n; i++ {
		logDet += math.Log(t.Data[i*t.Stride+i])
	}
	return -0.5*fit - logDet - 0.5*float64(g.n)*math.Log(2*math.Pi)
}
