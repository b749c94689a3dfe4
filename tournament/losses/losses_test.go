package losses

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
)

func zhou(t *testing.T) engine.Weights {
	t.Helper()
	w, err := engine.NewWeights(engine.Symmetric, []float64{20, 80, 150, 800, 1000})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// game builds a record of the moves (protocol notation, the first
// `opening` of them the opening) with the given players and result.
func game(t *testing.T, n int, black, white string, opening int, result tournament.Result, reason string, moves ...string) tournament.GameRecord {
	t.Helper()
	g := tournament.GameRecord{Game: n, Pair: n / 2, Black: black, White: white, Opening: strings.Join(moves[:opening], " "), Result: result, Reason: reason}
	for _, s := range moves {
		m, err := engine.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		g.Moves = append(g.Moves, m)
	}
	return g
}

// lostMove is the move the engine without DefendWide plays after JJ IGJM
// KIKK (the engine's TestDefendWide): Black then wins by continuous double
// threats, and a quiet block (JGKG among others) holds.
func lostMove(t *testing.T) string {
	t.Helper()
	w, err := engine.NewWeights(engine.Tempo, []float64{-6.27383669412527, 199.1742964540098, 912.6663134234168, 3517.8300511231764,
		3515.2891565635127, -1.977573119467044, 132.78965828243884, 377.29581560777314, 655.7098316636791,
		-572.4916693965248, 2511.993342896188, 9837.037852965583})
	if err != nil {
		t.Fatal(err)
	}
	s := engine.PlaySettings()
	s.Depth, s.DefendNodes, s.DefendDepth, s.DefendWide = 3, 50000, 10, 0
	e, err := engine.New(w, s)
	if err != nil {
		t.Fatal(err)
	}
	b := engine.NewBoard()
	for _, m := range []string{"JJ", "IGJM", "KIKK"} {
		mv, _ := engine.ParseMove(m)
		if err := b.Play(mv); err != nil {
			t.Fatal(err)
		}
	}
	return e.Search(context.Background(), b).Move.String()
}

// TestAnalyze: a defence missed (a pair holds before the losing move), a
// game lost before its first move (three threats on the board), a loss
// the threat search cannot prove, a forfeit, and games the player won or
// did not play, each given its cause; the tables count them.
func TestAnalyze(t *testing.T) {
	// Black has three roads of 4 or more stones (rows B, J and R from
	// column C) when White makes its first move after the opening; White's
	// stones are far from them.
	threes := []string{"CB", "SSAS", "DBEB", "SAAA", "FBCJ", "PSSP", "DJEJ", "MSSM", "FJCR", "JSSJ", "DRER", "PAAP", "FRGG"}
	games := []tournament.GameRecord{
		game(t, 0, "cl", "rt", 3, tournament.BlackWins, "six", "JJ", "IGJM", "KIKK", lostMove(t)),
		game(t, 1, "rt", "cl", 3, tournament.BlackWins, "six", "JJ", "IGJM", "KIKK"), // rt won
		game(t, 2, "cl", "rt", len(threes), tournament.BlackWins, "six", append(threes, "PPQQ")...),
		game(t, 3, "cl", "rt", 2, tournament.BlackWins, "six", "JJ", "IGJM", "AAAS", "SAAB"),
		game(t, 4, "cl", "rt", 2, tournament.BlackWins, "forfeit:crash", "JJ", "IGJM"),
		game(t, 5, "cl", "other", 2, tournament.BlackWins, "six", "JJ", "IGJM", "AAAS", "SAAB"),
	}
	opt := Options{Player: "rt", Weights: zhou(t), HoldNodes: 20_000, ProveNodes: 200_000}
	calls := 0
	r, err := Analyze(context.Background(), games, opt, func(done, total int) {
		calls++
		if total != 4 || done != calls {
			t.Errorf("progress %d/%d at call %d", done, total, calls)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 5 || r.Lost != 4 || len(r.Losses) != 4 || calls != 4 {
		t.Fatalf("games %d lost %d losses %d progress calls %d: want 5, 4, 4, 4", r.Games, r.Lost, len(r.Losses), calls)
	}
	want := []struct {
		game       int
		cause      string
		losingMove int
		hold       bool
	}{
		{0, CauseMissed, 1, true},
		{2, CauseOpening, 1, false},
		{3, CauseUnproved, 0, false},
		{4, CauseForfeit, 0, false},
	}
	for i, w := range want {
		l := r.Losses[i]
		if l.Game != w.game || l.Cause != w.cause || l.LosingMove != w.losingMove || (l.Hold != "") != w.hold || l.Colour != "white" {
			t.Errorf("loss %d: %+v, want game %d cause %q losing move %d hold %t", i, l, w.game, w.cause, w.losingMove, w.hold)
		}
	}
	if l := r.Losses[0]; l.Played != lostMove(t) || l.Win == "" || l.Pairs < 1 || (l.HoldRank > 0) != (l.Pairs <= 60) || l.HoldRank > l.Pairs {
		t.Errorf("defence missed: %+v", l)
	}
	held := r.Losses[0]
	cut := held.HoldRank == 0 || held.HoldRank > 15
	if l := r.Losses[1]; l.WinPlies != 0 || l.Pairs == 0 {
		t.Errorf("lost before the first move: the win is a six now after any pair: %+v", l)
	}
	md := r.Markdown()
	for _, s := range []string{
		"Post-mortem of rt: 5 games, 4 lost.",
		"| " + CauseOpening + " | 0 | 1 | 1 |",
		"| " + CauseMissed + " | 0 | 1 | 1 |",
		"| 1 | 2 | 1 | 0 |", // losing move 1: two games, one with a pair that held, not by a threat
		fmt.Sprintf("| … a pair the width cut (rank > 15) | 0 | %d | %d |", b2i(cut), b2i(cut)),
		fmt.Sprintf("| … a pair among the root's 15 best | 0 | %d | %d |", b2i(!cut), b2i(!cut)),
		"| 4 | JJ IGJM | white | 2 | – | – | – | – | forfeit (forfeit:crash) |",
	} {
		if !strings.Contains(md, s) {
			t.Errorf("Markdown lacks %q:\n%s", s, md)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestAnalyzeErrors: no player, a player absent from the log, and an
// illegal move in a lost game are errors that say so.
func TestAnalyzeErrors(t *testing.T) {
	games := []tournament.GameRecord{game(t, 0, "cl", "rt", 2, tournament.BlackWins, "six", "JJ", "IGJM", "KIKK")}
	bad := games[0]
	bad.Moves = append(bad.Moves, bad.Moves[2]) // White plays on Black's stones
	for _, c := range []struct {
		games  []tournament.GameRecord
		player string
		want   string
	}{
		{games, "", "no player named"},
		{games, "nobody", `player "nobody" plays no game of the log (players: cl, rt)`},
		{[]tournament.GameRecord{bad}, "rt", "game 0, move 4 (KIKK)"},
	} {
		_, err := Analyze(context.Background(), c.games, Options{Player: c.player, Weights: zhou(t)}, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("player %q: want an error with %q, got %v", c.player, c.want, err)
		}
	}
}
