package engine

import (
	"cmp"
	"math/bits"
	"slices"
)

// Move generation (Qi 2018 §4.3, Fig. 4-4): candidate points are the empty
// points within Chebyshev distance 2 of a stone; single points are scored by
// the evaluation after placing them; pairs are formed from the best singles
// and ordered by the evaluation after both stones; the best Width are kept.
// Forced moves come first: when the opponent has one or two threats, every
// generated move contains a minimum hitting set of them (t = 1: one blocking
// stone and the best free stones; t = 2: the hitting pairs).

type scoredPoint struct {
	p Point
	s float64
}

type scoredMove struct {
	m Move
	s float64
}

// plyBuf is the per-ply scratch of the search.
type plyBuf struct {
	cands    [NumPoints]Point
	singles  [MaxSingles]scoredPoint
	nSingles int // singles kept by the last topSingles
	moves    []scoredMove
}

const rowMask = 1<<Size - 1

// candidates appends the empty points within Chebyshev distance 2 of a stone
// in increasing index order. If fewer than two exist it appends every empty
// point instead, so a full turn can always be generated.
func (b *Board) candidates(dst []Point) []Point {
	start := len(dst)
	for r := 0; r < Size; r++ {
		var m uint32
		for rr := max(0, r-2); rr <= min(Size-1, r+2); rr++ {
			m |= b.occ[rr]
		}
		m = (m | m<<1 | m<<2 | m>>1 | m>>2) & rowMask &^ b.occ[r]
		for m != 0 {
			dst = append(dst, PointAt(bits.TrailingZeros32(m), r))
			m &= m - 1
		}
	}
	if len(dst)-start < 2 {
		dst = dst[:start]
		for p := Point(0); p < NumPoints; p++ {
			if b.cells[p] == Empty {
				dst = append(dst, p)
			}
		}
	}
	return dst
}

// betterMove orders moves by score, then by point indices (deterministic).
func betterMove(x, y *scoredMove) bool {
	if x.s != y.s {
		return x.s > y.s
	}
	if x.m.A != y.m.A {
		return x.m.A < y.m.A
	}
	return x.m.B < y.m.B
}

// pushTop inserts m into list, kept sorted best first and at most w long.
func pushTop(list []scoredMove, w int, m scoredMove) []scoredMove {
	n := len(list)
	if n == w {
		if !betterMove(&m, &list[n-1]) {
			return list
		}
		list[n-1] = m
	} else {
		list = append(list, m)
		n++
	}
	for i := n - 1; i > 0 && betterMove(&list[i], &list[i-1]); i-- {
		list[i], list[i-1] = list[i-1], list[i]
	}
	return list
}

// static is the road score from s's view: the root side's score (the
// weights are always applied from the root side's view, as Chen 2010 §3.3
// and Qi 2018 §3.1 score a position), negated when s is the root's opponent. The tempo schema
// is the exception: its weights are applied from s's view (s is the side
// whose turn it is), and its threat term is added by the callers that know
// the threats (leaf, node).
func (e *Engine) static(s Color) float64 {
	b := &e.board
	if e.ev.tempo {
		return e.ev.score(b.h[s], b.h[s.Opponent()])
	}
	v := e.ev.score(b.h[e.root], b.h[e.root.Opponent()])
	if s != e.root {
		return -v
	}
	return v
}

// leaf scores the position at ply from the side to move's view without
// searching: 0 for a full board, a mate score when the side to move can
// complete six now, or when the opponent has three or more threats, else the
// static road score (with the tempo schema's term for the opponent's one or
// two threats). Its decided-position rules are node's (search.go) and
// must stay the same; leaf counts threats with the cheaper threatCount
// because it runs once per generated move, where node needs the full
// analyzeThreats for move generation.
func (e *Engine) leaf(ply int) float64 {
	if v, ok := e.decided(ply); ok {
		return v
	}
	b := &e.board
	s := b.ToMove()
	o := s.Opponent()
	t := 0
	if b.hasThreatRoad(o) {
		if t = b.threatCount(o, &e.ts[ply]); t >= 3 {
			return -(Mate - float64(ply+1))
		}
	}
	return e.static(s) - e.ev.thr[t] + e.ev.crossTerm(&e.board, s)
}

// decided is the first of the decided-position rules leaf and node share:
// a full board scores 0, a side to move that can complete six now scores
// Mate − ply; ok is false when neither holds.
func (e *Engine) decided(ply int) (v float64, ok bool) {
	b := &e.board
	if b.n == NumPoints {
		return 0, true
	}
	if b.hasThreatRoad(b.ToMove()) {
		return Mate - float64(ply), true
	}
	return 0, false
}

// topSingles scores every candidate point for side s by the evaluation after
// placing it and keeps the best Singles in pb.singles (score, then index).
// It returns how many were kept.
func (e *Engine) topSingles(pb *plyBuf, s Color) int {
	b := &e.board
	cands := b.candidates(pb.cands[:0])
	k := e.set.Singles
	n := 0
	for _, p := range cands {
		b.Place(p)
		v := e.static(s)
		b.Unplace()
		if n == k {
			if v <= pb.singles[n-1].s {
				continue
			}
			n--
		}
		i := n
		for i > 0 && v > pb.singles[i-1].s {
			pb.singles[i] = pb.singles[i-1]
			i--
		}
		pb.singles[i] = scoredPoint{p, v}
		n++
	}
	pb.nSingles = n
	return n
}

// genMoves fills e.plies[ply].moves with the best Width moves for the side
// to move at the start of its turn, best first, each scored by leaf() of the
// resulting position from the mover's view. t and ts describe the opponent's
// threats (t = 1 or 2 restricts the moves to blocking ones). It returns how
// many positions were scored.
func (e *Engine) genMoves(ply int, ts *threatSet, t int) int64 {
	b := &e.board
	pb := &e.plies[ply]
	pb.moves = pb.moves[:0]
	s := b.ToMove()
	w := e.set.width(ply)
	var scored int64
	switch t {
	case 1:
		for hi := 0; hi < ts.nSingle; hi++ {
			h := ts.singles[hi]
			b.Place(h)
			k := e.topSingles(pb, s)
			for i := 0; i < k; i++ {
				f := pb.singles[i].p
				if hi == 1 && f == ts.singles[0] {
					continue // (singles[0], singles[1]) was scored already
				}
				b.Place(f)
				v := -e.leaf(ply + 1)
				b.Unplace()
				scored++
				pb.moves = pushTop(pb.moves, w, scoredMove{Pair(min(h, f), max(h, f)), v})
			}
			b.Unplace()
		}
	case 2:
		for _, m := range ts.pairs[:ts.nPairs] {
			b.Place(m.A)
			b.Place(m.B)
			v := -e.leaf(ply + 1)
			b.Unplace()
			b.Unplace()
			scored++
			pb.moves = pushTop(pb.moves, w, scoredMove{m, v})
		}
	default:
		e.topSingles(pb, s)
		pb.moves, scored = e.singlePairs(pb, ply, pb.moves, w, nil)
	}
	if e.set.Blocks > 0 && t < 2 {
		scored += e.addBlocks(ply, ts, t)
	}
	return scored
}

// singlePairs adds to list, kept sorted best first and at most w long,
// every pair of pb's best singles (pb.singles, from topSingles) that skip
// (nil: none) does not reject, each scored by leaf() of the position after
// it from the mover's view (ply: the mover's ply). It returns the list and
// how many positions it scored.
func (e *Engine) singlePairs(pb *plyBuf, ply int, list []scoredMove, w int, skip func(Move) bool) ([]scoredMove, int64) {
	b := &e.board
	k := pb.nSingles
	var scored int64
	for i := 0; i < k; i++ {
		a := pb.singles[i].p
		b.Place(a)
		for j := i + 1; j < k; j++ {
			c := pb.singles[j].p
			m := Pair(min(a, c), max(a, c))
			if skip != nil && skip(m) {
				continue
			}
			b.Place(c)
			v := -e.leaf(ply + 1)
			b.Unplace()
			scored++
			list = pushTop(list, w, scoredMove{m, v})
		}
		b.Unplace()
	}
	return list, scored
}

// Blocking moves (Settings.Blocks): blockPoints empty points of the
// opponent's 3-stone roads are paired with each other and with the
// blockPartners best singles.
const (
	blockPoints   = 6
	blockPartners = 4
)

// addBlocks adds to e.plies[ply].moves, kept sorted best first, up to
// Blocks moves through the empty points of the opponent's live 3-stone
// roads that the list lacks, best by leaf score (see Settings.Blocks); t
// and ts are the opponent's threats (t = 1: every move holds a blocking
// stone, so the pairs are that stone and a block point). It returns how
// many positions were scored.
func (e *Engine) addBlocks(ply int, ts *threatSet, t int) int64 {
	b := &e.board
	s := b.ToMove()
	o := s.Opponent()
	if b.h[o]>>(histBits*2)&histMask == 0 {
		return 0 // no live 3-stone road
	}
	// The block points, on most 3-stone roads first, then by the
	// evaluation after the stone, then by index.
	pts := e.blkPts[:0]
	for r := 0; r < NumRoads; r++ {
		if liveLen[o][b.code[r]&63] != 3 {
			continue
		}
		for _, p := range roadPoints[r] {
			if b.cells[p] == Empty {
				if e.blkOn[p] == 0 {
					pts = append(pts, scoredPoint{p: p})
				}
				e.blkOn[p]++
			}
		}
	}
	for i := range pts {
		p := pts[i].p
		b.Place(p)
		pts[i].s = float64(e.blkOn[p])*Mate + e.static(s)
		b.Unplace()
	}
	for i := range pts {
		e.blkOn[pts[i].p] = 0
	}
	slices.SortFunc(pts, func(x, y scoredPoint) int {
		switch {
		case x.s != y.s:
			return cmp.Compare(y.s, x.s)
		default:
			return cmp.Compare(x.p, y.p)
		}
	})
	pts = pts[:min(len(pts), blockPoints)]
	e.blkPts = pts

	pb := &e.plies[ply]
	kept := len(pb.moves)
	var scored int64
	try := func(x, y Point) {
		if x == y || b.cells[x] != Empty || b.cells[y] != Empty {
			return
		}
		m := Pair(min(x, y), max(x, y))
		if hasMove(pb.moves, m) {
			return
		}
		b.Place(x)
		b.Place(y)
		v := -e.leaf(ply + 1)
		b.Unplace()
		b.Unplace()
		scored++
		// The added moves gather after the kept ones, best first.
		added := pushTop(pb.moves[kept:], e.set.Blocks, scoredMove{m, v})
		pb.moves = pb.moves[:kept+len(added)]
	}
	if t == 1 {
		for _, h := range ts.singles[:ts.nSingle] {
			for _, bp := range pts {
				try(h, bp.p)
			}
		}
	} else {
		for i, bp := range pts {
			for _, q := range pts[i+1:] {
				try(bp.p, q.p)
			}
			for _, q := range pb.singles[:min(pb.nSingles, blockPartners)] {
				try(bp.p, q.p)
			}
		}
	}
	// Merge: every move in score order.
	for i := kept; i < len(pb.moves); i++ {
		for j := i; j > 0 && betterMove(&pb.moves[j], &pb.moves[j-1]); j-- {
			pb.moves[j], pb.moves[j-1] = pb.moves[j-1], pb.moves[j]
		}
	}
	return scored
}
