package optimize

import "context"

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
// drawn and lost. It is the W/D/L count of the tournament room
// (tournament/wdl.Count) as the optimizers see it: package optimize
// imports nothing of roadtune, so the referee converts a match's count
// into an Outcome. Its fields are its JSON names (a cluster batch's
// result carries outcomes as {"Wins": …, "Draws": …, "Losses": …}).
type Outcome struct {
	Wins, Draws, Losses int
}

// Games is the number of games the match lasted.
func (o Outcome) Games() int { return o.Wins + o.Draws + o.Losses }

// Score is A's points: a win counts 1, a draw ½ (Chen 2010 §4.4.2.2).
func (o Outcome) Score() float64 { return float64(o.Wins) + 0.5*float64(o.Draws) }

// AWins reports whether A won the match outright (more points than B).
// A tied match is not a win for A, so an incumbent placed as B keeps its
// place on a tie (Chen 2010 §5.3, which leaves ties open, as roadtune reads it).
func (o Outcome) AWins() bool { return o.Wins > o.Losses }

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
