package texel

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	rt "github.com/roadtune/roadtune/optimize"
)

// Texel is a Texel tuning run in progress; it implements optimize.Method,
// one Step a round. It is not safe for concurrent use; the sampler may
// play a batch concurrently.
type Texel struct {
	cfg   config
	pcg   *rand.PCG
	round int
	theta []float64
	games int
	// past are the earlier rounds whose training positions the next fit
	// reuses (Settings.Window), oldest first; pastPos their positions, nil
	// after Restore until the next Step samples them again.
	past    []PastRound
	pastPos [][]rt.Position
	// recent are the latest rounds' θ, oldest first, at most
	// Settings.Average; Best is their mean.
	recent [][]float64
}

var _ rt.Method = (*Texel)(nil)

// New starts a run of s on p: θ0 is
// optimize.UniformPopulation(rand.New(rng), 1, InitLo, InitHi)[0], or the
// problem's Start when set (drawn all the same, so the
// later draws do not depend on it), clamped to the bounds unless BoundMode
// is "off".
// The run keeps rng and draws every random number from it: the caller must
// not use it afterwards. Errors: Settings.Validate's or a nil rng.
func New(s Settings, p rt.Problem, rng *rand.PCG) (*Texel, error) {
	return rt.Build("texel: New", s.checked, start, p, rng)
}

// start is New of settings resolved and validated, rng not nil.
func start(c config, rng *rand.PCG) (*Texel, error) {
	c = c.clone()
	theta := rt.UniformPopulation(rand.New(rng), 1, c.InitLo, c.InitHi)[0]
	if c.Start != nil { // drawn all the same, so the source's stream does not depend on it
		theta = slices.Clone(c.Start)
	}
	if c.bounded() {
		c.Bounds.Clamp(theta)
	}
	return &Texel{cfg: c, pcg: rng, theta: theta}, nil
}

// Restore continues a run from st under s and p, the run's (Rounds may be
// raised to extend it). It checks the RNG, that Round lies in
// [0, Rounds], that Theta has Genes finite genes and that Games ≥ 0; errors
// name the State field, or are Settings.Validate's.
func Restore(s Settings, p rt.Problem, st State) (*Texel, error) {
	return rt.Resume(s.checked, restore, p, st)
}

// restore is Restore of settings resolved and validated.
func restore(c config, st State) (*Texel, error) {
	const field = "texel: Restore: state field "
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf(field+"RNG: %w", err)
	}
	if st.Round < 0 || st.Round > c.Rounds {
		return nil, fmt.Errorf(field+"Round: %d rounds done, want 0..rounds = %d", st.Round, c.Rounds)
	}
	if err := rt.CheckVector(field+"Theta", st.Theta, len(c.Genes)); err != nil {
		return nil, err
	}
	if st.Games < 0 {
		return nil, fmt.Errorf(field+"Games: must be ≥ 0, have %d", st.Games)
	}
	for i, pr := range st.Past {
		if len(pr.Seeds) == 0 || len(pr.Matches) == 0 {
			return nil, fmt.Errorf(field+"Past: round %d has %d seeds and %d matches, want at least one of each", i, len(pr.Seeds), len(pr.Matches))
		}
		for j, mt := range pr.Matches {
			if err := rt.CheckVector(fmt.Sprintf(field+"Past: round %d: match %d: A", i, j), mt.A, len(c.Genes)); err != nil {
				return nil, err
			}
			if err := rt.CheckVector(fmt.Sprintf(field+"Past: round %d: match %d: B", i, j), mt.B, len(c.Genes)); err != nil {
				return nil, err
			}
		}
	}
	if len(st.Recent) > max(c.Average, 1) || len(st.Recent) > st.Round {
		return nil, fmt.Errorf(field+"Recent: %d vectors after %d rounds, want at most min(average = %d, rounds)", len(st.Recent), st.Round, max(c.Average, 1))
	}
	if err := rt.CheckPopulation(field+"Recent", st.Recent, len(st.Recent), len(c.Genes)); err != nil {
		return nil, err
	}
	m := &Texel{cfg: c.clone(), pcg: pcg, round: st.Round, theta: slices.Clone(st.Theta), games: st.Games, recent: rt.Clone(st.Recent)}
	if st.Round > 0 && len(m.recent) == 0 { // a state that keeps no history: θ is the best
		m.recent = [][]float64{slices.Clone(st.Theta)}
	}
	for _, pr := range st.Past {
		m.past = append(m.past, pr.clone())
	}
	m.trimPast()
	return m, nil
}

// trimPast keeps the last Window−1 past rounds (all when Window is 0):
// with the round to come they make the window.
func (m *Texel) trimPast() {
	if m.cfg.Window > 0 && len(m.past) > m.cfg.Window-1 {
		cut := len(m.past) - (m.cfg.Window - 1)
		m.past = slices.Clone(m.past[cut:])
		if m.pastPos != nil {
			m.pastPos = slices.Clone(m.pastPos[cut:])
		}
	}
}

// State returns a copy of the run's state, RNG included.
func (m *Texel) State() State {
	b, err := m.pcg.MarshalBinary()
	if err != nil {
		panic("texel: PCG.MarshalBinary: " + err.Error()) // never fails (math/rand/v2)
	}
	st := State{RNG: b, Round: m.round, Theta: slices.Clone(m.theta), Games: m.games, Recent: rt.Clone(m.recent)}
	for _, pr := range m.past {
		st.Past = append(st.Past, pr.clone())
	}
	return st
}

// MarshalState returns State as JSON (optimize.Method); Spec.Restore reads
// it back.
func (m *Texel) MarshalState() ([]byte, error) { return json.Marshal(m.State()) }

// Best returns a copy of θ, nil before the first round.
func (m *Texel) Best() []float64 {
	if m.round == 0 {
		return nil
	}
	return rt.Centroid(m.recent)
}

// Done reports whether Rounds rounds are done.
func (m *Texel) Done() bool { return m.round >= m.cfg.Rounds }

// Steps is the number of rounds done.
func (m *Texel) Steps() int { return m.round }

// Forecast is the work left (optimize.Method): the rounds left, each of at
// least one batch of Opponents matches of 2·Pairs games (a round that
// needs more positions plays up to MaxBatches batches).
func (m *Texel) Forecast() rt.Forecast {
	left := max(m.cfg.Rounds-m.round, 0)
	if left == 0 {
		return rt.Forecast{}
	}
	batch := m.cfg.Opponents * 2 * m.cfg.pairs()
	return rt.Forecast{Steps: left, NextGames: batch, Games: left * batch}
}

// Step plays one round (see the package doc): a batch of matches of θ
// against perturbed copies, more batches while the training positions are
// fewer than MinPositions (at most MaxBatches), the split by game, Fit,
// and θ ← θ + η·(fit − θ). ref must be an optimize.Sampler. The record's
// Best is the new θ, its Detail a Round, its Metrics "positions"
// (training), "holdout_positions", "logloss_before" and "logloss" (the
// held-out log-loss of θ before and after; absent when none is held out),
// "logloss_train" (the fit's training log-loss), "k" (K), "tempo" (b),
// "score" (θ's score fraction; absent without games) and "score_ci" (the
// half-width of its 95% interval, ScoreCI), "games" and "batches"; its
// Unidentified the genes the fit could not see (FitResult.Fitted's
// complement). On any error (ref not a Sampler, a cancelled ctx, a failing
// sampler, a wrong number of outcomes, a bad position, too few positions
// after MaxBatches batches, a failed fit) the run, RNG included, is left
// exactly as before the call. After the budget it returns
// optimize.ErrDone.
func (m *Texel) Step(ctx context.Context, ref rt.Referee) (rt.Record, error) {
	if err := rt.Begin(ctx, m); err != nil {
		return rt.Record{}, err
	}
	smp, ok := ref.(rt.Sampler)
	if !ok {
		return rt.Record{}, fmt.Errorf("texel: the referee %T is not an optimize.Sampler: Texel tuning needs the positions of its games", ref)
	}
	pastPos := m.pastPos
	if len(m.past) > 0 && pastPos == nil {
		// Restored: the window's positions are a function of its rounds'
		// seeds and matches (a run's positions.Store reads them from disk).
		pastPos = make([][]rt.Position, len(m.past))
		for i, pr := range m.past {
			train, _, _, _, err := collect(ctx, smp, pr.Seeds, pr.Matches, m.cfg, pr.Round)
			if err != nil {
				return rt.Record{}, fmt.Errorf("texel: replaying round %d of the window: %w", pr.Round, err)
			}
			pastPos[i] = train
		}
	}
	pcg := rt.ClonePCG(m.pcg)
	r, train, matches, err := m.step(ctx, smp, rand.New(pcg), pastPos)
	if err != nil {
		return rt.Record{}, err
	}
	recent := append(rt.Clone(m.recent), slices.Clone(r.Theta))
	if keep := max(m.cfg.Average, 1); len(recent) > keep {
		recent = recent[len(recent)-keep:]
	}
	r.Best, r.Averaged = rt.Centroid(recent), len(recent)
	*m.pcg = *pcg
	m.round++
	m.recent = recent
	m.theta = slices.Clone(r.Theta)
	m.games += r.Games
	if m.cfg.Window != 1 {
		m.past = append(slices.Clone(m.past), PastRound{Round: r.Round, Seeds: slices.Clone(r.Seeds), Matches: matches})
		m.pastPos = append(slices.Clone(pastPos), train)
		m.trimPast()
	}
	return r.record(), nil
}

// collect samples the given batches of one round (seeds known) and splits
// their positions by game as step does.
func collect(ctx context.Context, smp rt.Sampler, seeds []uint64, matches []rt.Match, c config, round int) (train, held []rt.Position, out []rt.Outcome, games int, err error) {
	offset := 0
	for batch, seed := range seeds {
		var o []rt.Outcome
		var pos []rt.Position
		if o, pos, err = sampleBatch(ctx, smp, seed, matches, c, round, batch); err != nil {
			return nil, nil, nil, 0, err
		}
		out = append(out, o...)
		g := rt.CountGames(o)
		games += g
		train, held, offset = split(train, held, pos, offset, g, c.HoldoutEvery)
	}
	return train, held, out, games, nil
}

// sampleBatch is one Sample call with its answer checked.
func sampleBatch(ctx context.Context, smp rt.Sampler, seed uint64, matches []rt.Match, c config, round, batch int) ([]rt.Outcome, []rt.Position, error) {
	out, pos, err := smp.Sample(ctx, seed, matches)
	if err != nil {
		return nil, nil, fmt.Errorf("texel: round %d: batch %d: %w", round, batch, err)
	}
	if len(out) != len(matches) {
		return nil, nil, fmt.Errorf("texel: round %d: batch %d: the sampler answered %d outcomes for %d matches", round, batch, len(out), len(matches))
	}
	if err := checkPositions(pos, len(c.Genes)); err != nil {
		return nil, nil, fmt.Errorf("round %d: batch %d: %w", round, batch, err)
	}
	return out, pos, nil
}

// split numbers the positions' games on from offset (a batch's games
// follow the previous batch's) and appends them to train or held (every
// game whose index is a multiple of every held out); it returns the next
// offset.
func split(train, held, pos []rt.Position, offset, games, every int) ([]rt.Position, []rt.Position, int) {
	next := offset + games
	for _, p := range pos {
		p.Game += offset
		next = max(next, p.Game+1)
		if p.Game%every == 0 {
			held = append(held, p)
		} else {
			train = append(train, p)
		}
	}
	return train, held, next
}

// step does the work of Step, drawing from rng, without touching m; it
// also returns the round's training positions and matches for the window.
func (m *Texel) step(ctx context.Context, smp rt.Sampler, rng *rand.Rand, pastPos [][]rt.Position) (Round, []rt.Position, []rt.Match, error) {
	c := m.cfg
	theta := slices.Clone(m.theta)
	r := Round{Round: m.round, ThetaBefore: slices.Clone(theta), Seeds: []uint64{}}
	var as [][]float64
	switch {
	case m.round < c.ExploreRounds && c.ExplorePairing == PairingSelf:
		as = Uniform(rng, c.InitLo, c.InitHi, c.Opponents)
		r.Opponents = make([][]float64, len(as))
		for i, a := range as {
			r.Opponents[i] = slices.Clone(a)
		}
	case m.round < c.ExploreRounds && c.ExplorePairing == PairingPerturbed:
		as = Uniform(rng, c.InitLo, c.InitHi, c.Opponents)
		r.Opponents = make([][]float64, len(as))
		for i, a := range as {
			r.Opponents[i] = Opponents(rng, a, 1, c.Sigma)[0]
		}
	case m.round < c.ExploreRounds:
		as = Uniform(rng, c.InitLo, c.InitHi, c.Opponents)
		r.Opponents = Uniform(rng, c.InitLo, c.InitHi, c.Opponents)
	case c.Pairing == PairingSelf:
		as = Opponents(rng, theta, c.Opponents, c.Sigma)
		r.Opponents = make([][]float64, len(as))
		for i, a := range as {
			r.Opponents[i] = slices.Clone(a)
		}
	case c.Pairing == PairingPerturbed:
		as = Opponents(rng, theta, c.Opponents, c.Sigma)
		r.Opponents = Opponents(rng, theta, c.Opponents, c.Sigma)
	default:
		r.Opponents = Opponents(rng, theta, c.Opponents, c.Sigma)
	}
	matches := make([]rt.Match, len(r.Opponents))
	for i, b := range r.Opponents {
		a := theta
		if as != nil {
			a = as[i]
		}
		if c.bounded() {
			c.Bounds.Clamp(a)
			c.Bounds.Clamp(b)
		}
		matches[i] = rt.Match{A: slices.Clone(a), B: slices.Clone(b)}
	}
	if as != nil {
		r.Players = as
	}

	var train, held []rt.Position
	offset := 0
	for len(r.Seeds) < c.MaxBatches {
		seed := rng.Uint64()
		out, pos, err := sampleBatch(ctx, smp, seed, matches, c, r.Round, len(r.Seeds))
		if err != nil {
			return r, nil, nil, err
		}
		r.Seeds = append(r.Seeds, seed)
		r.Outcomes = append(r.Outcomes, out...)
		games := rt.CountGames(out)
		r.Games += games
		train, held, offset = split(train, held, pos, offset, games, c.HoldoutEvery)
		if len(train) >= c.MinPositions {
			break
		}
	}
	r.Batches = len(r.Seeds)
	r.Positions, r.HoldoutPositions = len(train), len(held)
	if len(train) < c.MinPositions {
		return r, nil, nil, fmt.Errorf("texel: round %d: %d training positions after %d batches (%d games), need min_positions = %d: raise max_batches or opponents, or lower min_positions",
			r.Round, len(train), r.Batches, r.Games, c.MinPositions)
	}
	if s := Score(r.Outcomes); !math.IsNaN(s) {
		r.Score = s
	}

	opt := FitOptions{Ridge: c.Ridge}
	if c.bounded() {
		opt.Bounds = c.Bounds
	}
	all := train
	if len(pastPos) > 0 {
		all = nil
		for _, p := range pastPos {
			all = append(all, p...)
			r.WindowPositions += len(p)
		}
		all = append(all, train...)
	}
	fit, err := Fit(all, theta, c.Scale, opt)
	if err != nil {
		return r, nil, nil, fmt.Errorf("round %d: %w", r.Round, err)
	}
	r.Fit = fit
	r.Theta = slices.Clone(fit.Genes)
	r.Rescale = 1
	if c.KeepScale {
		nt, nf := 0.0, 0.0
		for _, d := range fit.Fitted {
			nt += theta[d] * theta[d]
			nf += fit.Genes[d] * fit.Genes[d]
		}
		if nt > 0 && nf > 0 {
			r.Rescale = math.Sqrt(nt / nf)
			for _, d := range fit.Fitted {
				r.Theta[d] *= r.Rescale
				if c.bounded() {
					r.Theta[d] = min(max(r.Theta[d], c.Bounds.Lo[d]), c.Bounds.Hi[d])
				}
			}
		}
	}
	if c.Step != 1 {
		for _, d := range fit.Fitted {
			r.Theta[d] = theta[d] + c.Step*(r.Theta[d]-theta[d])
			if c.bounded() {
				r.Theta[d] = min(max(r.Theta[d], c.Bounds.Lo[d]), c.Bounds.Hi[d])
			}
		}
	}
	if len(held) > 0 {
		r.HoldoutLogLossBefore = LogLoss(held, theta, fit.K, fit.StartTempo)
		r.HoldoutLogLoss = LogLoss(held, r.Theta, fit.K/r.Rescale, fit.Tempo)
	}
	return r, train, matches, nil
}

// Uniform draws n vectors uniform in [lo, hi] from rng, gene by gene.
func Uniform(rng *rand.Rand, lo, hi []float64, n int) [][]float64 {
	v := make([][]float64, n)
	for i := range v {
		x := make([]float64, len(lo))
		for d := range x {
			x[d] = lo[d] + (hi[d]-lo[d])*rng.Float64()
		}
		v[i] = x
	}
	return v
}

// Opponents draws n perturbed copies of theta from rng: gene d of each is
// theta[d]·exp(sigma·N(0,1)), one normal draw per copy and gene in that
// order. The perturbation is multiplicative so that a gene keeps its sign
// and its order of magnitude (weights of roads of different lengths differ
// by orders of magnitude), and a zero gene stays zero.
func Opponents(rng *rand.Rand, theta []float64, n int, sigma float64) [][]float64 {
	opp := make([][]float64, n)
	for i := range opp {
		b := make([]float64, len(theta))
		for d, x := range theta {
			b[d] = x * math.Exp(sigma*rng.NormFloat64())
		}
		opp[i] = b
	}
	return opp
}
