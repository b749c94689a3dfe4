package pso

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
	// Wins, Draws, Losses are counted in games from A's view.
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// ChallengerWon is Outcome.AWins: A took B's place.
	ChallengerWon bool `json:"challenger_won"`
}

// Iteration is the record of one Step. Every field but WallSeconds is a
// function of Config, seed and the referee's outcomes, so a resumed run
// reproduces it exactly.
type Iteration struct {
	// Index counts iterations from 1 (State.Iteration after this Step).
	Index int `json:"index"`
	// Knockout holds the m − 1 knockout matches (Index 1 only).
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
	// Games is the number of games this Step played.
	Games int `json:"games"`
	// Seeds are the seeds of this Step's Play calls, in call order.
	Seeds []uint64 `json:"seeds"`
	// WallSeconds is the Step's wall time in seconds, the only field that
	// differs between an uninterrupted and a resumed run.
	WallSeconds float64 `json:"wall_seconds"`
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
	// Unchanged counts the latest Steps in a row that left g unchanged.
	Unchanged int `json:"unchanged"`
	// Games is the number of games played so far.
	Games int `json:"games"`
}
