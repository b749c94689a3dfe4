package engine

import "math/bits"

// Threats (Wu & Huang 2005). A side has t
// threats when the opponent needs t stones to stop every six it could
// complete on its next move. The roads that matter are the live roads with 4
// or 5 stones (each has at most 2 empty points); t is the size of a smallest
// set of points hitting all of them, found by brute force over the empty
// points of the first roads (t ≥ 3 is reported as 3).

// threatSet holds the analysis of one side's threat roads.
type threatSet struct {
	n       int                // threat roads found
	empties [NumRoads][2]Point // empty points of each threat road (second NoPoint for a five)
	t       int                // minimum hitting set size, capped at 3
	singles [2]Point           // the size-1 hitting sets when t == 1
	nSingle int
	pairs   [4]Move // the size-2 hitting sets when t == 2, each with A < B
	nPairs  int
}

// analyzeThreats fills ts with c's threat roads and their minimum hitting
// sets. Roads are taken in index order, so the result is deterministic.
func (b *Board) analyzeThreats(c Color, ts *threatSet) {
	ts.n, ts.t, ts.nSingle, ts.nPairs = 0, 0, 0, 0
	for w, word := range b.threat[c] {
		for word != 0 {
			r := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			e := &ts.empties[ts.n]
			e[0], e[1] = NoPoint, NoPoint
			k := 0
			for _, p := range roadPoints[r] {
				if b.cells[p] == Empty {
					e[k] = p
					k++
				}
			}
			ts.n++
		}
	}
	if ts.n == 0 {
		return
	}
	first := ts.empties[0]
	for _, x := range first {
		if x != NoPoint && ts.hitsAll(x, NoPoint) {
			ts.singles[ts.nSingle] = x
			ts.nSingle++
		}
	}
	if ts.nSingle > 0 {
		ts.t = 1
		return
	}
	for _, x := range first {
		if x == NoPoint {
			continue
		}
		j := ts.firstMissed(x)
		for _, y := range ts.empties[j] {
			if y == NoPoint || !ts.hitsAll(x, y) {
				continue
			}
			m := Pair(min(x, y), max(x, y))
			dup := false
			for _, q := range ts.pairs[:ts.nPairs] {
				dup = dup || q == m
			}
			if !dup {
				ts.pairs[ts.nPairs] = m
				ts.nPairs++
			}
		}
	}
	if ts.nPairs > 0 {
		ts.t = 2
		return
	}
	ts.t = 3
}

// hitsAll reports whether every threat road has x or y among its empties.
func (ts *threatSet) hitsAll(x, y Point) bool {
	for _, e := range ts.empties[:ts.n] {
		if e[0] != x && e[1] != x && (y == NoPoint || (e[0] != y && e[1] != y)) {
			return false
		}
	}
	return true
}

// firstMissed returns the index of the first threat road without x.
func (ts *threatSet) firstMissed(x Point) int {
	for i, e := range ts.empties[:ts.n] {
		if e[0] != x && e[1] != x {
			return i
		}
	}
	return 0
}

// threatCount returns c's number of threats (0..3, 3 meaning "three or
// more") without keeping the hitting sets. It is cheap when c has no live
// road of 4 or 5.
func (b *Board) threatCount(c Color, ts *threatSet) int {
	if !b.hasThreatRoad(c) {
		return 0
	}
	b.analyzeThreats(c, ts)
	return ts.t
}

// Threats returns how many threats c has: the number of stones the opponent
// needs to stop every six c could complete on its next move (0, 1, 2, or 3
// meaning three or more). Wu & Huang 2005.
func (b *Board) Threats(c Color) int {
	if c != Black && c != White {
		return 0
	}
	var ts threatSet
	return b.threatCount(c, &ts)
}

// winningMove returns a move completing six for the side to move, if it has a
// live road of 4 or 5: a single stone for a five, else the two empties of a
// four. The first such road in index order is used, preferring fives.
func (b *Board) winningMove() (Move, bool) {
	c := b.ToMove()
	if !b.hasThreatRoad(c) {
		return Move{NoPoint, NoPoint}, false
	}
	var four Move
	found := false
	for w, word := range b.threat[c] {
		for word != 0 {
			r := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			var e [2]Point
			k := 0
			for _, p := range roadPoints[r] {
				if b.cells[p] == Empty && k < 2 {
					e[k] = p
					k++
				}
			}
			if k == 1 || b.StonesLeft() == 1 && k == 2 {
				if k == 1 {
					return Single(e[0]), true
				}
				continue
			}
			if !found {
				four, found = Pair(e[0], e[1]), true
			}
		}
	}
	return four, found
}
