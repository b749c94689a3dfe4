package engine

import (
	"slices"
	"strings"
	"testing"
)

// points parses blank-separated points ("JJ KK LL"); "" is none.
func points(t testing.TB, s string) []Point {
	t.Helper()
	var ps []Point
	for _, f := range strings.Fields(s) {
		ps = append(ps, mustPoint(t, f))
	}
	return ps
}

func TestReachableCounts(t *testing.T) {
	// Reference: the counts after each stone of a game in turn order.
	reach := map[[2]int]bool{{0, 0}: true}
	var n [3]int
	for i := range NumPoints {
		n[sideOf(i)]++
		reach[[2]int{n[Black], n[White]}] = true
	}
	for b := -1; b <= NumPoints+1; b++ {
		for w := -1; w <= NumPoints+1; w++ {
			if got := ReachableCounts(b, w); got != reach[[2]int{b, w}] {
				t.Fatalf("ReachableCounts(%d, %d) = %t, want %t", b, w, got, !got)
			}
		}
	}
	cases := []struct {
		black, white int
		want         bool
	}{
		{0, 0, true}, {1, 0, true}, {1, 1, true}, {1, 2, true}, {2, 2, true}, {3, 2, true},
		{3, 4, true}, {181, 180, true},
		{0, 1, false}, {0, 2, false}, {2, 0, false}, {2, 1, false}, {1, 3, false}, {2, 3, false},
		{4, 3, false}, {181, 181, false}, {-1, 0, false},
	}
	for _, c := range cases {
		if got := ReachableCounts(c.black, c.white); got != c.want {
			t.Errorf("ReachableCounts(%d, %d) = %t, want %t", c.black, c.white, got, c.want)
		}
	}
}

func TestSetUpMatchesPlay(t *testing.T) {
	cases := []struct {
		name         string
		moves        []string // played in turn order
		extra        string   // then placed as the first stone of a pair
		black, white string   // the same stones for SetUp, each colour in any order
		toMove       Color
		left         int
	}{
		{"empty", nil, "", "", "", Black, 1},
		{"first stone", []string{"JJ"}, "", "JJ", "", White, 2},
		{"white mid-pair", []string{"JJ"}, "KK", "JJ", "KK", White, 1},
		{"two moves", []string{"JJ", "KKLL"}, "", "JJ", "KK LL", Black, 2},
		{"black mid-pair", []string{"JJ", "KJJK"}, "IJ", "JJ IJ", "KJ JK", Black, 1},
		{"four moves", []string{"JJ", "KJJK", "IJJI", "KKLL"}, "", "JJ IJ JI", "KJ JK KK LL", Black, 2},
	}
	for _, c := range cases {
		want := NewBoard()
		play(t, want, c.moves...)
		if c.extra != "" {
			want.Place(mustPoint(t, c.extra))
		}
		b := NewBoard()
		play(t, b, "SS", "SRSQ") // SetUp replaces what was there
		bs, ws := points(t, c.black), points(t, c.white)
		if err := b.SetUp(bs, ws); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if b.Hash() != want.Hash() || b.String() != want.String() || !slices.Equal(b.History(), want.History()) {
			t.Errorf("%s: SetUp gives\n%s%v\nwant\n%s%v", c.name, b, b.History(), want, want.History())
		}
		if b.ToMove() != c.toMove || b.StonesLeft() != c.left || b.Over() {
			t.Errorf("%s: %s to move with %d stones (over %t), want %s with %d", c.name, b.ToMove(), b.StonesLeft(), b.Over(), c.toMove, c.left)
		}
		for _, col := range []Color{Black, White} {
			if b.Histogram(col) != b.ScanHistogram(col) {
				t.Errorf("%s: %s histogram %v, scan %v", c.name, col, b.Histogram(col), b.ScanHistogram(col))
			}
		}
		// The same stones in another order within each colour: the same
		// position, a different history.
		slices.Reverse(bs)
		slices.Reverse(ws)
		if err := b.SetUp(bs, ws); err != nil || b.Hash() != want.Hash() {
			t.Errorf("%s reversed: err %v, hash %x want %x", c.name, err, b.Hash(), want.Hash())
		}
	}
}

func TestSetUpSixAndErrors(t *testing.T) {
	// Black's six in row A, with White's stones given first in the list order.
	b := NewBoard()
	if err := b.SetUp(points(t, "AA BA CA DA EA FA JJ"), points(t, "AS BS CS DS ES SS")); err != nil {
		t.Fatal(err)
	}
	if b.Winner() != Black || !b.Over() || b.Stones() != 13 {
		t.Fatalf("six set up: winner %s, over %t, %d stones\n%s", b.Winner(), b.Over(), b.Stones(), b)
	}
	// White's six; the counts are checked first.
	if err := b.SetUp(points(t, "JJ KK LL"), points(t, "AA AB AC AD AE AF")); err == nil {
		t.Fatal("3 black and 6 white stones accepted")
	}
	if err := b.SetUp(points(t, "JJ KK LL MM NN"), points(t, "AA AB AC AD AE AF")); err != nil {
		t.Fatal(err)
	}
	if b.Winner() != White {
		t.Fatalf("white six: winner %s\n%s", b.Winner(), b)
	}

	b.Reset()
	play(t, b, "JJ", "KKLL")
	hash, hist := b.Hash(), slices.Clone(b.History())
	bad := []struct {
		black, white, want string
	}{
		{"JJ", "KK LL MM", "1 black and 3 white stones"},
		{"", "KK LL", "0 black and 2 white stones"},
		{"JJ", "JJ KK", "JJ is given twice"},
		{"JJ KK", "LL KK", "KK is given twice"},
		{"AA BA CA DA EA FA JJ", "AS BS CS DS ES FS", "both black and white have six"},
	}
	for _, c := range bad {
		err := b.SetUp(points(t, c.black), points(t, c.white))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SetUp(%q, %q): error %v, want %q", c.black, c.white, err, c.want)
		}
		if b.Hash() != hash || !slices.Equal(b.History(), hist) {
			t.Fatalf("SetUp(%q, %q) changed the board", c.black, c.white)
		}
	}
	if err := b.SetUp([]Point{Point(400)}, nil); err == nil || !strings.Contains(err.Error(), "off the board") {
		t.Errorf("off-board stone: %v", err)
	}
}
