package pso

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// PSO is a focus-distance particle swarm (Chen 2010 §5) in progress; it
// implements optimize.Method, one Step an iteration. It is not safe for
// concurrent use; the Referee may play a batch concurrently.
type PSO struct {
	cfg config
	pcg *rand.PCG
	rng *rand.Rand
	s   swarm
}

var _ optimize.Method = (*PSO)(nil)

// swarm is the mutable part of State, minus the RNG.
type swarm struct {
	iter     int
	knocked  bool
	x, v, p  [][]float64
	g        []float64
	gi       int
	w, k, r  float64
	mean, mx float64
	games    int
}

func (s swarm) clone() swarm {
	s.x, s.v, s.p = optimize.Clone(s.x), optimize.Clone(s.v), optimize.Clone(s.p)
	s.g = slices.Clone(s.g)
	return s
}

// New starts a swarm of s on p: positions from
// optimize.UniformPopulation(rand.New(rng), Particles, InitLo, InitHi) (so a GA seeded alike
// starts from the same population, Chen 2010 §5.4.1), then velocities uniform
// in [VelLo, VelHi] (limited by VMax), and p_i = x_i. g is chosen by the
// knockout of the first Step. The swarm keeps rng and draws every random
// number from it: rng belongs to the swarm from then on, and the caller must
// not use it afterwards. Errors: Settings.Validate's errors or a nil
// rng.
func New(s Settings, p optimize.Problem, rng *rand.PCG) (*PSO, error) {
	return optimize.Build("pso: New", s.checked, start, p, rng)
}

// start is New of settings resolved and validated, rng not nil.
func start(c config, rng *rand.PCG) (*PSO, error) {
	c = c.clone()
	p := &PSO{cfg: c, pcg: rng, rng: rand.New(rng)}
	if c.Initial != nil {
		p.s.x = optimize.Clone(c.Initial)
	} else {
		p.s.x = optimize.UniformPopulation(p.rng, c.Particles, c.InitLo, c.InitHi)
	}
	p.s.v = make([][]float64, c.Particles)
	for i := range p.s.v {
		v := make([]float64, len(c.Genes))
		for d := range v {
			v[d] = p.limit(d, c.VelLo+p.rng.Float64()*(c.VelHi-c.VelLo))
		}
		p.s.v[i] = v
	}
	p.s.p = optimize.Clone(p.s.x)
	p.s.gi = -1
	return p, nil
}

// Restore continues a run from st (from State, possibly through JSON) under
// s and p, which should be the run's (Iterations may be raised to extend
// it). It checks the RNG; that Iteration lies in [0, Iterations] and
// Games is not negative; the shapes (Particles × Genes) and finiteness of
// Positions, Velocities and PersonalBests; that the knockout is done exactly
// when an iteration is, with then a finite GlobalBest of Genes genes and a
// GlobalBestParticle in [0, Particles), else an empty GlobalBest and −1;
// that W, K, R, MeanDist and MaxDist are finite, the distances ≥ 0,
// 0 ≤ K ≤ 1 and 0 ≤ R < 1. Not the bounds: a state is trusted to come from
// the same run. Errors name the State field ("pso: Restore: state field
// Velocities[2]: …"), or are Settings.Validate's.
func Restore(s Settings, p optimize.Problem, st State) (*PSO, error) {
	return optimize.Resume(s.checked, restore, p, st)
}

// restore is Restore of settings resolved and validated.
func restore(c config, st State) (*PSO, error) {
	c = c.clone()
	const field = "pso: Restore: state field "
	bad := func(name, format string, args ...any) error {
		return fmt.Errorf(field+"%s: %s", name, fmt.Sprintf(format, args...))
	}
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, bad("RNG", "%v", err)
	}
	if st.Iteration < 0 || st.Iteration > c.Iterations {
		return nil, bad("Iteration", "%d iterations done, want 0..Iterations = %d", st.Iteration, c.Iterations)
	}
	if st.Games < 0 {
		return nil, bad("Games", "must be ≥ 0, have %d", st.Games)
	}
	for _, f := range []struct {
		name string
		m    [][]float64
	}{{"Positions", st.Positions}, {"Velocities", st.Velocities}, {"PersonalBests", st.PersonalBests}} {
		if err := optimize.CheckPopulation(field+f.name, f.m, c.Particles, len(c.Genes)); err != nil {
			return nil, err
		}
	}
	if st.KnockoutDone != (st.Iteration > 0) {
		return nil, bad("KnockoutDone", "%v after %d iterations: the knockout is iteration 0's", st.KnockoutDone, st.Iteration)
	}
	gi := -1
	if st.KnockoutDone {
		if err := optimize.CheckVector(field+"GlobalBest", st.GlobalBest, len(c.Genes)); err != nil {
			return nil, err
		}
		if st.GlobalBestParticle < 0 || st.GlobalBestParticle >= c.Particles {
			return nil, bad("GlobalBestParticle", "%d is not a particle index in [0, %d)", st.GlobalBestParticle, c.Particles)
		}
		gi = st.GlobalBestParticle
	} else {
		if len(st.GlobalBest) != 0 {
			return nil, bad("GlobalBest", "set before the knockout")
		}
		if st.GlobalBestParticle != -1 {
			return nil, bad("GlobalBestParticle", "%d before the knockout, want -1", st.GlobalBestParticle)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"W", st.W}, {"K", st.K}, {"R", st.R}, {"MeanDist", st.MeanDist}, {"MaxDist", st.MaxDist}} {
		if !finite(f.v) {
			return nil, bad(f.name, "must be finite, have %g", f.v)
		}
	}
	if st.K < 0 || st.K > 1 {
		return nil, bad("K", "%g is outside [0, 1] (eq. 5-5)", st.K)
	}
	if st.R < 0 || st.R >= 1 {
		return nil, bad("R", "%g is outside [0, 1)", st.R)
	}
	if st.MeanDist < 0 || st.MaxDist < 0 {
		return nil, bad("MeanDist", "focus distances %g and %g must be ≥ 0", st.MeanDist, st.MaxDist)
	}
	p := &PSO{cfg: c, pcg: pcg, rng: rand.New(pcg), s: swarm{
		iter: st.Iteration, knocked: st.KnockoutDone,
		x: optimize.Clone(st.Positions), v: optimize.Clone(st.Velocities), p: optimize.Clone(st.PersonalBests),
		g: slices.Clone(st.GlobalBest), gi: gi,
		w: st.W, k: st.K, r: st.R, mean: st.MeanDist, mx: st.MaxDist,
		games: st.Games,
	}}
	return p, nil
}

// State returns a deep copy of the swarm's state, RNG included.
func (p *PSO) State() State {
	rng, err := p.pcg.MarshalBinary()
	if err != nil {
		// PCG.MarshalBinary never fails (math/rand/v2).
		panic("pso: PCG.MarshalBinary: " + err.Error())
	}
	s := p.s
	return State{
		RNG: rng, Iteration: s.iter, KnockoutDone: s.knocked,
		Positions: optimize.Clone(s.x), Velocities: optimize.Clone(s.v), PersonalBests: optimize.Clone(s.p),
		GlobalBest: slices.Clone(s.g), GlobalBestParticle: s.gi,
		W: s.w, K: s.k, R: s.r, MeanDist: s.mean, MaxDist: s.mx,
		Games: s.games,
	}
}

// MarshalState returns State as JSON (optimize.Method); Spec.Restore reads
// it back.
func (p *PSO) MarshalState() ([]byte, error) { return json.Marshal(p.State()) }

// Best returns a copy of the global best g (nil before the first Step).
func (p *PSO) Best() []float64 {
	if !p.s.knocked {
		return nil
	}
	return slices.Clone(p.s.g)
}

// Done reports whether Iterations Steps are done. (A stall rule is the
// driver's: optimize.Settings.Stall.)
func (p *PSO) Done() bool { return p.s.iter >= p.cfg.Iterations }

// Steps is the number of iterations done.
func (p *PSO) Steps() int { return p.s.iter }

// Forecast is the work left (optimize.Method), counting 2·Pairs games a
// match: the iterations left of the budget; for the next one the
// personal-best batch (Particles matches) plus, on iteration 0, the
// knockout (Particles − 1 matches); for all of them that plus a batch for
// each later iteration. The global-best challenges depend on the batch's
// outcomes (0 to Particles a Step), so both game counts are lower bounds.
func (p *PSO) Forecast() optimize.Forecast {
	c := p.cfg
	left := max(c.Iterations-p.s.iter, 0)
	if left == 0 {
		return optimize.Forecast{}
	}
	batch := c.Particles * 2 * c.pairs()
	next := batch
	if !p.s.knocked {
		next += (c.Particles - 1) * 2 * c.pairs()
	}
	return optimize.Forecast{Steps: left, NextGames: next, Games: next + (left-1)*batch}
}

// limit applies the velocity limit of gene d.
func (p *PSO) limit(d int, v float64) float64 { return limitVelocity(p.cfg.VMax, d, v) }

// limitVelocity limits v, a velocity component of gene d, to
// [−vmax[d], vmax[d]]; a nil vmax is no limit.
func limitVelocity(vmax []float64, d int, v float64) float64 {
	if vmax == nil {
		return v
	}
	return min(max(v, -vmax[d]), vmax[d])
}

// move is eq. 5-2 for one particle, x ← x + v in place, then the bound
// mode: clamp clamps each gene to b and zeroes that velocity component,
// reflect folds it back (optimize.Bounds.Reflect, dir its scratch of
// Genes directions) and negates that component, off leaves both alone.
func move(mode optimize.BoundMode, b *optimize.Bounds, x, v []float64, dir []int) {
	for d := range x {
		x[d] += v[d]
	}
	switch mode {
	case optimize.BoundsClamp:
		before := slices.Clone(x)
		b.Clamp(x)
		for d := range x {
			if x[d] != before[d] {
				v[d] = 0
			}
		}
	case optimize.BoundsReflect:
		b.Reflect(x, dir)
		for d := range x {
			if dir[d] != 0 {
				v[d] = -v[d]
			}
		}
	}
}

// Step runs one iteration (Chen 2010 §5.3 steps ④–⑦; iteration 0 also runs
// the knockout of step ③): see the package doc for the order. It returns a
// record whose Step is the iteration's index (from 0), Best the global best
// after it, Metrics "w", "k", "mean_dist", "max_dist" (eq. 5-3..5-6),
// "personal_bests" (personal bests replaced), "global_bests" (global-best
// challenges won), "games_saved" (games the referee's early stop spared:
// every match is WinnerOnly, it only asks who wins), "diversity" and "gene_std" (of the positions that
// played, optimize.PopulationDiversity), and Detail an Iteration. On any
// error (a Referee error, ctx cancelled, a Referee returning the wrong
// number of outcomes, a position that is no longer finite) the swarm, RNG
// included, is left exactly as before the call, so the Step may be
// retried. After the budget is spent it returns optimize.ErrDone.
func (p *PSO) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if err := optimize.Begin(ctx, p); err != nil {
		return optimize.Record{}, err
	}
	saved := *p.pcg
	s := p.s.clone()
	step := s.iter
	it, games, err := p.step(ctx, ref, &s)
	if err != nil {
		*p.pcg = saved
		return optimize.Record{}, err
	}
	p.s = s
	return it.record(step, games), nil
}

// play makes one Play call, records its seed in it and adds its games to
// *games.
func (p *PSO) play(ctx context.Context, ref optimize.Referee, it *Iteration, games *int, seed uint64, ms []optimize.Match, what string, iter int) ([]optimize.Outcome, error) {
	out, err := optimize.Play(ctx, ref, seed, ms)
	if err != nil {
		return nil, fmt.Errorf("pso: iteration %d: %s: %w", iter, what, err)
	}
	it.Seeds = append(it.Seeds, seed)
	*games += optimize.CountGames(out)
	it.GamesSaved += 2*p.cfg.Pairs*len(ms) - optimize.CountGames(out)
	return out, nil
}

func record(kind MatchKind, particle, incumbent int, seed uint64, m optimize.Match, o optimize.Outcome) MatchRecord {
	return MatchRecord{
		Kind: kind, Particle: particle, Incumbent: incumbent, Seed: seed,
		A: m.A, B: m.B, Outcome: o, ChallengerWon: o.AWins(),
	}
}

// step does the work of Step on the working copy s; it returns the
// iteration's record and the games it played.
func (p *PSO) step(ctx context.Context, ref optimize.Referee, s *swarm) (Iteration, int, error) {
	c := p.cfg
	iter := s.iter
	it := Iteration{Seeds: []uint64{}, Matches: []MatchRecord{}}
	games := 0

	// Step ③, once: g by knockout, the survivor (B) keeps its place on a tie.
	if !s.knocked {
		surv := 0
		for j := 1; j < c.Particles; j++ {
			seed := p.rng.Uint64()
			m := optimize.Match{A: slices.Clone(s.x[j]), B: slices.Clone(s.x[surv]), WinnerOnly: true}
			out, err := p.play(ctx, ref, &it, &games, seed, []optimize.Match{m}, fmt.Sprintf("knockout match %d (particle %d against %d)", j, j, surv), iter)
			if err != nil {
				return it, 0, err
			}
			it.Knockout = append(it.Knockout, record(KnockoutMatch, j, surv, seed, m, out[0]))
			if out[0].AWins() {
				surv = j
			}
		}
		s.g, s.gi, s.knocked = slices.Clone(s.x[surv]), surv, true
	}

	// Step ④: move (eq. 5-2), then the bound mode.
	var dir []int
	if c.BoundMode == optimize.BoundsReflect {
		dir = make([]int, len(c.Genes))
	}
	for i, x := range s.x {
		move(c.BoundMode, c.Bounds, x, s.v[i], dir)
		for d := range x {
			if !finite(x[d]) {
				return it, 0, fmt.Errorf("pso: iteration %d: particle %d gene %d: position %g is not finite (the swarm diverged; set Bounds or VMax)", iter, i, d, x[d])
			}
		}
	}

	// Step ⑤a: every new position against its personal best, one batch.
	seed := p.rng.Uint64()
	ms := make([]optimize.Match, c.Particles)
	for i := range ms {
		ms[i] = optimize.Match{A: slices.Clone(s.x[i]), B: slices.Clone(s.p[i]), WinnerOnly: true}
	}
	out, err := p.play(ctx, ref, &it, &games, seed, ms, "personal-best batch", iter)
	if err != nil {
		return it, 0, err
	}
	var winners []int
	for i, o := range out {
		it.Matches = append(it.Matches, record(PersonalMatch, i, i, seed, ms[i], o))
		if o.AWins() {
			s.p[i] = slices.Clone(s.x[i])
			winners = append(winners, i)
		}
	}

	// Step ⑤b: the winners challenge g in particle order, g updated at once.
	changed := false
	for _, i := range winners {
		seed := p.rng.Uint64()
		m := optimize.Match{A: slices.Clone(s.x[i]), B: slices.Clone(s.g), WinnerOnly: true}
		out, err := p.play(ctx, ref, &it, &games, seed, []optimize.Match{m}, fmt.Sprintf("global-best challenge of particle %d", i), iter)
		if err != nil {
			return it, 0, err
		}
		it.Matches = append(it.Matches, record(GlobalMatch, i, s.gi, seed, m, out[0]))
		if out[0].AWins() {
			s.g, s.gi, changed = slices.Clone(s.x[i]), i, true
		}
	}

	// Steps ⑥, ⑦: inertia weight from the focus distances, then eq. 5-1.
	s.mean, s.mx, s.k = FocusDistances(s.g, s.p)
	s.r = p.rng.Float64()
	s.w = InertiaWeight(s.k, s.r, c.Alpha1, c.Alpha2)
	for i, x := range s.x {
		v, pb := s.v[i], s.p[i]
		for d := range v {
			r1, r2 := p.rng.Float64(), p.rng.Float64()
			v[d] = p.limit(d, s.w*v[d]+c.C1*r1*(pb[d]-x[d])+c.C2*r2*(s.g[d]-x[d]))
		}
	}

	s.iter++
	s.games += games
	it.Positions, it.Velocities, it.PersonalBests = optimize.Clone(s.x), optimize.Clone(s.v), optimize.Clone(s.p)
	it.GlobalBest, it.GlobalBestParticle, it.GlobalBestChanged = slices.Clone(s.g), s.gi, changed
	it.W, it.K, it.R, it.MeanDist, it.MaxDist = s.w, s.k, s.r, s.mean, s.mx
	return it, games, nil
}
