package gp

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"
	"gonum.org/v1/gonum/stat"
)

// FitSettings bound the hyperparameter search of Fit. A zero field takes
// its default.
type FitSettings struct {
	// MinLengthScale and MaxLengthScale bound every length scale ℓ_d, in
	// the inputs' (unit-cube) units; defaults 0.05 and 20.
	MinLengthScale, MaxLengthScale float64
	// MinVariance and MaxVariance bound the signal variance σ_f², in
	// target units²; defaults 1e-6 and 1 (scores are fractions in [0, 1]).
	MinVariance, MaxVariance float64
	// MaxEvaluations caps the optimiser's evaluations of the likelihood
	// (each one a Cholesky factorisation, O(n³), most with a gradient,
	// another O(n³)); default 400, shared by Fit's two starts. Fit makes
	// one more, at init.
	MaxEvaluations int
	// PriorMedian and PriorSD, when PriorSD > 0, put a log-normal prior on
	// every length scale, log ℓ_d ~ N(log PriorMedian, PriorSD²), so that
	// the fit is a posterior mode. With a few hundred points whose noise
	// dwarfs their differences the bare likelihood often puts length
	// scales at a bound (a model flat along most inputs, whose optimum
	// then lies in a corner), and a search that starts there stays, since
	// the bounds' change of variables is flat at its ends. 0: no prior.
	PriorMedian, PriorSD float64
	// VariancePriorMedian and VariancePriorSD, when VariancePriorSD > 0,
	// put a log-normal prior on σ_f² likewise: at a low signal-to-noise
	// ratio the likelihood alone may shrink σ_f² to its lower bound, a
	// flat model no acquisition function can use. 0: no prior.
	VariancePriorMedian, VariancePriorSD float64
}

// resolve fills the defaults of s and checks it.
func (s FitSettings) resolve() (FitSettings, error) {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&s.MinLengthScale, 0.05)
	def(&s.MaxLengthScale, 20)
	def(&s.MinVariance, 1e-6)
	def(&s.MaxVariance, 1)
	if s.MaxEvaluations == 0 {
		s.MaxEvaluations = 400
	}
	for _, b := range []struct {
		name     string
		min, max float64
	}{{"LengthScale", s.MinLengthScale, s.MaxLengthScale}, {"Variance", s.MinVariance, s.MaxVariance}} {
		if !(b.min > 0) || math.IsInf(b.min, 0) || !(b.max > 0) || math.IsInf(b.max, 0) || b.min > b.max {
			return s, fmt.Errorf("gp: FitSettings Min%s = %g and Max%s = %g, want finite, > 0 and min ≤ max",
				b.name, b.min, b.name, b.max)
		}
	}
	if s.MaxEvaluations < 0 {
		return s, fmt.Errorf("gp: FitSettings MaxEvaluations = %d, want ≥ 0", s.MaxEvaluations)
	}
	for _, pr := range []struct {
		name       string
		median, sd float64
	}{{"", s.PriorMedian, s.PriorSD}, {"Variance", s.VariancePriorMedian, s.VariancePriorSD}} {
		if pr.sd < 0 || math.IsNaN(pr.sd) || math.IsInf(pr.sd, 0) || pr.sd > 0 && (!(pr.median > 0) || math.IsInf(pr.median, 0)) {
			return s, fmt.Errorf("gp: FitSettings %sPriorMedian = %g and %sPriorSD = %g, want a finite SD ≥ 0 and, with SD > 0, a finite median > 0",
				pr.name, pr.median, pr.name, pr.sd)
		}
	}
	return s, nil
}

// Fit returns the kernel that maximises the log marginal likelihood of
// the observations x (n points of d coordinates), y (n targets) and noise
// (n variances ≥ 0) under the model of New (R&W §5.4.1: type-II maximum
// likelihood), plus the log-normal priors of s when it sets them (a
// posterior mode), within the bounds of s.
//
// The search runs twice, from init, each parameter first clamped into its
// bounds, and from a neutral kernel (every length scale at the prior's
// median, or the geometric mean of its bounds, the variance at its
// prior's median, or the variance of y), each with half of
// MaxEvaluations: gonum's L-BFGS on the negative objective with its
// analytic gradient (R&W eq. 5.9) in the variables u of
//
//	log θ = log lo + (log hi − log lo)·sigmoid(u)
//
// for every length scale and the variance, so the bounds hold without
// clipping (a start on a bound is moved 1% of the log range inside). Fit
// is deterministic: the same inputs give a bit-identical kernel. It
// returns the best kernel evaluated, and the clamped init when nothing
// evaluated beats it; how or why gonum's optimiser stopped is not an
// error. Fit errors as New does for bad observations or a bad init
// (wrong dimension, parameters not finite and positive, not positive
// definite at the clamped init), and for settings that are negative or
// not finite or with a minimum above its maximum.
func Fit(init Kernel, x [][]float64, y, noise []float64, s FitSettings) (Kernel, error) {
	k, _, err := fit(init, x, y, noise, s)
	return k, err
}

// fitStats describes one run of fit, for tests and benchmarks.
type fitStats struct {
	evals            int     // likelihood evaluations by the optimiser
	initLML, bestLML float64 // the objective (LML plus log prior) at the clamped init and at the result
}

func fit(init Kernel, x [][]float64, y, noise []float64, s FitSettings) (Kernel, fitStats, error) {
	dt, err := flatten(x, y, noise)
	if err != nil {
		return Kernel{}, fitStats{}, err
	}
	if err := init.check(dt.d); err != nil {
		return Kernel{}, fitStats{}, err
	}
	s, err = s.resolve()
	if err != nil {
		return Kernel{}, fitStats{}, err
	}
	o := newObjective(dt, s)
	k0 := o.clamp(init)
	g0, _, err := condition(k0, dt)
	if err != nil {
		return Kernel{}, fitStats{}, err
	}
	o.best, o.bestLML = k0, g0.LogMarginalLikelihood()+o.logPrior(k0)
	st := fitStats{initLML: o.bestLML}

	neutral := Kernel{LengthScales: make([]float64, dt.d), Variance: o.clamp(Kernel{Variance: stat.PopVariance(y, nil)}).Variance}
	for j := range neutral.LengthScales {
		neutral.LengthScales[j] = math.Sqrt(s.MinLengthScale * s.MaxLengthScale)
		if s.PriorSD > 0 {
			neutral.LengthScales[j] = s.PriorMedian
		}
	}
	if s.VariancePriorSD > 0 {
		neutral.Variance = s.VariancePriorMedian
	}
	neutral = o.clamp(neutral)
	p := optimize.Problem{Func: o.f, Grad: o.grad}
	for i, start := range []Kernel{k0, neutral} {
		budget := s.MaxEvaluations - s.MaxEvaluations/2
		if i == 1 {
			budget = s.MaxEvaluations / 2
		}
		if budget < 1 {
			continue // gonum reads a limit of 0 as none
		}
		u0 := make([]float64, dt.d+1)
		for j := range u0 {
			u0[j] = o.toU(j, start)
		}
		settings := &optimize.Settings{
			FuncEvaluations:   budget,
			GradientThreshold: 1e-5,
			Converger:         &optimize.FunctionConverge{Absolute: 1e-6, Iterations: 10},
		}
		// The status and error say why the search stopped (a failed line
		// search, the evaluation limit, ...); the best kernel evaluated,
		// kept by o, is the answer whatever they are.
		_, _ = optimize.Minimize(p, u0, settings, &optimize.LBFGS{})
	}
	st.evals, st.bestLML = o.evals, o.bestLML
	return o.best.clone(), st, nil
}

// logPrior is the log density of k's parameters under s's log-normal
// priors, up to a constant (0 without priors).
func (o *objective) logPrior(k Kernel) float64 {
	lp := 0.0
	if o.s.PriorSD > 0 {
		for _, l := range k.LengthScales {
			z := (math.Log(l) - math.Log(o.s.PriorMedian)) / o.s.PriorSD
			lp -= z * z / 2
		}
	}
	if o.s.VariancePriorSD > 0 {
		z := (math.Log(k.Variance) - math.Log(o.s.VariancePriorMedian)) / o.s.VariancePriorSD
		lp -= z * z / 2
	}
	return lp
}

// objective is the negative log marginal likelihood in the search
// variables u (u[0..d−1] for the length scales, u[d] for the variance),
// with a cache of the last factorisation for the gradient and a record of
// the best kernel evaluated. lo and hi are the bounds of log θ.
type objective struct {
	dt     data
	s      FitSettings
	lo, hi []float64

	evals   int
	lastU   []float64
	last    *GP // nil when the matrix at lastU was not positive definite
	lastK   Kernel
	chol    *mat.Cholesky
	best    Kernel
	bestLML float64
}

func newObjective(dt data, s FitSettings) *objective {
	o := &objective{dt: dt, s: s, lo: make([]float64, dt.d+1), hi: make([]float64, dt.d+1)}
	for j := 0; j < dt.d; j++ {
		o.lo[j], o.hi[j] = math.Log(s.MinLengthScale), math.Log(s.MaxLengthScale)
	}
	o.lo[dt.d], o.hi[dt.d] = math.Log(s.MinVariance), math.Log(s.MaxVariance)
	return o
}

// clamp is a copy of k with every parameter clamped into its bounds.
func (o *objective) clamp(k Kernel) Kernel {
	c := Kernel{LengthScales: make([]float64, len(k.LengthScales)),
		Variance: min(max(k.Variance, o.s.MinVariance), o.s.MaxVariance)}
	for j, l := range k.LengthScales {
		c.LengthScales[j] = min(max(l, o.s.MinLengthScale), o.s.MaxLengthScale)
	}
	return c
}

func sigmoid(u float64) float64 { return 1 / (1 + math.Exp(-u)) }

// toU is the search variable of parameter j of k (within the bounds),
// kept at least 1% of the log range away from either bound, where the
// sigmoid is flat.
func (o *objective) toU(j int, k Kernel) float64 {
	v := k.Variance
	if j < len(k.LengthScales) {
		v = k.LengthScales[j]
	}
	if o.hi[j] == o.lo[j] {
		return 0
	}
	f := (math.Log(v) - o.lo[j]) / (o.hi[j] - o.lo[j])
	f = min(max(f, 0.01), 0.99)
	return math.Log(f / (1 - f))
}

// kernel is the kernel at u, clamped into the bounds against round-off.
func (o *objective) kernel(u []float64) Kernel {
	d := o.dt.d
	k := Kernel{LengthScales: make([]float64, d)}
	for j := range d {
		l := math.Exp(o.lo[j] + (o.hi[j]-o.lo[j])*sigmoid(u[j]))
		k.LengthScales[j] = min(max(l, o.s.MinLengthScale), o.s.MaxLengthScale)
	}
	v := math.Exp(o.lo[d] + (o.hi[d]-o.lo[d])*sigmoid(u[d]))
	k.Variance = min(max(v, o.s.MinVariance), o.s.MaxVariance)
	return k
}

// eval conditions the model at u and records it as the last and, when
// better, the best.
func (o *objective) eval(u []float64) {
	o.evals++
	o.lastU = append(o.lastU[:0], u...)
	k := o.kernel(u)
	g, chol, err := condition(k, o.dt) // the GPs share o.dt's slices, read only
	if err != nil {
		o.last, o.chol = nil, nil
		return
	}
	o.last, o.chol, o.lastK = g, chol, k
	if v := g.LogMarginalLikelihood() + o.logPrior(k); v > o.bestLML {
		o.best, o.bestLML = k, v
	}
}

func (o *objective) f(u []float64) float64 {
	o.eval(u)
	if o.last == nil {
		return math.Inf(1) // gonum's line search backs off from it
	}
	return -o.last.LogMarginalLikelihood() - o.logPrior(o.lastK)
}

func (o *objective) grad(grad, u []float64) {
	if !slices.Equal(u, o.lastU) {
		o.eval(u)
	}
	if o.last == nil {
		clear(grad)
		return
	}
	lg := logLikelihoodGradient(o.last, o.chol)
	if o.s.PriorSD > 0 {
		for j, l := range o.lastK.LengthScales {
			lg[j] -= (math.Log(l) - math.Log(o.s.PriorMedian)) / (o.s.PriorSD * o.s.PriorSD)
		}
	}
	if d := len(lg) - 1; o.s.VariancePriorSD > 0 {
		lg[d] -= (math.Log(o.lastK.Variance) - math.Log(o.s.VariancePriorMedian)) / (o.s.VariancePriorSD * o.s.VariancePriorSD)
	}
	for j := range grad {
		s := sigmoid(u[j])
		grad[j] = -lg[j] * (o.hi[j] - o.lo[j]) * s * (1 - s)
	}
}

// logLikelihoodGradient is the gradient of g.LogMarginalLikelihood() with
// respect to (log ℓ_1, …, log ℓ_d, log σ_f²), chol being the factorisation
// of g's covariance matrix (R&W eq. 5.9: ½ tr((ααᵀ − K⁻¹) ∂K/∂θ_j)); the
// prior mean is held fixed. For the Matérn 5/2 kernel, with
// s_d = ((a_d − b_d)/ℓ_d)² and r² = Σ s_d,
//
//	∂k/∂log ℓ_d = σ_f²·(5/3)·(1 + √5 r)·exp(−√5 r)·s_d,  ∂k/∂log σ_f² = k,
//
// and the jitter, when g has one, scales with σ_f² too. It costs an
// inverse, O(n³), and O(n²·d).
func logLikelihoodGradient(g *GP, chol *mat.Cholesky) []float64 {
	n, d := g.n, g.d
	grad := make([]float64, d+1)
	var kinv mat.SymDense
	if err := chol.InverseTo(&kinv); err != nil {
		// A mat.Condition error only warns of ill-conditioning; the
		// inverse is computed. An infinite one means it failed.
		var c mat.Condition
		if !errors.As(err, &c) || math.IsInf(float64(c), 1) {
			return grad
		}
	}
	raw := kinv.RawSymmetric()
	if raw.Uplo != blas.Upper {
		panic("gp: internal error: mat.SymDense not stored in its upper triangle")
	}
	s2 := g.kernel.Variance
	sq := make([]float64, d)
	var gv float64
	for i := 0; i < n; i++ {
		xi := g.x[i*d : (i+1)*d]
		ai := g.alpha[i]
		kinvRow := raw.Data[i*raw.Stride:]
		gv += (ai*ai - kinvRow[i]) * (s2 + g.jitter)
		for j := i + 1; j < n; j++ {
			w := 2 * (ai*g.alpha[j] - kinvRow[j]) // (i, j) and (j, i)
			xj := g.x[j*d : (j+1)*d]
			var r2 float64
			for c, inv := range g.inv {
				t := (xi[c] - xj[c]) * inv
				sq[c] = t * t
				r2 += sq[c]
			}
			r := math.Sqrt(r2)
			e := math.Exp(-sqrt5 * r)
			gv += w * s2 * (1 + sqrt5*r + 5*r2/3) * e
			c := w * s2 * 5 / 3 * (1 + sqrt5*r) * e
			for m, v := range sq {
				grad[m] += c * v
			}
		}
	}
	grad[d] = gv
	for j := range grad {
		grad[j] *= 0.5
	}
	return grad
}
