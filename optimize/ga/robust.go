package ga

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

// The GA's variants (Settings.Variant).
const (
	// VariantChen is Chen 2010 §4 exactly: grouped tournament fitness,
	// roulette wheel, uniform crossover, multiplicative mutation; the answer
	// is the last generation's best champion. "" means it.
	VariantChen = optimize.VariantChen
	// VariantRobust is the noise-robust GA (RobustGA): common-opponent
	// fitness with memory, truncation selection, Gaussian mutation in a
	// scale-free space, and the elite's mean (raced at the end) as the
	// answer.
	VariantRobust = optimize.VariantRobust
)

// generationGames is the games of one generation's evaluation: every
// individual against every pool opponent, 2·Pairs games a match.
func (c config) robustGenerationGames() int {
	return c.Population * len(c.Pool) * 2 * max(c.Pairs, 1)
}

// sigmaAt is the mutation's relative standard deviation at generation g.
func (c config) sigmaAt(g int) float64 {
	if c.Generations <= 1 || c.SigmaEnd <= 0 {
		return c.Sigma
	}
	t := min(float64(g)/float64(c.Generations-1), 1)
	return c.Sigma * math.Pow(c.SigmaEnd/c.Sigma, t)
}

// RobustGA is the noise-robust GA, one Step a generation (it implements
// optimize.Method). Each generation:
//
//  1. every individual plays every opponent of the pool (the population's
//     centroid, the answer so far, or fixed baselines) in one batch, all
//     on the same openings per opponent (optimize.PoolMatches: common
//     random numbers);
//  2. each individual's fitness memory (optimize.Tally) is weighted by
//     Memory and adds those games: an elite that survives keeps being
//     judged on all its games, not on one generation's few (Diaz & Handl
//     2015: re-evaluate survivors rather than trust one sample);
//  3. the Elite individuals with the best fitness (score fraction; ties:
//     more games, then population order) survive; the answer is their
//     gene-wise mean (the mean of the μ parents, not the best noisy
//     sample: nevergrad's TBPSA, Hellwig & Beyer 2016), averaged over the
//     latest Settings.Average generations (Polyak–Ruppert averaging);
//  4. the other children are bred from elite parents drawn uniformly
//     (truncation selection): uniform crossover with probability Crossover,
//     Gaussian mutation per gene with probability Mutation, clamped to the
//     bounds and scaled to Settings.Norm;
//  5. after the last generation, the answer (and, when averaged, the
//     latest elite mean) races the best RaceCandidates elites
//     (optimize.Race) when the race is on.
type RobustGA struct {
	cfg    config
	pcg    *rand.PCG
	pop    [][]float64
	tally  []optimize.Tally
	next   int
	answer []float64
	means  [][]float64 // the latest elite means, for Settings.Average
	games  int
}

var _ optimize.Method = (*RobustGA)(nil)

// RobustState is a RobustGA's checkpoint.
type RobustState struct {
	Next       int              `json:"next"`
	Population [][]float64      `json:"population"`
	Tally      []optimize.Tally `json:"tally"`
	Answer     []float64        `json:"answer,omitempty"`
	// Means are the latest elite means (at most Settings.Average of them),
	// whose average is the answer.
	Means [][]float64 `json:"means,omitempty"`
	Games int         `json:"games"`
	RNG   []byte      `json:"rng"`
}

// RobustGeneration is the robust GA's record of one generation, the
// Detail of its optimize.Record.
type RobustGeneration struct {
	// Individuals are the population that played, in population order
	// (the previous elite first), with their fitness memory after the
	// generation.
	Individuals []RobustIndividual `json:"individuals"`
	// Elite lists the surviving individuals by rank.
	Elite []int `json:"elite"`
	// Answer is the run's answer after the generation: the average of the
	// latest elite means (or the race's winner on the last generation).
	Answer []float64 `json:"answer"`
	// Sigma is the mutation's relative step used to breed the next
	// generation.
	Sigma float64 `json:"sigma"`
	// Pool names the opponents; Seed is the evaluation batch's seed.
	Pool []string `json:"pool"`
	Seed uint64   `json:"seed"`
	// Race is the final race, on the last generation when it is on.
	Race *optimize.RaceRecord `json:"race,omitempty"`
	// Diversity is that of Individuals.
	Diversity optimize.Diversity `json:"diversity"`
}

// RobustIndividual is one member of an evaluated generation.
type RobustIndividual struct {
	Genes []float64      `json:"genes"`
	Tally optimize.Tally `json:"tally"`
	// Now is the generation's own outcome against the pool.
	Now optimize.Outcome `json:"now"`
}

// NewRobust starts a robust GA run of s on p: the population is drawn
// uniformly in the problem's initial range (optimize.UniformPopulation)
// or around its Start, clamped to its Bounds and scaled to Settings.Norm;
// rng belongs to the run from then on. Errors: Settings.Validate's or a
// nil rng.
func NewRobust(s Settings, p optimize.Problem, rng *rand.PCG) (*RobustGA, error) {
	return optimize.Build("ga", s.checked, startRobust, p, rng)
}

// startRobust is NewRobust of settings resolved and validated, rng not nil.
func startRobust(c config, rng *rand.PCG) (*RobustGA, error) {
	r := rand.New(rng)
	var pop [][]float64
	if c.Start != nil {
		pop = optimize.AroundStart(r, c.Start, c.Population, c.NoiseOptions.WarmSpread)
	} else {
		pop = optimize.UniformPopulation(r, c.Population, c.InitLo, c.InitHi)
	}
	for _, x := range pop {
		c.place(x)
	}
	return &RobustGA{cfg: c, pcg: rng, pop: pop, tally: make([]optimize.Tally, c.Population)}, nil
}

// place clamps x to the bounds and scales it to the norm, in place.
func (c config) place(x []float64) {
	c.Bounds.Clamp(x)
	optimize.ScaleTo(x, c.NoiseOptions.Norm)
}

// RestoreRobust continues a run from its checkpoint under the same
// settings and problem (a larger Generations extends it); errors name the
// state field, or are Settings.Validate's.
func RestoreRobust(s Settings, p optimize.Problem, st RobustState) (*RobustGA, error) {
	return optimize.Resume(s.checked, restoreRobust, p, st)
}

// restoreRobust is RestoreRobust of settings resolved and validated.
func restoreRobust(c config, st RobustState) (*RobustGA, error) {
	if st.Next < 0 || st.Next > c.Generations {
		return nil, fmt.Errorf("ga: RobustState.Next: %d generations evaluated, want 0..%d", st.Next, c.Generations)
	}
	if err := optimize.CheckPopulation("ga: RobustState.Population", st.Population, c.Population, len(c.Genes)); err != nil {
		return nil, err
	}
	if len(st.Tally) != c.Population {
		return nil, fmt.Errorf("ga: RobustState.Tally: has %d tallies, want %d", len(st.Tally), c.Population)
	}
	for i, t := range st.Tally {
		if !(t.Games >= 0) || !(t.Points >= 0) || t.Points > t.Games || t.Steps < 0 || math.IsInf(t.Games, 0) {
			return nil, fmt.Errorf("ga: RobustState.Tally[%d]: %+v is not a tally of games", i, t)
		}
	}
	if (st.Answer == nil) != (st.Next == 0) {
		return nil, fmt.Errorf("ga: RobustState.Answer: must be set exactly when a generation was evaluated (%d were)", st.Next)
	}
	if st.Answer != nil {
		if err := optimize.CheckVector("ga: RobustState.Answer", st.Answer, len(c.Genes)); err != nil {
			return nil, err
		}
	}
	if len(st.Means) > max(c.NoiseOptions.Average, 1) || (len(st.Means) == 0) != (st.Next == 0) {
		return nil, fmt.Errorf("ga: RobustState.Means: has %d means after %d generations, want 1..%d once a generation was evaluated", len(st.Means), st.Next, max(c.NoiseOptions.Average, 1))
	}
	for i, m := range st.Means {
		if err := optimize.CheckVector(fmt.Sprintf("ga: RobustState.Means[%d]", i), m, len(c.Genes)); err != nil {
			return nil, err
		}
	}
	if st.Games < 0 {
		return nil, fmt.Errorf("ga: RobustState.Games: must be 0 or more, not %d", st.Games)
	}
	pcg := &rand.PCG{}
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return nil, fmt.Errorf("ga: RobustState.RNG: %w", err)
	}
	return &RobustGA{cfg: c, pcg: pcg, pop: optimize.Clone(st.Population), tally: slices.Clone(st.Tally),
		next: st.Next, answer: slices.Clone(st.Answer), means: optimize.Clone(st.Means), games: st.Games}, nil
}

// State returns a deep copy of the run's checkpoint.
func (g *RobustGA) State() RobustState {
	rng, err := g.pcg.MarshalBinary()
	if err != nil {
		panic("ga: PCG.MarshalBinary: " + err.Error()) // never fails (math/rand/v2)
	}
	return RobustState{Next: g.next, Population: optimize.Clone(g.pop), Tally: slices.Clone(g.tally),
		Answer: slices.Clone(g.answer), Means: optimize.Clone(g.means), Games: g.games, RNG: rng}
}

// MarshalState returns State as JSON (optimize.Method).
func (g *RobustGA) MarshalState() ([]byte, error) { return json.Marshal(g.State()) }

// Done reports whether Generations generations have been evaluated.
func (g *RobustGA) Done() bool { return g.next >= g.cfg.Generations }

// Steps is the number of generations evaluated.
func (g *RobustGA) Steps() int { return g.next }

// Best is the run's answer: the elite's mean after the latest generation
// (the race's winner after the last), nil before the first.
func (g *RobustGA) Best() []float64 { return slices.Clone(g.answer) }

// Forecast is the work left: generations and their evaluation games (the
// final race's games, at most RaceBudget, are not counted).
func (g *RobustGA) Forecast() optimize.Forecast {
	left := max(g.cfg.Generations-g.next, 0)
	f := optimize.Forecast{Steps: left, Games: left * g.cfg.robustGenerationGames()}
	if left > 0 {
		f.NextGames = g.cfg.robustGenerationGames()
	}
	return f
}

// Step evaluates one generation and breeds the next (see RobustGA). It
// returns a record whose Best is the answer, Metrics "fitness" (the top
// elite's fitness), "fitness_mean" (the population's), "elite_mean" (the
// elite's mean fitness), "elite_games" (the elite's mean games of
// memory), "sigma", "diversity", "gene_std", and on
// a raced last generation "race_games"; Detail a RobustGeneration. On an
// error the run's state, its random source included, is unchanged.
func (g *RobustGA) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if err := optimize.Begin(ctx, g); err == optimize.ErrDone {
		return optimize.Record{}, err
	} else if err != nil {
		return optimize.Record{}, fmt.Errorf("ga: generation %d: %w", g.next, err)
	}
	c := g.cfg
	pcg := optimize.ClonePCG(g.pcg)
	rng := rand.New(pcg)

	centroid := optimize.ScaleTo(optimize.Centroid(g.pop), c.NoiseOptions.Norm)
	best := g.answer
	if best == nil {
		best = centroid
	}
	opps := optimize.PoolVectors(c.Pool, centroid, best)
	seed := rng.Uint64()
	out, err := optimize.Play(ctx, ref, seed, optimize.PoolMatches(g.pop, opps))
	if err != nil {
		return optimize.Record{}, fmt.Errorf("ga: generation %d: evaluation: %w", g.next, err)
	}
	games := optimize.CountGames(out)
	now := optimize.PoolOutcomes(out, c.Population, len(opps))
	tally := slices.Clone(g.tally)
	for i := range tally {
		tally[i].Decay(c.NoiseOptions.Memory)
		tally[i].Add(now[i])
	}
	rank := make([]int, c.Population)
	for i := range rank {
		rank[i] = i
	}
	slices.SortStableFunc(rank, func(a, b int) int {
		return cmp.Or(cmp.Compare(tally[b].Shrunk(c.NoiseOptions.Prior), tally[a].Shrunk(c.NoiseOptions.Prior)), cmp.Compare(tally[b].Games, tally[a].Games))
	})
	elite := rank[:c.elite()]
	parents := make([][]float64, len(elite))
	for k, i := range elite {
		parents[k] = g.pop[i]
	}
	eliteMean := optimize.ScaleTo(optimize.Centroid(parents), c.NoiseOptions.Norm)
	means := c.NoiseOptions.Window(g.means, eliteMean)
	answer := c.NoiseOptions.AverageOf(means)

	gen := RobustGeneration{Elite: slices.Clone(elite), Sigma: c.sigmaAt(g.next), Seed: seed,
		Diversity: optimize.PopulationDiversity(g.pop)}
	for _, e := range c.Pool {
		gen.Pool = append(gen.Pool, e.Name)
	}
	gen.Individuals = make([]RobustIndividual, c.Population)
	for i := range gen.Individuals {
		gen.Individuals[i] = RobustIndividual{Genes: slices.Clone(g.pop[i]), Tally: tally[i], Now: now[i]}
	}

	last := g.next+1 >= c.Generations
	if last && c.NoiseOptions.RaceBudget > 0 {
		var latest []float64
		if c.NoiseOptions.Average > 1 {
			latest = eliteMean
		}
		top := make([][]float64, min(c.NoiseOptions.RaceCandidates, len(elite)))
		for k := range top {
			top[k] = g.pop[elite[k]]
		}
		cands, names := optimize.RaceField(answer, "answer", latest, "elite mean", top, func(k int) string { return fmt.Sprintf("elite %d", k) })
		rr, err := optimize.Race(ctx, ref, rng, cands, optimize.PoolVectors(c.Pool, centroid, answer), names, c.NoiseOptions.Race(), 2*max(c.Pairs, 1))
		if err != nil {
			return optimize.Record{}, fmt.Errorf("ga: generation %d: final %w", g.next, err)
		}
		games += rr.Games
		answer = slices.Clone(cands[rr.Winner])
		gen.Race = &rr
	}
	gen.Answer = slices.Clone(answer)

	// Breed the next generation: the elite survive with their memory.
	next := make([][]float64, 0, c.Population)
	nextTally := make([]optimize.Tally, 0, c.Population)
	for _, i := range elite {
		next = append(next, slices.Clone(g.pop[i]))
		nextTally = append(nextTally, tally[i])
	}
	for len(next) < c.Population {
		child := slices.Clone(parents[rng.IntN(len(parents))])
		if rng.Float64() < c.Crossover {
			other := slices.Clone(parents[rng.IntN(len(parents))])
			crossover(rng, child, other)
		}
		sd := gen.Sigma * optimize.Norm(child) / math.Sqrt(float64(len(c.Genes)))
		mutated := 0
		for d := range child {
			if rng.Float64() < c.Mutation {
				child[d] += sd * rng.NormFloat64()
				mutated++
			}
		}
		if mutated == 0 {
			child[rng.IntN(len(c.Genes))] += sd * rng.NormFloat64()
		}
		c.place(child)
		next = append(next, child)
		nextTally = append(nextTally, optimize.Tally{})
	}

	rec := gen.record(g.next, games, tally, elite)

	// Commit.
	*g.pcg = *pcg
	g.pop, g.tally = next, nextTally
	g.answer = answer
	g.means = means
	g.next++
	g.games += games
	return rec, nil
}

// record wraps the generation in its optimize.Record.
func (gen RobustGeneration) record(step, games int, tally []optimize.Tally, elite []int) optimize.Record {
	mean, eliteGames, eliteMean := 0.0, 0.0, 0.0
	for _, t := range tally {
		mean += t.Mean()
	}
	mean /= float64(len(tally))
	for _, i := range elite {
		eliteGames += tally[i].Games
		eliteMean += tally[i].Mean()
	}
	eliteGames /= float64(len(elite))
	eliteMean /= float64(len(elite))
	top := tally[elite[0]].Mean()
	m := map[string]float64{
		"fitness":      top,
		"fitness_mean": mean,
		"elite_mean":   eliteMean,
		"elite_games":  eliteGames,
		"sigma":        gen.Sigma,
		"diversity":    gen.Diversity.MeanDistance,
		"gene_std":     gen.Diversity.MeanGeneStd(),
	}
	line := fmt.Sprintf("top elite %.3f (%.0f games) mean %.3f sigma %.3f diversity %.0f", top, tally[elite[0]].Games, mean, gen.Sigma, gen.Diversity.MeanDistance)
	if gen.Race != nil {
		m["race_games"] = float64(gen.Race.Games)
		line += fmt.Sprintf("; race: %s in %d games", gen.Race.Candidates[gen.Race.Winner], gen.Race.Games)
	}
	return optimize.Record{Step: step, Games: games, Best: slices.Clone(gen.Answer), Metrics: m, Detail: gen, Line: line}
}
