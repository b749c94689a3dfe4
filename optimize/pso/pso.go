package pso

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/roadtune/roadtune/optimize"
)

// ErrDone is returned by Step once the run is over (see PSO.Done).
var ErrDone = errors.New("pso: the run is over (iteration budget or stall reached)")

// PSO is a focus-distance particle swarm (Chen 2010 §5) in progress. It is
// not safe for concurrent use; the Referee may play a batch concurrently.
type PSO struct {
	cfg Config
	pcg *rand.PCG
	rng *rand.Rand
	s   swarm
}

// swarm is the mutable part of State, minus the RNG.
type swarm struct {
	iter     int
	knocked  bool
	x, v, p  [][]float64
	g        []float64
	gi       int
	w, k, r  float64
	mean, mx float64
	same     int
	games    int
}

func clone(x []float64) []float64 { return append([]float64(nil), x...) }

func clone2(x [][]float64) [][]float64 {
	if x == nil {
		return nil
	}
	y := make([][]float64, len(x))
	for i := range x {
		y[i] = clone(x[i])
	}
	return y
}

func (s swarm) clone() swarm {
	s.x, s.v, s.p = clone2(s.x), clone2(s.v), clone2(s.p)
	s.g = clone(s.g)
	return s
}

// New starts a swarm: positions from optimize.UniformPopulation(rand.New(rng),
// Particles, InitLo, InitHi) unless c.Initial is set (so a GA seeded alike
// starts from the same population, Chen 2010 §5.4.1), then velocities uniform
// in [VelLo, VelHi] (limited by VMax), and p_i = x_i. g is chosen by the
// knockout of the first Step. The swarm keeps rng and draws every random
// number from it. Errors: an invalid Config (see Validate) or a nil rng.
func New(c Config, rng *rand.PCG) (*PSO, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, errors.New("pso: New: nil *rand.PCG")
	}
	p := &PSO{cfg: c, pcg: rng, rng: rand.New(rng)}
	if c.Initial != nil {
		p.s.x = clone2(c.Initial)
	} else {
		p.s.x = optimize.UniformPopulation(p.rng, c.Particles, c.InitLo, c.InitHi)
	}
	p.s.v = make([][]float64, c.Particles)
	for i := range p.s.v {
		v := make([]float64, c.Genes)
		for d := range v {
			v[d] = p.limit(d, c.VelLo+p.rng.Float64()*(c.VelHi-c.VelLo))
		}
		p.s.v[i] = v
	}
	p.s.p = clone2(p.s.x)
	p.s.gi = -1
	return p, nil
}

// Restore continues a run from st (from State, possibly through JSON) under
// c, which should be the Config of the run (Iterations and Stall may be
// raised to extend it). Shapes and finiteness are checked, not the bounds:
// a state is trusted to come from the same run. Errors name the State field whose shape or values do
// not fit c, or an invalid Config.
func Restore(c Config, st State) (*PSO, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("pso: Restore: state field %s: %s", field, fmt.Sprintf(format, args...))
	}
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, bad("RNG", "%v", err)
	}
	for _, f := range []struct {
		name string
		m    [][]float64
	}{{"Positions", st.Positions}, {"Velocities", st.Velocities}, {"PersonalBests", st.PersonalBests}} {
		if len(f.m) != c.Particles {
			return nil, bad(f.name, "has %d particles, want %d", len(f.m), c.Particles)
		}
		for i, x := range f.m {
			if len(x) != c.Genes {
				return nil, bad(fmt.Sprintf("%s[%d]", f.name, i), "has %d genes, want %d", len(x), c.Genes)
			}
			for d, v := range x {
				if !finite(v) {
					return nil, bad(fmt.Sprintf("%s[%d][%d]", f.name, i, d), "must be finite, have %g", v)
				}
			}
		}
	}
	if st.KnockoutDone {
		if len(st.GlobalBest) != c.Genes {
			return nil, bad("GlobalBest", "has %d genes, want %d", len(st.GlobalBest), c.Genes)
		}
		for d, v := range st.GlobalBest {
			if !finite(v) {
				return nil, bad(fmt.Sprintf("GlobalBest[%d]", d), "must be finite, have %g", v)
			}
		}
		if st.GlobalBestParticle < 0 || st.GlobalBestParticle >= c.Particles {
			return nil, bad("GlobalBestParticle", "%d is not a particle index in [0, %d)", st.GlobalBestParticle, c.Particles)
		}
	} else if len(st.GlobalBest) != 0 || st.Iteration != 0 {
		return nil, bad("KnockoutDone", "false, but the state has a global best or %d iterations", st.Iteration)
	}
	if st.Iteration < 0 || st.Unchanged < 0 || st.Games < 0 {
		return nil, bad("Iteration", "iteration %d, unchanged %d and games %d must be ≥ 0", st.Iteration, st.Unchanged, st.Games)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"W", st.W}, {"K", st.K}, {"R", st.R}, {"MeanDist", st.MeanDist}, {"MaxDist", st.MaxDist}} {
		if !finite(f.v) {
			return nil, bad(f.name, "must be finite, have %g", f.v)
		}
	}
	gi := st.GlobalBestParticle
	if !st.KnockoutDone {
		gi = -1
	}
	p := &PSO{cfg: c, pcg: pcg, rng: rand.New(pcg), s: swarm{
		iter: st.Iteration, knocked: st.KnockoutDone,
		x: clone2(st.Positions), v: clone2(st.Velocities), p: clone2(st.PersonalBests),
		g: clone(st.GlobalBest), gi: gi,
		w: st.W, k: st.K, r: st.R, mean: st.MeanDist, mx: st.MaxDist,
		same: st.Unchanged, games: st.Games,
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
		Positions: clone2(s.x), Velocities: clone2(s.v), PersonalBests: clone2(s.p),
		GlobalBest: clone(s.g), GlobalBestParticle: s.gi,
		W: s.w, K: s.k, R: s.r, MeanDist: s.mean, MaxDist: s.mx,
		Unchanged: s.same, Games: s.games,
	}
}

// GlobalBest returns a copy of g (nil before the first Step).
func (p *PSO) GlobalBest() []float64 {
	if !p.s.knocked {
		return nil
	}
	return clone(p.s.g)
}

// Done reports whether the run is over: Iterations Steps done, or (Stall > 0)
// the last Stall Steps left the global best unchanged.
func (p *PSO) Done() bool {
	return p.s.iter >= p.cfg.Iterations || (p.cfg.Stall > 0 && p.s.same >= p.cfg.Stall)
}

// limit applies the velocity limit of gene d.
func (p *PSO) limit(d int, v float64) float64 {
	if p.cfg.VMax == nil {
		return v
	}
	return min(max(v, -p.cfg.VMax[d]), p.cfg.VMax[d])
}

// Step runs one iteration (Chen 2010 §5.3 steps ④–⑦; the first Step also
// runs the knockout of step ③): see the package doc for the order. It returns
// the Iteration record. On any error (a Referee error, ctx cancelled, a
// Referee returning the wrong number of outcomes, a position that is no
// longer finite) the swarm, RNG included, is left exactly as before the
// call, so the Step may be retried. After the run is over it returns ErrDone.
func (p *PSO) Step(ctx context.Context, ref optimize.Referee) (Iteration, error) {
	if p.Done() {
		return Iteration{}, ErrDone
	}
	if err := ctx.Err(); err != nil {
		return Iteration{}, err
	}
	start := time.Now()
	saved := *p.pcg
	s := p.s.clone()
	it, err := p.step(ctx, ref, &s)
	if err != nil {
		*p.pcg = saved
		return Iteration{}, err
	}
	p.s = s
	it.WallSeconds = time.Since(start).Seconds()
	return it, nil
}

// play makes one Play call and checks its answer.
func (p *PSO) play(ctx context.Context, ref optimize.Referee, it *Iteration, seed uint64, ms []optimize.Match, what string) ([]optimize.Outcome, error) {
	out, err := ref.Play(ctx, seed, ms)
	if err != nil {
		return nil, fmt.Errorf("pso: iteration %d: %s: %w", it.Index, what, err)
	}
	if len(out) != len(ms) {
		return nil, fmt.Errorf("pso: iteration %d: %s: referee returned %d outcomes for %d matches", it.Index, what, len(out), len(ms))
	}
	it.Seeds = append(it.Seeds, seed)
	for _, o := range out {
		it.Games += o.Games()
	}
	return out, nil
}

func record(kind MatchKind, particle, incumbent int, seed uint64, m optimize.Match, o optimize.Outcome) MatchRecord {
	return MatchRecord{
		Kind: kind, Particle: particle, Incumbent: incumbent, Seed: seed,
		A: m.A, B: m.B, Wins: o.Wins, Draws: o.Draws, Losses: o.Losses,
		ChallengerWon: o.AWins(),
	}
}

// step does the work of Step on the working copy s.
func (p *PSO) step(ctx context.Context, ref optimize.Referee, s *swarm) (Iteration, error) {
	c := p.cfg
	it := Iteration{Index: s.iter + 1, Seeds: []uint64{}, Matches: []MatchRecord{}}

	// Step ③, once: g by knockout, the survivor (B) keeps its place on a tie.
	if !s.knocked {
		surv := 0
		for j := 1; j < c.Particles; j++ {
			seed := p.rng.Uint64()
			m := optimize.Match{A: clone(s.x[j]), B: clone(s.x[surv])}
			out, err := p.play(ctx, ref, &it, seed, []optimize.Match{m}, fmt.Sprintf("knockout match %d (particle %d against %d)", j, j, surv))
			if err != nil {
				return it, err
			}
			it.Knockout = append(it.Knockout, record(KnockoutMatch, j, surv, seed, m, out[0]))
			if out[0].AWins() {
				surv = j
			}
		}
		s.g, s.gi, s.knocked = clone(s.x[surv]), surv, true
	}

	// Step ④: move (eq. 5-2), then the bound mode.
	var dir []int
	if c.BoundMode == BoundsReflect {
		dir = make([]int, c.Genes)
	}
	for i, x := range s.x {
		v := s.v[i]
		for d := range x {
			x[d] += v[d]
		}
		switch c.BoundMode {
		case BoundsClamp:
			before := clone(x)
			c.Bounds.Clamp(x)
			for d := range x {
				if x[d] != before[d] {
					v[d] = 0
				}
			}
		case BoundsReflect:
			c.Bounds.Reflect(x, dir)
			for d := range x {
				if dir[d] != 0 {
					v[d] = -v[d]
				}
			}
		}
		for d := range x {
			if !finite(x[d]) {
				return it, fmt.Errorf("pso: iteration %d: particle %d gene %d: position %g is not finite (the swarm diverged; set Bounds or VMax)", it.Index, i, d, x[d])
			}
		}
	}

	// Step ⑤a: every new position against its personal best, one batch.
	seed := p.rng.Uint64()
	ms := make([]optimize.Match, c.Particles)
	for i := range ms {
		ms[i] = optimize.Match{A: clone(s.x[i]), B: clone(s.p[i])}
	}
	out, err := p.play(ctx, ref, &it, seed, ms, "personal-best batch")
	if err != nil {
		return it, err
	}
	var winners []int
	for i, o := range out {
		it.Matches = append(it.Matches, record(PersonalMatch, i, i, seed, ms[i], o))
		if o.AWins() {
			s.p[i] = clone(s.x[i])
			winners = append(winners, i)
		}
	}

	// Step ⑤b: the winners challenge g in particle order, g updated at once.
	changed := false
	for _, i := range winners {
		seed := p.rng.Uint64()
		m := optimize.Match{A: clone(s.x[i]), B: clone(s.g)}
		out, err := p.play(ctx, ref, &it, seed, []optimize.Match{m}, fmt.Sprintf("global-best challenge of particle %d", i))
		if err != nil {
			return it, err
		}
		it.Matches = append(it.Matches, record(GlobalMatch, i, s.gi, seed, m, out[0]))
		if out[0].AWins() {
			s.g, s.gi, changed = clone(s.x[i]), i, true
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
	if changed {
		s.same = 0
	} else {
		s.same++
	}
	s.games += it.Games
	it.Positions, it.Velocities, it.PersonalBests = clone2(s.x), clone2(s.v), clone2(s.p)
	it.GlobalBest, it.GlobalBestParticle, it.GlobalBestChanged = clone(s.g), s.gi, changed
	it.W, it.K, it.R, it.MeanDist, it.MaxDist = s.w, s.k, s.r, s.mean, s.mx
	return it, nil
}

// Run steps until Done, calling after (if not nil) with each Iteration and
// the State after it, e.g. to log and checkpoint. It returns the first error
// of Step or after (after's error is returned as is); nil when the run ends.
func (p *PSO) Run(ctx context.Context, ref optimize.Referee, after func(Iteration, State) error) error {
	for !p.Done() {
		it, err := p.Step(ctx, ref)
		if err != nil {
			return err
		}
		if after != nil {
			if err := after(it, p.State()); err != nil {
				return err
			}
		}
	}
	return nil
}
