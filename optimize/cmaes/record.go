package cmaes

import (
	"fmt"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// Generation is CMA-ES's own record of one Step, the Detail of its
// optimize.Record (which carries the step's index, games and wall time).
// Vectors hold genes in the schema's order, in weight units. Every field
// is a function of the settings, the problem, the seed and the referee's outcomes, so a
// resumed run reproduces it exactly.
type Generation struct {
	// Generation numbers the generation from 0 (the record's Step).
	Generation int `json:"generation"`
	// Seed is the seed of the generation's Play call (its openings).
	Seed uint64 `json:"seed"`
	// Sigma is σ the candidates were drawn with (the standard deviation
	// along the longest axis of their distribution, weight units);
	// SigmaNext σ after the step-size adaptation, the normalisation and
	// the uncertainty treatment.
	Sigma     float64 `json:"sigma"`
	SigmaNext float64 `json:"sigma_next"`
	// Repeats is r, the matches each candidate played against each
	// opponent; RepeatsNext r for the next generation.
	Repeats     int `json:"repeats"`
	RepeatsNext int `json:"repeats_next"`
	// Candidates are the λ vectors as they played (clamped, scaled).
	Candidates [][]float64 `json:"candidates"`
	// Score is each candidate's score fraction against the pool in its
	// first evaluation; Rescore the second evaluation of the first
	// len(Rescore) candidates (none without noise handling).
	Score   []float64 `json:"score"`
	Rescore []float64 `json:"rescore,omitempty"`
	// Fitness is what ranked the candidates: Score, or the mean of Score
	// and Rescore for a re-evaluated candidate.
	Fitness []float64 `json:"fitness"`
	// Ranked lists the candidates by Fitness, best first (ties by index).
	Ranked []int `json:"ranked"`
	// NoiseS is the rank-change measure s (0 without noise handling).
	NoiseS float64 `json:"noise_s"`
	// HSigma is h_σ of the update: whether p_c took ⟨y⟩_w (1) or was
	// stalled because ‖p_σ‖ was large (0).
	HSigma int `json:"h_sigma"`
	// Mean is the mean after the update, clamped and scaled as it plays.
	Mean []float64 `json:"mean"`
	// Answer is the answer after the generation: the average of the
	// latest means (Mean itself with average ≤ 1), or the race's winner.
	Answer []float64 `json:"answer"`
	// Race is the final race, on the last generation with race_budget > 0.
	Race *optimize.RaceRecord `json:"race,omitempty"`
}

// record wraps g as the optimize.Record of its step. Metrics: "fitness"
// (the best candidate's Fitness), "fitness_mean" (the mean Fitness),
// "sigma" (SigmaNext), "noise_s", "repeats" (this generation's r),
// "diversity" and "gene_std" (optimize.PopulationDiversity of the
// candidates as they played) and, when the generation raced,
// "race_games".
func (g Generation) record(answer []float64, games int) optimize.Record {
	mean := 0.0
	for _, f := range g.Fitness {
		mean += f
	}
	mean /= float64(len(g.Fitness))
	dv := optimize.PopulationDiversity(g.Candidates)
	m := map[string]float64{
		"fitness":      g.Fitness[g.Ranked[0]],
		"fitness_mean": mean,
		"sigma":        g.SigmaNext,
		"noise_s":      g.NoiseS,
		"repeats":      float64(g.Repeats),
		"diversity":    dv.MeanDistance,
		"gene_std":     dv.MeanGeneStd(),
	}
	if g.Race != nil {
		m["race_games"] = float64(g.Race.Games)
	}
	return optimize.Record{
		Step:    g.Generation,
		Games:   games,
		Best:    slices.Clone(answer),
		Metrics: m,
		Detail:  g,
		Line:    g.line(m, games),
	}
}

// line is the console's summary of the generation.
func (g Generation) line(m map[string]float64, games int) string {
	s := fmt.Sprintf("fitness %.3f (mean %.3f), σ %.4g → %.4g", m["fitness"], m["fitness_mean"], g.Sigma, g.SigmaNext)
	if g.Rescore != nil {
		s += fmt.Sprintf(", s %+.2f, repeats %d → %d", g.NoiseS, g.Repeats, g.RepeatsNext)
	}
	s += fmt.Sprintf(", %d games", games)
	if r := g.Race; r != nil {
		verdict := "budget spent"
		if r.Decided {
			verdict = "decided"
		}
		s += fmt.Sprintf("; race: %s wins (%s, %d rounds, %d games)", r.Candidates[r.Winner], verdict, r.Rounds, r.Games)
	}
	return s
}

// State is everything needed to continue a run with Restore; it is plain
// data and JSON-serialisable (floats round-trip exactly through
// encoding/json).
type State struct {
	// RNG is the run's *rand.PCG, from its MarshalBinary.
	RNG []byte `json:"rng"`
	// Generation is the number of Steps done.
	Generation int `json:"generation"`
	// Mean is m, Sigma σ, C the covariance matrix (n rows of n, symmetric,
	// positive definite), PSigma and PC the evolution paths p_σ and p_c.
	Mean  []float64 `json:"mean"`
	Sigma float64   `json:"sigma"`
	// Sigma0 is the run's initial σ, the unit of Settings.MaxSigma.
	Sigma0 float64     `json:"sigma0"`
	C      [][]float64 `json:"c"`
	PSigma []float64   `json:"p_sigma"`
	PC     []float64   `json:"p_c"`
	// Repeats is r for the next generation.
	Repeats int `json:"repeats"`
	// Means are the latest means after each generation, at most
	// max(average, 1) of them, whose average is the answer.
	Means [][]float64 `json:"means"`
	// Answer is the run's answer (Method.Best once a step is done).
	Answer []float64 `json:"answer"`
	// Games is the number of games played so far.
	Games int `json:"games"`
}
