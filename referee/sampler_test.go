package referee

import (
	"context"
	"reflect"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// TestSamplePositions: Sample plays the games Play plays and returns their
// undecided positions from both sides, labelled by the game's result, with
// the features of match A's vector.
func TestSamplePositions(t *testing.T) {
	zhou := baseline(t, "zhou2015").Genes
	flat := []float64{1, 1, 1, 1, 1}
	matches := []optimize.Match{{A: zhou, B: flat}, {A: flat, B: zhou}}
	var games []tournament.GameRecord
	r := &VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 2, MaxMoves: 60},
		Concurrency: 2,
		GameLog:     func(g tournament.GameRecord) error { games = append(games, g); return nil }}
	out, pos, err := r.Sample(context.Background(), 11, matches)
	if err != nil {
		t.Fatal(err)
	}
	play, err := (&VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 2, MaxMoves: 60}}).Play(context.Background(), 11, matches)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, play) {
		t.Fatalf("Sample outcomes %v, Play outcomes %v", out, play)
	}
	if len(games) != 8 {
		t.Fatalf("%d games logged, want 8", len(games))
	}
	if len(pos) < 8*10 || len(pos)%2 != 0 {
		t.Fatalf("%d positions from 8 games", len(pos))
	}
	perGame := map[int]int{}
	labels := map[int][]float64{} // side-to-move labels by game, in order
	for i := 0; i < len(pos); i += 2 {
		p, q := pos[i], pos[i+1]
		if p.Tempo != 1 || q.Tempo != -1 || p.Game != q.Game || p.Y+q.Y != 1 || (p.Y != 0 && p.Y != 0.5 && p.Y != 1) {
			t.Fatalf("positions %d, %d are not one position's two views: %+v %+v", i, i+1, p, q)
		}
		if len(p.X) != 5 {
			t.Fatalf("position %d: %d features", i, len(p.X))
		}
		for d := range p.X { // symmetric: the two views are negatives
			if p.X[d] != -q.X[d] {
				t.Fatalf("position %d: views %v and %v", i, p.X, q.X)
			}
		}
		perGame[p.Game]++
		labels[p.Game] = append(labels[p.Game], p.Y)
	}
	// Check each game's labels and the decided-position filter by replay.
	for _, g := range games {
		b := engine.NewBoard()
		kept := 0
		o, _ := tournament.ParseOpening(g.Opening)
		for i, m := range g.Moves {
			if i >= len(o.Moves) && !b.Over() {
				stm := b.ToMove()
				h := b.Histogram(stm)
				if h[4]+h[5] == 0 && b.Threats(stm.Opponent()) < 3 {
					if y := g.Result.Score(stm); kept < len(labels[g.Game]) && labels[g.Game][kept] != y {
						t.Errorf("game %d, move %d: label %g for the side to move, want %g", g.Game, i, labels[g.Game][kept], y)
					}
					kept++
				}
			}
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if kept != perGame[g.Game] {
			t.Errorf("game %d: %d undecided positions by replay, Sample gave %d", g.Game, kept, perGame[g.Game])
		}
		if kept == len(g.Moves)-len(o.Moves) {
			t.Errorf("game %d (%s by %s): no position was dropped as decided", g.Game, g.Result, g.Reason)
		}
	}
	// The dual schema's features follow A's judge: one set's slots are zero.
	dual := baseline(t, "qi2018-dual")
	dr := &VectorReferee{Setup: Setup{Schema: engine.Dual, Settings: fastSettings(), MaxMoves: 40}}
	_, dpos, err := dr.Sample(context.Background(), 3, []optimize.Match{{A: dual.Genes, B: dual.Genes}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range dpos {
		set0, set1 := false, false
		for d := range 10 {
			set0 = set0 || p.X[d] != 0
			set1 = set1 || p.X[10+d] != 0
		}
		if (set0 && set1) || p.X[20] != 0 {
			t.Fatalf("dual position with features in both sets or the alert: %v", p.X)
		}
	}
}
