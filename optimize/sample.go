package optimize

import "context"

// Position is one labelled position of a game, seen from one side, for
// methods that fit the evaluation to game results (Texel tuning; spec
// tuning.md "Texel tuning").
//
// The evaluation is linear in the genes: the engine's road score of the
// position from this side's view is Σ_d genes[d]·X[d] (Chen 2010 eq. 3.1
// for the symmetric schema, Qi 2018 eq. 3-1 for the asymmetric one). For the
// dual schema (Qi 2018 §3.2) X holds the features of the set the judge picks
// under the vector that played as A in the position's match, zeros for the
// other set and for the alert gene, so each set is fitted on the positions
// its judge selects.
type Position struct {
	// X holds the features in gene order (length = the problem's genes).
	X []float64 `json:"x"`
	// Tempo is +1 when this side is to move, −1 when the other side is (the
	// side to move places two stones: a large advantage).
	Tempo float64 `json:"tempo"`
	// Y is this side's game result: 1 a win, ½ a draw, 0 a loss.
	Y float64 `json:"y"`
	// Game numbers the position's game within its batch (from 0), so that
	// held-out positions can be split by game.
	Game int `json:"game"`
}

// Sampler is a Referee that can also return the positions of the games it
// plays. Sample plays the matches as Play does (same seed, same games, same
// outcomes) and returns, besides the outcomes, the positions of every game
// where neither side is already won or lost, each from both sides' view.
// The positions depend only on seed, matches and the sampler's settings.
type Sampler interface {
	Referee
	Sample(ctx context.Context, seed uint64, matches []Match) ([]Outcome, []Position, error)
}
