package engine

import (
	"context"
	"fmt"
)

// Win is ProveWin's answer: whether a win was Proved, its first Move and
// its length in Plies (stones' turns to the six, 0 for a six completed
// now), and the positions visited (Nodes).
type Win struct {
	Proved bool
	Move   Move
	Plies  int
	Nodes  int64
}

// ProveWin runs the threat search alone for the side to move in b: no
// alpha-beta, no defensive check. It reports whether that side wins by
// continuous double threats (a six it can complete now included) within
// depth attacker moves (1..16) and nodes visited positions (0: no limit),
// with the win's first move and length (see Win). A reported win is forced (the search is sound, see
// tss.go); a false answer means only that none was found within the
// bounds. The search keeps the threat table (1 MiB) whatever the
// settings, as the defensive check does. Move ordering comes from the engine's weights, and the engine's
// ThreatMixed setting applies; its other settings and its state for Search
// are not used. ctx stops the search (the error is then ctx's).
//
// It is the question a post-mortem asks of every position of a lost game
// (tournament/losses): after which of the loser's moves did the winner
// already have a forced win? b must be at the start of a turn (two stones
// to place, or Black's first stone); b is not modified. Errors: a board in
// mid-turn or over, a depth out of range, ctx's error.
func (e *Engine) ProveWin(ctx context.Context, b *Board, depth int, nodes int64) (Win, error) {
	if err := atTurnStart(b, "prove win"); err != nil {
		return Win{}, err
	}
	switch {
	case depth < 1 || depth > maxThreatPly:
		return Win{}, fmt.Errorf("engine: prove win: depth must be in 1..%d, not %d", maxThreatPly, depth)
	case nodes < 0:
		return Win{}, fmt.Errorf("engine: prove win: nodes must be 0 or more, not %d", nodes)
	}
	e.begin(ctx, b, 0)
	e.root = b.ToMove()
	e.tm.on = false
	e.poll()
	e.proving = true
	defer func() { e.ctx, e.proving = nil, false }()
	if m, ok := e.board.winningMove(); ok {
		return Win{Proved: true, Move: m}, nil
	}
	if e.board.n == 0 {
		return Win{}, nil
	}
	m, plies, ok := e.threatSearch(depth, nodes)
	if err := e.ctx.Err(); err != nil {
		return Win{Nodes: e.nodes}, err
	}
	if !ok {
		m = Move{NoPoint, NoPoint}
	}
	return Win{Proved: ok, Move: m, Plies: plies, Nodes: e.nodes}, nil
}

// RootMoves returns the side to move's best moves in b by the search's
// move ordering, best first, at most n (1..MaxWidth·MaxWidth): the pairs
// of the Settings.Singles best single stones scored by the evaluation of
// the position after each, or, when the opponent threatens, the moves
// that block it, as alpha-beta's root ranks them before it searches
// (Qi 2018 §4.3). A post-mortem asks it where a defence ranked: within
// the Width the search keeps, or cut by it. b must be at the start of a
// turn and not over; b is not modified. It returns nil when the opponent
// has three or more threats (every move loses) or b is empty.
func (e *Engine) RootMoves(b *Board, n int) ([]Move, error) {
	if err := atTurnStart(b, "root moves"); err != nil {
		return nil, err
	}
	if n < 1 || n > MaxWidth*MaxWidth {
		return nil, fmt.Errorf("engine: root moves: n must be in 1..%d, not %d", MaxWidth*MaxWidth, n)
	}
	if b.n == 0 {
		return nil, nil
	}
	e.begin(context.Background(), b, 0)
	defer func() { e.ctx = nil }()
	e.root = b.ToMove()
	return e.rootMovesHere(n), nil
}

// rootMovesHere is RootMoves on e.board (side to move at a turn start, not
// empty), with e.root set by the caller: a fresh slice of at most n moves,
// nil when the opponent has three or more threats. It uses the ply-0
// buffers (e.plies[0], e.ts[0]).
func (e *Engine) rootMovesHere(n int) []Move {
	ts := &e.ts[0]
	t := 0
	if o := e.board.ToMove().Opponent(); e.board.hasThreatRoad(o) {
		e.board.analyzeThreats(o, ts)
		t = ts.t
	}
	if t >= 3 {
		return nil
	}
	saved := e.set
	e.set.Width, e.set.WidthByPly[0] = n, n
	e.genMoves(0, ts, t)
	e.set = saved
	out := make([]Move, len(e.plies[0].moves))
	for i, m := range e.plies[0].moves {
		out[i] = m.m
	}
	return out
}

// atTurnStart is the check of ProveWin's and RootMoves' board: not over
// and at the start of a turn; what names the caller in the error.
func atTurnStart(b *Board, what string) error {
	switch {
	case b.Over():
		return fmt.Errorf("engine: %s: the game is over", what)
	case b.n > 0 && b.StonesLeft() != 2:
		return fmt.Errorf("engine: %s: the position is in mid-turn (one stone of the pair placed)", what)
	}
	return nil
}
