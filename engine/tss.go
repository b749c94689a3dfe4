package engine

import "slices"

// Threat search: victory by continuous double threat (Wu & Huang 2005;
// Qi 2018 §4.4 after Allis; Wu & Huang 2005 for threats). The attacker (the
// side to move at the root) plays only moves after which it has two threats
// (or three, which wins at once because the defender cannot stop them) and
// after which the defender has no six to complete; the defender's replies are
// all its minimal blocking pairs. A line succeeds when every defence meets
// another such move, until a move with three or more threats. Defender
// counter-threats are respected: when the defender has one or two threats
// the attacker's move must also block them, three or more refute the line.
//
// Attacker moves are generated from the attacker's live roads with 3 stones
// (P3: their empty points) and 2 stones (both stones in one road): after a
// pair, a road holds 4 or 5 stones only if it held 3 and received one of
// them, or held 2 and received both. Pairs of P3 points, and pairs inside one
// 2-stone road, therefore cover every double-threat move except those that
// must also block a single defender threat, which are added as (blocking
// stone, P3 or 2-road point) pairs. The search is sound: every reported win
// is forced; it is complete only up to ThreatDepth attacker moves, the
// ThreatNodes budget and the tsMaxMoves best double-threat moves per node.

// tsMaxMoves is the number of double-threat moves kept per attacker node,
// best by the evaluation first.
const tsMaxMoves = 48

// tplyBuf is the threat search scratch of one attacker ply.
type tplyBuf struct {
	moves  []scoredMove
	roads3 [NumRoads]int16
	roads2 [NumRoads]int16
	pts    []Point
	inP3   [NumPoints]uint32 // == stamp: point is empty on a 3-stone road
	inAny  [NumPoints]uint32 // == stamp: point listed in pts
	seen   [NumPoints]uint32 // == pairStamp: partner tried for this first stone
	stamp  uint32
	pstamp uint32
	tsA    threatSet
	tsD    threatSet
}

// liveLen[c][code] is the number of c's stones on a road live for c, else 0.
var liveLen [3][64]uint8

func init() {
	for code := 0; code < 64; code++ {
		bc, wc := codeCounts(code)
		if wc == 0 {
			liveLen[Black][code] = uint8(bc)
		}
		if bc == 0 {
			liveLen[White][code] = uint8(wc)
		}
	}
}

// threatRoadCount is N_c[4] + N_c[5] from the packed histogram.
func (b *Board) threatRoadCount(c Color) int {
	h := b.h[c]
	return int(h>>(histBits*3)&histMask + h>>(histBits*4)&histMask)
}

// threatSearch looks for a forced win of the side to move by continuous
// double threats of at most depth attacker moves, visiting at most limit
// positions (0 = no limit). It
// returns the first move, the number of moves (plies) until the six, and
// whether a win was proved. It deepens iteratively from one attacker move
// to depth, sharing the budget, so the shortest win is found first
// and, once a win is proved, the attacker's later searches find its
// continuation (a shallower tree) within budget. The side to move need not
// be the root's: the defensive check (defend.go) runs it for the opponent.
func (e *Engine) threatSearch(depth int, limit int64) (Move, int, bool) {
	e.tsNodes = 0
	e.tsLimit = limit
	// With ThreatMixed, the double threats alone first: a mixed search
	// finds every win they find, but spends its budget on single threats
	// before it reaches the longer double-threat lines. Each pass has the
	// budget.
	e.tsPure = e.set.ThreatMixed > 0
	for pass := 0; pass < 2; pass++ {
		for left := 1; left <= depth && !e.tsOut(); left++ {
			if ok, plies, m := e.tsAttack(0, left); ok && !e.stop {
				e.tsPure = false
				return m, plies, true
			}
		}
		if !e.tsPure || e.stop {
			break
		}
		e.tsPure, e.tsNodes = false, 0 // the mixed pass has a budget of its own
	}
	return Move{NoPoint, NoPoint}, 0, false
}

// tsOut reports whether the threat search must give up.
func (e *Engine) tsOut() bool { return e.stop || (e.tsLimit > 0 && e.tsNodes >= e.tsLimit) }

// tsTableBits: the threat search's own transposition table has
// 1<<tsTableBits entries of 16 bytes (1 MiB).
const tsTableBits = 16

// tsEntry is one slot of the threat search's table: the outcome of an
// attacker node, keyed by the position's hash and the search's salt. A win
// (plies > 0, with its first move) holds whatever the remaining depth; a
// failure holds for every depth up to left. Failures cut short by the node
// budget are not stored, so entries depend only on the position and the
// move ordering (weights and root side), like the main table's.
type tsEntry struct {
	key   uint64
	m     Move
	plies int8 // > 0: attacker wins in plies; 0: no win within left moves
	left  int8
}

// tsAttack is an attacker node k attacker moves below the root with left
// attacker moves allowed. It returns whether the attacker wins by force,
// the plies until its six, and the first move of the win. Proved wins and
// complete failures are kept in the threat table (tsEntry): the iterative
// deepening of threatSearch and the defensive check's searches after
// different root moves revisit many positions.
func (e *Engine) tsAttack(k, left int) (bool, int, Move) {
	none := Move{NoPoint, NoPoint}
	e.tsNodes++
	e.count(1)
	if e.tsOut() {
		return false, 0, none
	}
	if e.set.DefendNodes == 0 && e.set.ThreatMixed == 0 && !e.proving {
		return e.tsAttackNode(k, left) // without the check: no table, as before it
	}
	b := &e.board
	key := b.Hash() ^ e.salt ^ tsSalt
	if e.set.ThreatMixed > 0 && !e.tsPure {
		key ^= tsMixedSalt
	}
	ent := &e.tsTT[key&tsMask]
	if ent.key == key {
		if ent.plies > 0 {
			return true, int(ent.plies), ent.m
		}
		if int(ent.left) >= left {
			return false, 0, none
		}
	}
	ok, plies, m := e.tsAttackNode(k, left)
	if ok {
		*ent = tsEntry{key: key, m: m, plies: int8(plies), left: int8(left)}
	} else if !e.tsOut() {
		*ent = tsEntry{key: key, m: none, left: int8(left)}
	}
	return ok, plies, m
}

// tsSalt separates the threat table's keys from the main table's.
const tsSalt = 0x5bd1e9955bd1e995

const tsMask = 1<<tsTableBits - 1

// tsAttackNode searches an attacker node for tsAttack (no table lookup).
func (e *Engine) tsAttackNode(k, left int) (bool, int, Move) {
	none := Move{NoPoint, NoPoint}
	b := &e.board
	a := b.ToMove()
	d := a.Opponent()
	if m, ok := b.winningMove(); ok {
		return true, 0, m
	}
	tb := &e.tplys[k]
	tD := 0
	if b.hasThreatRoad(d) {
		b.analyzeThreats(d, &tb.tsD)
		tD = tb.tsD.t
		if tD >= 3 {
			return false, 0, none
		}
	}
	if win, ok := e.tsGenerate(tb, a, tD, left == 1); ok {
		return true, 2, win
	}
	if left == 1 {
		return false, 0, none
	}
	for i := range tb.moves {
		m := tb.moves[i].m
		b.Place(m.A)
		b.Place(m.B)
		b.analyzeThreats(a, &tb.tsA)
		refuted, longest := false, 0
		for _, r := range tb.tsA.pairs[:tb.tsA.nPairs] {
			b.Place(r.A)
			b.Place(r.B)
			ok, plies, _ := e.tsAttack(k+1, left-1)
			b.Unplace()
			b.Unplace()
			if !ok {
				refuted = true
				break
			}
			longest = max(longest, plies)
		}
		b.Unplace()
		b.Unplace()
		if !refuted && tb.tsA.nPairs > 0 {
			return true, longest + 2, m
		}
		if e.tsOut() {
			break
		}
	}
	if e.set.ThreatMixed > 0 && !e.tsPure && tD == 0 && !e.tsOut() {
		return e.tsMixed(tb, k, left)
	}
	return false, 0, none
}

// tsGenerate fills tb.moves with the attacker's double-threat moves (at most
// tsMaxMoves, best by the evaluation first). If a move gives three or more
// threats it stops and returns it with ok = true. With winOnly it keeps no
// double-threat moves, only looks for such a win.
func (e *Engine) tsGenerate(tb *tplyBuf, a Color, tD int, winOnly bool) (Move, bool) {
	b := &e.board
	d := a.Opponent()
	tb.moves = tb.moves[:0]
	tb.stamp++
	st := tb.stamp
	n3, n2 := 0, 0
	for r := 0; r < NumRoads; r++ {
		switch liveLen[a][b.code[r]&63] {
		case 3:
			tb.roads3[n3] = int16(r)
			n3++
		case 2:
			tb.roads2[n2] = int16(r)
			n2++
		}
	}
	tb.pts = tb.pts[:0]
	for _, r := range tb.roads3[:n3] {
		for _, p := range roadPoints[r] {
			if b.cells[p] == Empty {
				tb.inP3[p] = st
				if tb.inAny[p] != st {
					tb.inAny[p] = st
					tb.pts = append(tb.pts, p)
				}
			}
		}
	}
	for _, r := range tb.roads2[:n2] {
		for _, p := range roadPoints[r] {
			if b.cells[p] == Empty && tb.inAny[p] != st {
				tb.inAny[p] = st
				tb.pts = append(tb.pts, p)
			}
		}
	}
	slices.Sort(tb.pts)

	var win Move
	found := false
	// try evaluates the pair (x, y) with x already placed.
	try := func(x, y Point) bool {
		if b.cells[y] != Empty {
			return false
		}
		b.Place(y)
		e.tsNodes++
		e.count(1)
		if !b.hasThreatRoad(d) && b.threatRoadCount(a) >= 2 {
			if t := b.threatCount(a, &tb.tsA); t >= 3 {
				win, found = Pair(min(x, y), max(x, y)), true
			} else if t == 2 && !winOnly {
				m := Pair(min(x, y), max(x, y))
				dup := false
				for i := range tb.moves {
					dup = dup || tb.moves[i].m == m
				}
				if !dup {
					tb.moves = pushTop(tb.moves, tsMaxMoves, scoredMove{m, e.static(a)})
				}
			}
		}
		b.Unplace()
		return found || e.tsOut()
	}

	if tD == 2 {
		for _, m := range tb.tsD.pairs[:tb.tsD.nPairs] {
			b.Place(m.A)
			stop := try(m.A, m.B)
			b.Unplace()
			if stop {
				break
			}
		}
		return win, found
	}
	for _, x := range tb.pts {
		tb.pstamp++
		ps := tb.pstamp
		b.Place(x)
		stop := false
		if tb.inP3[x] == st {
			for _, y := range tb.pts {
				if y > x && tb.inP3[y] == st {
					tb.seen[y] = ps
					if stop = try(x, y); stop {
						break
					}
				}
			}
		}
		// Roads that held 2 stones and got x now hold 3 (former 3-stone
		// roads through x hold 4): their other empties complete a four.
		for dir := 0; dir < 4 && !stop; dir++ {
			f := int(dirFirst[x][dir])
			for r := f; r < f+int(dirCount[x][dir]) && !stop; r++ {
				if liveLen[a][b.code[r]&63] != 3 {
					continue
				}
				for _, y := range roadPoints[r] {
					if y > x && b.cells[y] == Empty && tb.seen[y] != ps {
						tb.seen[y] = ps
						if stop = try(x, y); stop {
							break
						}
					}
				}
			}
		}
		b.Unplace()
		if stop {
			return win, found
		}
	}
	if tD == 1 {
		// One stone must block the defender's threat; the other builds.
		for _, h := range tb.tsD.singles[:tb.tsD.nSingle] {
			if tb.inP3[h] == st {
				continue // every useful pair with h was tried above
			}
			b.Place(h)
			stop := false
			for _, y := range tb.pts {
				if stop = try(h, y); stop {
					break
				}
			}
			b.Unplace()
			if stop {
				break
			}
		}
	}
	return win, found
}
