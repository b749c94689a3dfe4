package tournament

import (
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
)

// TestReplayRefusesForgedRecords: records PlayGame wrote pass Replay; the
// same with the other result, with an illegal move (issue 43, item 4:
// moves JJ, JJJJ won by White), with a move after the six, with a reason
// that is none, or with moves not beginning with the opening, are
// refused naming the game and the rule.
func TestReplayRefusesForgedRecords(t *testing.T) {
	recs := records(t, 4)
	for _, g := range recs {
		if err := g.Replay(); err != nil {
			t.Fatalf("a played game: %v", err)
		}
	}
	g := recs[0]
	jj, err := engine.ParseMove("JJ")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, want string
		edit       func(*GameRecord)
	}{
		{"other result", "game 0: result", func(r *GameRecord) {
			r.Result = map[Result]Result{BlackWins: WhiteWins, WhiteWins: BlackWins, Draw: BlackWins}[r.Result]
		}},
		{"JJ JJJJ", "game 0: move 2", func(r *GameRecord) {
			r.Opening, r.Moves, r.Result, r.Reason = "", []engine.Move{jj, jj}, WhiteWins, ReasonSix
		}},
		{"no reason", "unknown reason", func(r *GameRecord) { r.Reason = "because" }},
		{"not the opening", "opening", func(r *GameRecord) { r.Moves = r.Moves[1:] }},
	} {
		r := g
		r.Moves = append([]engine.Move(nil), g.Moves...)
		tc.edit(&r)
		if err := r.Replay(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
