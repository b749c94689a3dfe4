package tournament

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/engine"
)

// Replay plays the record's moves through the rules from the empty board
// and checks that they give its result: the opening's moves first, each
// move legal, no move after six in a row; then a win by six (ReasonSix)
// is the side that made the six, a full board (ReasonFullBoard) a drawn
// board with every point filled, a move limit (ReasonMoveLimit) a draw
// with no six, and a forfeit a win with no six on the board. A record
// written by PlayGame passes; a record edited or forged does not. Errors
// name the game, the move and the rule, never quoting more of the record
// than a move and a result.
func (g GameRecord) Replay() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("game %d: %s", g.Game, fmt.Sprintf(format, a...))
	}
	if g.Opening != "" {
		o, err := ParseOpening(g.Opening)
		if err != nil {
			return bad("opening: %v", err)
		}
		if len(g.Moves) < len(o.Moves) || !slices.Equal(g.Moves[:len(o.Moves)], o.Moves) {
			return bad("the moves do not begin with the game's opening")
		}
	}
	b := engine.NewBoard()
	for i, m := range g.Moves {
		if b.Winner() != engine.Empty {
			return bad("move %d comes after six in a row ended the game (rules: the game ends at six)", i+1)
		}
		if err := b.Play(m); err != nil {
			return bad("move %d (%s) is illegal: %v", i+1, m, err)
		}
	}
	won, end := NoResult, "no six in a row" // what the moves give
	switch b.Winner() {
	case engine.Black:
		won, end = BlackWins, BlackWins.String()
	case engine.White:
		won, end = WhiteWins, WhiteWins.String()
	}
	forfeit := strings.HasPrefix(g.Reason, "forfeit:")
	switch {
	case g.Reason == ReasonSix && (won == NoResult || g.Result != won):
		return bad("result %s by six in a row, the moves give %s", g.Result, end)
	case g.Reason != ReasonSix && won != NoResult:
		return bad("reason %q, but the moves give %s by six in a row (rules: six in a row ends the game)", g.Reason, won)
	case g.Reason == ReasonFullBoard && (g.Result != Draw || !b.Full()):
		return bad("result %s on a full board, the moves fill %d of %d points (rules: a full board without six is a draw)", g.Result, len(g.Moves), engine.NumPoints)
	case g.Reason == ReasonMoveLimit && g.Result != Draw:
		return bad("result %s at the move limit, which is a draw", g.Result)
	case forfeit && g.Result != BlackWins && g.Result != WhiteWins:
		return bad("result %s by forfeit, which is a win", g.Result)
	case g.Reason != ReasonSix && g.Reason != ReasonFullBoard && g.Reason != ReasonMoveLimit && !forfeit:
		return bad("unknown reason %q", g.Reason)
	}
	return nil
}
