package pso

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// The swarm's variants (Settings.Variant).
const (
	// VariantChen is Chen 2010 §5 exactly (PSO): knockout, personal and
	// global bests decided by single matches, g as the answer. "" means it.
	VariantChen = optimize.VariantChen
	// VariantRobust is the noise-robust swarm (RobustPSO): common-opponent
	// fitness with memory for the personal bests, Chen's focus-distance
	// inertia weight, and the mean of the best personal bests (raced at the
	// end) as the answer.
	VariantRobust = optimize.VariantRobust
)

// The robust swarm's social attractors (Settings.Attractor).
const (
	// AttractorBest is the personal best with the best tally mean.
	AttractorBest = "best"
	// AttractorElite is the mean of the μ best personal bests: under game
	// noise the single best tally is mostly the luckiest, and the whole
	// swarm chases it; the elite's mean averages that luck out, as the
	// answer does (nevergrad TBPSA recommends the mean of the μ parents).
	AttractorElite = "elite"
)

// matchGames is the games of one common-opponent round of k vectors: each
// plays every pool opponent, 2·Pairs games a match.
func (c config) matchGames(k int) int { return k * len(c.Pool) * 2 * c.pairs() }

// raceField is the number of candidates of the final race: the answer,
// the latest mean when the answer averages several, and the
// RaceCandidates best personal bests.
func (c config) raceField() int {
	k := 1 + min(c.NoiseOptions.RaceCandidates, c.Particles)
	if c.NoiseOptions.Average > 1 {
		k++
	}
	return k
}

// place keeps an initial position inside the bounds (clamped, whatever
// the mode) and scales it to Settings.Norm, in place.
func (c config) place(x []float64) {
	if c.BoundMode != optimize.BoundsOff {
		c.Bounds.Clamp(x)
	}
	optimize.ScaleTo(x, c.NoiseOptions.Norm)
}

// RobustPSO is the noise-robust focus-distance swarm, one Step an
// iteration (it implements optimize.Method). Chen's swarm (PSO) decides
// every personal and global best by a single match of a few games, so its
// bests are mostly the luckiest draws; this variant keeps the swarm's
// dynamics and changes how it judges. Each iteration t:
//
//  1. every particle's position x_i and every personal best p_i (a p_i
//     equal to its x_i once) play the pool (Settings.Pool: "centroid" the
//     personal bests' mean, "best" the answer before the step, at
//     iteration 0 the centroid; baselines by name) in one Play call, every
//     vector meeting opponent j on the same openings (optimize.PoolMatches:
//     common random numbers), every vector at Settings.Norm when it is set;
//  2. fitness memory (optimize.Tally): p_i's tally is weighted by
//     Settings.Memory and adds p_i's games; x_i's tally is its games of this
//     iteration alone. x_i replaces p_i, with its tally, when its score
//     exceeds p_i's tally mean (a tie keeps the incumbent); a p_i equal to
//     x_i keeps its tally. So a personal best is judged on all its games
//     since it was found, not on one lucky match (re-evaluation of
//     survivors, Diaz & Handl 2015). g is the personal best with the
//     highest tally mean, ties by lower index;
//  3. Chen's focus distances of the personal bests give the inertia weight
//     w (Chen 2010 eq. 5-3..5-6, FocusDistances, InertiaWeight); every
//     velocity follows eq. 5-1 with fresh r1, r2 per particle and gene,
//     limited to ±VMax; every position moves by eq. 5-2, then the bound
//     mode (as PSO), then is scaled onto the sphere of radius Settings.Norm;
//  4. the answer is never a single sample: it is the mean of the Elite
//     personal bests with the highest tally means (the mean of the μ
//     parents, as nevergrad's TBPSA recommends after Hellwig & Beyer
//     2016, and as Hansen's CMA-ES recombines), scaled to Settings.Norm,
//     averaged over the latest Settings.Average iterations (AverageOf,
//     Polyak–Ruppert averaging);
//  5. on the last iteration with Settings.RaceBudget > 0, the answer, the
//     latest mean (when averaged) and the RaceCandidates best personal
//     bests race against the iteration's pool, "best" being the new answer
//     (optimize.Race, after F-race, Birattari et al. 2002); the winner is
//     the answer, and the race's games count in the iteration.
//
// Random draws, all from the *rand.PCG given to NewRobust: the initial
// positions (optimize.UniformPopulation, or optimize.AroundStart), the
// initial velocities (particle by particle, gene by gene); then per Step:
// the batch seed, r of eq. 5-6, r1 and r2 per particle and gene, and on a
// raced last iteration one seed per race round.
type RobustPSO struct {
	cfg config
	pcg *rand.PCG
	s   robustSwarm
}

var _ optimize.Method = (*RobustPSO)(nil)

// robustSwarm is the mutable part of RobustState, minus the RNG.
type robustSwarm struct {
	iter    int
	x, v, p [][]float64
	tally   []optimize.Tally
	answer  []float64
	means   [][]float64
	games   int
}

func (s robustSwarm) clone() robustSwarm {
	s.x, s.v, s.p = optimize.Clone(s.x), optimize.Clone(s.v), optimize.Clone(s.p)
	s.tally = slices.Clone(s.tally)
	s.answer = slices.Clone(s.answer)
	s.means = optimize.Clone(s.means)
	return s
}

// RobustState is a RobustPSO's checkpoint, plain JSON data (floats
// round-trip exactly through encoding/json). Slices are Particles × Genes
// unless said otherwise.
type RobustState struct {
	// RNG is the swarm's *rand.PCG, from its MarshalBinary.
	RNG []byte `json:"rng"`
	// Iteration is the number of Steps done.
	Iteration int `json:"iteration"`
	// Positions are the positions the next Step plays; Velocities the
	// velocities they were moved with (the initial ones before a Step).
	Positions  [][]float64 `json:"positions"`
	Velocities [][]float64 `json:"velocities"`
	// PersonalBests are the p_i, Tally their fitness memory (Particles
	// tallies).
	PersonalBests [][]float64      `json:"personal_bests"`
	Tally         []optimize.Tally `json:"tally"`
	// Answer is the run's answer (Method.Best), set exactly after a Step.
	Answer []float64 `json:"answer,omitempty"`
	// Means are the latest top-μ means (at most max(average, 1)), whose
	// average is the answer.
	Means [][]float64 `json:"means,omitempty"`
	// Games is the number of games played so far.
	Games int `json:"games"`
}

// RobustIteration is the robust swarm's record of one Step, the Detail of
// its optimize.Record. Every field is a function of the config, the seed
// and the referee's outcomes, so a resumed run reproduces it exactly.
type RobustIteration struct {
	// Particles are the swarm's particles in index order.
	Particles []RobustParticle `json:"particles"`
	// Played is the number of vectors that played (Particles positions
	// and the personal bests that differed from them).
	Played int `json:"played"`
	// GlobalBest is g after the update (the elite's mean with attractor
	// "elite"); GlobalBestParticle the particle with the best tally.
	GlobalBest         []float64 `json:"global_best"`
	GlobalBestParticle int       `json:"global_best_particle"`
	// Ranked lists the particles by their personal best's tally mean,
	// best first (ties by lower index); the first Elite give Mean.
	Ranked []int `json:"ranked"`
	// Mean is the mean of the top-μ personal bests, scaled to the norm.
	Mean []float64 `json:"mean"`
	// Answer is the run's answer after the iteration: the average of the
	// latest means, or the race's winner on a raced last iteration.
	Answer []float64 `json:"answer"`
	// W is the inertia weight of the velocity update (eq. 5-6) from K
	// (eq. 5-5) and R; MeanDist, MaxDist the focus distances (eq. 5-3,
	// 5-4) of the updated personal bests to g.
	W        float64 `json:"w"`
	K        float64 `json:"k"`
	R        float64 `json:"r"`
	MeanDist float64 `json:"mean_dist"`
	MaxDist  float64 `json:"max_dist"`
	// Pool names the opponents; Seed is the evaluation batch's seed.
	Pool []string `json:"pool"`
	Seed uint64   `json:"seed"`
	// Race is the final race, on the last iteration when it is on.
	Race *optimize.RaceRecord `json:"race,omitempty"`
	// Diversity is that of the positions that played.
	Diversity optimize.Diversity `json:"diversity"`
}

// RobustParticle is one particle of an iteration's record.
type RobustParticle struct {
	// Position is x_i as it played; Now its outcome against the whole pool
	// this iteration (its view, in games).
	Position []float64        `json:"position"`
	Now      optimize.Outcome `json:"now"`
	// PersonalNow is the personal best's outcome this iteration (before
	// any replacement); Shared says p_i equalled x_i and played once
	// (PersonalNow is then Now).
	PersonalNow optimize.Outcome `json:"personal_now"`
	Shared      bool             `json:"shared"`
	// Improved says x_i replaced p_i.
	Improved bool `json:"improved"`
	// PersonalBest and Tally are p_i and its fitness memory after the
	// update.
	PersonalBest []float64      `json:"personal_best"`
	Tally        optimize.Tally `json:"tally"`
	// Velocity is the velocity after eq. 5-1 (and the bound mode), the one
	// that moved the particle to its next position.
	Velocity []float64 `json:"velocity"`
}

// NewRobust starts a robust swarm of s on p: positions uniform in InitLo..InitHi (optimize.UniformPopulation,
// so a GA and a PSO seeded alike start alike) or around Start
// (optimize.AroundStart, the first particle at the start itself), clamped
// to the bounds unless the mode is off and scaled to Settings.Norm; then
// velocities uniform in [VelLo, VelHi], limited to ±VMax; p_i = x_i with
// empty tallies. rng belongs to the swarm from then on. Errors:
// Settings.Validate's or a nil rng.
func NewRobust(s Settings, p optimize.Problem, rng *rand.PCG) (*RobustPSO, error) {
	return optimize.Build("pso: NewRobust", s.checked, startRobust, p, rng)
}

// startRobust is NewRobust of settings resolved and validated, rng not nil.
func startRobust(c config, rng *rand.PCG) (*RobustPSO, error) {
	r := rand.New(rng)
	var x [][]float64
	if c.Start != nil {
		x = optimize.AroundStart(r, c.Start, c.Particles, c.NoiseOptions.WarmSpread)
	} else {
		x = optimize.UniformPopulation(r, c.Particles, c.InitLo, c.InitHi)
	}
	for _, xi := range x {
		c.place(xi)
	}
	v := make([][]float64, c.Particles)
	for i := range v {
		v[i] = make([]float64, len(c.Genes))
		for d := range v[i] {
			v[i][d] = limitVelocity(c.VMax, d, c.VelLo+r.Float64()*(c.VelHi-c.VelLo))
		}
	}
	return &RobustPSO{cfg: c, pcg: rng, s: robustSwarm{
		x: x, v: v, p: optimize.Clone(x), tally: make([]optimize.Tally, c.Particles),
	}}, nil
}

// RestoreRobust continues a run from its checkpoint under the same
// settings and problem (a larger Iterations extends it). It checks the RNG, Iteration in
// [0, Iterations], the shapes and finiteness of the vectors, tallies of
// games (0 ≤ Points ≤ Games, finite), an Answer and 1..max(average, 1)
// Means exactly once a Step is done, and Games ≥ 0; errors name the
// field ("pso: RobustState.Tally[2]: …").
func RestoreRobust(s Settings, p optimize.Problem, st RobustState) (*RobustPSO, error) {
	return optimize.Resume(s.checked, restoreRobust, p, st)
}

// restoreRobust is RestoreRobust of settings resolved and validated.
func restoreRobust(c config, st RobustState) (*RobustPSO, error) {
	const f = "pso: RobustState."
	pcg := &rand.PCG{}
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf(f+"RNG: %w", err)
	}
	if st.Iteration < 0 || st.Iteration > c.Iterations {
		return nil, fmt.Errorf(f+"Iteration: %d iterations done, want 0..%d", st.Iteration, c.Iterations)
	}
	for _, v := range []struct {
		name string
		m    [][]float64
	}{{"Positions", st.Positions}, {"Velocities", st.Velocities}, {"PersonalBests", st.PersonalBests}} {
		if err := optimize.CheckPopulation(f+v.name, v.m, c.Particles, len(c.Genes)); err != nil {
			return nil, err
		}
	}
	if len(st.Tally) != c.Particles {
		return nil, fmt.Errorf(f+"Tally: has %d tallies, want %d", len(st.Tally), c.Particles)
	}
	for i, t := range st.Tally {
		if !(t.Games >= 0) || !(t.Points >= 0) || t.Points > t.Games || t.Steps < 0 || math.IsInf(t.Games, 0) {
			return nil, fmt.Errorf(f+"Tally[%d]: %+v is not a tally of games", i, t)
		}
	}
	if (st.Answer == nil) != (st.Iteration == 0) {
		return nil, fmt.Errorf(f+"Answer: must be set exactly when an iteration was done (%d were)", st.Iteration)
	}
	if st.Answer != nil {
		if err := optimize.CheckVector(f+"Answer", st.Answer, len(c.Genes)); err != nil {
			return nil, err
		}
	}
	if k := max(c.NoiseOptions.Average, 1); len(st.Means) > k || (len(st.Means) == 0) != (st.Iteration == 0) {
		return nil, fmt.Errorf(f+"Means: has %d means after %d iterations, want 1..%d once an iteration was done", len(st.Means), st.Iteration, k)
	}
	for i, m := range st.Means {
		if err := optimize.CheckVector(fmt.Sprintf(f+"Means[%d]", i), m, len(c.Genes)); err != nil {
			return nil, err
		}
	}
	if st.Games < 0 {
		return nil, fmt.Errorf(f+"Games: must be 0 or more, not %d", st.Games)
	}
	return &RobustPSO{cfg: c, pcg: pcg, s: robustSwarm{
		iter: st.Iteration,
		x:    optimize.Clone(st.Positions), v: optimize.Clone(st.Velocities), p: optimize.Clone(st.PersonalBests),
		tally: slices.Clone(st.Tally), answer: slices.Clone(st.Answer), means: optimize.Clone(st.Means),
		games: st.Games,
	}}, nil
}

// State returns a deep copy of the swarm's checkpoint, RNG included.
func (q *RobustPSO) State() RobustState {
	rng, err := q.pcg.MarshalBinary()
	if err != nil {
		panic("pso: PCG.MarshalBinary: " + err.Error()) // never fails (math/rand/v2)
	}
	s := q.s.clone()
	return RobustState{RNG: rng, Iteration: s.iter, Positions: s.x, Velocities: s.v,
		PersonalBests: s.p, Tally: s.tally, Answer: s.answer, Means: s.means, Games: s.games}
}

// MarshalState returns State as JSON (optimize.Method).
func (q *RobustPSO) MarshalState() ([]byte, error) { return json.Marshal(q.State()) }

// Done reports whether Iterations Steps are done.
func (q *RobustPSO) Done() bool { return q.s.iter >= q.cfg.Iterations }

// Steps is the number of iterations done.
func (q *RobustPSO) Steps() int { return q.s.iter }

// Best is the run's answer: the (averaged) mean of the top-μ personal
// bests after the latest Step, the race's winner after a raced last one;
// nil before the first Step.
func (q *RobustPSO) Best() []float64 { return slices.Clone(q.s.answer) }

// played is the number of vectors the next Step plays: every position and
// every personal best that differs from its position.
func (q *RobustPSO) played() int {
	n := len(q.s.x)
	for i, x := range q.s.x {
		if !slices.Equal(x, q.s.p[i]) {
			n++
		}
	}
	return n
}

// Forecast is the work left (optimize.Method), counting 2·Pairs games a
// match. The next Step plays its vectors (exact: Particles plus the
// personal bests that differ from their positions) against the pool;
// each later one at least the Particles positions (at most twice that).
// With a race, the last Step adds at least the race's first race_rounds
// rounds (RaceConfig.MinBudget), at most race_budget. Both figures are
// lower bounds.
func (q *RobustPSO) Forecast() optimize.Forecast {
	c := q.cfg
	left := max(c.Iterations-q.s.iter, 0)
	if left == 0 {
		return optimize.Forecast{}
	}
	race := 0
	if c.NoiseOptions.RaceBudget > 0 {
		race = c.NoiseOptions.Race().MinBudget(c.raceField(), len(c.Pool), 2*c.pairs())
	}
	next := c.matchGames(q.played())
	games := next + (left-1)*c.matchGames(c.Particles) + race
	if left == 1 {
		next += race
	}
	return optimize.Forecast{Steps: left, NextGames: next, Games: games}
}

// Step runs one iteration (see RobustPSO). It returns a record whose Step
// is the iteration's index (from 0), Best the answer, Metrics "fitness"
// (g's tally mean), "fitness_mean" (the personal bests' mean tally mean),
// "score_mean" (the positions' mean score this iteration), "pbest_games"
// (the personal bests' mean games of memory), "personal_bests" (personal
// bests replaced), "w", "k", "mean_dist", "max_dist" (Chen 2010 eq.
// 5-3..5-6), "diversity" and "gene_std" (of the positions that played,
// optimize.PopulationDiversity), and on a raced last iteration
// "race_games"; Detail a RobustIteration. On any error (the referee's,
// a cancelled ctx, a wrong number of outcomes, a position no longer
// finite) the swarm, RNG included, is left exactly as before the call, so
// the Step may be replayed. After the budget it returns optimize.ErrDone.
func (q *RobustPSO) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if err := optimize.Begin(ctx, q); err == optimize.ErrDone {
		return optimize.Record{}, err
	} else if err != nil {
		return optimize.Record{}, fmt.Errorf("pso: iteration %d: %w", q.s.iter, err)
	}
	pcg := optimize.ClonePCG(q.pcg) // committed only on success
	s := q.s.clone()
	it, games, err := q.step(ctx, ref, rand.New(pcg), &s)
	if err != nil {
		return optimize.Record{}, fmt.Errorf("pso: iteration %d: %w", q.s.iter, err)
	}
	rec := it.record(q.s.iter, games)
	*q.pcg = *pcg
	q.s = s
	return rec, nil
}

// step does the work of Step on the working copy s with rng (a copy of
// the swarm's source); it returns the iteration's record and its games.
func (q *RobustPSO) step(ctx context.Context, ref optimize.Referee, rng *rand.Rand, s *robustSwarm) (RobustIteration, int, error) {
	c := q.cfg
	n := c.Particles
	norm := c.NoiseOptions.Norm
	var it RobustIteration

	// 1. Every position, then every personal best that differs from its
	// position, against the pool, in one batch on common openings.
	cands := make([][]float64, n, 2*n)
	copy(cands, s.x)
	pAt := make([]int, n) // the candidate index p_i played as
	for i := range n {
		pAt[i] = i
		if !slices.Equal(s.p[i], s.x[i]) {
			pAt[i] = len(cands)
			cands = append(cands, s.p[i])
		}
	}
	centroid := optimize.ScaleTo(optimize.Centroid(s.p), norm)
	best := s.answer
	if best == nil {
		best = centroid
	}
	opps := optimize.PoolVectors(c.Pool, centroid, best)
	it.Seed = rng.Uint64()
	out, err := optimize.Play(ctx, ref, it.Seed, optimize.PoolMatches(cands, opps))
	if err != nil {
		return it, 0, fmt.Errorf("evaluation: %w", err)
	}
	games := optimize.CountGames(out)
	now := optimize.PoolOutcomes(out, len(cands), len(opps))
	it.Played = len(cands)
	for _, e := range c.Pool {
		it.Pool = append(it.Pool, e.Name)
	}
	it.Diversity = optimize.PopulationDiversity(s.x)

	// 2. Fitness memory: p_i's tally decays and adds its games; x_i
	// replaces p_i when its own score is higher.
	it.Particles = make([]RobustParticle, n)
	for i := range n {
		xt := optimize.Tally{}
		xt.Add(now[i])
		pt := s.tally[i]
		pt.Decay(c.NoiseOptions.Memory)
		pt.Add(now[pAt[i]])
		rp := RobustParticle{Position: slices.Clone(s.x[i]), Now: now[i], PersonalNow: now[pAt[i]], Shared: pAt[i] == i}
		if !rp.Shared && xt.Shrunk(c.NoiseOptions.Prior) > pt.Shrunk(c.NoiseOptions.Prior) {
			s.p[i], pt, rp.Improved = slices.Clone(s.x[i]), xt, true
		}
		s.tally[i] = pt
		rp.PersonalBest, rp.Tally = slices.Clone(s.p[i]), pt
		it.Particles[i] = rp
	}
	it.Ranked = make([]int, n)
	for i := range it.Ranked {
		it.Ranked[i] = i
	}
	slices.SortStableFunc(it.Ranked, func(a, b int) int {
		return cmp.Compare(s.tally[b].Shrunk(c.NoiseOptions.Prior), s.tally[a].Shrunk(c.NoiseOptions.Prior))
	})
	gi := it.Ranked[0]
	g := s.p[gi]
	// The elite's mean (the answer's ingredient), computed before the move.
	elite := make([][]float64, c.elite())
	for k, i := range it.Ranked[:c.elite()] {
		elite[k] = s.p[i]
	}
	it.Mean = optimize.ScaleTo(optimize.Centroid(elite), norm)
	if c.Attractor == AttractorElite {
		g = it.Mean
	}
	it.GlobalBest, it.GlobalBestParticle = slices.Clone(g), gi

	// 3. Chen's inertia weight from the focus distances (eq. 5-3..5-6),
	// eq. 5-1, then the move (eq. 5-2), the bound mode and the norm.
	it.MeanDist, it.MaxDist, it.K = FocusDistances(g, s.p)
	it.R = rng.Float64()
	it.W = InertiaWeight(it.K, it.R, c.Alpha1, c.Alpha2)
	for i, x := range s.x {
		v, pb := s.v[i], s.p[i]
		for d := range v {
			r1, r2 := rng.Float64(), rng.Float64()
			v[d] = limitVelocity(c.VMax, d, it.W*v[d]+c.C1*r1*(pb[d]-x[d])+c.C2*r2*(g[d]-x[d]))
		}
	}
	var dir []int
	if c.BoundMode == optimize.BoundsReflect {
		dir = make([]int, len(c.Genes))
	}
	for i, x := range s.x {
		move(c.BoundMode, c.Bounds, x, s.v[i], dir)
		optimize.ScaleTo(x, norm)
		for d := range x {
			if !finite(x[d]) {
				return it, 0, fmt.Errorf("particle %d gene %d: position %g is not finite (the swarm diverged; set bounds or vmax_fraction)", i, d, x[d])
			}
		}
		it.Particles[i].Velocity = slices.Clone(s.v[i])
	}

	// 4. The answer: the mean of the top-μ personal bests, averaged.
	s.means = c.NoiseOptions.Window(s.means, it.Mean)
	s.answer = c.NoiseOptions.AverageOf(s.means)

	// 5. The last iteration races the answer.
	if s.iter+1 == c.Iterations && c.NoiseOptions.RaceBudget > 0 {
		var latest []float64
		if c.NoiseOptions.Average > 1 {
			latest = it.Mean
		}
		ranked := it.Ranked[:min(c.NoiseOptions.RaceCandidates, n)]
		top := make([][]float64, len(ranked))
		for k, i := range ranked {
			top[k] = s.p[i]
		}
		rc, names := optimize.RaceField(s.answer, "answer", latest, "mean", top, func(k int) string {
			return fmt.Sprintf("personal best %d (particle %d)", k, ranked[k-1])
		})
		rr, err := optimize.Race(ctx, ref, rng, rc, optimize.PoolVectors(c.Pool, centroid, s.answer), names, c.NoiseOptions.Race(), 2*c.pairs())
		if err != nil {
			return it, 0, fmt.Errorf("final %w", err)
		}
		games += rr.Games
		s.answer = slices.Clone(rc[rr.Winner])
		it.Race = &rr
	}
	it.Answer = slices.Clone(s.answer)
	s.iter++
	s.games += games
	return it, games, nil
}

// record wraps the iteration in its optimize.Record (see RobustPSO.Step
// for the metrics).
func (it RobustIteration) record(step, games int) optimize.Record {
	var fit, score, pg float64
	improved := 0
	for _, p := range it.Particles {
		fit += p.Tally.Mean()
		pg += p.Tally.Games
		if p.Now.Games() > 0 {
			score += p.Now.Score() / float64(p.Now.Games())
		} else {
			score += 0.5
		}
		if p.Improved {
			improved++
		}
	}
	n := float64(len(it.Particles))
	top := it.Particles[it.GlobalBestParticle].Tally
	m := map[string]float64{
		"fitness":        top.Mean(),
		"fitness_mean":   fit / n,
		"score_mean":     score / n,
		"pbest_games":    pg / n,
		"personal_bests": float64(improved),
		"w":              it.W,
		"k":              it.K,
		"mean_dist":      it.MeanDist,
		"max_dist":       it.MaxDist,
		"diversity":      it.Diversity.MeanDistance,
		"gene_std":       it.Diversity.MeanGeneStd(),
	}
	line := fmt.Sprintf("g particle %d %.3f (%.0f games), personal bests %.3f, %d replaced, w %.3f k %.3f, %d games",
		it.GlobalBestParticle, top.Mean(), top.Games, fit/n, improved, it.W, it.K, games)
	if r := it.Race; r != nil {
		m["race_games"] = float64(r.Games)
		verdict := "budget spent"
		if r.Decided {
			verdict = "decided"
		}
		line += fmt.Sprintf("; race: %s wins (%s, %d rounds, %d games)", r.Candidates[r.Winner], verdict, r.Rounds, r.Games)
	}
	return optimize.Record{Step: step, Games: games, Best: slices.Clone(it.Answer), Metrics: m, Detail: it, Line: line}
}
