package texel

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	rt "github.com/roadtune/roadtune/optimize"
)

// truth is a plausible symmetric vector (zhou2015's S[1..5]) with a scale K
// that maps it to log-odds of a few units, and a tempo term.
var (
	truthW     = []float64{20, 80, 150, 800, 1000}
	truthK     = 1.0 / 500
	truthTempo = 0.4
	// spread is the standard deviation of each feature before rounding:
	// many short roads, few long ones (a 5-road feature is non-zero in
	// about a third of the positions).
	spread = []float64{4, 3, 2, 1, 0.5}
)

// positions draws n independent positions: X_d = round(spread_d·N(0,1))
// (zero for genes in zero), Tempo ±1, Y ~ Bernoulli(σ(k·w·X + b·Tempo)).
func positions(rng *rand.Rand, n int, w []float64, k, b float64, zero ...int) []rt.Position {
	pos := make([]rt.Position, n)
	for i := range pos {
		x := make([]float64, len(w))
		for d := range x {
			if !slices.Contains(zero, d) {
				x[d] = math.Round(spread[d%len(spread)] * rng.NormFloat64())
			}
		}
		t := float64(1 - 2*rng.IntN(2))
		y := 0.0
		if rng.Float64() < sigmoid(k*dot(w, x)+b*t) {
			y = 1
		}
		pos[i] = rt.Position{X: x, Tempo: t, Y: y, Game: i / 20}
	}
	return pos
}

func uniformScale(n int, s float64) []float64 {
	x := make([]float64, n)
	for d := range x {
		x[d] = s
	}
	return x
}

// TestFitRecoversKnownWeights fits 200,000 positions labelled by the
// logistic model and checks K·g against K*·w* (and b against b*) within
// four standard errors of the maximum-likelihood estimate, computed from
// the Fisher information at the truth: cov = (Σ_i p_i(1−p_i)·x_i·x_iᵀ)⁻¹
// with x_i = (X_i, Tempo_i). The fit is that estimate (stage 2 with K > 0
// fixed spans every K·g, and no ridge), so each coordinate misses by more
// than 4 SE with probability 6e-5; the seed is fixed anyway.
func TestFitRecoversKnownWeights(t *testing.T) {
	const n = 200000
	rng := rand.New(rand.NewPCG(2024, 1))
	pos := positions(rng, n, truthW, truthK, truthTempo)
	start := []float64{500, 500, 500, 500, 500}
	res, err := Fit(pos, start, uniformScale(5, 4000), FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dim := len(truthW) + 1
	info := mat.NewSymDense(dim, nil)
	for _, p := range pos {
		x := append(slices.Clone(p.X), p.Tempo)
		q := sigmoid(truthK*dot(truthW, p.X) + truthTempo*p.Tempo)
		info.SymRankOne(info, q*(1-q), mat.NewVecDense(dim, x))
	}
	var cov mat.Dense
	if err := cov.Inverse(info); err != nil {
		t.Fatal(err)
	}
	for d := range dim {
		se := math.Sqrt(cov.At(d, d))
		want, got := truthTempo, res.Tempo
		if d < len(truthW) {
			want, got = truthK*truthW[d], res.K*res.Genes[d]
		}
		t.Logf("gene %d: K·g %.5f, K*·w* %.5f, error %+.2f SE (SE %.2g, %.2f%%)", d, got, want, (got-want)/se, se, 100*se/math.Abs(want))
		if math.Abs(got-want) > 4*se {
			t.Errorf("coordinate %d: fitted %g, truth %g, more than 4 SE (%g) off", d, got, want, se)
		}
	}
	// The loss went down, and the genes' ratios are the truth's.
	if !(res.LogLoss < res.StartLogLoss) {
		t.Errorf("log-loss %g not below start's %g", res.LogLoss, res.StartLogLoss)
	}
	if !slices.Equal(res.Fitted, []int{0, 1, 2, 3, 4}) || res.KFallback || res.Iterations == 0 || res.Status == "" {
		t.Errorf("fitted %v fallback %v iterations %d status %q", res.Fitted, res.KFallback, res.Iterations, res.Status)
	}
	if ll := LogLoss(pos, res.Genes, res.K, res.Tempo); ll != res.LogLoss {
		t.Errorf("LogLoss %g, FitResult.LogLoss %g", ll, res.LogLoss)
	}
}

// TestGradientMatchesFiniteDifferences checks the objective's analytic
// gradient against central differences, with the ridge on, at random
// points.
func TestGradientMatchesFiniteDifferences(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	pos := positions(rng, 500, truthW, truthK, truthTempo)
	const m = 5
	l := &logit{m: m, mul: 0.7, ridge: 0.05, center: []float64{0.1, -0.2, 0.3, 0, 0.5}}
	for i, p := range pos {
		for _, x := range p.X {
			l.a = append(l.a, x*0.3)
		}
		l.t = append(l.t, p.Tempo)
		l.y = append(l.y, p.Y)
		if i%3 == 0 {
			l.y[i] = 0.5 // draws too
		}
	}
	grad := make([]float64, m+1)
	for trial := range 10 {
		v := make([]float64, m+1)
		for j := range v {
			v[j] = 2 * rng.NormFloat64()
		}
		l.eval(v, grad)
		for j := range v {
			const h = 1e-6
			up, down := slices.Clone(v), slices.Clone(v)
			up[j] += h
			down[j] -= h
			fd := (l.eval(up, nil) - l.eval(down, nil)) / (2 * h)
			if math.Abs(fd-grad[j]) > 1e-6*max(1, math.Abs(fd)) {
				t.Errorf("trial %d, parameter %d: analytic %g, central difference %g", trial, j, grad[j], fd)
			}
		}
	}
}

// TestUnfittedGenesKeepTheirStart: genes whose feature is zero on every
// position keep their start values exactly, even outside the bounds, as a
// dual schema's alert gene or a set no position selected must.
func TestUnfittedGenesKeepTheirStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	w := []float64{20, 80, 150, 800, 1000, 33, 44}
	pos := positions(rng, 20000, w, truthK, truthTempo, 1, 5, 6)
	start := []float64{100, 1234.5678, 300, 400, 500, -7.25, 1e6}
	bounds := rt.UniformBounds(7, 0, 4000)
	res, err := Fit(pos, start, uniformScale(7, 4000), FitOptions{Ridge: 1e-3, Bounds: bounds})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Fitted, []int{0, 2, 3, 4}) {
		t.Errorf("fitted genes %v, want 0 2 3 4", res.Fitted)
	}
	for _, d := range []int{1, 5, 6} {
		if res.Genes[d] != start[d] {
			t.Errorf("gene %d moved from %v to %v", d, start[d], res.Genes[d])
		}
	}
	for _, d := range res.Fitted {
		if res.Genes[d] == start[d] || res.Genes[d] < 0 || res.Genes[d] > 4000 {
			t.Errorf("fitted gene %d is %v (start %v, bounds [0, 4000])", d, res.Genes[d], start[d])
		}
	}
}

// TestFitClampsAndRidge: a start far from the truth's scale fits outside
// tight bounds and is clamped; a huge ridge keeps the genes at the start.
func TestFitClampsAndRidge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	pos := positions(rng, 20000, truthW, truthK, truthTempo)
	start := []float64{50, 50, 50, 50, 50}
	res, err := Fit(pos, start, uniformScale(5, 100), FitOptions{Bounds: rt.UniformBounds(5, 0, 60)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Genes[4] != 60 || res.Genes[0] >= res.Genes[3] {
		t.Errorf("clamped fit %v: want gene 4 at its bound 60 and gene 0 below gene 3", res.Genes)
	}
	res, err = Fit(pos, start, uniformScale(5, 100), FitOptions{Ridge: 1e6})
	if err != nil {
		t.Fatal(err)
	}
	for d, g := range res.Genes {
		if math.Abs(g-start[d]) > 1e-3 {
			t.Errorf("ridge 1e6: gene %d moved from %v to %v", d, start[d], g)
		}
	}
}

func TestFitErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	pos := positions(rng, 100, truthW, truthK, truthTempo)
	start := []float64{1, 2, 3, 4, 5}
	bad := func(edit func(p []rt.Position) []rt.Position) []rt.Position {
		q := make([]rt.Position, len(pos))
		for i, p := range pos {
			p.X = slices.Clone(p.X)
			q[i] = p
		}
		return edit(q)
	}
	for _, tc := range []struct {
		want  string
		pos   []rt.Position
		start []float64
		scale []float64
		opt   FitOptions
	}{
		{"no positions", nil, start, nil, FitOptions{}},
		{"position 3: X: has 2 genes", bad(func(p []rt.Position) []rt.Position { p[3].X = p[3].X[:2]; return p }), start, nil, FitOptions{}},
		{"position 4: X: gene 1 is NaN", bad(func(p []rt.Position) []rt.Position { p[4].X[1] = math.NaN(); return p }), start, nil, FitOptions{}},
		{"position 5: Y is 2", bad(func(p []rt.Position) []rt.Position { p[5].Y = 2; return p }), start, nil, FitOptions{}},
		{"position 6: Tempo", bad(func(p []rt.Position) []rt.Position { p[6].Tempo = math.Inf(1); return p }), start, nil, FitOptions{}},
		{"position 0: X: has 5 genes, want 4", pos, start[:4], nil, FitOptions{}},
		{"scale of gene 2 is 0", pos, start, []float64{1, 1, 0, 1, 1}, FitOptions{}},
		{"scale has 1 genes", pos, start, []float64{1}, FitOptions{}},
		{"Ridge is -1", pos, start, nil, FitOptions{Ridge: -1}},
		{"Bounds", pos, start, nil, FitOptions{Bounds: rt.UniformBounds(2, 0, 1)}},
		{"K cannot be fitted", pos, make([]float64, 5), nil, FitOptions{}},
	} {
		_, err := Fit(tc.pos, tc.start, tc.scale, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("want an error with %q, got %v", tc.want, err)
		}
	}
}

// TestFitFallsBackOnABackwardStart: a start that predicts the results
// backwards gets K = 1/rms(start·X), and the gene fit still finds the
// truth's direction.
func TestFitFallsBackOnABackwardStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	pos := positions(rng, 50000, []float64{100, 0, 0, 0, 0}, truthK*5, 0)
	res, err := Fit(pos, []float64{-10, 0, 0, 0, 1}, nil, FitOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.KFallback || !(res.K > 0) || !(res.Genes[0] > 0) || !(res.LogLoss < math.Ln2) {
		t.Errorf("fallback %v K %g genes %v log-loss %g", res.KFallback, res.K, res.Genes, res.LogLoss)
	}
}

// sigmoid is 1/(1 + e^−x).
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// TestScoreCI: 1.96 standard errors of the mean game score, from the
// counts: half wins and half losses give 1.96·0.5/√n; all draws, 0.
func TestScoreCI(t *testing.T) {
	for _, tc := range []struct {
		out  []rt.Outcome
		want float64
	}{
		{[]rt.Outcome{{Wins: 10, Losses: 10}}, 1.96 * 0.5 / math.Sqrt(20)},
		{[]rt.Outcome{{Wins: 5}, {Losses: 5}}, 1.96 * 0.5 / math.Sqrt(10)},
		{[]rt.Outcome{{Draws: 8}}, 0},
		{[]rt.Outcome{{Wins: 3, Draws: 1}}, 1.96 * math.Sqrt((3+0.25)/4-0.875*0.875) / 2},
		{nil, 0},
	} {
		if got := ScoreCI(tc.out); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ScoreCI(%v) = %g, want %g", tc.out, got, tc.want)
		}
	}
}
