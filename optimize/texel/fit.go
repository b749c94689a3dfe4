package texel

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/roadtune/roadtune/internal/crash"
	rt "github.com/roadtune/roadtune/optimize"
	"gonum.org/v1/gonum/optimize"
)

// FitOptions are the settings of Fit.
type FitOptions struct {
	// Ridge is λ of the penalty λ·mean_d((g_d − start_d)/scale_d)² over the
	// fitted genes, in log-loss units (0 = none). It keeps a gene whose
	// feature is rarely non-zero (a 5-stone road) near its start.
	Ridge float64
	// Bounds, if not nil, clamp the fitted genes after the fit; genes that
	// are not fitted keep their start values whatever the bounds.
	Bounds *rt.Bounds
	// MaxIterations limits LBFGS's major iterations of each stage
	// (0 = DefaultMaxIterations).
	MaxIterations int
}

// DefaultMaxIterations is the LBFGS iteration limit of each stage of Fit.
const DefaultMaxIterations = 500

// gradientThreshold stops LBFGS when the infinity norm of the gradient of
// the scaled problem (mean log-loss per scaled gene) is below it: far
// below the statistical error of any fit of thousands of positions, and
// above the rounding noise of a mean over a million positions, where a
// line search can no longer tell better from worse.
const gradientThreshold = 1e-7

// FitResult is what Fit found.
type FitResult struct {
	// Genes is the fitted weight vector, in gene order and the start's
	// units: start's value exactly for every gene not in Fitted.
	Genes []float64 `json:"genes"`
	// Fitted lists the genes (indices) whose feature is non-zero on some
	// position: the only ones the fit moves.
	Fitted []int `json:"fitted"`
	// K is the scale of the model σ(K·Σ_d g_d·X_d + b·Tempo), fitted with
	// the genes held at start (1/evaluation units).
	K float64 `json:"k"`
	// KFallback reports that the fitted K was not positive (start predicts
	// the results backwards or not at all), so K was set to 1/rms(start·X):
	// start's typical evaluation then maps to σ(1) ≈ 0.73.
	KFallback bool `json:"k_fallback,omitempty"`
	// StartTempo is b fitted with K (genes at start); Tempo is b fitted
	// with the genes.
	StartTempo float64 `json:"start_tempo"`
	Tempo      float64 `json:"tempo"`
	// StartLogLoss is the mean log-loss (nats per position) of start with
	// K and StartTempo; LogLoss that of Genes with K and Tempo (after the
	// clamp, without the ridge penalty).
	StartLogLoss float64 `json:"start_log_loss"`
	LogLoss      float64 `json:"log_loss"`
	// Status is gonum's termination status of the gene fit (its error
	// appended, if any: a line search that can no longer improve ends
	// there, and the best point found is kept); Iterations and
	// Evaluations are its major iterations and function evaluations.
	Status      string `json:"status"`
	Iterations  int    `json:"iterations"`
	Evaluations int    `json:"evaluations"`
}

// Fit is Texel's method on a set of positions (chessprogramming wiki,
// "Texel's Tuning Method", with log-loss): it fits the genes g of the
// linear evaluation Σ_d g_d·X_d to the game results Y of the positions by
// minimising the mean log-loss of p = σ(K·Σ_d g_d·X_d + b·Tempo),
// in two stages:
//
//  1. K and b with g = start (a two-parameter logistic regression on
//     start's evaluation): K converts evaluation units to log-odds;
//  2. g and b with K fixed, plus the ridge penalty λ·mean((g_d −
//     start_d)/scale_d)² over the fitted genes.
//
// Both stages minimise with gonum's LBFGS and the exact gradient (the
// loss is convex: the model is linear in its parameters). The genes are
// fitted in the scaled variables g_d/scale_d so that genes of different
// magnitudes are equally well conditioned. The positions fix only the
// product K·g: the fitted genes keep start's scale (through K).
//
// Shapes and units: every pos[i].X and start and scale have one value per
// gene (scale nil means 1 for every gene; the scale of a gene is a typical
// change of it, e.g. the width of its initial range, in weight units);
// Y ∈ [0, 1] (win 1, draw ½, loss 0); Tempo is ±1 (the side to move).
// A gene whose feature is zero on every position is not fitted and keeps
// start's value exactly.
//
// Errors: no positions; a position, start or scale of the wrong length or
// not finite; Y outside [0, 1]; a scale ≤ 0; start's evaluation zero on
// every position (K cannot be fitted); a fit whose result is not finite.
func Fit(pos []rt.Position, start, scale []float64, opt FitOptions) (FitResult, error) {
	n, dim := len(pos), len(start)
	if n == 0 {
		return FitResult{}, errors.New("texel: Fit: no positions")
	}
	if err := rt.CheckVector("texel: Fit: start", start, dim); err != nil {
		return FitResult{}, err
	}
	if scale == nil {
		scale = make([]float64, dim)
		for d := range scale {
			scale[d] = 1
		}
	}
	if len(scale) != dim {
		return FitResult{}, fmt.Errorf("texel: Fit: scale has %d genes, want %d", len(scale), dim)
	}
	for d, s := range scale {
		if !(s > 0) || math.IsInf(s, 1) {
			return FitResult{}, fmt.Errorf("texel: Fit: scale of gene %d is %g, want a finite number > 0", d, s)
		}
	}
	if !(opt.Ridge >= 0) || math.IsInf(opt.Ridge, 1) {
		return FitResult{}, fmt.Errorf("texel: Fit: Ridge is %g, want a finite number ≥ 0", opt.Ridge)
	}
	if err := opt.Bounds.Validate(dim); err != nil {
		return FitResult{}, fmt.Errorf("texel: Fit: Bounds: %w", err)
	}
	if err := checkPositions(pos, dim); err != nil {
		return FitResult{}, err
	}
	iters := opt.MaxIterations
	if iters <= 0 {
		iters = DefaultMaxIterations
	}

	fitted := []int{}
	for d := range dim {
		for i := range pos {
			if pos[i].X[d] != 0 {
				fitted = append(fitted, d)
				break
			}
		}
	}
	m := len(fitted)
	y, t := make([]float64, n), make([]float64, n)
	for i, p := range pos {
		y[i], t[i] = p.Y, p.Tempo
	}

	// Stage 1: K and b on start's evaluation z, scaled by its RMS r.
	z := make([]float64, n)
	r := 0.0
	for i, p := range pos {
		z[i] = dot(start, p.X)
		r += z[i] * z[i]
	}
	r = math.Sqrt(r / float64(n))
	if r == 0 || math.IsInf(r, 0) {
		return FitResult{}, fmt.Errorf("texel: Fit: start's evaluation is %g on every position: K cannot be fitted", z[0])
	}
	for i := range z {
		z[i] /= r
	}
	ks := &logit{a: z, m: 1, t: t, y: y, mul: 1}
	v1, _, _, err := ks.minimize([]float64{0, 0}, iters)
	if err != nil {
		return FitResult{}, fmt.Errorf("texel: Fit: fitting K: %w", err)
	}
	res := FitResult{K: v1[0] / r, StartTempo: v1[1], Fitted: fitted}
	if !(res.K > 0) || math.IsInf(res.K, 1) {
		res.K, res.KFallback = 1/r, true
	}
	res.StartLogLoss = LogLoss(pos, start, res.K, res.StartTempo)

	// Stage 2: the fitted genes, scaled, and b with K fixed.
	a := make([]float64, n*m)
	for i, p := range pos {
		row := a[i*m : (i+1)*m]
		for j, d := range fitted {
			row[j] = p.X[d] * scale[d]
		}
	}
	v0 := make([]float64, m+1)
	center := make([]float64, m)
	for j, d := range fitted {
		v0[j] = start[d] / scale[d]
		center[j] = v0[j]
	}
	v0[m] = res.StartTempo
	gs := &logit{a: a, m: m, t: t, y: y, mul: res.K, ridge: opt.Ridge, center: center}
	v, status, stats, err := gs.minimize(v0, iters)
	if err != nil {
		return FitResult{}, fmt.Errorf("texel: Fit: fitting the genes: %w", err)
	}
	res.Status, res.Iterations, res.Evaluations = status, stats.MajorIterations, stats.FuncEvaluations
	res.Genes = slices.Clone(start)
	for j, d := range fitted {
		g := v[j] * scale[d]
		if opt.Bounds != nil && len(opt.Bounds.Lo) > 0 {
			g = min(max(g, opt.Bounds.Lo[d]), opt.Bounds.Hi[d])
		}
		res.Genes[d] = g
	}
	res.Tempo = v[m]
	res.LogLoss = LogLoss(pos, res.Genes, res.K, res.Tempo)
	return res, nil
}

// checkPositions checks the shapes and values of pos.
func checkPositions(pos []rt.Position, dim int) error {
	for i, p := range pos {
		if len(p.X) != dim {
			return fmt.Errorf("texel: position %d: X: has %d genes, want %d", i, len(p.X), dim)
		}
		for d, x := range p.X {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("texel: position %d: X: gene %d is %g, want a finite number", i, d, x)
			}
		}
		if !(p.Y >= 0 && p.Y <= 1) {
			return fmt.Errorf("texel: position %d: Y is %g, want a result in [0, 1]", i, p.Y)
		}
		if math.IsNaN(p.Tempo) || math.IsInf(p.Tempo, 0) {
			return fmt.Errorf("texel: position %d: Tempo is %g, want ±1", i, p.Tempo)
		}
		if p.Game < 0 {
			return fmt.Errorf("texel: position %d: Game is %d, want ≥ 0", i, p.Game)
		}
	}
	return nil
}

// LogLoss is the mean log-loss, in nats per position, of the model
// p = σ(k·Σ_d g_d·X_d + tempo·Tempo) on pos: mean of −Y·ln p − (1−Y)·ln(1−p).
// It is NaN for no positions. len(g) must be the positions' gene count.
func LogLoss(pos []rt.Position, g []float64, k, tempo float64) float64 {
	if len(pos) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, p := range pos {
		eta := k*dot(g, p.X) + tempo*p.Tempo
		s += softplus(eta) - p.Y*eta
	}
	return s / float64(len(pos))
}

// Score is the score fraction of outcomes from A's view: points (win 1,
// draw ½) over games; NaN for no games.
func Score(out []rt.Outcome) float64 {
	games, pts := 0, 0.0
	for _, o := range out {
		games += o.Games()
		pts += o.Score()
	}
	if games == 0 {
		return math.NaN()
	}
	return pts / float64(games)
}

// ScoreCI is the half-width of the 95% interval of Score(out): 1.96
// standard errors of the mean of the games' scores (1, ½, 0), their
// variance (W + D/4)/n − Score² taken from the counts; 0 without games.
// It treats the games as independent, which the two games of an opening
// pair are not quite: a rough interval.
func ScoreCI(out []rt.Outcome) float64 {
	var w, d, n float64
	for _, o := range out {
		w, d, n = w+float64(o.Wins), d+float64(o.Draws), n+float64(o.Games())
	}
	if n == 0 {
		return 0
	}
	s := (w + d/2) / n
	return 1.96 * math.Sqrt(max(0, (w+d/4)/n-s*s)/n)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for d, v := range b {
		s += a[d] * v
	}
	return s
}

// softplus is ln(1 + e^x) without overflow.
func softplus(x float64) float64 {
	if x > 0 {
		return x + math.Log1p(math.Exp(-x))
	}
	return math.Log1p(math.Exp(x))
}

// logit is the objective of one stage of Fit: parameters v = (w_1..w_m,
// b), linear predictor η_i = mul·Σ_j a_ij·w_j + b·t_i, loss
// F(v) = mean_i(softplus(η_i) − y_i·η_i) + ridge·mean_j(w_j − center_j)²,
// gradient ∂F/∂w_j = mean_i((σ(η_i) − y_i)·mul·a_ij) + 2·ridge/m·(w_j −
// center_j), ∂F/∂b = mean_i((σ(η_i) − y_i)·t_i). a is n × m, row-major.
type logit struct {
	a      []float64
	m      int
	t, y   []float64
	mul    float64
	ridge  float64
	center []float64 // length m when ridge > 0
}

// chunk is the number of positions one goroutine of eval sums; the
// chunks are fixed by the positions alone and their sums added in order,
// so the result does not depend on the number of CPUs.
const chunk = 8192

// eval returns F(v) and writes ∇F(v) into grad (if not nil), summing
// chunks of positions concurrently.
func (l *logit) eval(v, grad []float64) float64 {
	m, n := l.m, len(l.y)
	chunks := (n + chunk - 1) / chunk
	width := m + 2 // loss, then the gradient
	part := make([]float64, chunks*width)
	var wg sync.WaitGroup
	panics := make([]*crash.Panic, chunks)
	for c := range chunks {
		wg.Go(func() {
			panics[c] = crash.Catch(func() {
				l.sum(v, c*chunk, min((c+1)*chunk, n), part[c*width:(c+1)*width], grad != nil)
			})
		})
	}
	wg.Wait()
	for _, p := range panics { // a chunk's panic goes on in the caller's goroutine
		crash.Forward(p)
	}
	total := make([]float64, width)
	for c := range chunks {
		for k, x := range part[c*width : (c+1)*width] {
			total[k] += x
		}
	}
	inv := 1 / float64(n)
	f := total[0] * inv
	if grad != nil {
		for j := range grad {
			grad[j] = total[j+1] * inv
		}
	}
	if l.ridge > 0 && m > 0 {
		c := l.ridge / float64(m)
		for j := range m {
			e := v[j] - l.center[j]
			f += c * e * e
			if grad != nil {
				grad[j] += 2 * c * e
			}
		}
	}
	return f
}

// sum adds the loss of positions lo..hi−1 to out[0] and, if grad, their
// gradient to out[1:]: softplus(η) and σ(η) share one exponential.
func (l *logit) sum(v []float64, lo, hi int, out []float64, grad bool) {
	m := l.m
	w, b := v[:m], v[m]
	g := out[1:]
	s := 0.0
	for i := lo; i < hi; i++ {
		row := l.a[i*m : (i+1)*m]
		eta := 0.0
		for j, x := range row {
			eta += x * w[j]
		}
		eta = l.mul*eta + b*l.t[i]
		e := math.Exp(-math.Abs(eta))
		s += max(eta, 0) + math.Log1p(e) - l.y[i]*eta
		if grad {
			p := 1 / (1 + e)
			if eta < 0 {
				p = e / (1 + e)
			}
			r := p - l.y[i]
			rm := r * l.mul
			for j, x := range row {
				g[j] += rm * x
			}
			g[m] += r * l.t[i]
		}
	}
	out[0] = s
}

// minimize runs gonum's LBFGS from v0. gonum asks for F and then ∇F at
// the same point; eval computes both at once and Grad reuses them. An
// error of gonum's with a usable result (e.g. a line search that can no
// longer improve at the optimum) is reported in the status, not returned.
func (l *logit) minimize(v0 []float64, iters int) ([]float64, string, optimize.Stats, error) {
	var lastX, lastG []float64
	p := optimize.Problem{
		Func: func(x []float64) float64 {
			if lastG == nil {
				lastG = make([]float64, len(x))
			}
			f := l.eval(x, lastG)
			lastX = append(lastX[:0], x...)
			return f
		},
		Grad: func(grad, x []float64) {
			if !slices.Equal(x, lastX) {
				l.eval(x, grad)
				return
			}
			copy(grad, lastG)
		},
	}
	s := &optimize.Settings{GradientThreshold: gradientThreshold, MajorIterations: iters}
	res, err := optimize.Minimize(p, v0, s, &optimize.LBFGS{})
	if res == nil {
		return nil, "", optimize.Stats{}, err
	}
	status := res.Status.String()
	if err != nil {
		status += ": " + err.Error()
	}
	for _, x := range res.X {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, status, res.Stats, fmt.Errorf("LBFGS ended at a point that is not finite (%s)", status)
		}
	}
	return res.X, status, res.Stats, nil
}
