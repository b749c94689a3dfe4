package optimize

import (
	"context"

	"github.com/roadtune/roadtune/tournament/wdl"
)

// Match is one match between two weight vectors of the run's schema.
// A and B hold genes in the schema's order (engine.Schema.GeneNames).
type Match struct {
	A, B []float64
	// WinnerOnly says the method needs only to know whether A beats B
	// (Outcome.AWins), not the score: the referee may then end the match
	// as soon as its early-stop rule settles the winner, and the Outcome
	// counts only the games played (sequential tests on game pairs, as
	// fishtest's SPRT).
	WinnerOnly bool
	// OpeningSet, when > 0, gives the match the openings of that set
	// instead of its own: every match of a batch with the same OpeningSet
	// plays the same openings, pair for pair (common random numbers, as a
	// common-opponent fitness needs: every candidate meets an opponent on
	// the same openings, so their scores differ by their strength and not
	// by their draw of openings). 0, the default, draws the match's own
	// openings by its index in the batch.
	OpeningSet int `json:",omitempty"`
}

// Outcome is the result of one match from A's view, counted in games won,
// drawn and lost: the one W/D/L count of roadtune, tournament/wdl's Count,
// under the name the optimizers know it by (a type alias, so the referee
// hands a tournament matchup's count up as it is). Its methods are
// Count's: Games, Score (A's points, Chen 2010 §4.4.2.2) and AWins (A has
// more points than B; a tie is not a win for A, Chen 2010 §5.3). Its JSON
// is {"wins": …, "draws": …, "losses": …} (a cluster batch's result, a
// bayes point's results); the {"Wins": …} written before it was a Count
// reads too, encoding/json matching keys without regard to case.
type Outcome = wdl.Count

// Referee plays matches between weight vectors.
//
// Play plays every match of the batch (concurrently, as the implementation
// sees fit) and returns one Outcome per match, in the order of matches.
// How many games a match lasts (game pairs, colours swapped) is the
// referee's setting. seed chooses the openings: the same seed and the same
// matches give the same outcomes, whatever the concurrency. Play returns
// ctx.Err() (possibly wrapped) when cancelled; outcomes are then not valid.
type Referee interface {
	Play(ctx context.Context, seed uint64, matches []Match) ([]Outcome, error)
}
