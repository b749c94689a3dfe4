package engine

// Mixed threat sequences (issue 14: "sequences that mix single-threat and
// double-threat moves"). The threat search (tss.go) lets the attacker play
// only double threats, after which the defender's two stones are both
// forced. After a single threat the defender must put one stone on the
// threat's blocking point but the other is free: a sound proof has to beat
// every place of that free stone. Following the relevance-zone proofs of
// Wu et al. for Connect6, the search places the free stone q0 at a point
// of its own choosing, proves the double-threat win that follows, and
// collects the proof's zone (tsZone): the points a defender stone could
// matter on. A stone anywhere else leaves the proof intact (it cannot
// stop a threat road the proof uses, nor give the defender a threat, nor
// take a point the attacker plays), and removing q0 only helps the
// attacker; so the win is re-proved for q at every empty point of the
// zone, and then holds for every free stone. One single threat per line
// (the rest are double threats), at most Settings.ThreatMixed candidate
// moves per attacker node, the ones the evaluation likes best.

// tsMixedSalt separates the threat table's entries of searches that may
// use single threats: the zone walk reads the table and must see proofs
// made of double threats only.
const tsMixedSalt = 0x2545f4914f6cdd1d

// tsMixed tries the attacker's single-threat moves at node k (the
// attacker to move, tD = 0, left ≥ 2 attacker moves): it returns whether
// one of them wins by force, the plies to the six, and the move. tb is
// node k's scratch, free to reuse (its double threats have failed).
func (e *Engine) tsMixed(tb *tplyBuf, k, left int) (bool, int, Move) {
	none := Move{NoPoint, NoPoint}
	b := &e.board
	a := b.ToMove()
	d := a.Opponent()
	// Candidates: a stone on a 3-stone road (which makes it a four, one
	// threat) with any point of the attacker's 2- and 3-stone roads.
	tb.moves = tb.moves[:0]
	st := tb.stamp // tsGenerate's marks of this node: pts and inP3
	for _, x := range tb.pts {
		if tb.inP3[x] != st {
			continue
		}
		b.Place(x)
		for _, y := range tb.pts {
			if y == x || b.cells[y] != Empty || (tb.inP3[y] == st && y < x) {
				continue
			}
			b.Place(y)
			e.tsNodes++
			e.count(1)
			if !b.hasThreatRoad(d) && b.threatCount(a, &tb.tsA) == 1 {
				m := Pair(min(x, y), max(x, y))
				if !hasMove(tb.moves, m) {
					tb.moves = pushTop(tb.moves, e.set.ThreatMixed, scoredMove{m, e.static(a)})
				}
			}
			b.Unplace()
			if e.tsOut() {
				break
			}
		}
		b.Unplace()
		if e.tsOut() {
			return false, 0, none
		}
	}
	pure := e.tsPure
	e.tsPure = true
	defer func() { e.tsPure = pure }()
	for i := range tb.moves {
		m := tb.moves[i].m
		b.Place(m.A)
		b.Place(m.B)
		b.analyzeThreats(a, &tb.tsA)
		blocks := tb.tsA.singles
		nb := tb.tsA.nSingle
		won, longest := nb > 0, 0
		for _, h := range blocks[:nb] {
			ok, plies := e.tsEveryFreeStone(k, left, h)
			if !ok {
				won = false
				break
			}
			longest = max(longest, plies)
		}
		// Two threat roads through a common point can also be blocked by
		// a stone on each, neither of them that point: both stones forced.
		split, ns := splitBlocks(&tb.tsA)
		for _, r := range split[:ns] {
			if !won {
				break
			}
			b.Place(r.A)
			b.Place(r.B)
			ok, plies, _ := e.tsAttack(k+1, left-1)
			b.Unplace()
			b.Unplace()
			won = ok && !e.tsOut()
			longest = max(longest, plies)
		}
		b.Unplace()
		b.Unplace()
		if won {
			return true, longest + 2, m
		}
		if e.tsOut() {
			break
		}
	}
	return false, 0, none
}

// tsEveryFreeStone reports whether the attacker, having played a single
// threat at node k, wins by double threats (left−1 moves) after the
// defender blocks at h whatever the defender's second stone, with the
// plies of the longest of the proofs.
func (e *Engine) tsEveryFreeStone(k, left int, h Point) (bool, int) {
	b := &e.board
	b.Place(h)
	defer b.Unplace()
	q0 := e.farPoint()
	if q0 == NoPoint {
		return false, 0
	}
	b.Place(q0)
	ok, plies, _ := e.tsAttack(k+1, left-1)
	if ok {
		e.zoneStamp++
		ok = e.tsZone(k+1, left-1)
	}
	b.Unplace()
	if !ok || e.tsOut() {
		return false, 0
	}
	// The zone's points, taken before playing any: the re-proofs reuse
	// the scratch of the levels below.
	zone := e.zonePts[k][:0]
	for p := Point(0); p < NumPoints; p++ {
		if e.zone[p] == e.zoneStamp && b.cells[p] == Empty {
			zone = append(zone, p)
		}
	}
	e.zonePts[k] = zone
	for _, q := range zone {
		b.Place(q)
		ok, pl, _ := e.tsAttack(k+1, left-1)
		b.Unplace()
		if !ok || e.tsOut() {
			return false, 0
		}
		plies = max(plies, pl)
	}
	return true, plies + 2
}

// farPoint is the defender's free stone for the first proof: the first
// empty point of the board's edge, in a fixed order (a corner on all but
// crowded boards). Any point would do; an edge point is rarely in a zone.
func (e *Engine) farPoint() Point {
	for _, p := range edgeOrder {
		if e.board.cells[p] == Empty {
			return p
		}
	}
	for p := Point(0); p < NumPoints; p++ {
		if e.board.cells[p] == Empty {
			return p
		}
	}
	return NoPoint
}

// edgeOrder lists the board's edge points, corners first.
var edgeOrder = func() []Point {
	out := []Point{PointAt(0, 0), PointAt(18, 0), PointAt(0, 18), PointAt(18, 18)}
	for i := 1; i < 18; i++ {
		out = append(out, PointAt(i, 0), PointAt(i, 18), PointAt(0, i), PointAt(18, i))
	}
	return out
}()

// tsZone walks the double-threat proof of the attacker's win at node k
// (left moves; the table and the search give each attacker move) and
// marks its zone in e.zone with e.zoneStamp: the empty points of the
// roads that complete a six, of the attacker's threat roads after each of
// its moves, the attacker's stones, and the empty points of the
// defender's live roads of 3 or more stones at every position of the
// proof (a defender stone there could give the defender a threat). It
// reports false when a step of the proof cannot be found again (the
// budget ran out), and the caller then claims nothing.
func (e *Engine) tsZone(k, left int) bool {
	b := &e.board
	a := b.ToMove()
	d := a.Opponent()
	e.markDefenderRoads(d)
	if m, ok := b.winningMove(); ok {
		e.markMove(m)
		return true
	}
	ok, _, m := e.tsAttack(k, left)
	if !ok || e.tsOut() {
		return false
	}
	e.markMove(m)
	b.Place(m.A)
	b.Place(m.B)
	defer func() { b.Unplace(); b.Unplace() }()
	ts := &e.zoneTS[k]
	b.analyzeThreats(a, ts)
	for _, em := range ts.empties[:ts.n] {
		e.markMove(Move{em[0], em[1]})
	}
	e.markDefenderRoads(d)
	if ts.t >= 3 {
		return true
	}
	if ts.nPairs == 0 {
		return false
	}
	for i := 0; i < ts.nPairs; i++ {
		r := ts.pairs[i]
		b.Place(r.A)
		b.Place(r.B)
		ok := e.tsZone(k+1, left-1)
		b.Unplace()
		b.Unplace()
		if !ok {
			return false
		}
	}
	return true
}

// markMove marks the points of m (NoPoint ignored) in the zone.
func (e *Engine) markMove(m Move) {
	for _, p := range [2]Point{m.A, m.B} {
		if p != NoPoint {
			e.zone[p] = e.zoneStamp
		}
	}
}

// markDefenderRoads marks the empty points of d's live roads with 3 or
// more stones.
func (e *Engine) markDefenderRoads(d Color) {
	b := &e.board
	for r := 0; r < NumRoads; r++ {
		if liveLen[d][b.code[r]&63] < 3 {
			continue
		}
		for _, p := range roadPoints[r] {
			if b.cells[p] == Empty {
				e.zone[p] = e.zoneStamp
			}
		}
	}
}

// splitBlocks returns the blocking pairs of a single threat (ts.t == 1)
// that hold none of its blocking points (ts.singles): a stone on each of
// two threat roads through a common point. Every blocking pair hits the
// first road, so its stone there is one of that road's two empties, and
// the other stone hits the first road that stone misses: at most 4.
func splitBlocks(ts *threatSet) (out [4]Move, n int) {
	single := func(p Point) bool {
		for _, h := range ts.singles[:ts.nSingle] {
			if h == p {
				return true
			}
		}
		return false
	}
	for _, x := range ts.empties[0] {
		if x == NoPoint || single(x) {
			continue
		}
		for _, y := range ts.empties[ts.firstMissed(x)] {
			if y == NoPoint || y == x || single(y) || !ts.hitsAll(x, y) {
				continue
			}
			m := Pair(min(x, y), max(x, y))
			dup := false
			for _, q := range out[:n] {
				dup = dup || q == m
			}
			if !dup && n < len(out) {
				out[n] = m
				n++
			}
		}
	}
	return out, n
}
