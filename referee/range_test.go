package referee

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// TestRangesReplayTheWholeBatch: a batch played in ranges (in any order)
// gives the whole batch's outcomes, games (numbers, names, openings) and
// positions, with early stop on.
func TestRangesReplayTheWholeBatch(t *testing.T) {
	zhou := baseline(t, "zhou2015").Genes
	vecs := [][]float64{zhou, {1, 1, 1, 1, 1}, {-5, -20, -80, -150, -800}, {20, 60, 300, 200, 900}}
	var matches []optimize.Match
	for i := range vecs {
		for j := range vecs {
			if i != j && len(matches) < 7 {
				matches = append(matches, optimize.Match{A: vecs[i], B: vecs[j], WinnerOnly: (i+j)%2 == 0})
			}
		}
	}
	newRef := func(games *[]tournament.GameRecord) *VectorReferee {
		return &VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 3, MaxMoves: 40, EarlyStop: "decided"},
			Concurrency: 2,
			GameLog:     func(g tournament.GameRecord) error { *games = append(*games, g); return nil }}
	}
	const seed = 17
	var wantGames []tournament.GameRecord
	wantOut, wantPos, err := newRef(&wantGames).Sample(context.Background(), seed, matches)
	if err != nil {
		t.Fatal(err)
	}
	var playGames []tournament.GameRecord
	playOut, err := newRef(&playGames).Play(context.Background(), seed, matches)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(playOut, wantOut) || !reflect.DeepEqual(strip(playGames), strip(wantGames)) {
		t.Fatalf("Play and Sample differ")
	}
	for _, cuts := range [][]int{{0, 3, 7}, {0, 1, 2, 7}, {0, 4, 5, 7}} {
		out := make([]optimize.Outcome, len(matches))
		var games []tournament.GameRecord
		var pos []optimize.Position
		ref := newRef(&games)
		for c := len(cuts) - 2; c >= 0; c-- { // last range first
			first, end := cuts[c], cuts[c+1]
			rg := Range{First: first, Total: len(matches)}
			o, p, err := ref.SampleRange(context.Background(), seed, rg, matches[first:end])
			if err != nil {
				t.Fatal(err)
			}
			copy(out[first:], o)
			pos = append(pos, p...)
			if o2, err := ref.PlayRange(context.Background(), seed, rg, matches[first:end]); err != nil || !reflect.DeepEqual(o2, o) {
				t.Fatalf("range %v: PlayRange %v (%v), SampleRange %v", cuts[c:c+2], o2, err, o)
			}
		}
		if !reflect.DeepEqual(out, wantOut) {
			t.Errorf("cuts %v: outcomes %v, want %v", cuts, out, wantOut)
		}
		slices.SortStableFunc(pos, func(a, b optimize.Position) int { return a.Game - b.Game })
		if !reflect.DeepEqual(pos, wantPos) {
			t.Errorf("cuts %v: %d positions differ from the whole batch's %d", cuts, len(pos), len(wantPos))
		}
		// Each range's games were logged twice (SampleRange, PlayRange).
		var once []tournament.GameRecord
		seen := map[int]bool{}
		for _, g := range games {
			if !seen[g.Game] {
				seen[g.Game] = true
				once = append(once, g)
			}
		}
		slices.SortFunc(once, func(a, b tournament.GameRecord) int { return a.Game - b.Game })
		if !reflect.DeepEqual(strip(once), strip(wantGames)) {
			t.Errorf("cuts %v: games differ from the whole batch's", cuts)
		}
	}
	saved := 0
	for _, o := range wantOut {
		saved += 6 - o.Games()
	}
	if saved == 0 {
		t.Error("no match stopped early: the test does not cover early stop")
	}
	ref := newRef(new([]tournament.GameRecord))
	for _, rg := range []Range{{First: -1, Total: 7}, {First: 5, Total: 6}} {
		if _, err := ref.PlayRange(context.Background(), seed, rg, matches[:2]); err == nil {
			t.Errorf("range %+v of 2 matches accepted", rg)
		}
	}
}
