package tournament

import (
	"math/rand/v2"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tournament/wdl"
)

// TestLLRHistory replays an SPRT over a games log in any order: after
// each complete pair, the LLR of the pentanomial counts so far (A has
// Black in a pair's first game); a pair with one game is not counted.
func TestLLRHistory(t *testing.T) {
	s := stats.SPRT{Elo0: 0, Elo1: 20}
	// A's results by pair: (first game as Black, second as White).
	results := [][2]Result{{BlackWins, WhiteWins}, {BlackWins, BlackWins}, {Draw, WhiteWins}, {WhiteWins, BlackWins}, {BlackWins, Draw}}
	var recs []GameRecord
	var penta wdl.Pentanomial
	var want []float64
	for k, r := range results {
		recs = append(recs, GameRecord{Game: 2 * k, Pair: k, Result: r[0]}, GameRecord{Game: 2*k + 1, Pair: k, Result: r[1]})
		if err := penta.Add(r[0].Score(engine.Black), r[1].Score(engine.White)); err != nil {
			t.Fatal(err)
		}
		llr, _, err := s.Test(penta.Counts())
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, llr)
	}
	recs = append(recs, GameRecord{Game: 10, Pair: 5, Result: BlackWins}) // its pair is incomplete
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	games, llr, err := LLRHistory(recs, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != len(want) || len(llr) != len(want) {
		t.Fatalf("%d games and %d LLRs, want %d points", len(games), len(llr), len(want))
	}
	for i := range want {
		if games[i] != float64(2*(i+1)) || llr[i] != want[i] {
			t.Errorf("point %d: (%g, %g), want (%d, %g)", i, games[i], llr[i], 2*(i+1), want[i])
		}
	}
	// A won both games of the first pair: evidence for H1.
	if llr[0] <= 0 {
		t.Errorf("after a won pair the LLR is %g, want > 0", llr[0])
	}
	if _, _, err := LLRHistory(append(recs, GameRecord{Game: 2, Pair: 1}), s); err == nil {
		t.Error("two first games of pair 1: no error")
	}
	if _, _, err := LLRHistory(recs, stats.SPRT{Elo0: 5, Elo1: 0}); err == nil {
		t.Error("elo0 > elo1: no error")
	}
}
