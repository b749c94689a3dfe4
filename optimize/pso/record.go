package pso

import (
	"fmt"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// MatchKind says which comparison of Chen 2010 §5.3 a match was.
type MatchKind string

// The three kinds of match the swarm plays.
const (
	KnockoutMatch MatchKind = "knockout" // step ③: a particle against the survivor so far
	PersonalMatch MatchKind = "personal" // step ⑤: a new position against its personal best
	GlobalMatch   MatchKind = "global"   // step ⑤: a personal-best winner against the global best
)

// MatchRecord is one match the swarm asked for and its outcome.
type MatchRecord struct {
	Kind MatchKind `json:"kind"`
	// Particle is the challenger's index, played as A: its position.
	Particle int `json:"particle"`
	// Incumbent is the particle the B vector came from: the survivor so far
	// (knockout), Particle itself (its personal best), or the particle whose
	// position g was taken from (global).
	Incumbent int `json:"incumbent"`
	// Seed is the seed of the Play call (shared by the personal-best batch).
	Seed uint64 `json:"seed"`
	// A and B are the vectors played (copies).
	A []float64 `json:"a"`
	B []float64 `json:"b"`
	// Outcome counts the match's games from A's view (Wins, Draws,
	// Losses), flat in the record's JSON as "wins", "draws", "losses".
	optimize.Outcome
	// ChallengerWon is Outcome.AWins: A took B's place.
	ChallengerWon bool `json:"challenger_won"`
}

// Iteration is the swarm's own record of one Step, the Detail of its
// optimize.Record (which carries the iteration's index, games and wall
// time). Every field is a function of the settings, the problem, the seed and the referee's
// outcomes, so a resumed run reproduces it exactly.
type Iteration struct {
	// Knockout holds the m − 1 knockout matches (iteration 0 only).
	Knockout []MatchRecord `json:"knockout,omitempty"`
	// Matches holds the personal-best matches (particle order) and then the
	// global-best challenges (particle order).
	Matches []MatchRecord `json:"matches"`
	// Positions are the particles' positions after the move (the vectors
	// that played), Particles × Genes.
	Positions [][]float64 `json:"positions"`
	// Velocities are the velocities after eq. 5-1 at the end of the Step,
	// the ones the next move uses, Particles × Genes.
	Velocities [][]float64 `json:"velocities"`
	// PersonalBests and GlobalBest are the bests after the matches.
	PersonalBests [][]float64 `json:"personal_bests"`
	GlobalBest    []float64   `json:"global_best"`
	// GlobalBestParticle is the particle whose position g was taken from.
	GlobalBestParticle int `json:"global_best_particle"`
	// GlobalBestChanged reports whether a challenger took g this Step.
	GlobalBestChanged bool `json:"global_best_changed"`
	// W is the inertia weight computed this Step (eq. 5-6) from K and R, and
	// used in this Step's velocity update.
	W float64 `json:"w"`
	K float64 `json:"k"`
	R float64 `json:"r"`
	// MeanDist, MaxDist are the focus distances of eq. 5-3, 5-4.
	MeanDist float64 `json:"mean_dist"`
	MaxDist  float64 `json:"max_dist"`
	// Seeds are the seeds of this Step's Play calls, in call order.
	Seeds []uint64 `json:"seeds"`
	// GamesSaved counts the games of the Step's matches (Pairs game pairs
	// each) that the referee did not play because its early-stop rule had
	// settled the winner (every PSO match is WinnerOnly).
	GamesSaved int `json:"games_saved"`
}

// Improvements counts the personal bests the Step replaced (personal-best
// matches won) and the global-best challenges won.
func (it Iteration) Improvements() (personal, global int) {
	for _, m := range it.Matches {
		if !m.ChallengerWon {
			continue
		}
		switch m.Kind {
		case PersonalMatch:
			personal++
		case GlobalMatch:
			global++
		}
	}
	return personal, global
}

// record wraps the iteration in its optimize.Record: step is its index,
// games the games it played. See PSO.Step for the metrics.
func (it Iteration) record(step, games int) optimize.Record {
	pb, gb := it.Improvements()
	dv := optimize.PopulationDiversity(it.Positions)
	return optimize.Record{
		Step:  step,
		Games: games,
		Best:  slices.Clone(it.GlobalBest),
		Metrics: map[string]float64{
			"w":              it.W,
			"k":              it.K,
			"mean_dist":      it.MeanDist,
			"max_dist":       it.MaxDist,
			"personal_bests": float64(pb),
			"global_bests":   float64(gb),
			"games_saved":    float64(it.GamesSaved),
			"diversity":      dv.MeanDistance,
			"gene_std":       dv.MeanGeneStd(),
		},
		Detail: it,
		Line: fmt.Sprintf("w %.3f k %.3f focus %.0f/%.0f, %d new personal bests, %d global",
			it.W, it.K, it.MeanDist, it.MaxDist, pb, gb),
	}
}

// State is everything needed to continue a run with Restore; it is plain
// data and JSON-serialisable (floats round-trip exactly through
// encoding/json). Slices are Particles × Genes unless said otherwise.
type State struct {
	// RNG is the swarm's *rand.PCG, from its MarshalBinary.
	RNG []byte `json:"rng"`
	// Iteration is the number of Steps done.
	Iteration int `json:"iteration"`
	// KnockoutDone reports whether the knockout has given g.
	KnockoutDone  bool        `json:"knockout_done"`
	Positions     [][]float64 `json:"positions"`
	Velocities    [][]float64 `json:"velocities"`
	PersonalBests [][]float64 `json:"personal_bests"`
	// GlobalBest has Genes genes, or is empty before the knockout.
	GlobalBest []float64 `json:"global_best"`
	// GlobalBestParticle is the particle g came from, −1 before the knockout.
	GlobalBestParticle int `json:"global_best_particle"`
	// W, K, R, MeanDist, MaxDist are the last computed inertia weight and
	// focus distances (0 before the first Step).
	W        float64 `json:"w"`
	K        float64 `json:"k"`
	R        float64 `json:"r"`
	MeanDist float64 `json:"mean_dist"`
	MaxDist  float64 `json:"max_dist"`
	// Games is the number of games played so far.
	Games int `json:"games"`
}
