package optimize

import (
	"cmp"
	"math"
	"slices"
)

// NoiseOptions are the options that the noise-robust forms of the
// population methods (the GA's and the PSO's "robust" variant, CMA-ES)
// share, as keys of the method's table. Each is one mechanism against
// game noise, named in the field's terms:
//
//   - Pool: a common-opponent fitness (PoolMatches): every candidate of a
//     step plays the same opponents on the same openings;
//   - Norm: a scale-free search space (ScaleTo): road weights mean the
//     same at any overall scale, so every played vector has this norm;
//   - Memory: fitness memory (Tally): a surviving vector keeps its games,
//     weighted by Memory per step;
//   - Prior: shrinkage of every tally towards ½ (Tally.Shrunk) against
//     the winner's curse of few-game scores;
//   - Average: the answer as the average of the latest population means
//     (never a single sample);
//   - RaceBudget, RaceAlpha, RaceRounds: racing for the answer (Race);
//   - WarmSpread: a warm start around Problem.Start (AroundStart).
type NoiseOptions struct {
	// Pool names the opponents of the common-opponent fitness: PoolCentroid
	// (the population's mean), PoolBest (the run's answer before the
	// step), baselines or weight files by name (Problem.Opponent).
	Pool []string `toml:"pool" json:"pool"`
	// Norm, when > 0, is the Euclidean norm (weight units) every vector is
	// scaled to before it plays; 0 keeps the scale free.
	Norm float64 `toml:"norm" json:"norm"`
	// Memory is the weight a vector's earlier games keep at each new step
	// (Tally.Decay), in [0, 1]: 1 keeps them all, 0 judges a vector on the
	// latest step alone. Methods without survivors ignore it.
	Memory float64 `toml:"memory" json:"memory"`
	// Prior is the number of games of ½ added to every tally before
	// vectors are ranked or compared by it (Tally.Shrunk): ≥ 0, 0 = the
	// raw fraction. Methods without tallies ignore it.
	Prior float64 `toml:"prior" json:"prior"`
	// RaceBudget is the most games the final race may play (0 = no race:
	// the answer is the method's mean); RaceAlpha its error rate;
	// RaceRounds the rounds before anything is dropped (RaceConfig).
	RaceBudget int     `toml:"race_budget" json:"race_budget"`
	RaceAlpha  float64 `toml:"race_alpha" json:"race_alpha"`
	RaceRounds int     `toml:"race_rounds" json:"race_rounds"`
	// RaceCandidates is how many of the best vectors race against the
	// method's mean (≥ 1).
	RaceCandidates int `toml:"race_candidates" json:"race_candidates"`
	// Average is the number of latest steps whose means are averaged into
	// the answer (Polyak–Ruppert averaging, as texel's average: one step's
	// mean wanders with the noise of its selection, the average of several
	// does not); 0 or 1 = the latest step's mean alone.
	Average int `toml:"average" json:"average"`
	// WarmSpread is the spread of a warm start around Problem.Start, as a
	// fraction of the start's norm (AroundStart); used only with a start.
	WarmSpread float64 `toml:"warm_spread" json:"warm_spread"`
	// RestartOptions are the keys of a run made of several starts and
	// refinement phases (Spec.New): starts, start_share, phases,
	// precision_growth.
	RestartOptions
}

// WithDefaults is o with the noise options it refuses at zero (Pool,
// RaceCandidates, RaceAlpha, RaceRounds) at DefaultNoiseOptions' values
// where they are zero or empty: the methods that embed NoiseOptions call
// it from their own withDefaults ("zero means default"). RaceBudget 0
// keeps its meaning, no race.
func (o NoiseOptions) WithDefaults() NoiseOptions {
	d := DefaultNoiseOptions()
	if len(o.Pool) == 0 {
		o.Pool = d.Pool
	}
	o.RaceCandidates = cmp.Or(o.RaceCandidates, d.RaceCandidates)
	o.RaceAlpha = cmp.Or(o.RaceAlpha, d.RaceAlpha)
	o.RaceRounds = cmp.Or(o.RaceRounds, d.RaceRounds)
	return o
}

// NormOption is Norm, for a job runner that must know whether a method
// scales its vectors itself (a log-space search must not: LogSpace).
func (o NoiseOptions) NormOption() float64 { return o.Norm }

// DefaultNoiseOptions are the robust forms' defaults: self-play against
// the population's centroid, no fixed norm, memory 1, a race of the mean
// and the 4 best over at most 2,000 games at α = 0.05 from 3 rounds, a
// warm spread of 0.1.
func DefaultNoiseOptions() NoiseOptions {
	return NoiseOptions{
		Pool: []string{PoolCentroid}, Memory: 1,
		RaceBudget: 2000, RaceAlpha: 0.05, RaceRounds: 3, RaceCandidates: 4,
		WarmSpread: 0.1,
	}
}

// RaceMeans is the number of means that race besides the RaceCandidates
// best vectors: the answer (averaged) and the latest step's mean.
const RaceMeans = 2

// AverageOf returns the Euclidean mean of the latest Average vectors of
// means (all of them if fewer; the last alone when Average ≤ 1), scaled
// to Norm.
func (o NoiseOptions) AverageOf(means [][]float64) []float64 {
	if len(means) == 0 {
		return nil
	}
	k := min(max(o.Average, 1), len(means))
	return ScaleTo(Centroid(means[len(means)-k:]), o.Norm)
}

// Window keeps the latest Average means (at least 1) after appending m.
func (o NoiseOptions) Window(means [][]float64, m []float64) [][]float64 {
	means = append(Clone(means), slices.Clone(m))
	if k := max(o.Average, 1); len(means) > k {
		means = means[len(means)-k:]
	}
	return means
}

// Race is the race's config.
func (o NoiseOptions) Race() RaceConfig {
	return RaceConfig{Budget: o.RaceBudget, Alpha: o.RaceAlpha, MinRounds: o.RaceRounds}
}

// Validate checks the options against p and resolves the pool
// (ResolvePool): a finite Norm ≥ 0, Memory in [0, 1], RaceCandidates ≥ 1,
// a race that can decide (RaceConfig.Validate, with the mean and
// RaceCandidates vectors against the pool, 2·p.Pairs games a match),
// WarmSpread finite and ≥ 0. Errors are *OptionError naming the key.
func (o NoiseOptions) Validate(p Problem) ([]PoolEntry, error) {
	bad := BadOption
	pool, err := ResolvePool("pool", o.Pool, p)
	if err != nil {
		return nil, err
	}
	switch {
	case !(o.Norm >= 0) || math.IsInf(o.Norm, 1):
		return nil, bad("norm", "must be a finite number ≥ 0 (0 = the scale stays free), not %g", o.Norm)
	case !(o.Prior >= 0) || math.IsInf(o.Prior, 1):
		return nil, bad("prior", "must be a finite number ≥ 0 (games of ½ added to every tally; 0 = none), not %g", o.Prior)
	case !(o.Memory >= 0 && o.Memory <= 1):
		return nil, bad("memory", "must be in [0, 1] (1 keeps every earlier game, 0 none), not %g", o.Memory)
	case o.RaceCandidates < 1:
		return nil, bad("race_candidates", "must be at least 1 (the best vector races the mean), not %d", o.RaceCandidates)
	case !(o.WarmSpread >= 0) || math.IsInf(o.WarmSpread, 1):
		return nil, bad("warm_spread", "must be a finite number ≥ 0, not %g", o.WarmSpread)
	case o.Average < 0:
		return nil, bad("average", "must be 0 or more (0 or 1 = the latest step's mean), not %d", o.Average)
	}
	if err := o.Race().Validate(o.RaceCandidates+RaceMeans, len(pool), 2*max(p.Pairs, 1)); err != nil {
		re := err.(*RaceError)
		key := map[string]string{"Budget": "race_budget", "Alpha": "race_alpha", "MinRounds": "race_rounds"}[re.Field]
		return nil, bad(key, "%s", re.Msg)
	}
	return pool, nil
}
