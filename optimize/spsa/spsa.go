package spsa

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// SPSA is a simultaneous perturbation stochastic approximation run
// (Spall 1992, as fishtest runs it) in progress; it implements
// optimize.Method, one Step an iteration. It is not safe for concurrent
// use.
type SPSA struct {
	cfg   config
	pcg   *rand.PCG
	rng   *rand.Rand
	iter  int
	θ0, θ []float64
	games int
}

var _ optimize.Method = (*SPSA)(nil)

// New starts a run of s on p: θ0 is drawn uniformly from the problem's
// initial range (optimize.UniformPopulation with one vector), or is the
// problem's Start when set (drawn all the same, so the later draws do not
// depend on it), and put inside the bounds by the bound mode. The run
// keeps rng and draws every random number from it: rng belongs to the run
// from then on. Errors: Settings.Validate's (an *optimize.OptionError) or
// a nil rng.
func New(s Settings, p optimize.Problem, rng *rand.PCG) (*SPSA, error) {
	return optimize.Build("spsa: New", s.checked, start, p, rng)
}

// start is New of settings resolved and validated, rng not nil.
func start(c config, rng *rand.PCG) (*SPSA, error) {
	c = c.clone()
	s := &SPSA{cfg: c, pcg: rng, rng: rand.New(rng)}
	s.θ0 = optimize.UniformPopulation(s.rng, 1, c.InitLo, c.InitHi)[0]
	if c.Start != nil { // drawn all the same, so the source's stream does not depend on it
		s.θ0 = slices.Clone(c.Start)
	}
	c.enforce(s.θ0)
	s.θ = slices.Clone(s.θ0)
	return s, nil
}

// Restore continues a run from st (from State, possibly through JSON)
// under s and p, which should be the run's. Iterations may be raised to
// extend a run, but the gains c and a follow N = Iterations, so the
// schedule of the remaining iterations changes with it. It checks the RNG,
// that Iteration lies in [0, Iterations], that Games is not negative and
// that Theta0 and Theta have as many finite genes as the problem; not the
// bounds (a state is trusted to come from the same run). Errors name the
// State field ("spsa: Restore: state field Theta: …"), or are
// Settings.Validate's.
func Restore(s Settings, p optimize.Problem, st State) (*SPSA, error) {
	c, err := s.checked(p)
	if err != nil {
		return nil, err
	}
	c = c.clone()
	const field = "spsa: Restore: state field "
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf(field+"RNG: %v", err)
	}
	if st.Iteration < 0 || st.Iteration > c.Iterations {
		return nil, fmt.Errorf(field+"Iteration: %d iterations done, want 0..Iterations = %d", st.Iteration, c.Iterations)
	}
	if st.Games < 0 {
		return nil, fmt.Errorf(field+"Games: must be ≥ 0, have %d", st.Games)
	}
	if err := optimize.CheckVector(field+"Theta0", st.Theta0, len(c.Genes)); err != nil {
		return nil, err
	}
	if err := optimize.CheckVector(field+"Theta", st.Theta, len(c.Genes)); err != nil {
		return nil, err
	}
	return &SPSA{
		cfg: c, pcg: pcg, rng: rand.New(pcg), iter: st.Iteration,
		θ0: slices.Clone(st.Theta0), θ: slices.Clone(st.Theta), games: st.Games,
	}, nil
}

// State returns a deep copy of the run's state, RNG included.
func (s *SPSA) State() State {
	rng, err := s.pcg.MarshalBinary()
	if err != nil {
		panic("spsa: PCG.MarshalBinary: " + err.Error()) // never fails (math/rand/v2)
	}
	return State{RNG: rng, Iteration: s.iter, Theta0: slices.Clone(s.θ0), Theta: slices.Clone(s.θ), Games: s.games}
}

// MarshalState returns State as JSON (optimize.Method); Spec.Restore reads
// it back.
func (s *SPSA) MarshalState() ([]byte, error) { return json.Marshal(s.State()) }

// Best returns a copy of θ after the last Step (nil before the first):
// SPSA's estimate of the optimum is its current iterate.
func (s *SPSA) Best() []float64 {
	if s.iter == 0 {
		return nil
	}
	return slices.Clone(s.θ)
}

// Theta0 returns a copy of the starting vector θ0.
func (s *SPSA) Theta0() []float64 { return slices.Clone(s.θ0) }

// Done reports whether Iterations Steps are done.
func (s *SPSA) Done() bool { return s.iter >= s.cfg.Iterations }

// Steps is the number of iterations done.
func (s *SPSA) Steps() int { return s.iter }

// Forecast is the work left (optimize.Method): one match of 2·Pairs games
// an iteration, exactly.
func (s *SPSA) Forecast() optimize.Forecast {
	left := max(s.cfg.Iterations-s.iter, 0)
	if left == 0 {
		return optimize.Forecast{}
	}
	g := 2 * s.cfg.pairs()
	if len(s.cfg.Opponents) == 0 {
		return optimize.Forecast{Steps: left, NextGames: g, Games: left * g}
	}
	// A pool: the next iteration's entry is known from the source; the
	// rest are counted at the pool's self-play share, the games of the
	// draws' expectation.
	fixed := 0
	for _, o := range s.cfg.Opponents {
		if !o.IsSelf() {
			fixed++
		}
	}
	next := s.cfg.iterationGames(s.peekOpponent())
	rest := (left - 1) * g * (len(s.cfg.Opponents) + fixed) / len(s.cfg.Opponents)
	return optimize.Forecast{Steps: left, NextGames: next, Games: next + rest}
}

// Step runs iteration k = Steps()+1: draws Δ (one ±1 per gene, in gene
// order), the batch seed and, with a pool (Settings.Opponents), its entry
// from the run's source; in self-play it plays one match, A = θ + c_k·Δ
// against B = θ − c_k·Δ (both clamped to the bounds unless the bound mode
// is off), in one Play call, and r = wins − losses of A; against a fixed
// opponent O it plays θ + c_k·Δ against O and θ − c_k·Δ against O, two
// Play calls with the same seed (the same openings), and r is the plus
// side's wins − losses less the minus side's. Then it
// sets θ_d ← θ_d + a_k[d]·r/c_k[d]·Δ_d and applies the bound mode. It
// returns a record whose Step is k − 1, Best θ, Metrics as described at
// Iteration.record ("score", "r", "theta_norm.<gene>", "step_norm",
// "c_k_norm", "a_k_norm") and Detail an Iteration. On any error (a Referee
// error, ctx cancelled, a wrong number of outcomes, a θ no longer finite)
// the run, RNG included, is left exactly as before the call, so the Step
// may be retried. After the budget is spent it returns optimize.ErrDone.
func (s *SPSA) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if err := optimize.Begin(ctx, s); err != nil {
		return optimize.Record{}, err
	}
	saved := *s.pcg
	it, games, err := s.step(ctx, ref)
	if err != nil {
		*s.pcg = saved
		return optimize.Record{}, err
	}
	s.iter++
	s.games += games
	s.θ = slices.Clone(it.Theta)
	return it.record(s.cfg, s.θ0, games), nil
}

// step plays iteration s.iter+1 without changing s but for its source.
func (s *SPSA) step(ctx context.Context, ref optimize.Referee) (Iteration, int, error) {
	c := s.cfg
	k := s.iter + 1
	it := Iteration{K: k, ThetaBefore: slices.Clone(s.θ)}
	var opp Opponent
	it.Delta, it.Seed, opp = c.draw(s.rng)
	it.AK, it.CK = c.Gains(k)
	it.Plus, it.Minus = slices.Clone(s.θ), slices.Clone(s.θ)
	for d, δ := range it.Delta {
		it.Plus[d] += it.CK[d] * float64(δ)
		it.Minus[d] -= it.CK[d] * float64(δ)
	}
	if c.BoundMode.Enforced() {
		c.Bounds.Clamp(it.Plus)
		c.Bounds.Clamp(it.Minus)
	}
	games := 0
	if opp.IsSelf() {
		m := optimize.Match{A: slices.Clone(it.Plus), B: slices.Clone(it.Minus)}
		out, err := optimize.Play(ctx, ref, it.Seed, []optimize.Match{m})
		if err != nil {
			return it, 0, fmt.Errorf("spsa: iteration %d: %w", k, err)
		}
		it.Outcome = out[0]
		it.R = it.Wins - it.Losses
		games = it.Games()
	} else {
		// Plus and minus each play the pool's opponent, over the same
		// openings (two batches of one match with the same seed), so the
		// openings cancel from r.
		it.Opponent = opp.Name
		var res [2]optimize.Outcome
		for i, side := range [][]float64{it.Plus, it.Minus} {
			m := optimize.Match{A: slices.Clone(side), B: slices.Clone(opp.Genes)}
			out, err := optimize.Play(ctx, ref, it.Seed, []optimize.Match{m})
			if err != nil {
				return it, 0, fmt.Errorf("spsa: iteration %d against %s: %w", k, opp.Name, err)
			}
			res[i] = out[0]
			games += out[0].Games()
		}
		it.Outcome, it.MinusOutcome = res[0], res[1]
		it.R = (res[0].Wins - res[0].Losses) - (res[1].Wins - res[1].Losses)
	}
	it.Theta = slices.Clone(s.θ)
	for d, δ := range it.Delta {
		it.Theta[d] += it.AK[d] * float64(it.R) / it.CK[d] * float64(δ)
	}
	c.enforce(it.Theta)
	if err := optimize.CheckVector(fmt.Sprintf("spsa: iteration %d: θ", k), it.Theta, len(c.Genes)); err != nil {
		return it, 0, fmt.Errorf("%w (the run diverged; set bounds or lower r_end)", err)
	}
	return it, games, nil
}
