package engine

import (
	"context"
	"math/rand/v2"
	"testing"
)

// refCrossPoints counts c's cross points from the stones alone: empty
// points with, in at least two directions, a road through them holding
// exactly 3 stones of c and none of the other colour.
func refCrossPoints(b *Board, c Color) int {
	n := 0
	for p := Point(0); p < NumPoints; p++ {
		if b.At(p) != Empty {
			continue
		}
		dirs := 0
		for d := range directions {
			for r := int(dirFirst[p][d]); r < int(dirFirst[p][d])+int(dirCount[p][d]); r++ {
				if own, opp := refRoadCounts(b, r, c); own == 3 && opp == 0 {
					dirs++
					break
				}
			}
		}
		if dirs >= 2 {
			n++
		}
	}
	return n
}

// TestCrossPointsHandCounted: Black's horizontal three G..I on row J and
// vertical three on column J (rows G..I) cross at the empty point JJ only;
// a White stone there removes the cross, one on the far end of a road
// leaves it (the other roads through JJ stay live).
func TestCrossPointsHandCounted(t *testing.T) {
	b := setUpColours(t, map[string]Color{"GJ": Black, "HJ": Black, "IJ": Black, "JG": Black, "JH": Black, "JI": Black})
	if got := b.CrossPoints(Black); got != 1 {
		t.Fatalf("cross points %d, want 1 (JJ)\n%s", got, b)
	}
	if got := b.CrossPoints(White); got != 0 {
		t.Fatalf("White's cross points %d, want 0", got)
	}
	far := setUpColours(t, map[string]Color{"GJ": Black, "HJ": Black, "IJ": Black, "JG": Black, "JH": Black, "JI": Black, "LJ": White})
	if got := far.CrossPoints(Black); got != 1 {
		t.Fatalf("with White on LJ: %d, want 1 (roads DJ..IJ, EJ..JJ, FJ..KJ still cross JG..JL)", got)
	}
	on := setUpColours(t, map[string]Color{"GJ": Black, "HJ": Black, "IJ": Black, "JG": Black, "JH": Black, "JI": Black, "JJ": White})
	if got := on.CrossPoints(Black); got != 0 {
		t.Fatalf("with White on JJ: %d, want 0", got)
	}
}

// setUpColours builds a board holding exactly the given stones, placing
// filler stones far away (on row A and S) so each stone gets its colour;
// the fillers hold no road of 3.
func setUpColours(t *testing.T, stones map[string]Color) *Board {
	t.Helper()
	b := NewBoard()
	var want [3][]Point
	for s, c := range stones {
		want[c] = append(want[c], mustPoint(t, s))
	}
	fill := [3][]Point{}
	for i := 0; i < Size; i += 2 {
		fill[Black] = append(fill[Black], PointAt(i, 0))
		fill[White] = append(fill[White], PointAt(i, Size-1))
	}
	used := [3]int{}
	for len(want[Black])+len(want[White]) > 0 {
		c := b.ToMove()
		if len(want[c]) > 0 {
			b.Place(want[c][0])
			want[c] = want[c][1:]
		} else {
			b.Place(fill[c][used[c]])
			used[c]++
		}
	}
	return b
}

// TestCrossPointsTracked walks random Place/Unplace steps, crowded so that
// 3-stone roads cross, with one board tracking its live 3-stone roads from
// the start and a copy that starts tracking at every step: both count what
// refCrossPoints counts from the stones.
func TestCrossPointsTracked(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 14))
	b := NewBoard()
	b.TrackCross()
	steps := 4000
	if testing.Short() {
		steps = 1000
	}
	seen := 0
	for step := 0; step < steps; step++ {
		crowdedStep(rng, b, crowd{lo: 4, span: 11, max: 90})
		late := b.Clone()
		late.track3 = false
		for _, c := range []Color{Black, White} {
			want := refCrossPoints(b, c)
			if got := b.CrossPoints(c); got != want {
				t.Fatalf("step %d %s: tracked %d, stones %d\n%s", step, c, got, want, b)
			}
			if got := late.CrossPoints(c); got != want {
				t.Fatalf("step %d %s: scanned %d, stones %d", step, c, got, want)
			}
			seen += want
		}
		late.TrackCross()
		if late.live3 != b.live3 {
			t.Fatalf("step %d: TrackCross rebuilt other live roads than Place kept", step)
		}
	}
	if seen == 0 {
		t.Fatal("the walk never made a cross point: the test is too weak")
	}
}

// gamePositions plays each suite position 30 moves on with a depth-2
// tempo engine and returns every position reached: self-play positions,
// where cross points occur (about one position in twenty has one).
func gamePositions(t *testing.T) []*Board {
	t.Helper()
	set := DefaultSettings()
	set.Depth = 2
	e := newEngine(t, mustWeights(t, Tempo, -6, 199, 913, 3518, 3515, -2, 133, 377, 656, -572, 2512, 9837), set)
	var out []*Board
	for _, b0 := range loadSuite(t) {
		b := b0.Clone()
		for k := 0; k < 30 && !b.Over(); k++ {
			if err := b.Play(e.Search(context.Background(), b).Move); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.Clone())
		}
	}
	return out
}

// TestCrossLeafIsEvaluate: the cross schema's leaf score is
// Weights.Evaluate from the side to move's view, cross term included, on
// self-play positions with and without cross points.
func TestCrossLeafIsEvaluate(t *testing.T) {
	w := mustWeights(t, Cross, -3, 140, 500, 4000, 1200, -20, 230, 780, 7900, 1600, 900, 5000, 700, 1300)
	e := newEngine(t, w, DefaultSettings())
	crosses := [3]int{}
	for i, b := range gamePositions(t) {
		s := b.ToMove()
		th, h := b.Threats(s.Opponent()), b.Histogram(s)
		if b.Over() || th >= 3 || h[4]+h[5] > 0 {
			continue // decided: leaf returns a mate score
		}
		e.board.CopyFrom(b)
		e.board.TrackCross()
		crosses[Black] += b.CrossPoints(s)
		crosses[White] += b.CrossPoints(s.Opponent())
		if got, want := e.leaf(0), w.Evaluate(b, s); got != want {
			t.Fatalf("position %d: leaf %v, Evaluate %v\n%s", i, got, want, b)
		}
	}
	if crosses[Black] == 0 || crosses[White] == 0 {
		t.Errorf("cross points of the mover %d, of the waiting side %d: a term went unchecked", crosses[Black], crosses[White])
	}
}

// TestCrossGeneralisesTempo: a cross vector with XM = XW = 0 is its tempo
// vector, so every search gives the same result, node for node.
func TestCrossGeneralisesTempo(t *testing.T) {
	g := []float64{-6, 199, 913, 3518, 3515, -2, 133, 377, 656, -572, 2512, 9837}
	tempo := mustWeights(t, Tempo, g...)
	cross, err := tempo.As(Cross)
	if err != nil {
		t.Fatal(err)
	}
	set := DefaultSettings()
	set.Depth = 3
	et, ec := newEngine(t, tempo, set), newEngine(t, cross, set)
	positions := gamePositions(t)
	for i, b := range positions {
		rt, rc := et.Search(context.Background(), b), ec.Search(context.Background(), b)
		if rt != rc {
			t.Fatalf("position %d: tempo %+v, cross %+v", i, rt, rc)
		}
	}
	// And a cross term changes the play somewhere (it is wired in).
	heavy := mustWeights(t, Cross, append(append([]float64(nil), g...), 3000, 3000)...)
	eh := newEngine(t, heavy, set)
	differ := 0
	for _, b := range positions {
		if et.Search(context.Background(), b).Move != eh.Search(context.Background(), b).Move {
			differ++
		}
	}
	if differ == 0 {
		t.Error("a cross term of 3000 changed no move of the suite")
	}
}
