package ga

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// GA is one run of the adaptive GA; it implements optimize.Method, one Step
// a generation. It is not safe for concurrent use; the referee may play a
// batch's matches concurrently.
type GA struct {
	cfg   config
	pcg   *rand.PCG
	pop   [][]float64
	next  int
	best  *Best
	games int
}

var _ optimize.Method = (*GA)(nil)

// State is a GA's checkpoint, JSON serialisable. Restore(cfg, st) with the
// same settings and problem continues exactly as the run it came from would have.
type State struct {
	// Next is the index of the next generation to evaluate: the number of
	// generations evaluated.
	Next int `json:"next"`
	// Population is that generation's population: Population vectors of
	// Genes genes (the previous champions first, then their children).
	Population [][]float64 `json:"population"`
	// RNG is the state of the GA's *rand.PCG (PCG.MarshalBinary).
	RNG []byte `json:"rng"`
	// Best is the best individual of the last evaluated generation (nil
	// before the first); it is the run's answer.
	Best *Best `json:"best,omitempty"`
	// Games is the number of games played so far.
	Games int `json:"games"`
}

// New starts a run of s on p. It draws the initial
// population with optimize.UniformPopulation from rand.New(rng), so a GA and
// a PSO seeded alike start from the same population (Chen 2010 Table 5.1);
// the population is then clamped to the problem's Bounds if set. The GA keeps rng and
// draws every later random number from it: rng belongs to the GA from then
// on, and the caller must not use it afterwards. It returns
// Settings.Validate's error, or an error for a nil rng.
func New(s Settings, p optimize.Problem, rng *rand.PCG) (*GA, error) {
	return optimize.Build("ga", s.checked, start, p, rng)
}

// start is New of settings resolved and validated, rng not nil.
func start(c config, rng *rand.PCG) (*GA, error) {
	c = c.clone()
	var pop [][]float64
	if c.Initial != nil {
		pop = optimize.Clone(c.Initial)
	} else {
		pop = optimize.UniformPopulation(rand.New(rng), c.Population, c.InitLo, c.InitHi)
	}
	for _, x := range pop {
		c.Bounds.Clamp(x)
	}
	return &GA{cfg: c, pcg: rng, pop: pop}, nil
}

// Restore resumes a run from a State taken with the same settings and
// problem (a larger Generations extends the run). It checks the State's
// shapes against them
// (Population individuals of Genes finite genes, Best with Genes finite
// genes and an Index in the population), the RNG, that Next lies in
// [0, Generations] and Games is not negative, and that Best is set exactly
// when a generation has been evaluated; the population is not checked
// against Bounds (a State is trusted to come from the same run). Errors
// name the State field, e.g. "ga: State.Population[3]: …", or are
// Settings.Validate's.
func Restore(s Settings, p optimize.Problem, st State) (*GA, error) {
	return optimize.Resume(s.checked, restore, p, st)
}

// restore is Restore of settings resolved and validated.
func restore(c config, st State) (*GA, error) {
	c = c.clone()
	if st.Next < 0 || st.Next > c.Generations {
		return nil, fmt.Errorf("ga: State.Next: %d generations evaluated, want 0..generations = %d", st.Next, c.Generations)
	}
	if err := optimize.CheckPopulation("ga: State.Population", st.Population, c.Population, len(c.Genes)); err != nil {
		return nil, err
	}
	pcg := &rand.PCG{}
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf("ga: State.RNG: %w", err)
	}
	if st.Games < 0 {
		return nil, fmt.Errorf("ga: State.Games: must be 0 or more, not %d", st.Games)
	}
	switch {
	case st.Best == nil && st.Next > 0:
		return nil, fmt.Errorf("ga: State.Best: missing after %d generations", st.Next)
	case st.Best != nil && st.Next == 0:
		return nil, errors.New("ga: State.Best: set before any generation was evaluated")
	case st.Best != nil:
		if err := optimize.CheckVector("ga: State.Best.Genes", st.Best.Genes, len(c.Genes)); err != nil {
			return nil, err
		}
		if st.Best.Index < 0 || st.Best.Index >= c.Population {
			return nil, fmt.Errorf("ga: State.Best.Index: %d is not an individual of 0..%d", st.Best.Index, c.Population-1)
		}
		if !finite(st.Best.Fitness) {
			return nil, fmt.Errorf("ga: State.Best.Fitness: %g, want a finite number", st.Best.Fitness)
		}
	}
	return &GA{cfg: c, pcg: pcg, pop: optimize.Clone(st.Population), next: st.Next, best: cloneBest(st.Best), games: st.Games}, nil
}

// State returns a deep copy of the GA's checkpoint.
func (g *GA) State() State {
	rng, err := g.pcg.MarshalBinary()
	if err != nil {
		panic("ga: PCG.MarshalBinary: " + err.Error()) // never fails (math/rand/v2)
	}
	return State{
		Next:       g.next,
		Population: optimize.Clone(g.pop),
		RNG:        rng,
		Best:       cloneBest(g.best),
		Games:      g.games,
	}
}

// MarshalState returns State as JSON (optimize.Method); Spec.Restore reads
// it back.
func (g *GA) MarshalState() ([]byte, error) { return json.Marshal(g.State()) }

// Done reports whether Generations generations have been evaluated. (A
// stall rule is the driver's: optimize.Settings.Stall.)
func (g *GA) Done() bool { return g.next >= g.cfg.Generations }

// Steps is the number of generations evaluated.
func (g *GA) Steps() int { return g.next }

// Best returns a copy of the genes of the last evaluated generation's best
// individual (Generation.Best), nil before the first Step.
func (g *GA) Best() []float64 {
	if g.best == nil {
		return nil
	}
	return slices.Clone(g.best.Genes)
}

// Forecast is the work left (optimize.Method): the generations left of the
// budget, and GenerationGames for the next and for each of them. Every
// generation plays the same matches, so with a referee that plays 2·Pairs
// games a match the figures are exact.
func (g *GA) Forecast() optimize.Forecast {
	left := max(g.cfg.Generations-g.next, 0)
	f := optimize.Forecast{Steps: left, Games: left * g.cfg.GenerationGames()}
	if left > 0 {
		f.NextGames = g.cfg.GenerationGames()
	}
	return f
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
// It returns a record whose Step is the generation's index (from 0), Best
// the best champion's genes (Generation.Best), Metrics "fitness" (the best
// champion's fitness), "fitness_mean" and "fitness_min" (over the
// population's Individual.Fitness), "diversity" and "gene_std" (of
// the population that played, optimize.PopulationDiversity), "pc_mean" and
// "pm_mean" (the mean rates used while breeding), and Detail a Generation.
// It returns optimize.ErrDone once Done, and a wrapped error if the referee
// fails (e.g. ctx cancelled) or answers the wrong number of outcomes; the
// GA's state, its random source included, is then unchanged and the
// generation can be replayed.
func (g *GA) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if err := optimize.Begin(ctx, g); err == optimize.ErrDone {
		return optimize.Record{}, err
	} else if err != nil {
		return optimize.Record{}, fmt.Errorf("ga: generation %d: %w", g.next, err)
	}
	c := g.cfg
	form := c.form()
	m, n, k := c.Population, c.Groups, c.GroupSize()
	pcg := optimize.ClonePCG(g.pcg) // committed only on success
	rng := rand.New(pcg)

	// Every individual's genes, shared by its matches; a copy, so a
	// referee cannot touch the population.
	genes := optimize.Clone(g.pop)

	perm := rng.Perm(m)
	groups := make([][]int, n)
	for j := range groups {
		groups[j] = perm[j*k : (j+1)*k]
	}
	seeds := []uint64{rng.Uint64()}
	out, err := optimize.Play(ctx, ref, seeds[0], groupMatches(genes, groups))
	if err != nil {
		return optimize.Record{}, fmt.Errorf("ga: generation %d: group round robins: %w", g.next, err)
	}
	games := optimize.CountGames(out)
	st, err := GroupStage(form, groups, out)
	if err != nil {
		return optimize.Record{}, fmt.Errorf("ga: generation %d: %w", g.next, err)
	}
	if form == FitnessImproved {
		var eliteOut []optimize.Outcome
		if n >= 2 {
			seeds = append(seeds, rng.Uint64())
			eliteOut, err = optimize.Play(ctx, ref, seeds[1], groupMatches(genes, [][]int{st.Champions}))
			if err != nil {
				return optimize.Record{}, fmt.Errorf("ga: generation %d: elite round robin: %w", g.next, err)
			}
			games += optimize.CountGames(eliteOut)
		}
		if err := st.EliteStage(eliteOut); err != nil {
			return optimize.Record{}, fmt.Errorf("ga: generation %d: %w", g.next, err)
		}
	}

	gen := Generation{Form: form, Seeds: seeds}
	next := g.breed(rng, st, &gen)

	gen.Individuals = make([]Individual, m)
	for i := range gen.Individuals {
		gen.Individuals[i] = Individual{
			Genes:        slices.Clone(g.pop[i]),
			Group:        st.Group[i],
			GroupFitness: st.GroupFitness[i],
			Fitness:      st.Fitness[i],
		}
	}
	bestJ := 0
	for j, i := range st.Champions {
		gen.Individuals[i].Champion = true
		if st.EliteFitness != nil {
			gen.Individuals[i].EliteFitness = st.EliteFitness[j]
		}
		if st.Fitness[i] > st.Fitness[st.Champions[bestJ]] {
			bestJ = j
		}
	}
	bi := st.Champions[bestJ]
	gen.Best = Best{Index: bi, Genes: slices.Clone(g.pop[bi]), Fitness: st.Fitness[bi]}
	gen.Diversity = optimize.PopulationDiversity(g.pop)
	rec := gen.record(g.next, games)

	// Commit, into the caller's PCG.
	g.best = cloneBest(&gen.Best)
	g.pop = next
	*g.pcg = *pcg
	g.next++
	g.games += games
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

func cloneBest(b *Best) *Best {
	if b == nil {
		return nil
	}
	c := *b
	c.Genes = slices.Clone(b.Genes)
	return &c
}
