package engine

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestProveWin: on the tactical suite, ProveWin answers what the test
// verifier (the same threat search, 6 attacker moves, 2^18 positions) does
// for every position, each proved win's first move is legal and, played,
// leaves the defender facing two or more threats or a six, and the board
// passed in is untouched.
func TestProveWin(t *testing.T) {
	e := newEngine(t, zhou(t), DefaultSettings())
	v := newVerifier(t)
	wins := 0
	for _, tc := range loadTactics(t) {
		before := tc.board.Hash()
		w, err := e.ProveWin(context.Background(), tc.board, 6, 1<<18)
		if err != nil {
			t.Fatalf("%s: %v", tc.moves, err)
		}
		if tc.board.Hash() != before {
			t.Fatalf("%s: ProveWin changed the board", tc.moves)
		}
		want, _ := v.wins(tc.board)
		if w.Proved != want {
			t.Errorf("%s: proved %t, the verifier %t", tc.moves, w.Proved, want)
		}
		if w.Nodes <= 0 {
			t.Errorf("%s: %d nodes", tc.moves, w.Nodes)
		}
		if !w.Proved {
			continue
		}
		wins++
		c := tc.board.Clone()
		if err := c.Play(w.Move); err != nil {
			t.Fatalf("%s: proved win starts with an illegal move %s: %v", tc.moves, w.Move, err)
		}
		if c.Winner() == Empty && len(c.ThreatRoads(nil, tc.board.ToMove())) == 0 {
			t.Errorf("%s: the win's first move %s makes no threat", tc.moves, w.Move)
		}
	}
	if wins == 0 {
		t.Fatal("no position of the suite is a proved win")
	}
}

// TestProveWinNow: a six to complete now is a win of 0 plies; the empty
// board and Black's opening stone are not wins.
func TestProveWinNow(t *testing.T) {
	e := newEngine(t, zhou(t), DefaultSettings())
	w, err := e.ProveWin(context.Background(), boardOf(t, "JJ AASA IJHJ ASSS GJFJ CQDQ"), 4, 0)
	if err != nil || !w.Proved || w.Plies != 0 || w.Move.Len() != 1 {
		t.Errorf("six now: %+v, %v", w, err)
	}
	for _, moves := range []string{"", "JJ"} {
		w, err := e.ProveWin(context.Background(), boardOf(t, moves), 4, 0)
		if err != nil || w.Proved {
			t.Errorf("%q: %+v, %v", moves, w, err)
		}
	}
}

// TestProveWinErrors: a board in mid-turn or over, a depth or budget out
// of range, and a cancelled context are errors that say so.
func TestProveWinErrors(t *testing.T) {
	e := newEngine(t, zhou(t), DefaultSettings())
	mid := boardOf(t, "JJ")
	mid.Place(PointAt(8, 8))
	over := boardOf(t, "JJ AASA IJHJ ASSS GJFJ CQDQ")
	six, err := e.ProveWin(context.Background(), over, 1, 0)
	if err != nil || over.Play(six.Move) != nil || !over.Over() {
		t.Fatalf("no six: %+v, %v", six, err)
	}
	ok := boardOf(t, "JJ IHLJ KKKI")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, c := range []struct {
		ctx   context.Context
		b     *Board
		depth int
		nodes int64
		want  string
	}{
		{context.Background(), mid, 4, 0, "mid-turn"},
		{context.Background(), over, 4, 0, "over"},
		{context.Background(), ok, 0, 0, "depth must be in 1..16, not 0"},
		{context.Background(), ok, 17, 0, "not 17"},
		{context.Background(), ok, 4, -1, "nodes must be 0 or more"},
	} {
		if _, err := e.ProveWin(c.ctx, c.b, c.depth, c.nodes); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error with %q, got %v", c.want, err)
		}
	}
	if _, err := e.ProveWin(cancelled, ok, 10, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestRootMoves: on the midgame suite, the root moves are legal, distinct,
// at most n, a shorter list is the longer one's prefix, and the first is
// the move a depth-1 search without the threat search plays; a board in
// mid-turn and an n out of range are errors.
func TestRootMoves(t *testing.T) {
	e := newEngine(t, zhou(t), DefaultSettings())
	s := DefaultSettings()
	s.Depth, s.ThreatSearch = 1, false
	one := newEngine(t, zhou(t), s)
	for i, b := range loadSuite(t) {
		long, err := e.RootMoves(b, 40)
		if err != nil || len(long) == 0 || len(long) > 40 {
			t.Fatalf("position %d: %d moves, %v", i, len(long), err)
		}
		short, _ := e.RootMoves(b, 5)
		if len(short) != min(5, len(long)) || !slices.Equal(short, long[:len(short)]) {
			t.Errorf("position %d: the 5 best %v are not the first of the 40 best %v", i, short, long[:5])
		}
		seen := map[Move]bool{}
		for _, m := range long {
			if seen[m] || b.Clone().Play(m) != nil {
				t.Errorf("position %d: %s repeated or illegal", i, m)
			}
			seen[m] = true
		}
		if r := one.Search(context.Background(), b); r.Move != long[0] {
			t.Errorf("position %d: first root move %s, the depth-1 search plays %s", i, long[0], r.Move)
		}
	}
	mid := boardOf(t, "JJ")
	mid.Place(PointAt(8, 8))
	if _, err := e.RootMoves(mid, 5); err == nil || !strings.Contains(err.Error(), "mid-turn") {
		t.Errorf("mid-turn: %v", err)
	}
	if _, err := e.RootMoves(boardOf(t, "JJ"), 0); err == nil || !strings.Contains(err.Error(), "n must be") {
		t.Errorf("n = 0: %v", err)
	}
}
