package cmaes

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/roadtune/roadtune/optimize"
)

// CMAES is a CMA-ES run with uncertainty handling in progress; it
// implements optimize.Method, one Step a generation. It is not safe for
// concurrent use.
type CMAES struct {
	cfg config
	par params
	pcg *rand.PCG
	rng *rand.Rand
	st  core
}

// core is the run's state but for its source.
type core struct {
	gen     int
	mean    []float64
	sigma   float64
	sigma0  float64 // σ0, for Settings.MaxSigma
	c       [][]float64
	ps, pc  []float64
	repeats int
	means   [][]float64 // the latest means, for Settings.Average
	answer  []float64
	games   int
}

var _ optimize.Method = (*CMAES)(nil)

// New starts a run of s on p: the initial mean is drawn uniformly from
// the problem's initial range, or is its Start when set (drawn all the same), put
// inside the bounds and onto the norm's sphere; σ0 as the package doc
// says; C = I, p_σ = p_c = 0, one repeat. The run keeps rng and draws
// every random number from it. Errors: Settings.Validate's errors or a
// nil rng.
func New(s Settings, p optimize.Problem, rng *rand.PCG) (*CMAES, error) {
	return optimize.Build("cmaes: New", s.checked, start, p, rng)
}

// start is New of settings resolved and validated, rng not nil.
func start(c config, rng *rand.PCG) (*CMAES, error) {
	c = c.clone()
	n := len(c.Genes)
	s := &CMAES{cfg: c, par: c.strategy(), pcg: rng, rng: rand.New(rng)}
	m := optimize.UniformPopulation(s.rng, 1, c.InitLo, c.InitHi)[0]
	var sigma float64
	if c.Start != nil {
		m = c.place(slices.Clone(c.Start))
		sigma = c.WarmSpread * optimize.Norm(m) / math.Sqrt(float64(n))
	} else {
		if c.bounded() {
			c.Bounds.Clamp(m)
		}
		sigma = c.Sigma * meanRange(c.InitLo, c.InitHi)
		if before := optimize.Norm(m); c.Norm > 0 && before > 0 {
			sigma *= c.Norm / before
		}
		m = c.place(m)
	}
	if !(sigma > 0) || !finite(sigma) {
		return nil, fmt.Errorf("cmaes: New: σ0 is %g, want a finite number > 0", sigma)
	}
	s.st = core{
		mean: m, sigma: sigma, sigma0: sigma, c: identity(n),
		ps: make([]float64, n), pc: make([]float64, n),
		repeats: 1, answer: slices.Clone(m),
	}
	return s, nil
}

// Restore continues a run from st (from State, possibly through JSON)
// under s and p, which should be the run's. It checks the RNG, that
// Generation lies in [0, Generations], Games ≥ 0, Repeats in
// [1, MaxRepeats], Sigma and Sigma0 finite and > 0, at most Generation Means, and
// the shapes and finiteness of Mean, PSigma, PC, Answer, Means and C,
// which must also be symmetric and positive definite. Errors name the State field ("cmaes: Restore: state
// field C: …"), or are Settings.Validate's.
func Restore(s Settings, p optimize.Problem, st State) (*CMAES, error) {
	return optimize.Resume(s.checked, restore, p, st)
}

// restore is Restore of settings resolved and validated.
func restore(c config, st State) (*CMAES, error) {
	c = c.clone()
	n := len(c.Genes)
	const field = "cmaes: Restore: state field "
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf(field+"RNG: %v", err)
	}
	switch {
	case st.Generation < 0 || st.Generation > c.Generations:
		return nil, fmt.Errorf(field+"Generation: %d generations done, want 0..Generations = %d", st.Generation, c.Generations)
	case st.Games < 0:
		return nil, fmt.Errorf(field+"Games: must be ≥ 0, have %d", st.Games)
	case st.Repeats < 1 || st.Repeats > c.MaxRepeats:
		return nil, fmt.Errorf(field+"Repeats: %d, want 1..MaxRepeats = %d", st.Repeats, c.MaxRepeats)
	case !finite(st.Sigma) || st.Sigma <= 0:
		return nil, fmt.Errorf(field+"Sigma: must be a finite number > 0, have %g", st.Sigma)
	case !finite(st.Sigma0) || st.Sigma0 <= 0:
		return nil, fmt.Errorf(field+"Sigma0: must be a finite number > 0, have %g", st.Sigma0)
	}
	for _, v := range []struct {
		name string
		x    []float64
	}{{"Mean", st.Mean}, {"PSigma", st.PSigma}, {"PC", st.PC}, {"Answer", st.Answer}} {
		if err := optimize.CheckVector(field+v.name, v.x, n); err != nil {
			return nil, err
		}
	}
	if len(st.Means) > st.Generation {
		return nil, fmt.Errorf(field+"Means: %d means after %d generations", len(st.Means), st.Generation)
	}
	if err := optimize.CheckPopulation(field+"Means", st.Means, len(st.Means), n); err != nil {
		return nil, err
	}
	if err := optimize.CheckPopulation(field+"C", st.C, n, n); err != nil {
		return nil, err
	}
	for i := range n {
		for j := range i {
			if st.C[i][j] != st.C[j][i] {
				return nil, fmt.Errorf(field+"C: not symmetric: C[%d][%d] = %g, C[%d][%d] = %g", i, j, st.C[i][j], j, i, st.C[j][i])
			}
		}
	}
	if _, _, err := eigen(st.C); err != nil {
		return nil, fmt.Errorf(field+"C: %v", err)
	}
	return &CMAES{
		cfg: c, par: c.strategy(), pcg: pcg, rng: rand.New(pcg),
		st: core{
			gen: st.Generation, mean: slices.Clone(st.Mean), sigma: st.Sigma, sigma0: st.Sigma0, c: optimize.Clone(st.C),
			ps: slices.Clone(st.PSigma), pc: slices.Clone(st.PC), repeats: st.Repeats,
			means: optimize.Clone(st.Means), answer: slices.Clone(st.Answer), games: st.Games,
		},
	}, nil
}

// State returns a deep copy of the run's state, RNG included.
func (s *CMAES) State() State {
	rng, err := s.pcg.MarshalBinary()
	if err != nil {
		panic("cmaes: PCG.MarshalBinary: " + err.Error()) // never fails (math/rand/v2)
	}
	return State{
		RNG: rng, Generation: s.st.gen, Mean: slices.Clone(s.st.mean), Sigma: s.st.sigma, Sigma0: s.st.sigma0,
		C: optimize.Clone(s.st.c), PSigma: slices.Clone(s.st.ps), PC: slices.Clone(s.st.pc),
		Repeats: s.st.repeats, Means: optimize.Clone(s.st.means), Answer: slices.Clone(s.st.answer), Games: s.st.games,
	}
}

// MarshalState returns State as JSON (optimize.Method); Spec.Restore reads
// it back.
func (s *CMAES) MarshalState() ([]byte, error) { return json.Marshal(s.State()) }

// Best returns a copy of the answer after the last Step (nil before the
// first): the mean (the average of the latest means with average > 1),
// or on the last generation the race's winner.
func (s *CMAES) Best() []float64 {
	if s.st.gen == 0 {
		return nil
	}
	return slices.Clone(s.st.answer)
}

// Mean returns a copy of the current mean m.
func (s *CMAES) Mean() []float64 { return slices.Clone(s.st.mean) }

// Sigma returns the current step size σ.
func (s *CMAES) Sigma() float64 { return s.st.sigma }

// Done reports whether Generations Steps are done.
func (s *CMAES) Done() bool { return s.st.gen >= s.cfg.Generations }

// Steps is the number of generations done.
func (s *CMAES) Steps() int { return s.st.gen }

// Forecast is the work left (optimize.Method): each generation plays
// (λ + λ_reev)·|pool|·r·2·Pairs games at the current repeats r, exact
// for the next generation; the later ones are counted at the same r,
// which the noise handling may change either way, so with it on Games
// is an estimate, not a bound. With a race, the last generation adds the
// race's least games (its first race_rounds rounds).
func (s *CMAES) Forecast() optimize.Forecast {
	c := s.cfg
	left := max(c.Generations-s.st.gen, 0)
	if left == 0 {
		return optimize.Forecast{}
	}
	per := c.generationGames(s.st.repeats)
	race := 0
	if c.RaceBudget > 0 {
		race = c.Race().MinBudget(c.raceField(), len(c.Pool), 2*c.pairs())
	}
	next := per
	if left == 1 {
		next += race
	}
	return optimize.Forecast{Steps: left, NextGames: next, Games: left*per + race}
}

// Step plays generation Steps(): it samples λ candidates, plays them (and
// the re-evaluations) against the pool in one Play call, ranks them,
// updates m, σ, C and the paths, applies the uncertainty treatment, and
// on the last generation runs the race when one is set. It returns a
// record whose Step is the generation, Best the answer, Metrics as
// Generation.record lists them and Detail a Generation. On any error (the
// referee's, ctx cancelled, a wrong number of outcomes, a state no longer
// finite or C no longer positive definite) the run, RNG included, is left
// exactly as before the call, so the Step may be retried. After the
// budget it returns optimize.ErrDone.
func (s *CMAES) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if err := optimize.Begin(ctx, s); err != nil {
		return optimize.Record{}, err
	}
	saved := *s.pcg
	next, g, games, err := s.step(ctx, ref)
	if err != nil {
		*s.pcg = saved
		return optimize.Record{}, fmt.Errorf("cmaes: generation %d: %w", s.st.gen, err)
	}
	s.st = next
	return g.record(next.answer, games), nil
}

// step plays generation s.st.gen and returns the state after it, without
// changing s but for its source.
func (s *CMAES) step(ctx context.Context, ref optimize.Referee) (core, Generation, int, error) {
	c, p, st := s.cfg, s.par, s.st
	n, lambda := p.n, p.lambda
	g := Generation{Generation: st.gen, Sigma: st.sigma, Repeats: st.repeats}

	b, d, err := eigen(st.c)
	if err != nil {
		return core{}, g, 0, fmt.Errorf("C: %v", err)
	}
	// Sample: z_k ~ N(0, I), y_k = B·D·z_k, x_k = m + σ·y_k; the played
	// vector is x_k clamped and scaled.
	y := make([][]float64, lambda)
	g.Candidates = make([][]float64, lambda)
	z := make([]float64, n)
	for k := range lambda {
		for i := range n {
			z[i] = s.rng.NormFloat64()
		}
		y[k] = make([]float64, n)
		for i := range n {
			v := 0.0
			for j := range n {
				v += b.At(i, j) * d[j] * z[j]
			}
			y[k][i] = v
		}
		x := make([]float64, n)
		for i := range n {
			x[i] = st.mean[i] + st.sigma*y[k][i]
		}
		g.Candidates[k] = c.place(x)
		if c.bounded() || c.Norm > 0 {
			// The update learns from the sample as played (clamped and
			// scaled: the repaired vector), so the mean stays inside the
			// bounds and near the norm's sphere by itself, and σ measures
			// steps that were taken.
			for i := range n {
				y[k][i] = (x[i] - st.mean[i]) / st.sigma
			}
		}
	}
	g.Seed = s.rng.Uint64()

	// Play the first evaluation of every candidate, then the
	// re-evaluation of the first λ_reev, in one batch.
	opps := optimize.PoolVectors(c.Pool, st.mean, st.answer)
	reev := c.reevaluations()
	r := st.repeats
	matches := evaluation(g.Candidates, opps, r, 0)
	matches = append(matches, evaluation(g.Candidates[:reev], opps, r, r)...)
	out, err := optimize.Play(ctx, ref, g.Seed, matches)
	if err != nil {
		return core{}, g, 0, err
	}
	games := optimize.CountGames(out)
	first := len(g.Candidates) * len(opps) * r
	g.Score = scores(out[:first], lambda, len(opps), r)
	g.Fitness = slices.Clone(g.Score)
	if reev > 0 {
		g.Rescore = scores(out[first:], reev, len(opps), r)
		for i, v := range g.Rescore {
			g.Fitness[i] = (g.Score[i] + v) / 2
		}
		g.NoiseS, _ = RankChange(g.Score, g.Rescore, Theta)
	}
	g.Ranked = make([]int, lambda)
	for i := range g.Ranked {
		g.Ranked[i] = i
	}
	slices.SortStableFunc(g.Ranked, func(a, b int) int {
		switch {
		case g.Fitness[a] > g.Fitness[b]:
			return -1
		case g.Fitness[a] < g.Fitness[b]:
			return 1
		}
		return 0
	})

	next := update(p, st, y, b, d, g.Ranked, c.tieWeights(p, g.Ranked, g.Fitness))
	if c.bounded() {
		c.Bounds.Clamp(next.mean)
	}
	if c.Norm > 0 {
		optimize.ScaleTo(next.mean, c.Norm)
	}
	next.repeats = st.repeats
	if c.NoiseHandling {
		switch {
		case g.NoiseS > 0:
			next.sigma *= c.AlphaSigma
			next.repeats = min(2*st.repeats, c.MaxRepeats)
		case g.NoiseS < 0:
			next.repeats = max(st.repeats/2, 1)
		}
	}
	if err := next.check(); err != nil {
		return core{}, g, 0, fmt.Errorf("%w (the run diverged)", err)
	}
	if _, d, err := eigen(next.c); err != nil {
		return core{}, g, 0, fmt.Errorf("the updated C: %v (the run diverged)", err)
	} else {
		next.normalize(slices.Max(d) * slices.Max(d))
	}
	next.sigma0 = st.sigma0
	if c.MaxSigma > 0 {
		next.sigma = min(next.sigma, c.MaxSigma*st.sigma0)
	}
	g.SigmaNext, g.RepeatsNext = next.sigma, next.repeats
	g.HSigma = next.hsig
	g.Mean = slices.Clone(next.mean)
	next.means = c.noise().Window(st.means, next.mean)
	next.answer = slices.Clone(next.mean)
	if c.Average > 1 {
		next.answer = c.noise().AverageOf(next.means)
	}

	if next.gen == c.Generations && c.RaceBudget > 0 {
		answerName, latest := "mean", []float64(nil)
		if c.Average > 1 {
			answerName, latest = "answer", next.mean
		}
		ranked := g.Ranked[:c.raceCandidates()]
		top := make([][]float64, len(ranked))
		for k, idx := range ranked {
			top[k] = g.Candidates[idx]
		}
		cands, names := optimize.RaceField(next.answer, answerName, latest, "mean", top, func(k int) string { return "best " + strconv.Itoa(k) })
		pool := optimize.PoolVectors(c.Pool, next.mean, next.answer)
		rec, err := optimize.Race(ctx, ref, s.rng, cands, pool, names, c.Race(), 2*c.pairs())
		if err != nil {
			return core{}, g, 0, err
		}
		g.Race = &rec
		games += rec.Games
		next.answer = slices.Clone(cands[rec.Winner])
	}
	g.Answer = slices.Clone(next.answer)
	next.games = st.games + games
	return next.core, g, games, nil
}

// evaluation is r repeats of a common-opponent evaluation of cands
// against opps (optimize.PoolMatches): repeat ρ plays on the OpeningSets
// (offset + ρ)·len(opps) + j + 1, candidate i against opponent j being
// match ρ·len(cands)·len(opps) + i·len(opps) + j.
func evaluation(cands, opps [][]float64, r, offset int) []optimize.Match {
	var ms []optimize.Match
	for rep := range r {
		for _, m := range optimize.PoolMatches(cands, opps) {
			m.OpeningSet += (offset + rep) * len(opps)
			ms = append(ms, m)
		}
	}
	return ms
}

// scores sums an evaluation's outcomes per candidate over the repeats and
// the pool and returns each candidate's score fraction (½ for no games).
func scores(out []optimize.Outcome, n, k, r int) []float64 {
	sum := make([]optimize.Outcome, n)
	for rep := range r {
		for i, o := range optimize.PoolOutcomes(out[rep*n*k:(rep+1)*n*k], n, k) {
			sum[i].Merge(o)
		}
	}
	f := make([]float64, n)
	for i, o := range sum {
		f[i] = 0.5
		if o.Games() > 0 {
			f[i] = o.Score() / float64(o.Games())
		}
	}
	return f
}

// nextState is core plus h_σ of the update, for the record.
type nextState struct {
	core
	hsig int
}

// update is the tutorial's update of generation st.gen (Hansen 2016,
// Appendix A) from the steps y_k = (x_k − m)/σ of the samples (as clamped
// to the bounds, before any scaling), C = B·D²·Bᵀ: recombination of the μ
// best of ranked, CSA, the path p_c with h_σ, and the rank-one and rank-μ
// updates of C. shared, when not nil, are the weights by rank position
// with ties sharing theirs (tieWeights): they replace p.w, and their
// 1/Σw² replaces μ_eff in the paths. The mean is not yet clamped or
// scaled; the repeats, answer and games are left for the caller.
func update(p params, st core, y [][]float64, b *mat.Dense, d []float64, ranked []int, shared []float64) nextState {
	n := p.n
	w, mueff := p.w, p.mueff
	if shared != nil {
		w, mueff = shared, 0
		for _, v := range shared {
			mueff += v * v
		}
		mueff = 1 / mueff
	}
	yw := make([]float64, n)
	for i, wi := range w {
		k := ranked[i]
		for j := range n {
			yw[j] += wi * y[k][j]
		}
	}
	next := nextState{core: core{gen: st.gen + 1, mean: make([]float64, n), ps: make([]float64, n), pc: make([]float64, n)}}
	for j := range n {
		next.mean[j] = st.mean[j] + p.cm*st.sigma*yw[j]
	}
	// p_σ ← (1 − c_σ)·p_σ + √(c_σ(2 − c_σ)μ_eff)·C^(−1/2)·⟨y⟩_w with
	// C^(−1/2) = B·D⁻¹·Bᵀ.
	u := make([]float64, n) // D⁻¹·Bᵀ·⟨y⟩_w
	for j := range n {
		v := 0.0
		for i := range n {
			v += b.At(i, j) * yw[i]
		}
		u[j] = v / d[j]
	}
	fs := math.Sqrt(p.cs * (2 - p.cs) * mueff)
	for i := range n {
		v := 0.0
		for j := range n {
			v += b.At(i, j) * u[j]
		}
		next.ps[i] = (1-p.cs)*st.ps[i] + fs*v
	}
	psNorm := optimize.Norm(next.ps)
	next.sigma = st.sigma * math.Exp(p.cs/p.ds*(psNorm/p.chiN-1))
	if psNorm/math.Sqrt(1-math.Pow(1-p.cs, float64(2*(st.gen+1)))) < (1.4+2/float64(n+1))*p.chiN {
		next.hsig = 1
	}
	fc := math.Sqrt(p.cc * (2 - p.cc) * mueff)
	for j := range n {
		next.pc[j] = (1-p.cc)*st.pc[j] + float64(next.hsig)*fc*yw[j]
	}
	delta := float64(1-next.hsig) * p.cc * (2 - p.cc)
	keep := 1 + p.c1*delta - p.c1 - p.cmu // Σw_i = 1
	next.c = make([][]float64, n)
	for i := range n {
		next.c[i] = make([]float64, n)
	}
	for i := range n {
		for j := i; j < n; j++ {
			rankMu := 0.0
			for r, wr := range w {
				k := ranked[r]
				rankMu += wr * y[k][i] * y[k][j]
			}
			v := keep*st.c[i][j] + p.c1*next.pc[i]*next.pc[j] + p.cmu*rankMu
			next.c[i][j], next.c[j][i] = v, v
		}
	}
	return next
}

// tieWeights are, with ShareTies, the recombination weights by rank
// position (ranked best first, p.w for the first μ, 0 after) with every
// run of equal fitness given the mean of its positions' weights; nil
// without ShareTies.
func (c config) tieWeights(p params, ranked []int, fitness []float64) []float64 {
	if !c.ShareTies {
		return nil
	}
	w := make([]float64, len(ranked))
	copy(w, p.w)
	for a := 0; a < len(ranked); {
		z := a + 1
		for z < len(ranked) && fitness[ranked[z]] == fitness[ranked[a]] {
			z++
		}
		sum := 0.0
		for _, v := range w[a:z] {
			sum += v
		}
		for i := a; i < z; i++ {
			w[i] = sum / float64(z-a)
		}
		a = z
	}
	return w
}

// normalize moves the scale κ > 0 of C into σ: (σ, C, p_c) become
// (σ·√κ, C/κ, p_c/√κ). Every sample x = m + σ·B·D·z and every later update
// are the same in exact arithmetic (y and p_c shrink by √κ, C^(−1/2)·y and
// so p_σ do not change): only the split of the distribution's scale
// between σ and C changes.
func (c *core) normalize(kappa float64) {
	if !(kappa > 0) || !finite(kappa) || kappa == 1 {
		return
	}
	r := math.Sqrt(kappa)
	c.sigma *= r
	for i := range c.c {
		c.pc[i] /= r
		for j := range c.c[i] {
			c.c[i][j] /= kappa
		}
	}
}

// check fails unless every number of the state is finite and σ > 0.
func (c core) check() error {
	if !finite(c.sigma) || c.sigma <= 0 {
		return fmt.Errorf("σ is %g", c.sigma)
	}
	for _, v := range []struct {
		name string
		x    []float64
	}{{"the mean", c.mean}, {"p_σ", c.ps}, {"p_c", c.pc}} {
		if err := optimize.CheckVector(v.name, v.x, len(v.x)); err != nil {
			return err
		}
	}
	return optimize.CheckPopulation("C", c.c, len(c.c), len(c.c))
}

// eigen returns B (eigenvectors in columns) and D (the square roots of
// the eigenvalues) of the symmetric matrix c, or an error unless c is
// positive definite.
func eigen(c [][]float64) (*mat.Dense, []float64, error) {
	n := len(c)
	sym := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			sym.SetSym(i, j, c[i][j])
		}
	}
	var es mat.EigenSym
	if !es.Factorize(sym, true) {
		return nil, nil, errors.New("the eigendecomposition failed")
	}
	vals := es.Values(nil)
	d := make([]float64, n)
	for i, v := range vals {
		if !(v > 0) || !finite(v) {
			return nil, nil, fmt.Errorf("not positive definite: eigenvalue %d is %g", i, v)
		}
		d[i] = math.Sqrt(v)
	}
	var b mat.Dense
	es.VectorsTo(&b)
	return &b, d, nil
}

// identity is the n×n identity matrix.
func identity(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
		m[i][i] = 1
	}
	return m
}
