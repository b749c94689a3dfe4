package bayes

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/bayes/gp"
)

// Bayes is a Bayesian optimisation run in progress; it implements
// optimize.Method, one Step an iteration of Batch points. It is not safe
// for concurrent use.
type Bayes struct {
	cfg    config
	pcg    *rand.PCG
	rng    *rand.Rand
	iter   int
	games  int
	design [][]float64 // the initial design, unit-cube coordinates
	points []Point
	kernel gp.Kernel
	best   []float64 // the model's optimum, gene units; nil before the first step
}

var _ optimize.Method = (*Bayes)(nil)

// Point is one point played: its unit-cube coordinates (gene d at
// Lo[d] + U[d]·(Hi[d] − Lo[d])) and its matches' outcomes, pool entry by
// pool entry, Repeats each, from the point's view.
type Point struct {
	U       []float64          `json:"u"`
	Results []optimize.Outcome `json:"results"`
}

// Score is the point's mean score fraction over its matches (each of
// the same length), the model's observation of it; ½ with no games.
func (p Point) Score() float64 {
	s, g := 0.0, 0
	for _, o := range p.Results {
		s += o.Score()
		g += o.Games()
	}
	if g == 0 {
		return 0.5
	}
	return s / float64(g)
}

// New starts a run of s on p: the initial design is a Latin hypercube of
// Initial points over the problem's initial range drawn from rng (the
// problem's Start, when set, replaces its first point), and the kernel
// starts at length scales ½ and signal variance 0.01 (a standard
// deviation of 0.1 score, about 70 Elo) until the first fit. The run
// keeps rng and draws every random number from it. Errors:
// Settings.Validate's (an *optimize.OptionError) or a nil rng.
func New(s Settings, p optimize.Problem, rng *rand.PCG) (*Bayes, error) {
	return optimize.Build("bayes: New", s.checked, start, p, rng)
}

// start is New of settings resolved and validated, rng not nil.
func start(c config, rng *rand.PCG) (*Bayes, error) {
	b := &Bayes{cfg: c, pcg: rng, rng: rand.New(rng)}
	b.design = latinHypercube(b.rng, c.Initial, len(c.Genes))
	if c.Start != nil {
		b.design[0] = c.unit(c.Start)
	}
	b.kernel = c.initialKernel()
	return b, nil
}

// initialKernel is the kernel before the first fit, inside the length
// scale bounds.
func (c config) initialKernel() gp.Kernel {
	ls := make([]float64, len(c.Genes))
	for d := range ls {
		ls[d] = min(max(0.5, c.LengthScaleMin), c.LengthScaleMax)
	}
	return gp.Kernel{LengthScales: ls, Variance: 0.01}
}

// Restore continues a run from st (from State, possibly through JSON)
// under s and p, which should be the run's. It checks the RNG, the
// counts, the design's and the points' coordinates and the kernel's
// shape; errors name the State field ("bayes: Restore: state field
// Points[3].U: …"), or are Settings.Validate's.
func Restore(s Settings, p optimize.Problem, st State) (*Bayes, error) {
	c, err := s.checked(p)
	if err != nil {
		return nil, err
	}
	const field = "bayes: Restore: state field "
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf(field+"RNG: %v", err)
	}
	n := len(c.Genes)
	if st.Iteration < 0 || st.Iteration > c.Iterations {
		return nil, fmt.Errorf(field+"Iteration: %d iterations done, want 0..Iterations = %d", st.Iteration, c.Iterations)
	}
	if st.Games < 0 {
		return nil, fmt.Errorf(field+"Games: must be ≥ 0, have %d", st.Games)
	}
	if len(st.Design) != c.Initial {
		return nil, fmt.Errorf(field+"Design: %d points, the settings' initial design has %d", len(st.Design), c.Initial)
	}
	for i, u := range st.Design {
		if err := optimize.CheckVector(fmt.Sprintf(field+"Design[%d]", i), u, n); err != nil {
			return nil, err
		}
	}
	if want := st.Iteration * c.Batch; len(st.Points) != want {
		return nil, fmt.Errorf(field+"Points: %d points after %d iterations of %d, want %d", len(st.Points), st.Iteration, c.Batch, want)
	}
	for i, pt := range st.Points {
		if err := optimize.CheckVector(fmt.Sprintf(field+"Points[%d].U", i), pt.U, n); err != nil {
			return nil, err
		}
		if len(pt.Results) != len(c.Pool)*c.Repeats {
			return nil, fmt.Errorf(field+"Points[%d].Results: %d matches, want %d (the pool times repeats)", i, len(pt.Results), len(c.Pool)*c.Repeats)
		}
	}
	if err := optimize.CheckVector(field+"Kernel.LengthScales", st.Kernel.LengthScales, n); err != nil {
		return nil, err
	}
	if !(st.Kernel.Variance > 0) || !finite(st.Kernel.Variance) {
		return nil, fmt.Errorf(field+"Kernel.Variance: must be a finite number > 0, have %g", st.Kernel.Variance)
	}
	if st.Iteration > 0 {
		if err := optimize.CheckVector(field+"Optimum", st.Optimum, n); err != nil {
			return nil, err
		}
	}
	b := &Bayes{cfg: c, pcg: pcg, rng: rand.New(pcg), iter: st.Iteration, games: st.Games,
		design: optimize.Clone(st.Design), kernel: cloneKernel(st.Kernel), best: slices.Clone(st.Optimum)}
	b.points = clonePoints(st.Points)
	return b, nil
}

// State is everything needed to continue a run with Restore: plain data,
// JSON-serialisable (floats round-trip exactly through encoding/json).
// The model itself is not stored: it is a function of the points and the
// kernel.
type State struct {
	RNG       []byte      `json:"rng"`
	Iteration int         `json:"iteration"`
	Games     int         `json:"games"`
	Design    [][]float64 `json:"design"`
	Points    []Point     `json:"points"`
	Kernel    gp.Kernel   `json:"kernel"`
	Optimum   []float64   `json:"optimum,omitempty"`
}

// State returns a deep copy of the run's state, RNG included.
func (b *Bayes) State() State {
	rng, err := b.pcg.MarshalBinary()
	if err != nil {
		panic("bayes: PCG.MarshalBinary: " + err.Error()) // never fails (math/rand/v2)
	}
	st := State{RNG: rng, Iteration: b.iter, Games: b.games, Design: optimize.Clone(b.design),
		Kernel: cloneKernel(b.kernel), Optimum: slices.Clone(b.best)}
	st.Points = clonePoints(b.points)
	return st
}

// MarshalState returns State as JSON (optimize.Method).
func (b *Bayes) MarshalState() ([]byte, error) { return json.Marshal(b.State()) }

// Best returns a copy of the model's optimum after the last Step, gene
// units (nil before the first): the point of highest posterior mean score
// against the pool, the answer chess-tuning-tools gives, rather than the
// best single result, which a lucky match inflates.
func (b *Bayes) Best() []float64 { return slices.Clone(b.best) }

// Done reports whether Iterations Steps are done.
func (b *Bayes) Done() bool { return b.iter >= b.cfg.Iterations }

// Steps is the number of iterations done.
func (b *Bayes) Steps() int { return b.iter }

// Points returns a copy of the points played so far, in order.
func (b *Bayes) Points() []Point { return clonePoints(b.points) }

// clonePoints is a deep copy of points (nil for none).
func clonePoints(points []Point) []Point {
	var out []Point
	for _, p := range points {
		out = append(out, Point{U: slices.Clone(p.U), Results: slices.Clone(p.Results)})
	}
	return out
}

// Forecast is the work left (optimize.Method): Batch points an
// iteration, each playing every pool entry Repeats matches of the
// problem's pairs, exactly.
func (b *Bayes) Forecast() optimize.Forecast {
	left := max(b.cfg.Iterations-b.iter, 0)
	if left == 0 {
		return optimize.Forecast{}
	}
	g := b.cfg.Batch * b.cfg.pointGames()
	return optimize.Forecast{Steps: left, NextGames: g, Games: left * g}
}

// Model is the Gaussian process of the run's points with its current
// kernel (nil before the first point), and the model's optimum in unit
// coordinates: for charts and checks.
func (b *Bayes) Model() (*gp.GP, error) {
	if len(b.points) == 0 {
		return nil, nil
	}
	return b.cfg.model(b.points, b.kernel, b.cfg.matchVariance(b.points))
}

// Step runs one iteration: Batch points, each from the initial design
// while it lasts, then the maximiser of the acquisition function over
// the model of every point played (the batch's earlier points taken at
// their posterior mean); one Play call of every point against every pool
// entry, Repeats matches each (a fresh batch seed from the run's
// source); then the model is updated (its kernel refitted every Refit
// iterations and at the end of the initial design) and its optimum is
// the run's Best. The record's Metrics are "opt_elo" (the optimum's
// posterior mean score against the pool, as Elo), "opt_elo_lo" and
// "opt_elo_hi" (its 95% credible interval), "opt_elo_ci" (their mean
// half-width), "played_elo" (the iteration's points as played),
// "signal_sd", "noise_sd", "points" and "ls.<gene>"; Detail an
// Iteration. On any error the run, RNG included, is left as before the
// call. After the budget is spent it returns optimize.ErrDone.
func (b *Bayes) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if err := optimize.Begin(ctx, b); err != nil {
		return optimize.Record{}, err
	}
	saved := *b.pcg
	it, err := b.step(ctx, ref)
	if err != nil {
		*b.pcg = saved
		return optimize.Record{}, err
	}
	b.iter++
	b.games += it.Games
	for _, p := range it.Points {
		b.points = append(b.points, Point{U: slices.Clone(p.U), Results: slices.Clone(p.Results)})
	}
	b.kernel = cloneKernel(it.Kernel)
	b.best = slices.Clone(it.Optimum)
	return it.record(b.cfg, len(b.points)), nil
}

// step plays iteration b.iter without changing b but for its source.
func (b *Bayes) step(ctx context.Context, ref optimize.Referee) (Iteration, error) {
	c := b.cfg
	it := Iteration{K: b.iter}
	noise := c.matchVariance(b.points)
	perPoint := noise / float64(len(c.Pool)*c.Repeats)
	var model *gp.GP
	for j := range c.Batch {
		idx := b.iter*c.Batch + j
		pp := PlayedPoint{}
		switch {
		case idx < len(b.design):
			pp.U, pp.Source = slices.Clone(b.design[idx]), "design"
		case len(b.points) == 0:
			pp.U, pp.Source = uniform(b.rng, len(c.Genes)), "uniform"
		default:
			if model == nil {
				var err error
				if model, err = c.model(b.points, b.kernel, noise); err != nil {
					return it, fmt.Errorf("bayes: iteration %d: %w", b.iter, err)
				}
			}
			pp.U, pp.Acquisition = c.propose(b.rng, model, b.points)
			pp.Source = c.Acquisition
		}
		if model != nil && j < c.Batch-1 {
			next, err := model.Add(pp.U, model.PredictMean(pp.U), perPoint)
			if err != nil {
				return it, fmt.Errorf("bayes: iteration %d: %w", b.iter, err)
			}
			model = next
		}
		pp.X = c.genes(pp.U)
		it.Points = append(it.Points, pp)
	}
	it.Seed = b.rng.Uint64()
	var matches []optimize.Match
	for _, pp := range it.Points {
		for _, e := range c.Pool {
			for range c.Repeats {
				matches = append(matches, optimize.Match{A: slices.Clone(pp.X), B: slices.Clone(e.Genes)})
			}
		}
	}
	out, err := optimize.Play(ctx, ref, it.Seed, matches)
	if err != nil {
		return it, fmt.Errorf("bayes: iteration %d: %w", b.iter, err)
	}
	per := len(c.Pool) * c.Repeats
	all := slices.Clone(b.points)
	for i := range it.Points {
		it.Points[i].Results = slices.Clone(out[i*per : (i+1)*per])
		it.Games += optimize.CountGames(it.Points[i].Results)
		all = append(all, Point{U: it.Points[i].U, Results: it.Points[i].Results})
	}
	it.Kernel = cloneKernel(b.kernel)
	designIters := (c.Initial + c.Batch - 1) / c.Batch
	noise = c.matchVariance(all)
	it.NoiseSD = math.Sqrt(noise)
	if k := b.iter + 1; k == designIters || (k > designIters && (k-designIters)%c.Refit == 0) {
		ys, vs := c.observations(all, noise)
		fitted, err := gp.Fit(it.Kernel, units(all), ys, vs, gp.FitSettings{
			MinLengthScale: c.LengthScaleMin, MaxLengthScale: c.LengthScaleMax, MaxEvaluations: fitEvaluations,
			PriorMedian: lengthScalePrior[0], PriorSD: lengthScalePrior[1],
			VariancePriorMedian: signalPrior[0], VariancePriorSD: signalPrior[1]})
		if err != nil {
			return it, fmt.Errorf("bayes: iteration %d: fitting the kernel: %w", b.iter, err)
		}
		it.Kernel, it.Refit = fitted, true
	}
	final, err := c.model(all, it.Kernel, noise)
	if err != nil {
		return it, fmt.Errorf("bayes: iteration %d: %w", b.iter, err)
	}
	u := c.optimum(b.rng, final, all)
	it.OptimumU = u
	it.Optimum = c.genes(u)
	it.OptScore, it.OptVariance = final.Predict(u)
	if b.iter+1 == c.Iterations {
		it.Profiles = c.profiles(final, u)
	}
	return it, nil
}

// fitEvaluations caps the likelihood evaluations of one kernel fit: a
// fit warm-starts from the last kernel, so a few dozen gradient steps
// suffice, and at 500 points an evaluation is a Cholesky factorisation.
const fitEvaluations = 150

// lengthScalePrior is the log-normal prior of every length scale, median
// and standard deviation of its logarithm: half the search box's side,
// 95% of the prior within [0.07, 3.6]. Without it the likelihood of a
// few hundred one-pair points often chose length scales at their bounds
// (a model flat along most genes, whose optimum then lies in a corner).
var lengthScalePrior = [2]float64{0.5, 1}

// signalPrior is the log-normal prior of the signal variance σ_f²,
// median and standard deviation of its logarithm: a median of 0.01 (a
// standard deviation of 0.1 score, about 70 Elo, between the vectors of
// the box), 95% within [0.0014, 0.071]. Without it a few hundred points
// whose noise dwarfs their differences fit σ_f² at its lower bound, a
// flat model.
var signalPrior = [2]float64{0.01, 1}

// unit maps a vector of genes into the unit cube over the search box (a
// gene of zero range at 0).
func (c config) unit(x []float64) []float64 {
	u := make([]float64, len(x))
	for d, v := range x {
		if w := c.Hi[d] - c.Lo[d]; w > 0 {
			u[d] = (v - c.Lo[d]) / w
		}
	}
	return u
}

// genes maps unit coordinates to a vector of genes, put inside the bounds
// by the bound mode.
func (c config) genes(u []float64) []float64 {
	x := make([]float64, len(u))
	for d, v := range u {
		x[d] = c.Lo[d] + v*(c.Hi[d]-c.Lo[d])
	}
	if c.BoundMode.Enforced() {
		c.Bounds.Clamp(x)
	}
	return x
}

// matchVariance is the variance of one match's score fraction: the
// within-point variance of the points' matches pooled over the points
// that played several, or, when none did, the variance of the points'
// scores about their mean (which holds the signal too, so it errs
// large). Two pseudo-matches at (¼)²/pairs, the variance of a pair's
// score when its results spread evenly, keep it away from 0 with few
// points.
func (c config) matchVariance(points []Point) float64 {
	ss, dof := 2*0.0625/float64(c.Pairs), 2.0
	within := false
	for _, p := range points {
		if len(p.Results) < 2 {
			continue
		}
		within = true
		m := p.Score()
		for _, o := range p.Results {
			s := o.Score()/float64(max(o.Games(), 1)) - m
			ss += s * s
		}
		dof += float64(len(p.Results) - 1)
	}
	if !within && len(points) > 1 {
		m := 0.0
		for _, p := range points {
			m += p.Score()
		}
		m /= float64(len(points))
		for _, p := range points {
			s := p.Score() - m
			ss += s * s
		}
		dof += float64(len(points) - 1)
	}
	return ss / dof
}

// observations are the model's targets, the points' scores, and their
// noise variances: the match variance over the point's matches.
func (c config) observations(points []Point, matchVar float64) (ys, vs []float64) {
	for _, p := range points {
		ys = append(ys, p.Score())
		vs = append(vs, matchVar/float64(max(len(p.Results), 1)))
	}
	return ys, vs
}

func units(points []Point) [][]float64 {
	out := make([][]float64, len(points))
	for i, p := range points {
		out[i] = p.U
	}
	return out
}

// model is the Gaussian process of points under kernel k, matchVar
// being their matchVariance.
func (c config) model(points []Point, k gp.Kernel, matchVar float64) (*gp.GP, error) {
	ys, vs := c.observations(points, matchVar)
	return gp.New(k, units(points), ys, vs)
}

// candidates draws the points an acquisition or the optimum is searched
// over: half uniform over the unit cube, half Gaussian steps (σ 0.05 of
// the side, clipped to the cube) from the 10 points played of highest
// posterior mean (means, one a point).
func (c config) candidates(rng *rand.Rand, points []Point, means []float64) [][]float64 {
	n := len(c.Genes)
	out := make([][]float64, 0, c.Candidates)
	for range (c.Candidates + 1) / 2 {
		out = append(out, uniform(rng, n))
	}
	top := topByMean(points, means, 10)
	for i := 0; len(out) < c.Candidates && len(top) > 0; i++ {
		out = append(out, jitter(rng, top[i%len(top)], 0.05))
	}
	return out
}

// pointMeans is the model's posterior mean at each point played.
func pointMeans(model *gp.GP, points []Point) []float64 {
	m := make([]float64, len(points))
	for i, p := range points {
		m[i] = model.PredictMean(p.U)
	}
	return m
}

// topByMean are the coordinates of the k points of highest posterior
// mean (means, one a point), best first (ties by order played).
func topByMean(points []Point, means []float64, k int) [][]float64 {
	idx := make([]int, len(points))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(means[b], means[a]) })
	var out [][]float64
	for _, i := range idx[:min(k, len(idx))] {
		out = append(out, points[i].U)
	}
	return out
}

// acquire is the acquisition function's value at u: expected improvement
// over best (the highest posterior mean of a point played) with margin
// ξ, or the upper confidence bound μ + β·σ.
func (c config) acquire(model *gp.GP, u []float64, best float64) float64 {
	m, v := model.Predict(u)
	if c.Acquisition == AcquisitionUCB {
		return m + c.Beta*math.Sqrt(v)
	}
	return gp.ExpectedImprovement(m, v, best, c.Xi)
}

// propose is the next point: the maximiser of the acquisition over the
// candidates, refined by three rounds of 20 Gaussian steps around the
// leader (σ 0.04, 0.02, 0.01 of the side), and its value.
func (c config) propose(rng *rand.Rand, model *gp.GP, points []Point) ([]float64, float64) {
	means := pointMeans(model, points)
	best := slices.Max(means)
	f := func(u []float64) float64 { return c.acquire(model, u, best) }
	return maximise(rng, c.candidates(rng, points, means), f)
}

// optimum is the model's optimum: the maximiser of the posterior mean
// over the points played and the candidates, refined as propose refines.
func (c config) optimum(rng *rand.Rand, model *gp.GP, points []Point) []float64 {
	cands := append(units(points), c.candidates(rng, points, pointMeans(model, points))...)
	u, _ := maximise(rng, cands, model.PredictMean)
	return u
}

// maximise returns the candidate of highest f (the first on ties),
// refined by three rounds of 20 Gaussian steps around the leader.
func maximise(rng *rand.Rand, cands [][]float64, f func([]float64) float64) ([]float64, float64) {
	var lead []float64
	val := math.Inf(-1)
	for _, u := range cands {
		if v := f(u); v > val {
			lead, val = u, v
		}
	}
	for _, sd := range []float64{0.04, 0.02, 0.01} {
		base := lead
		for range 20 {
			u := jitter(rng, base, sd)
			if v := f(u); v > val {
				lead, val = u, v
			}
		}
	}
	return slices.Clone(lead), val
}

// uniform is a point drawn uniformly from the unit cube.
func uniform(rng *rand.Rand, n int) []float64 {
	u := make([]float64, n)
	for d := range u {
		u[d] = rng.Float64()
	}
	return u
}

// jitter is u plus a Gaussian step of standard deviation sd per
// coordinate, clipped to the unit cube.
func jitter(rng *rand.Rand, u []float64, sd float64) []float64 {
	out := make([]float64, len(u))
	for d, v := range u {
		out[d] = min(max(v+sd*rng.NormFloat64(), 0), 1)
	}
	return out
}

// latinHypercube draws k points in the unit cube of n dimensions, one in
// each of k equal slices of every coordinate (McKay, Beckman & Conover
// 1979): each coordinate is a random permutation of the slices, a
// uniform position within each.
func latinHypercube(rng *rand.Rand, k, n int) [][]float64 {
	out := make([][]float64, k)
	for i := range out {
		out[i] = make([]float64, n)
	}
	for d := range n {
		perm := rng.Perm(k)
		for i := range out {
			out[i][d] = (float64(perm[i]) + rng.Float64()) / float64(k)
		}
	}
	return out
}

func cloneKernel(k gp.Kernel) gp.Kernel {
	return gp.Kernel{LengthScales: slices.Clone(k.LengthScales), Variance: k.Variance}
}
