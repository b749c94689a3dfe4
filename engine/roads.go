package engine

// Roads (Chen 2010 §3.3; Qi 2018 §3.1.1): every 6 consecutive points on one
// line. On 19×19 there are 19·14 horizontal + 19·14 vertical + 2·14·14
// diagonal = 924 roads, and every point lies on at most 24 of them (6 per
// direction; exactly 24 for points at least 5 away from every edge).

// NumRoads is the number of roads on the board (924).
const NumRoads = 2*Size*(Size-5) + 2*(Size-5)*(Size-5)

// MaxRoadsPerPoint is the largest number of roads through one point (24).
const MaxRoadsPerPoint = 24

const roadWords = (NumRoads + 63) / 64

// directions in road order: horizontal, vertical, diagonal ↘, diagonal ↙.
var directions = [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}

var (
	// roadPoints[r] lists the six points of road r in line order.
	roadPoints [NumRoads][6]Point
	// roadDir[r] is the direction index (0..3) of road r.
	roadDir [NumRoads]uint8
	// dirFirst[p][d], dirCount[p][d]: the roads through p in direction d
	// are the consecutive indices dirFirst .. dirFirst+dirCount-1.
	dirFirst [NumPoints][4]int16
	dirCount [NumPoints][4]uint8
	// pointRoads[p][:pointRoadN[p]]: the roads through p, increasing.
	pointRoads [NumPoints][MaxRoadsPerPoint]int16
	pointRoadN [NumPoints]uint8
	// pointSpans[p]: the code windows of p's roads, for Place and Unplace.
	pointSpans [NumPoints]pointSpan
	rowOf      [NumPoints]uint8
	colBit     [NumPoints]uint32
)

func init() {
	r := 0
	for d, dv := range directions {
		dc, dr := dv[0], dv[1]
		// Walk every maximal line in this direction, starting from the
		// points whose predecessor is off the board, in index order, so the
		// roads of one line get consecutive indices.
		for p := Point(0); p < NumPoints; p++ {
			c, w := p.Col(), p.Row()
			if onBoard(c-dc, w-dr) {
				continue
			}
			var line []Point
			for cc, ww := c, w; onBoard(cc, ww); cc, ww = cc+dc, ww+dr {
				line = append(line, PointAt(cc, ww))
			}
			for s := 0; s+6 <= len(line); s++ {
				copy(roadPoints[r][:], line[s:s+6])
				roadDir[r] = uint8(d)
				r++
			}
		}
	}
	if r != NumRoads {
		panic("engine: road count mismatch")
	}
	for p := range dirFirst {
		for d := range dirFirst[p] {
			dirFirst[p][d] = -1
		}
	}
	for r := 0; r < NumRoads; r++ {
		d := roadDir[r]
		for _, p := range roadPoints[r] {
			if dirFirst[p][d] < 0 {
				dirFirst[p][d] = int16(r)
			}
			dirCount[p][d]++
		}
	}
	for p := range dirFirst {
		for d := range dirFirst[p] {
			if dirFirst[p][d] < 0 {
				dirFirst[p][d] = 0
			}
		}
	}
	for p := range pointRoads {
		for d := 0; d < 4; d++ {
			for i := 0; i < int(dirCount[p][d]); i++ {
				pointRoads[p][pointRoadN[p]] = dirFirst[p][d] + int16(i)
				pointRoadN[p]++
			}
		}
		for d := 0; d < 4; d++ {
			pointSpans[p].off[d] = uint16(dirFirst[p][d])
			pointSpans[p].fill[d] = codeFull * byteLanes &^ (1<<(8*dirCount[p][d]) - 1)
		}
		rowOf[p] = uint8(Point(p).Row())
		colBit[p] = 1 << uint(Point(p).Col())
	}
	for n := range sideTab {
		sideTab[n] = sideOf(n)
	}
	initRoadTables()
	initZobrist()
}

func onBoard(col, row int) bool { return col >= 0 && col < Size && row >= 0 && row < Size }

// RoadPoints returns the six points of road r (0 ≤ r < NumRoads) in line order.
func RoadPoints(r int) [6]Point { return roadPoints[r] }

// RoadsThrough appends to dst the indices of the roads through p (at most
// MaxRoadsPerPoint) in increasing order and returns the extended slice.
func RoadsThrough(dst []int, p Point) []int {
	for d := 0; d < 4; d++ {
		f := int(dirFirst[p][d])
		for i := 0; i < int(dirCount[p][d]); i++ {
			dst = append(dst, f+i)
		}
	}
	return dst
}

// Road codes: the per-road stone counts packed in one byte, black count in
// bits 0–2 and white count in bits 3–5. codeInc[c] is what one stone of c
// adds; codeIncW[c] is codeInc[c] in every byte of a word.
var (
	codeInc  = [3]uint8{0, 1, 8}
	codeIncW = [3]uint64{0, 1 * byteLanes, 8 * byteLanes}
)

// byteLanes has 1 in every byte: multiplying by it repeats a byte 8 times.
const byteLanes = 0x0101010101010101

// codeFull is the code with every bit of both counts set (7 black, 7 white).
// No real road has it, and like every code of a full road (≥ 6 stones) its
// histogram deltas are all zero; any code c < 64 becomes codeFull by c|63.
const codeFull = 63

// pointSpan locates the roads through one point in Board.code. The roads of p
// in direction d are consecutive (see init), so they sit in the first
// dirCount[p][d] ≤ 6 bytes of the 8-byte window code[off[d]:off[d]+8]
// (off[d]+8 ≤ 931 < len(code)). fill[d] holds codeFull in every other byte
// of that window and 0 in p's bytes: ORing it into the window turns the bytes
// that belong to other points' roads into zero-delta codes, so Place and
// Unplace can look up all six bytes without a data-dependent branch; and
// inc&^fill adds a stone to p's bytes only (codeInc ≤ 8 lies inside 63).
type pointSpan struct {
	fill [4]uint64
	off  [4]uint16
}

// Packed histograms: N_c[n] for n = 1..6 lives in bits 10(n-1) .. 10n-1 of
// one uint64 (N ≤ 924 < 1024, so six 10-bit fields fit). Adding a stone
// changes a road's contribution by a fixed packed delta; two's-complement
// wraparound keeps the sum exact because every field stays in 0..1023.
const histBits = 10
const histMask = 1<<histBits - 1

func histField(n int) uint64 { return 1 << (histBits * (n - 1)) }

// roadDelta is the change of the mover's (own) and the opponent's (opp)
// packed histograms when the mover adds a stone to a road. deltas[c][code]
// holds it for mover c and the road's code before the stone; the two words
// sit side by side so one index finds both.
type roadDelta struct{ own, opp uint64 }

var deltas [3][64]roadDelta

func codeCounts(code int) (bc, wc int) { return code & 7, code >> 3 }

// roadBits[code] classifies a road by its code: bit 0 a live Black road of
// 4 or 5 stones (a threat road), bit 1 the same for White, bit 2 a live
// Black road of exactly 3 stones, bit 3 the same for White.
var roadBits = func() (t [64]uint8) {
	for code := range t {
		bc, wc := codeCounts(code)
		if wc == 0 && (bc == 4 || bc == 5) {
			t[code] |= 1
		}
		if bc == 0 && (wc == 4 || wc == 5) {
			t[code] |= 2
		}
		if wc == 0 && bc == 3 {
			t[code] |= 4
		}
		if bc == 0 && wc == 3 {
			t[code] |= 8
		}
	}
	return t
}()

func initRoadTables() {
	for code := 0; code < 64; code++ {
		bc, wc := codeCounts(code)
		if bc+wc >= 6 {
			continue // full road: nothing can be added
		}
		for _, c := range []Color{Black, White} {
			own, opp := bc, wc
			if c == White {
				own, opp = wc, bc
			}
			var dOwn, dOpp uint64
			if opp == 0 {
				if own > 0 {
					dOwn -= histField(own)
				}
				dOwn += histField(own + 1)
			} else if own == 0 {
				dOpp -= histField(opp) // the opponent's live road dies
			}
			deltas[c][code] = roadDelta{dOwn, dOpp}
		}
	}
}
