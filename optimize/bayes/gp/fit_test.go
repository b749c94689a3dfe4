package gp

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The analytic gradient of the log marginal likelihood (R&W eq. 5.9)
// matches central finite differences in log parameters.
func TestLogLikelihoodGradient(t *testing.T) {
	x, y, noise := randomData(3, 25, 3)
	k := Kernel{LengthScales: []float64{0.3, 0.8, 2.5}, Variance: 0.03}
	dt, err := flatten(x, y, noise)
	if err != nil {
		t.Fatal(err)
	}
	g, chol, err := condition(k, dt)
	if err != nil {
		t.Fatal(err)
	}
	grad := logLikelihoodGradient(g, chol)
	lmlAt := func(j int, h float64) float64 {
		kk := g.Kernel()
		if j < len(kk.LengthScales) {
			kk.LengthScales[j] *= math.Exp(h)
		} else {
			kk.Variance *= math.Exp(h)
		}
		gg, err := New(kk, x, y, noise)
		if err != nil {
			t.Fatal(err)
		}
		return gg.LogMarginalLikelihood()
	}
	const h = 1e-5
	for j := range grad {
		fd := (lmlAt(j, h) - lmlAt(j, -h)) / (2 * h)
		if math.Abs(fd-grad[j]) > 1e-6*(1+math.Abs(fd)) {
			t.Errorf("∂LML/∂θ_%d = %.10g, finite difference %.10g", j, grad[j], fd)
		}
	}
}

// fitData is 60 points of the square whose target depends on x_1 only,
// with a small known noise, from a seeded PCG.
func fitData() (x [][]float64, y, noise []float64) {
	rng := rand.New(rand.NewPCG(42, 7))
	x = make([][]float64, 60)
	y = make([]float64, 60)
	noise = make([]float64, 60)
	for i := range x {
		x[i] = []float64{rng.Float64(), rng.Float64()}
		noise[i] = 1e-4
		y[i] = 0.5 + 0.3*math.Sin(2*math.Pi*x[i][0]) + 0.01*rng.NormFloat64()
	}
	return x, y, noise
}

func TestFitFindsTheRelevantDimension(t *testing.T) {
	x, y, noise := fitData()
	init := Kernel{LengthScales: []float64{0.5, 0.5}, Variance: 0.01}
	k, st, err := fit(init, x, y, noise, FitSettings{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fitted %+v in %d evaluations, LML %.4f from %.4f", k, st.evals, st.bestLML, st.initLML)
	if !(k.LengthScales[0] < k.LengthScales[1]) {
		t.Errorf("fitted ℓ = %v, want ℓ_1 < ℓ_2 (y ignores x_2)", k.LengthScales)
	}
	if !(k.LengthScales[0] < 0.5 && k.LengthScales[1] > 1) {
		t.Errorf("fitted ℓ = %v, want ℓ_1 < 0.5 < 1 < ℓ_2", k.LengthScales)
	}
	g0, err := New(init, x, y, noise)
	if err != nil {
		t.Fatal(err)
	}
	g1, err := New(k, x, y, noise)
	if err != nil {
		t.Fatal(err)
	}
	if !(g1.LogMarginalLikelihood() > g0.LogMarginalLikelihood()+1) {
		t.Errorf("LML(fitted) = %g, LML(init) = %g: want a clear gain", g1.LogMarginalLikelihood(), g0.LogMarginalLikelihood())
	}
	if st.evals > 400 || st.evals < 2 {
		t.Errorf("%d evaluations, want 2..400", st.evals)
	}
	k2, err := Fit(init, x, y, noise, FitSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if k2.Variance != k.Variance || !slices.Equal(k2.LengthScales, k.LengthScales) {
		t.Errorf("Fit is not deterministic: %+v then %+v", k, k2)
	}
	within(t, k, 0.05, 20, 1e-6, 1)
}

func within(t *testing.T, k Kernel, minL, maxL, minV, maxV float64) {
	t.Helper()
	for j, l := range k.LengthScales {
		if l < minL || l > maxL {
			t.Errorf("ℓ_%d = %g outside [%g, %g]", j, l, minL, maxL)
		}
	}
	if k.Variance < minV || k.Variance > maxV {
		t.Errorf("σ_f² = %g outside [%g, %g]", k.Variance, minV, maxV)
	}
}

// Tight bounds hold, an init outside them is clamped, and the result is
// never worse than the clamped init.
func TestFitBounds(t *testing.T) {
	x, y, noise := fitData()
	s := FitSettings{MinLengthScale: 0.2, MaxLengthScale: 1, MinVariance: 0.001, MaxVariance: 0.02, MaxEvaluations: 60}
	init := Kernel{LengthScales: []float64{0.01, 50}, Variance: 5}
	k, st, err := fit(init, x, y, noise, s)
	if err != nil {
		t.Fatal(err)
	}
	within(t, k, 0.2, 1, 0.001, 0.02)
	if k.LengthScales[1] < 0.9 {
		t.Errorf("ℓ_2 = %g, want near its bound 1 (x_2 is irrelevant)", k.LengthScales[1])
	}
	if st.evals > 60 {
		t.Errorf("%d evaluations, MaxEvaluations 60", st.evals)
	}
	clamped := Kernel{LengthScales: []float64{0.2, 1}, Variance: 0.02}
	g0, _ := New(clamped, x, y, noise)
	g1, _ := New(k, x, y, noise)
	if g1.LogMarginalLikelihood() < g0.LogMarginalLikelihood() {
		t.Errorf("LML(fitted) %g < LML(clamped init) %g", g1.LogMarginalLikelihood(), g0.LogMarginalLikelihood())
	}
	// Equal bounds pin a parameter.
	s = FitSettings{MinVariance: 0.05, MaxVariance: 0.05, MaxEvaluations: 30}
	k, err = Fit(init, x, y, noise, s)
	if err != nil {
		t.Fatal(err)
	}
	if k.Variance != 0.05 {
		t.Errorf("σ_f² = %g with both bounds 0.05", k.Variance)
	}
}

// However short the budget, the result is at worst the init.
func TestFitNeverWorseThanInit(t *testing.T) {
	x, y, noise := fitData()
	init := Kernel{LengthScales: []float64{0.15, 20}, Variance: 0.05} // near the optimum
	g0, _ := New(init, x, y, noise)
	for _, evals := range []int{1, 2, 5} {
		k, err := Fit(init, x, y, noise, FitSettings{MaxEvaluations: evals})
		if err != nil {
			t.Fatal(err)
		}
		g1, _ := New(k, x, y, noise)
		if g1.LogMarginalLikelihood() < g0.LogMarginalLikelihood() {
			t.Errorf("MaxEvaluations %d: LML(fitted) %g < LML(init) %g", evals, g1.LogMarginalLikelihood(), g0.LogMarginalLikelihood())
		}
	}
}

func TestFitErrors(t *testing.T) {
	x, y, noise := fitData()
	good := Kernel{LengthScales: []float64{0.5, 0.5}, Variance: 0.01}
	for _, c := range []struct {
		name string
		k    Kernel
		y    []float64
		s    FitSettings
		want string
	}{
		{"kernel dimension", Kernel{LengthScales: []float64{0.5}, Variance: 0.01}, y, FitSettings{}, "LengthScales"},
		{"kernel variance", Kernel{LengthScales: []float64{0.5, 0.5}}, y, FitSettings{}, "Variance"},
		{"short y", good, y[:3], FitSettings{}, "len(y)"},
		{"length bounds", good, y, FitSettings{MinLengthScale: 2, MaxLengthScale: 1}, "MinLengthScale"},
		{"variance bound", good, y, FitSettings{MaxVariance: -1}, "MaxVariance"},
		{"evaluations", good, y, FitSettings{MaxEvaluations: -1}, "MaxEvaluations"},
	} {
		_, err := Fit(c.k, x, c.y, noise, c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
}

// The log-normal priors make the fit a posterior mode: a tight prior at
// median 0.5 holds both length scales near it (the likelihood alone
// sends the irrelevant one to its bound), and the search starting at a
// bound, where the change of variables is flat, still leaves it through
// the neutral start. The prior's gradient matches finite differences of
// the objective.
func TestFitPriors(t *testing.T) {
	x, y, noise := fitData()
	init := Kernel{LengthScales: []float64{0.5, 0.5}, Variance: 0.01}
	k, err := Fit(init, x, y, noise, FitSettings{PriorMedian: 0.5, PriorSD: 0.1, VariancePriorMedian: 0.05, VariancePriorSD: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range k.LengthScales {
		if l < 0.35 || l > 0.7 {
			t.Errorf("length scales %v under a tight prior at 0.5", k.LengthScales)
		}
	}
	if k.Variance < 0.03 || k.Variance > 0.08 {
		t.Errorf("variance %g under a tight prior at 0.05", k.Variance)
	}
	stuck := Kernel{LengthScales: []float64{20, 20}, Variance: 1e-6}
	k2, err := Fit(stuck, x, y, noise, FitSettings{})
	if err != nil {
		t.Fatal(err)
	}
	if !(k2.LengthScales[0] < 1) {
		t.Errorf("from a start on the bounds the fit stayed at %+v", k2)
	}
	s, _ := FitSettings{PriorMedian: 0.3, PriorSD: 0.7, VariancePriorMedian: 0.02, VariancePriorSD: 0.5}.resolve()
	dt, err := flatten(x, y, noise)
	if err != nil {
		t.Fatal(err)
	}
	o := newObjective(dt, s)
	u := []float64{0.3, -0.4, 0.2}
	grad := make([]float64, 3)
	o.grad(grad, u)
	for j := range u {
		const h = 1e-6
		up, down := slices.Clone(u), slices.Clone(u)
		up[j] += h
		down[j] -= h
		fd := (o.f(up) - o.f(down)) / (2 * h)
		if math.Abs(fd-grad[j]) > 1e-5*(1+math.Abs(fd)) {
			t.Errorf("∂f/∂u_%d = %.10g, finite difference %.10g", j, grad[j], fd)
		}
	}
	if _, err := Fit(init, x, y, noise, FitSettings{PriorSD: 1}); err == nil || !strings.Contains(err.Error(), "PriorMedian") {
		t.Errorf("a prior without a median: %v", err)
	}
}
