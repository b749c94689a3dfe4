package engine

import "math/bits"

// Cross points (the cross schema): an empty point that lies on live roads
// of 3 stones of one colour in two or more directions. One stone there turns
// two of them into 4-stone roads, two threats at once, and the move's second
// stone can add a third: the pattern Connect6 programs call a cross of two
// live threes (Cloudict's evaluation counts such crossings), which road
// counts alone cannot tell from two unrelated lines.

// TrackCross makes b keep its live 3-stone roads under Place and Unplace,
// so CrossPoints reads them instead of scanning every road. It is off on a
// new board (the other schemas do not pay for it) and reset by Reset and
// CopyFrom from a board without it.
func (b *Board) TrackCross() {
	b.track3 = true
	b.live3 = b.scanLive3()
}

// scanLive3 finds each colour's live 3-stone roads from the road codes.
func (b *Board) scanLive3() (live [3][roadWords]uint64) {
	for r := 0; r < NumRoads; r++ {
		t := roadBits[b.code[r]&63]
		w, m := r>>6, uint64(1)<<uint(r&63)
		live[Black][w] |= m * uint64(t>>2&1)
		live[White][w] |= m * uint64(t>>3)
	}
	return live
}

// CrossPoints returns the number of empty points of b that lie on c's live
// 3-stone roads (no stone of the other colour) in at least two of the four
// directions; 0 for a colour other than Black or White.
func (b *Board) CrossPoints(c Color) int {
	if c != Black && c != White {
		return 0
	}
	if b.track3 {
		return b.crossPoints(&b.live3[c])
	}
	live := b.scanLive3()
	return b.crossPoints(&live[c])
}

// crossPoints counts the empty points on the roads of the set live in two
// or more directions.
func (b *Board) crossPoints(live *[roadWords]uint64) int {
	var dirs [NumPoints]uint8
	n := 0
	for w, word := range live {
		for word != 0 {
			r := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			bit := uint8(1) << roadDir[r]
			for _, p := range roadPoints[r] {
				if b.cells[p] != Empty {
					continue
				}
				d := dirs[p]
				if d&bit == 0 && d != 0 && d&(d-1) == 0 {
					n++ // the point's second direction
				}
				dirs[p] = d | bit
			}
		}
	}
	return n
}
