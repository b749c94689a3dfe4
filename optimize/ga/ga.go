package ga

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/roadtune/roadtune/optimize"
)

// ErrDone is returned by Step once the run has finished (Generations
// evaluated, or the Stall rule fired).
var ErrDone = errors.New("ga: run is done")

// GA is one run of the adaptive GA. It is not safe for concurrent use; the
// referee may play a batch's matches concurrently.
type GA struct {
	cfg   Config
	pcg   *rand.PCG
	pop   [][]float64
	next  int
	stall int
	best  *Best
	games int
}

// State is a GA's checkpoint, JSON serialisable. Restore(cfg, st) with the
// same Config continues exactly as the run it came from would have.
type State struct {
	// Next is the index of the next generation to evaluate.
	Next int `json:"next"`
	// Population is that generation's population: Population vectors of
	// Genes genes (the previous champions first, then their children).
	Population [][]float64 `json:"population"`
	// RNG is the state of the GA's *rand.PCG (PCG.MarshalBinary).
	RNG []byte `json:"rng"`
	// Stall counts the consecutive generations the best individual's genes
	// have been unchanged.
	Stall int `json:"stall"`
	// Best is the best individual of the last evaluated generation (nil
	// before the first); it is the run's answer.
	Best *Best `json:"best,omitempty"`
	// Games is the number of games played so far.
	Games int `json:"games"`
}

// New starts a run. Unless c.Initial is given, it draws the initial
// population with optimize.UniformPopulation from rand.New(rng), so a GA and
// a PSO seeded alike start from the same population (Chen 2010 Table 5.1);
// the population is then clamped to c.Bounds if set. The GA keeps a copy of
// rng's state after that draw and never touches rng again. It returns
// c.Validate's error, or an error for a nil rng.
func New(c Config, rng *rand.PCG) (*GA, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if rng == nil {
		return nil, errors.New("ga: nil *rand.PCG")
	}
	c = c.clone()
	var pop [][]float64
	if c.Initial != nil {
		pop = clonePop(c.Initial)
	} else {
		pop = optimize.UniformPopulation(rand.New(rng), c.Population, c.InitLo, c.InitHi)
	}
	for _, x := range pop {
		c.Bounds.Clamp(x)
	}
	return &GA{cfg: c, pcg: clonePCG(rng), pop: pop}, nil
}

// Restore resumes a run from a State taken with the same Config (a larger
// Generations extends the run). It returns an error naming the State field
// that does not fit c.
func Restore(c Config, st State) (*GA, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	c = c.clone()
	if st.Next < 0 {
		return nil, fmt.Errorf("ga: State.Next: must be 0 or more, not %d", st.Next)
	}
	if len(st.Population) != c.Population {
		return nil, fmt.Errorf("ga: State.Population: has %d individuals, want Config.Population = %d", len(st.Population), c.Population)
	}
	for i, x := range st.Population {
		if len(x) != c.Genes {
			return nil, fmt.Errorf("ga: State.Population: individual %d has %d genes, want Config.Genes = %d", i, len(x), c.Genes)
		}
		for d, v := range x {
			if !finite(v) {
				return nil, fmt.Errorf("ga: State.Population: individual %d gene %d is %g, want a finite number", i, d, v)
			}
		}
	}
	pcg := &rand.PCG{}
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf("ga: State.RNG: %w", err)
	}
	if st.Stall < 0 {
		return nil, fmt.Errorf("ga: State.Stall: must be 0 or more, not %d", st.Stall)
	}
	if st.Games < 0 {
		return nil, fmt.Errorf("ga: State.Games: must be 0 or more, not %d", st.Games)
	}
	g := &GA{cfg: c, pcg: pcg, pop: clonePop(st.Population), next: st.Next, stall: st.Stall, games: st.Games}
	if st.Best != nil {
		if len(st.Best.Genes) != c.Genes {
			return nil, fmt.Errorf("ga: State.Best.Genes: has %d genes, want Config.Genes = %d", len(st.Best.Genes), c.Genes)
		}
		g.best = cloneBest(st.Best)
	}
	return g, nil
}

// State returns a deep copy of the GA's checkpoint.
func (g *GA) State() State {
	rng, _ := g.pcg.MarshalBinary() // PCG.MarshalBinary never fails
	return State{
		Next:       g.next,
		Population: clonePop(g.pop),
		RNG:        rng,
		Stall:      g.stall,
		Best:       cloneBest(g.best),
		Games:      g.games,
	}
}

// Done reports whether the run has finished: Generations generations
// evaluated, or the best individual's genes unchanged for Stall generations
// (Stall > 0).
func (g *GA) Done() bool {
	return g.next >= g.cfg.Generations || (g.cfg.Stall > 0 && g.stall >= g.cfg.Stall)
}

// Step evaluates one generation and breeds the next (Chen 2010 §4.4):
//
//  1. shuffle the population into Groups groups (a seeded permutation; a
//     group is a run of GroupSize() places of it);
//  2. send every group round robin to ref as one batch, with a fresh seed;
//  3. improved form: send the champions' elite round robin as a second batch
//     with a second fresh seed, and normalise fitness by eq. 4.5;
//  4. carry the champions unchanged (group order), then breed the other
//     Population − Groups children: two parents by roulette wheel (over the
//     whole population on normalised fitness; original form: over the
//     champions on group fitness shifted by 1 − min so the worst champion
//     weighs 1), a crossover with probability Pc (eq. 4.3, f' the larger
//     parent fitness) swapping each gene with probability ½, then per-gene
//     mutation with probability Pm (fixed, or eq. 4.4 with f = the larger
//     parent fitness for a crossed child, its own parent's for an uncrossed
//     copy); f_max and f_avg are those of the breeding pool; a pair gives
//     two children (the last pair only one if the count is odd); Bounds
//     clamp after crossover and after mutation.
//
// It returns ErrDone once Done, and a wrapped error if the referee fails
// (e.g. ctx cancelled) or answers the wrong number of outcomes; the GA's
// state is then unchanged and the generation can be replayed.
func (g *GA) Step(ctx context.Context, ref optimize.Referee) (Generation, error) {
	if g.Done() {
		return Generation{}, ErrDone
	}
	if ref == nil {
		return Generation{}, errNilReferee
	}
	if err := ctx.Err(); err != nil {
		return Generation{}, fmt.Errorf("ga: generation %d: %w", g.next, err)
	}
	start := time.Now()
	c := g.cfg
	form := c.form()
	m, n, k := c.Population, c.Groups, c.GroupSize()
	pcg := clonePCG(g.pcg) // committed only on success
	rng := rand.New(pcg)

	// Every individual's genes, shared by its matches; a copy, so a
	// referee cannot touch the population.
	genes := clonePop(g.pop)

	perm := rng.Perm(m)
	groups := make([][]int, n)
	for j := range groups {
		groups[j] = perm[j*k : (j+1)*k]
	}
	seeds := []uint64{rng.Uint64()}
	out, err := play(ctx, ref, seeds[0], groupMatches(genes, groups))
	if err != nil {
		return Generation{}, fmt.Errorf("ga: generation %d: group round robins: %w", g.next, err)
	}
	games := countGames(out)
	st, err := GroupStage(form, groups, out)
	if err != nil {
		return Generation{}, fmt.Errorf("ga: generation %d: %w", g.next, err)
	}
	if form == FitnessImproved {
		var eliteOut []optimize.Outcome
		if n >= 2 {
			seeds = append(seeds, rng.Uint64())
			eliteOut, err = play(ctx, ref, seeds[1], groupMatches(genes, [][]int{st.Champions}))
			if err != nil {
				return Generation{}, fmt.Errorf("ga: generation %d: elite round robin: %w", g.next, err)
			}
			games += countGames(eliteOut)
		}
		if err := st.EliteStage(eliteOut); err != nil {
			return Generation{}, fmt.Errorf("ga: generation %d: %w", g.next, err)
		}
	}

	rec := Generation{Index: g.next, Form: form, Games: games, Seeds: seeds}
	next := g.breed(rng, st, &rec)

	rec.Individuals = make([]Individual, m)
	for i := range rec.Individuals {
		rec.Individuals[i] = Individual{
			Genes:        slices.Clone(g.pop[i]),
			Group:        st.Group[i],
			GroupFitness: st.GroupFitness[i],
			Fitness:      st.Fitness[i],
		}
	}
	bestJ := 0
	for j, i := range st.Champions {
		rec.Individuals[i].Champion = true
		if st.EliteFitness != nil {
			rec.Individuals[i].EliteFitness = st.EliteFitness[j]
		}
		if st.Fitness[i] > st.Fitness[st.Champions[bestJ]] {
			bestJ = j
		}
	}
	bi := st.Champions[bestJ]
	rec.Best = Best{Index: bi, Genes: slices.Clone(g.pop[bi]), Fitness: st.Fitness[bi]}
	rec.Diversity = PopulationDiversity(g.pop)

	// Commit.
	if g.best != nil && slices.Equal(g.best.Genes, rec.Best.Genes) {
		g.stall++
	} else {
		g.stall = 0
	}
	g.best = cloneBest(&rec.Best)
	g.pop = next
	g.pcg = pcg
	g.next++
	g.games += games
	rec.Seconds = time.Since(start).Seconds()
	return rec, nil
}

// breed builds the next population from the standings (see Step) and
// records the rates used in rec.
func (g *GA) breed(rng *rand.Rand, st *Standings, rec *Generation) [][]float64 {
	c := g.cfg
	m := c.Population
	next := make([][]float64, 0, m)
	for _, i := range st.Champions {
		next = append(next, slices.Clone(g.pop[i]))
	}

	var pool []int
	var fit, weight []float64
	if c.form() == FitnessImproved {
		pool = make([]int, m)
		for i := range pool {
			pool[i] = i
		}
		fit = st.Fitness
		weight = fit
	} else {
		pool = st.Champions
		fit = make([]float64, len(pool))
		for j, i := range pool {
			fit[j] = st.Fitness[i]
		}
		lo := slices.Min(fit)
		weight = make([]float64, len(fit))
		for j, f := range fit {
			weight[j] = f - lo + 1
		}
	}
	fMax, fAvg := slices.Max(fit), 0.0
	for _, f := range fit {
		fAvg += f
	}
	fAvg /= float64(len(fit))
	pmFor := func(f float64) float64 {
		if c.pmMode() == PmAdaptive {
			return AdaptiveRate(c.Pm1, c.Pm2, f, fAvg, fMax)
		}
		return c.Pm
	}

	w := newWheel(weight)
	for len(next) < m {
		a, b := w.spin(rng), w.spin(rng)
		c1, c2 := slices.Clone(g.pop[pool[a]]), slices.Clone(g.pop[pool[b]])
		f1, f2 := fit[a], fit[b]
		fp := max(f1, f2)
		pc := AdaptiveRate(c.Pc1, c.Pc2, fp, fAvg, fMax)
		rec.Pc.add(pc)
		if rng.Float64() < pc {
			crossover(rng, c1, c2)
			c.Bounds.Clamp(c1)
			c.Bounds.Clamp(c2)
			f1, f2 = fp, fp
			rec.Crossovers++
		}
		for _, ch := range []struct {
			x []float64
			f float64
		}{{c1, f1}, {c2, f2}} {
			if len(next) == m {
				break
			}
			pm := pmFor(ch.f)
			rec.Pm.add(pm)
			rec.Mutations += mutate(rng, ch.x, pm, c.Bounds)
			next = append(next, ch.x)
		}
	}
	return next
}

// Run steps until Done, calling after (if not nil) with each generation's
// record and the State after it, e.g. to write a checkpoint; an error from
// after stops the run and is returned. Run returns nil when Done, or the
// first error of Step or after.
func (g *GA) Run(ctx context.Context, ref optimize.Referee, after func(Generation, State) error) error {
	for !g.Done() {
		rec, err := g.Step(ctx, ref)
		if err != nil {
			return err
		}
		if after != nil {
			if err := after(rec, g.State()); err != nil {
				return err
			}
		}
	}
	return nil
}

// groupMatches lists the round robins of the groups as one batch: group 0's
// matches in RoundRobin order, then group 1's, and so on, as GroupStage
// expects them. genes[i] is individual i's weight vector.
func groupMatches(genes [][]float64, groups [][]int) []optimize.Match {
	var ms []optimize.Match
	for _, g := range groups {
		for _, p := range RoundRobin(len(g)) {
			ms = append(ms, optimize.Match{A: genes[g[p[0]]], B: genes[g[p[1]]]})
		}
	}
	return ms
}

func play(ctx context.Context, ref optimize.Referee, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	out, err := ref.Play(ctx, seed, matches)
	if err != nil {
		return nil, err
	}
	if len(out) != len(matches) {
		return nil, fmt.Errorf("referee answered %d outcomes for %d matches", len(out), len(matches))
	}
	return out, nil
}

func countGames(out []optimize.Outcome) int {
	s := 0
	for _, o := range out {
		s += o.Games()
	}
	return s
}

func clonePCG(p *rand.PCG) *rand.PCG {
	b, _ := p.MarshalBinary() // never fails
	q := &rand.PCG{}
	if err := q.UnmarshalBinary(b); err != nil {
		panic("ga: PCG state round trip: " + err.Error())
	}
	return q
}

func cloneBest(b *Best) *Best {
	if b == nil {
		return nil
	}
	c := *b
	c.Genes = slices.Clone(b.Genes)
	return &c
}
