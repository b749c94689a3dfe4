package engine

import (
	"fmt"
	"math/bits"
	"strings"
	"unsafe"
)

// Board is a Connect6 position with its roads kept up to date incrementally
// (Qi 2018 §3.1.3, "local scan"): per-road stone counts, the histograms
// N_c[n] (roads live for c holding n stones), the set of live roads with 4 or
// 5 stones per colour (the threat roads), row occupancy masks for candidate
// generation, and a Zobrist hash. Place and Unplace touch only the ≤24 roads
// through the point and allocate nothing.
//
// Turn order is implied by the number of stones: stone 0 is Black's single
// first stone, then White places stones 1–2, Black 3–4, and so on.
//
// The zero Board is not ready for use; call NewBoard or Reset. A Board is not
// safe for concurrent use.
type Board struct {
	cells  [NumPoints]Color
	code   [1024]uint8          // per road r < NumRoads: black count | white count<<3
	h      [3]uint64            // packed histograms, indexed by Color
	threat [3][roadWords]uint64 // per colour: live roads holding 4 or 5 stones
	live3  [3][roadWords]uint64 // per colour: live roads holding 3 stones, kept while track3
	track3 bool                 // keep live3 (TrackCross): the cross schema's engines only
	occ    [Size]uint32         // per row: bit col set when occupied
	zob    uint64               // Zobrist hash of the stones only
	n      int                  // stones on the board
	winner Color                // first side to complete six
	winAt  int                  // stone count when winner was set
	moves  [NumPoints]Point     // stones in the order placed
	undo   [NumPoints][2]uint64 // undo[i]: h[Black], h[White] before stone i
}

// NewBoard returns an empty board, Black to move with one stone to place.
func NewBoard() *Board {
	b := new(Board)
	b.Reset()
	return b
}

// Reset empties the board (Black to move, one stone to place) without
// allocating.
func (b *Board) Reset() { *b = Board{} }

// Clone returns an independent copy of b.
func (b *Board) Clone() *Board {
	c := new(Board)
	*c = *b
	return c
}

// CopyFrom makes b an exact copy of src without allocating.
func (b *Board) CopyFrom(src *Board) { *b = *src }

// At returns the colour of the stone at p, or Empty.
func (b *Board) At(p Point) Color { return b.cells[p] }

// sideOf returns the colour of the stone with 0-based index n in the game.
func sideOf(n int) Color {
	if n == 0 || ((n-1)/2)%2 == 1 {
		return Black
	}
	return White
}

// sideTab[n] = sideOf(n) for n = 0..NumPoints (the last entry is unused).
var sideTab [NumPoints + 1]Color

// ToMove returns the side whose turn it is (the colour of the next stone).
func (b *Board) ToMove() Color { return sideTab[b.n] }

// StonesLeft returns how many stones the side to move still places this turn:
// 1 on Black's first turn or after the first stone of a pair, else 2.
func (b *Board) StonesLeft() int {
	if b.n == 0 {
		return 1
	}
	return 2 - (b.n-1)%2
}

// Stones returns the number of stones on the board.
func (b *Board) Stones() int { return b.n }

// Turn returns the number of completed turns (moves). A pair cut short by a
// win on its first stone counts as completed.
func (b *Board) Turn() int {
	if b.n == 0 {
		return 0
	}
	t := 1 + (b.n-1)/2
	if b.winner != Empty && (b.n-1)%2 == 1 {
		t++
	}
	return t
}

// Winner returns the side that has six or more in a line (overlines count),
// or Empty while nobody has.
func (b *Board) Winner() Color { return b.winner }

// Full reports whether all 361 points are occupied.
func (b *Board) Full() bool { return b.n == NumPoints }

// Over reports whether the game has ended: a six, or a full board (a draw).
func (b *Board) Over() bool { return b.winner != Empty || b.n == NumPoints }

// History returns the stones in the order placed. The slice is a read-only
// view into the board, valid until the next Place, Unplace or Play.
func (b *Board) History() []Point { return b.moves[:b.n:b.n] }

// Hash returns the Zobrist hash of the position: the stones, the side to move
// and how many stones of the current turn are already placed.
func (b *Board) Hash() uint64 { return b.zob ^ zobPhase[phaseOf(b.n)] }

// phaseOf maps a stone count to the turn phase: 0 = Black's first stone, then
// 1/2 = White with 0/1 stones of its pair placed, 3/4 = Black likewise.
func phaseOf(n int) int {
	if n == 0 {
		return 0
	}
	return 1 + (n-1)%4
}

// Place puts one stone of ToMove() at p and updates roads, histograms,
// threat roads, hash, winner and turn bookkeeping. p must be an empty
// on-board point; nothing is checked (use Play for checked moves).
func (b *Board) Place(p Point) {
	c := sideTab[b.n]
	o := 3 - c
	b.cells[p] = c
	b.moves[b.n] = p
	b.undo[b.n] = [2]uint64{b.h[Black], b.h[White]}
	b.n++
	b.zob ^= zobStone[c][p]
	b.occ[rowOf[p]] |= colBit[p]
	hc0, ho0 := b.h[c], b.h[o]
	hc, ho := hc0, ho0
	hc, ho = addStone(&b.code, &pointSpans[p], codeIncW[c], &deltas[c], hc, ho)
	b.h[c], b.h[o] = hc, ho
	if d := (hc ^ hc0) | (ho ^ ho0); d >= 1<<(3*histBits) || b.track3 && d >= 1<<(2*histBits) {
		b.updateThreatRoads(p)
	}
	if b.winner == Empty && hc>>(histBits*5)&histMask != 0 {
		b.winner = c
		b.winAt = b.n
	}
}

// addStone is the road loop of Place. The roads through p in one direction
// have consecutive indices (see roads.go), so their codes are consecutive
// bytes: one 8-byte load and store adds the stone to all of them (a code
// stays below 64, so no byte carries into the next), then each old code
// selects its packed histogram deltas for the mover and the opponent. With
// the span's fill ORed in, the bytes of other points' roads read as codeFull,
// whose deltas are zero, so all six bytes are looked up with no branch on the
// road count: a point near the edge costs the same as one in the middle, and
// nothing is mispredicted. The word access is unchecked but in range by
// construction (see pointSpan); the table indices are masked to 6 bits, so
// the compiler drops their bounds checks. A separate leaf function keeps the
// loop in registers.
//
//go:noinline
func addStone(code *[1024]uint8, sp *pointSpan, inc uint64, dt *[64]roadDelta, hc, ho uint64) (uint64, uint64) {
	for d := 0; d < 4; d++ {
		fill := sp.fill[d]
		wp := (*uint64)(unsafe.Add(unsafe.Pointer(code), uintptr(sp.off[d])))
		w := *wp
		*wp = w + inc&^fill
		w |= fill
		// The six bytes written out: the compiler neither unrolls loops nor
		// inlines a helper this size.
		e := &dt[w&63]
		hc, ho = hc+e.own, ho+e.opp
		e = &dt[w>>8&63]
		hc, ho = hc+e.own, ho+e.opp
		e = &dt[w>>16&63]
		hc, ho = hc+e.own, ho+e.opp
		e = &dt[w>>24&63]
		hc, ho = hc+e.own, ho+e.opp
		e = &dt[w>>32&63]
		hc, ho = hc+e.own, ho+e.opp
		e = &dt[w>>40&63]
		hc, ho = hc+e.own, ho+e.opp
	}
	return hc, ho
}

// removeStone takes a stone of the colour whose codeIncW entry is inc off
// the codes of the roads through the point of sp: the inverse of addStone's
// store. Unplace restores the histograms from Board.undo, so no deltas are
// looked up.
func removeStone(code *[1024]uint8, sp *pointSpan, inc uint64) {
	for d := 0; d < 4; d++ {
		wp := (*uint64)(unsafe.Add(unsafe.Pointer(code), uintptr(sp.off[d])))
		*wp -= inc &^ sp.fill[d]
	}
}

// updateThreatRoads recomputes the threat-road (and live 3-stone road)
// membership of the roads through p. Place and Unplace call it only when
// N_c[4..6] of either colour changed, or N_c[3..6] on a board that keeps its
// live 3-stone roads (TrackCross): every road entering or leaving a
// 4/5-stone (3-stone) live state changes those fields (own roads only grow,
// so N_4+N_5+N_6 or Σ n·N_n moves; opponent roads only die), so the common
// case stays a tight loop.
//
//go:noinline
func (b *Board) updateThreatRoads(p Point) {
	for _, r := range pointRoads[p][:pointRoadN[p]] {
		t := roadBits[b.code[r&1023]&63]
		w, m := r>>6, uint64(1)<<uint(r&63)
		b.threat[Black][w] = b.threat[Black][w]&^m | m*uint64(t&1)
		b.threat[White][w] = b.threat[White][w]&^m | m*uint64(t>>1&1)
		b.live3[Black][w] = b.live3[Black][w]&^m | m*uint64(t>>2&1)
		b.live3[White][w] = b.live3[White][w]&^m | m*uint64(t>>3)
	}
}

// Unplace removes the last stone placed and restores everything Place
// changed: the histograms come back from undo (a copy is cheaper than
// looking the 24 road deltas up again), the road codes lose the stone, and
// the threat roads through p are recomputed when N_c[4..6] of either colour
// changed. It must not be called on an empty board.
func (b *Board) Unplace() {
	b.n--
	p := b.moves[b.n]
	c := b.cells[p]
	o := 3 - c
	b.cells[p] = Empty
	b.zob ^= zobStone[c][p]
	b.occ[rowOf[p]] &^= colBit[p]
	hc0, ho0 := b.h[c], b.h[o]
	b.h[Black], b.h[White] = b.undo[b.n][0], b.undo[b.n][1]
	removeStone(&b.code, &pointSpans[p], codeIncW[c])
	if d := (b.h[c] ^ hc0) | (b.h[o] ^ ho0); d >= 1<<(3*histBits) || b.track3 && d >= 1<<(2*histBits) {
		b.updateThreatRoads(p)
	}
	if b.winner != Empty && b.n < b.winAt {
		b.winner = Empty
		b.winAt = 0
	}
}

// Play makes one whole turn for ToMove(), checked: every stone on the board,
// on an empty point and distinct, and exactly StonesLeft() stones, except
// that a single stone is accepted when it wins. If the first stone of a pair
// wins, the second is neither placed nor checked. On error the board is
// unchanged; errors quote the move.
func (b *Board) Play(m Move) error {
	if b.Over() {
		return fmt.Errorf("engine: move %s: the game is over", m)
	}
	if m.A == NoPoint {
		return fmt.Errorf("engine: move %s: no stone", m)
	}
	if err := b.checkPoint(m, m.A); err != nil {
		return err
	}
	need := b.StonesLeft()
	if need == 1 && m.B != NoPoint {
		return fmt.Errorf("engine: move %s: %s must place one stone, not two", m, b.ToMove())
	}
	b.Place(m.A)
	if need == 1 || b.winner != Empty {
		return nil
	}
	if m.B == NoPoint {
		b.Unplace()
		return fmt.Errorf("engine: move %s: %s must place two stones (one is allowed only when it wins)", m, b.ToMove())
	}
	if err := b.checkPoint(m, m.B); err != nil {
		b.Unplace()
		return err
	}
	b.Place(m.B)
	return nil
}

// ReachableCounts reports whether a game played in turn order from the
// empty board (Black's first move one stone, then two stones a move,
// alternately) has exactly black Black and white White stones on the board
// after some stone: at the end of a move or after the first stone of a pair.
// That is (0,0), (1,0), (1,1), (1,2), (2,2), (3,2), (3,3), (3,4), ...: equal
// counts, or one colour one stone ahead with Black's count odd. Negative
// counts and more than NumPoints stones are not reachable.
func ReachableCounts(black, white int) bool {
	n := black + white
	if black < 0 || white < 0 || n > NumPoints {
		return false
	}
	if n == 0 {
		return true
	}
	// Stone 0 is Black's; of the stones after it, each group of four is two
	// White then two Black (sideOf).
	q, r := (n-1)/4, (n-1)%4
	return black == 1+2*q+max(0, r-2)
}

// SetUp replaces the position by the given stones, as if the game had been
// played in turn order: the stones are placed alternately by turn (Black's
// single first stone, then White's pair, Black's pair, ...), each colour's in
// the order given, so History lists them in that order and ToMove and
// StonesLeft follow from the counts. A six of one colour ends the game
// (Winner); stones after it are still placed, as the caller asked for them.
// Errors, which leave b unchanged: a point off the board or given twice,
// counts that ReachableCounts rejects, or a six of both colours.
func (b *Board) SetUp(black, white []Point) error {
	if !ReachableCounts(len(black), len(white)) {
		return fmt.Errorf("engine: set-up: %d black and %d white stones: no game in turn order has these counts", len(black), len(white))
	}
	var seen [NumPoints]bool
	for _, list := range [][]Point{black, white} {
		for _, p := range list {
			if !p.OnBoard() {
				return fmt.Errorf("engine: set-up: stone %d is off the board", int(p))
			}
			if seen[p] {
				return fmt.Errorf("engine: set-up: %s is given twice", p)
			}
			seen[p] = true
		}
	}
	nb := NewBoard()
	var next [3]int // per colour: stones of its list placed so far
	for range len(black) + len(white) {
		c := nb.ToMove()
		list := black
		if c == White {
			list = white
		}
		nb.Place(list[next[c]])
		next[c]++
	}
	if nb.winner != Empty && nb.h[nb.winner.Opponent()]>>(histBits*5)&histMask != 0 {
		return fmt.Errorf("engine: set-up: both black and white have six in a row")
	}
	b.CopyFrom(nb)
	return nil
}

func (b *Board) checkPoint(m Move, p Point) error {
	if !p.OnBoard() {
		return fmt.Errorf("engine: move %s: stone %d is off the board", m, int(p))
	}
	if b.cells[p] != Empty {
		return fmt.Errorf("engine: move %s: %s is occupied", m, p)
	}
	return nil
}

// Histogram returns N_c[n] for n = 0..6: the number of roads live for c
// (≥1 stone of c, none of the opponent) holding n stones of c. N_c[0] is 0.
// It reads the incrementally maintained counts (Qi 2018 §3.1.3).
func (b *Board) Histogram(c Color) [7]int {
	var out [7]int
	if c != Black && c != White {
		return out
	}
	h := b.h[c]
	for n := 1; n <= 6; n++ {
		out[n] = int(h >> (histBits * (n - 1)) & histMask)
	}
	return out
}

// ScanHistogram returns the same counts as Histogram by scanning all 924
// roads from the stones themselves (Qi 2018 §3.1.2, "global scan"). It is
// the slow reference the incremental counts are tested against.
func (b *Board) ScanHistogram(c Color) [7]int {
	var out [7]int
	if c != Black && c != White {
		return out
	}
	for r := 0; r < NumRoads; r++ {
		own, opp := 0, 0
		for _, p := range roadPoints[r] {
			switch b.cells[p] {
			case c:
				own++
			case c.Opponent():
				opp++
			}
		}
		if own > 0 && opp == 0 {
			out[own]++
		}
	}
	return out
}

// ThreatRoads appends to dst the indices of the roads live for c with 4 or 5
// stones (the roads c could complete next turn), in increasing order.
func (b *Board) ThreatRoads(dst []int, c Color) []int {
	if c != Black && c != White {
		return dst
	}
	for w, word := range b.threat[c] {
		for word != 0 {
			dst = append(dst, w*64+bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	return dst
}

// hasThreatRoad reports whether c has a live road with 4 or 5 stones.
func (b *Board) hasThreatRoad(c Color) bool {
	h := b.h[c]
	return h>>(histBits*3)&(1<<(2*histBits)-1) != 0
}

// String draws the board for humans: columns A–S left to right, rows A–S top
// to bottom, X black, O white, '.' empty, then who moves.
func (b *Board) String() string {
	var sb strings.Builder
	sb.WriteString("  ")
	for c := 0; c < Size; c++ {
		sb.WriteByte(' ')
		sb.WriteByte(byte('A' + c))
	}
	sb.WriteByte('\n')
	for r := 0; r < Size; r++ {
		sb.WriteByte(' ')
		sb.WriteByte(byte('A' + r))
		for c := 0; c < Size; c++ {
			sb.WriteByte(' ')
			switch b.cells[PointAt(c, r)] {
			case Black:
				sb.WriteByte('X')
			case White:
				sb.WriteByte('O')
			default:
				sb.WriteByte('.')
			}
		}
		sb.WriteByte('\n')
	}
	switch {
	case b.winner != Empty:
		fmt.Fprintf(&sb, "%s wins after %d stones\n", b.winner, b.n)
	case b.Full():
		sb.WriteString("full board: draw\n")
	default:
		fmt.Fprintf(&sb, "%s to move, %d stone(s) to place, %d stones on the board\n", b.ToMove(), b.StonesLeft(), b.n)
	}
	return sb.String()
}

// Zobrist keys: fixed pseudo-random constants from a splitmix64 sequence with
// a fixed seed, so hashes are the same in every run.
var (
	zobStone [3][NumPoints]uint64
	zobPhase [5]uint64
)

func initZobrist() {
	s := uint64(0x5eed_c0ffee_600d)
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	for c := 1; c < 3; c++ {
		for p := range zobStone[c] {
			zobStone[c][p] = next()
		}
	}
	for i := range zobPhase {
		zobPhase[i] = next()
	}
}
