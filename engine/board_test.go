package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// play applies moves in protocol notation, failing the test on any error.
func play(t testing.TB, b *Board, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := ParseMove(s)
		if err != nil {
			t.Fatalf("parse %q: %v", s, err)
		}
		if err := b.Play(m); err != nil {
			t.Fatalf("play %q: %v\n%s", s, err, b)
		}
	}
}

func mustPoint(t testing.TB, s string) Point {
	t.Helper()
	p, err := ParsePoint(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPointNotation(t *testing.T) {
	cases := []struct {
		s        string
		col, row int
	}{{"JJ", 9, 9}, {"AA", 0, 0}, {"SA", 18, 0}, {"AS", 0, 18}, {"kl", 10, 11}}
	for _, c := range cases {
		p, err := ParsePoint(c.s)
		if err != nil {
			t.Fatalf("ParsePoint(%q): %v", c.s, err)
		}
		if p.Col() != c.col || p.Row() != c.row || p != PointAt(c.col, c.row) {
			t.Errorf("ParsePoint(%q) = col %d row %d, want %d %d", c.s, p.Col(), p.Row(), c.col, c.row)
		}
		if got := p.String(); got != strings.ToUpper(c.s) {
			t.Errorf("String = %q, want %q", got, strings.ToUpper(c.s))
		}
	}
	if PointAt(9, 9) != 180 {
		t.Errorf("JJ index = %d, want 180", PointAt(9, 9))
	}
	if NoPoint.String() != "--" {
		t.Errorf("NoPoint = %q", NoPoint.String())
	}
	for _, bad := range []string{"", "J", "JT", "TJ", "J1", "JJJ"} {
		if _, err := ParsePoint(bad); err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) {
			t.Errorf("ParsePoint(%q) error %v: want an error quoting the text", bad, err)
		}
	}
}

func TestMoveNotation(t *testing.T) {
	cases := []struct {
		in, out string
		n       int
	}{{"JJ", "JJ", 1}, {"JJJJ", "JJ", 1}, {"KLLK", "KLLK", 2}, {" kllk\n", "KLLK", 2}}
	for _, c := range cases {
		m, err := ParseMove(c.in)
		if err != nil {
			t.Fatalf("ParseMove(%q): %v", c.in, err)
		}
		if m.String() != c.out || m.Len() != c.n {
			t.Errorf("ParseMove(%q) = %q len %d, want %q len %d", c.in, m, m.Len(), c.out, c.n)
		}
	}
	if m := Pair(PointAt(10, 11), PointAt(11, 10)); m.String() != "KLLK" {
		t.Errorf("Pair string %q", m)
	}
	for _, bad := range []string{"", "JJK", "JJKZ", "JJJJJJ", "ZZ"} {
		if _, err := ParseMove(bad); err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) {
			t.Errorf("ParseMove(%q) error %v: want an error quoting the text", bad, err)
		}
	}
}

func TestColor(t *testing.T) {
	if Black.Opponent() != White || White.Opponent() != Black || Empty.Opponent() != Empty {
		t.Error("Opponent")
	}
	if Black.String() != "black" || White.String() != "white" || Empty.String() != "empty" {
		t.Error("String")
	}
}

func TestRoads(t *testing.T) {
	if NumRoads != 924 {
		t.Fatalf("NumRoads = %d, want 924", NumRoads)
	}
	perPoint := make([]int, NumPoints)
	seen := map[[6]Point]bool{}
	for r := 0; r < NumRoads; r++ {
		pts := RoadPoints(r)
		if seen[pts] {
			t.Fatalf("road %d duplicated", r)
		}
		seen[pts] = true
		dc, dr := pts[1].Col()-pts[0].Col(), pts[1].Row()-pts[0].Row()
		for i := 1; i < 6; i++ {
			if pts[i].Col()-pts[i-1].Col() != dc || pts[i].Row()-pts[i-1].Row() != dr {
				t.Fatalf("road %d %v not a straight line", r, pts)
			}
		}
		for _, p := range pts {
			perPoint[p]++
		}
	}
	for p := Point(0); p < NumPoints; p++ {
		list := RoadsThrough(nil, p)
		if len(list) != perPoint[p] || len(list) > MaxRoadsPerPoint {
			t.Fatalf("%s: %d roads listed, %d counted", p, len(list), perPoint[p])
		}
		for _, r := range list {
			if rp := RoadPoints(r); !slices.Contains(rp[:], p) {
				t.Fatalf("%s: road %d does not hold it", p, r)
			}
		}
	}
	want := map[string]int{"JJ": 24, "FF": 24, "NN": 24, "AA": 3, "SS": 3, "SA": 3, "AJ": 9, "EE": 19}
	for s, n := range want {
		if got := perPoint[mustPoint(t, s)]; got != n {
			t.Errorf("roads through %s = %d, want %d", s, got, n)
		}
	}
}

func TestTurnOrder(t *testing.T) {
	b := NewBoard()
	if b.ToMove() != Black || b.StonesLeft() != 1 || b.Turn() != 0 {
		t.Fatalf("empty board: %s to move, %d stones, turn %d", b.ToMove(), b.StonesLeft(), b.Turn())
	}
	if err := b.Play(Pair(mustPoint(t, "JJ"), mustPoint(t, "KK"))); err == nil {
		t.Fatal("Black's first move with two stones accepted")
	}
	play(t, b, "JJJJ")
	if b.ToMove() != White || b.StonesLeft() != 2 || b.Turn() != 1 || b.Stones() != 1 {
		t.Fatalf("after JJ: %s, %d left, turn %d", b.ToMove(), b.StonesLeft(), b.Turn())
	}
	b.Place(mustPoint(t, "KK"))
	if b.ToMove() != White || b.StonesLeft() != 1 || b.Turn() != 1 {
		t.Fatalf("mid-pair: %s, %d left, turn %d", b.ToMove(), b.StonesLeft(), b.Turn())
	}
	b.Place(mustPoint(t, "KJ"))
	if b.ToMove() != Black || b.StonesLeft() != 2 || b.Turn() != 2 {
		t.Fatalf("after White: %s, %d left, turn %d", b.ToMove(), b.StonesLeft(), b.Turn())
	}
	play(t, b, "AAAB")
	if got := b.History(); len(got) != 5 || got[0] != mustPoint(t, "JJ") || got[4] != mustPoint(t, "AB") {
		t.Fatalf("history %v", got)
	}
	if b.At(mustPoint(t, "KK")) != White || b.At(mustPoint(t, "AA")) != Black || b.At(mustPoint(t, "CC")) != Empty {
		t.Fatal("At")
	}
}

func TestIllegalMovesLeaveBoardUnchanged(t *testing.T) {
	b := NewBoard()
	play(t, b, "JJ", "KKKJ")
	before, hash, n := b.String(), b.Hash(), b.Stones()
	bad := []Move{
		Pair(mustPoint(t, "JJ"), mustPoint(t, "AA")), // occupied first
		Pair(mustPoint(t, "AA"), mustPoint(t, "KK")), // occupied second
		Pair(mustPoint(t, "AA"), mustPoint(t, "AA")), // same point twice
		Pair(mustPoint(t, "AA"), Point(400)),         // off board
		Pair(Point(-7), mustPoint(t, "AA")),          // off board
		Single(mustPoint(t, "AA")),                   // one stone that does not win
		{NoPoint, NoPoint},                           // nothing
	}
	for _, m := range bad {
		if err := b.Play(m); err == nil {
			t.Errorf("Play(%v) accepted", m)
		} else if !strings.Contains(err.Error(), m.String()) {
			t.Errorf("Play(%v) error %q does not name the move", m, err)
		}
		if b.String() != before || b.Hash() != hash || b.Stones() != n {
			t.Fatalf("Play(%v) changed the board", m)
		}
	}
}

func TestOverlineWins(t *testing.T) {
	b := NewBoard()
	// Black: AA BA CA _ EA FA GA; D A completes seven.
	play(t, b, "JJ", "AQCQ", "AABA", "EQGQ", "CAEA", "IQKQ", "FAGA")
	if b.Winner() != Empty {
		t.Fatalf("winner %s too early\n%s", b.Winner(), b)
	}
	// White to move; it plays elsewhere, then Black fills DA.
	play(t, b, "SSSR")
	play(t, b, "DAPP")
	if b.Winner() != Black {
		t.Fatalf("overline: winner %s\n%s", b.Winner(), b)
	}
	if !b.Over() || b.Stones() != 16 || b.At(mustPoint(t, "PP")) != Empty {
		t.Fatalf("after winning first stone: over %v, %d stones, PP %s", b.Over(), b.Stones(), b.At(mustPoint(t, "PP")))
	}
	if b.Turn() != 9 {
		t.Errorf("turn %d, want 9", b.Turn())
	}
	if err := b.Play(Pair(mustPoint(t, "QQ"), mustPoint(t, "QR"))); err == nil {
		t.Error("move after the game ended accepted")
	}
	b.Unplace()
	if b.Winner() != Empty {
		t.Error("Unplace of the winning stone kept the winner")
	}
}

func TestWinOnFirstStoneOfPair(t *testing.T) {
	b := NewBoard()
	play(t, b, "JJ", "AAAB", "JIJH", "BABB", "JGJF")
	// Black has JF JG JH JI JJ; White plays twice elsewhere.
	play(t, b, "CACB")
	// The second stone is occupied: it is neither placed nor checked.
	if err := b.Play(Pair(mustPoint(t, "JK"), mustPoint(t, "AA"))); err != nil {
		t.Fatalf("winning first stone with an occupied second: %v", err)
	}
	if b.Winner() != Black || b.Stones() != 12 {
		t.Fatalf("winner %s, %d stones", b.Winner(), b.Stones())
	}
	// A single winning stone is accepted too.
	b2 := NewBoard()
	play(t, b2, "JJ", "AAAB", "JIJH", "BABB", "JGJF", "CACB", "JE")
	if b2.Winner() != Black {
		t.Fatalf("single winning stone: winner %s", b2.Winner())
	}
	// White wins with a six in a column.
	b3 := NewBoard()
	play(t, b3, "JJ", "AAAB", "JIJH", "ACAD", "SSSR", "AEAF")
	if b3.Winner() != White {
		t.Fatalf("white six: winner %s\n%s", b3.Winner(), b3)
	}
}

// drawPattern colours the full board with no six for either side: black when
// (col/2 + row) is even (181 black, 180 white points).
func drawPattern(p Point) Color {
	if (p.Col()/2+p.Row())%2 == 0 {
		return Black
	}
	return White
}

func TestFullBoardDraw(t *testing.T) {
	var blacks, whites []Point
	for p := Point(0); p < NumPoints; p++ {
		if drawPattern(p) == Black {
			blacks = append(blacks, p)
		} else {
			whites = append(whites, p)
		}
	}
	if len(blacks) != 181 || len(whites) != 180 {
		t.Fatalf("pattern has %d black, %d white", len(blacks), len(whites))
	}
	b := NewBoard()
	if err := b.Play(Single(blacks[0])); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 90; i++ {
		if err := b.Play(Pair(whites[2*i], whites[2*i+1])); err != nil {
			t.Fatal(err)
		}
		if err := b.Play(Pair(blacks[1+2*i], blacks[2+2*i])); err != nil {
			t.Fatal(err)
		}
	}
	if !b.Full() || !b.Over() || b.Winner() != Empty || b.Turn() != 181 {
		t.Fatalf("full %v over %v winner %s turn %d", b.Full(), b.Over(), b.Winner(), b.Turn())
	}
	if err := b.Play(Pair(0, 1)); err == nil {
		t.Error("move on a full board accepted")
	}
}

// refHash recomputes the Zobrist hash from scratch.
func refHash(b *Board) uint64 {
	var h uint64
	for p := Point(0); p < NumPoints; p++ {
		if c := b.At(p); c != Empty {
			h ^= zobStone[c][p]
		}
	}
	return h ^ zobPhase[phaseOf(b.Stones())]
}

// refThreatRoads lists the roads live for c with 4 or 5 stones by scanning.
func refThreatRoads(b *Board, c Color) []int {
	var out []int
	for r := 0; r < NumRoads; r++ {
		if own, opp := refRoadCounts(b, r, c); opp == 0 && (own == 4 || own == 5) {
			out = append(out, r)
		}
	}
	return out
}

// refRoadCounts counts c's stones and the other colour's on road r from
// the cells.
func refRoadCounts(b *Board, r int, c Color) (own, opp int) {
	for _, p := range roadPoints[r] {
		switch b.At(p) {
		case c:
			own++
		case c.Opponent():
			opp++
		}
	}
	return own, opp
}

// crowd is a random walk of Place and Unplace that crowds stones together
// so that long roads occur: stones go inside the span×span window from
// (lo, lo) until the board holds spread stones (anywhere after; spread 0:
// always the window), and a third of the steps, or every step above max
// stones, take the last stone back.
type crowd struct{ lo, span, spread, max int }

// crowdedStep makes one step of the walk c on b.
func crowdedStep(rng *rand.Rand, b *Board, c crowd) {
	if b.Stones() > 0 && (rng.IntN(3) == 0 || b.Stones() > c.max) {
		b.Unplace()
		return
	}
	for {
		p := PointAt(c.lo+rng.IntN(c.span), c.lo+rng.IntN(c.span))
		if c.spread > 0 && b.Stones() > c.spread {
			p = Point(rng.IntN(NumPoints))
		}
		if b.At(p) == Empty {
			b.Place(p)
			return
		}
	}
}

// TestIncrementalMatchesScan plays thousands of random Place/Unplace steps,
// biased to crowd stones together so long roads occur, and checks after each
// step that the incremental histograms, threat roads and hash equal a global
// scan (Qi 2018 §3.1.2 vs §3.1.3).
func TestIncrementalMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 6))
	b := NewBoard()
	steps := 6000
	if testing.Short() {
		steps = 1500
	}
	maxSix := 0
	for step := 0; step < steps; step++ {
		crowdedStep(rng, b, crowd{lo: 5, span: 9, spread: 70, max: 120})
		for _, c := range []Color{Black, White} {
			inc, ref := b.Histogram(c), b.ScanHistogram(c)
			if inc != ref {
				t.Fatalf("step %d %s: incremental %v, scan %v\n%s", step, c, inc, ref, b)
			}
			maxSix = max(maxSix, inc[4]+inc[5])
			if got, want := b.ThreatRoads(nil, c), refThreatRoads(b, c); !slices.Equal(got, want) {
				t.Fatalf("step %d %s: threat roads %v, scan %v", step, c, got, want)
			}
			if (inc[4]+inc[5] > 0) != b.hasThreatRoad(c) {
				t.Fatalf("step %d: hasThreatRoad", step)
			}
		}
		if b.Hash() != refHash(b) {
			t.Fatalf("step %d: hash mismatch", step)
		}
	}
	if maxSix == 0 {
		t.Fatal("the random walk never built a road of 4 or 5: the test is too weak")
	}
}

func TestHashIncludesTurnPhase(t *testing.T) {
	a, b := NewBoard(), NewBoard()
	play(t, a, "JJ", "KKKJ")
	play(t, b, "JJ")
	b.Place(mustPoint(t, "KK"))
	if a.Hash() == b.Hash() {
		t.Fatal("different positions share a hash")
	}
	b.Place(mustPoint(t, "KJ"))
	if a.Hash() != b.Hash() {
		t.Fatal("same position, different hash")
	}
	// Same stones, different side/phase.
	c := a.Clone()
	c.Place(mustPoint(t, "AA"))
	d := c.Clone()
	d.Unplace()
	if d.Hash() != a.Hash() || c.Hash() == a.Hash() {
		t.Fatal("Unplace did not restore the hash")
	}
	// The stone hash alone is identical for Black-to-move with 0 placed and
	// White-to-move with 0 placed only if the phase key differs.
	if zobPhase[1] == zobPhase[3] {
		t.Fatal("phase keys collide")
	}
}

func TestResetAndClone(t *testing.T) {
	b := NewBoard()
	play(t, b, "JJ", "KKKJ")
	c := b.Clone()
	b.Reset()
	if b.Stones() != 0 || b.ToMove() != Black || b.Hash() != NewBoard().Hash() || b.Histogram(Black) != [7]int{} {
		t.Fatal("Reset did not empty the board")
	}
	if c.Stones() != 3 || c.At(mustPoint(t, "KK")) != White {
		t.Fatal("Clone shares state with the original")
	}
	if n := testing.AllocsPerRun(100, func() { b.Reset() }); n != 0 {
		t.Errorf("Reset allocates %v", n)
	}
	if n := testing.AllocsPerRun(100, func() { c.Place(mustPoint(t, "AA")); c.Unplace() }); n != 0 {
		t.Errorf("Place/Unplace allocates %v", n)
	}
}
