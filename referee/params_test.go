package referee

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

func TestPlayerSetsParams(t *testing.T) {
	zhou := baseline(t, "zhou2015")
	r := &VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Fixed: zhou.Genes, Params: []string{"Width", "DefendShare"}}}
	for _, tc := range []struct {
		v     []float64
		width int
		share float64
	}{
		{[]float64{7.4, 0.3}, 7, 0.3},
		{[]float64{7.5, 0.5}, 8, 0.5},
		{[]float64{1e6, -3}, engine.MaxWidth, 0.01}, // clamped to the Params' ranges
	} {
		w, s, err := r.Player(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(w.Genes, zhou.Genes) || s.Width != tc.width || s.Time.DefendShare != tc.share || s.Depth != 1 {
			t.Errorf("Player(%v) = %v, width %d, share %v, depth %d; want zhou2015, %d, %v, 1", tc.v, w.Genes, s.Width, s.Time.DefendShare, s.Depth, tc.width, tc.share)
		}
	}
	if r.Settings.Width != 6 {
		t.Errorf("Player changed the referee's settings: width %d", r.Settings.Width)
	}
	// Genes then parameters, without Fixed.
	r.Fixed = nil
	w, s, err := r.Player(append(slices.Clone(zhou.Genes), 3, 0.2))
	if err != nil || !slices.Equal(w.Genes, zhou.Genes) || s.Width != 3 || s.Time.DefendShare != 0.2 {
		t.Errorf("genes+params: %v, width %d, share %v, err %v", w.Genes, s.Width, s.Time.DefendShare, err)
	}
	for _, v := range [][]float64{{3, 0.2}, append(slices.Clone(zhou.Genes), math.NaN(), 0.2)} {
		if _, _, err := r.Player(v); err == nil {
			t.Errorf("Player(%v): no error", v)
		}
	}
}

// TestParamsReachThePlayers plays the same weights at two widths: the
// games differ from those of equal widths, so each player searched with
// its own vector's settings.
func TestParamsReachThePlayers(t *testing.T) {
	zhou := baseline(t, "zhou2015")
	play := func(a, b float64, tc tournament.TimeControl) []tournament.GameRecord {
		var games []tournament.GameRecord
		st := fastSettings()
		st.Depth = 2 // at depth 1 the ordering alone picks the move, whatever the width
		r := &VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: st, Fixed: zhou.Genes, Params: []string{"Width"}, Time: tc},
			Concurrency: 1,
			GameLog:     func(g tournament.GameRecord) error { games = append(games, g); return nil }}
		if _, err := r.Play(context.Background(), 5, []optimize.Match{{A: []float64{a}, B: []float64{b}}}); err != nil {
			t.Fatal(err)
		}
		return games
	}
	same, other := play(6, 6, tournament.TimeControl{}), play(1, 6, tournament.TimeControl{})
	if slices.EqualFunc(same, other, func(x, y tournament.GameRecord) bool { return slices.Equal(x.Moves, y.Moves) }) {
		t.Error("width 1 against width 6 played the games of width 6 against width 6")
	}
	timed := play(6, 6, tournament.TimeControl{PerMove: 20 * time.Millisecond})
	for _, g := range timed {
		if g.TC != [2]string{"st=0.02", "st=0.02"} {
			t.Errorf("game %d: time controls %q, want st=0.02 for both", g.Game, g.TC)
		}
	}
	if _, _, err := (&VectorReferee{Setup: Setup{Schema: engine.Symmetric, Fixed: zhou.Genes, Params: []string{"Width"}}}).
		Sample(context.Background(), 1, []optimize.Match{{A: []float64{6}, B: []float64{6}}}); err == nil || !strings.Contains(err.Error(), "search parameters") {
		t.Errorf("Sample with parameters: %v, want a refusal", err)
	}
}
