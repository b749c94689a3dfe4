package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// mixedWins are positions from arena games of roadtune against Cloudict
// depth 2 (2026-11-25, the balanced suite, tc=1) where the side to move
// wins by a line of double threats with one single threat in it, and
// the double-threat search alone finds no win (6 attacker moves, 2^17
// positions).
var mixedWins = []string{
	"JJ FEHI KIKJ KKLJ JKJL HLJI ILHM LIGN",
	"JJ GFFI JIKI JHII KGKH MGKJ",
}

// TestThreatMixed: with ThreatMixed the threat search finds the mixed
// wins, which a brute force over every pair of defender stones that
// blocks the attacker's threats confirms at every defender turn (the
// engine proposes the attacker's moves, nothing the defender can do is
// left out); without it, none. With the zone's re-proofs dropped, the
// same brute force refuted claims of the search (checked by hand on
// 2026-11-25), so it is a real check; with them it confirmed all 24 mixed
// wins found in 1,200 games' positions.
func TestThreatMixed(t *testing.T) {
	pureS := Settings{ThreatSearch: true, ThreatDepth: 6, ThreatNodes: 1 << 17, DefendNodes: 1, TableBits: MinTableBits}
	mixS := pureS
	mixS.ThreatMixed = 8
	pure, mix := newEngine(t, overnight(t), pureS), newEngine(t, overnight(t), mixS)
	for _, moves := range mixedWins {
		b := boardOf(t, moves)
		if m, _, ok := runTS(pure, b); ok {
			t.Errorf("%s: the double-threat search wins with %v", moves, m)
		}
		m, plies, ok := runTS(mix, b)
		if !ok {
			t.Errorf("%s: no mixed win found", moves)
			continue
		}
		calls := 0
		if !verifyWin(t, mix, b, &calls, 0) {
			t.Errorf("%s: the mixed win %v (%d plies) is refuted", moves, m, plies)
		}
		t.Logf("%s: %v wins in %d plies; brute force over %d positions", moves, m, plies, calls)
	}
	if err := (Settings{ThreatMixed: tsMaxMoves + 1}).Validate(); err == nil || !strings.Contains(err.Error(), "ThreatMixed") {
		t.Errorf("ThreatMixed out of range: %v", err)
	}
}

// runTS runs e's threat search for the side to move in b: the first move,
// the plies to the six, and whether a win was proved.
func runTS(e *Engine, b *Board) (Move, int, bool) {
	e.board.CopyFrom(b)
	e.root = b.ToMove()
	e.nodes, e.stop, e.ctx, e.maxNodes, e.deadline = 0, false, context.Background(), 0, time.Time{}
	e.seq++
	e.salt = mix64(e.seq)
	e.poll()
	m, plies, ok := e.threatSearch(e.set.ThreatDepth, e.set.ThreatNodes)
	e.ctx = nil
	return m, plies, ok
}

// verifyWin reports whether the side to move in b wins: e proposes the
// attacker's move, and every pair of defender stones that blocks all its
// threat roads must leave a position verifyWin accepts (depth counts the
// attacker moves so far).
func verifyWin(t *testing.T, e *Engine, b *Board, calls *int, depth int) bool {
	*calls++
	if _, ok := b.winningMove(); ok {
		return true
	}
	if depth > 8 {
		return false
	}
	a := b.ToMove()
	m, _, ok := runTS(e, b)
	if !ok {
		return false
	}
	c := b.Clone()
	if err := c.Play(m); err != nil {
		t.Fatal(err)
	}
	if c.hasThreatRoad(a.Opponent()) {
		return false
	}
	var ts threatSet
	c.analyzeThreats(a, &ts)
	if ts.t == 0 {
		return false
	}
	if ts.t >= 3 {
		return true
	}
	var xs []Point
	for _, em := range ts.empties[:ts.n] {
		for _, p := range em {
			if p != NoPoint && !containsPoint(xs, p) {
				xs = append(xs, p)
			}
		}
	}
	seen := map[Move]bool{}
	for _, x := range xs {
		for y := Point(0); y < NumPoints; y++ {
			if y == x || c.cells[y] != Empty || !ts.hitsAll(x, y) {
				continue
			}
			pm := Pair(min(x, y), max(x, y))
			if seen[pm] {
				continue
			}
			seen[pm] = true
			d := c.Clone()
			if err := d.Play(pm); err != nil {
				t.Fatal(err)
			}
			if d.Over() {
				return false
			}
			if !verifyWin(t, e, d, calls, depth+1) {
				t.Logf("refuted by %v after %v (depth %d)", pm, m, depth)
				return false
			}
		}
	}
	return true
}
