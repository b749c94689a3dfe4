package tournament

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

func TestExternalForfeits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode, after string
		reason      string
		detail      string
	}{
		{"crash", "0", "forfeit:crash", "simulated crash"},
		{"crash", "2", "forfeit:crash", "exit status 3"},
		{"hang", "1", "forfeit:timeout", "no move within"},
		{"illegal", "0", "forfeit:illegal", "occupied"},
		{"garbage", "1", "forfeit:malformed", `"move ZZ9"`},
		{"empty", "0", "forfeit:malformed", `"move"`},
		{"exit", "0", "forfeit:exit", "exit status 0"},
		{"single", "1", "forfeit:illegal", ""},
	}
	for _, c := range cases {
		t.Run(c.mode+"-after-"+c.after, func(t *testing.T) {
			t.Parallel()
			r := Runner{
				Entrants: []Entrant{
					{Name: "fake", Command: []string{fakeEngine, "-mode", c.mode, "-after", c.after, "-noise"}, MoveTime: 300 * time.Millisecond},
					{Name: "trivial", New: newFirstLegal},
				},
				Openings:    []Opening{mustOpening(t, "JJ KJJK"), {}},
				Concurrency: 2,
			}
			tab, err := r.Run(context.Background(), HeadToHead(0, 1, 2))
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Games) != 4 {
				t.Fatalf("%d games, want 4", len(tab.Games))
			}
			for _, g := range tab.Games {
				fakeColor := "black"
				if g.WhiteIndex == 0 {
					fakeColor = "white"
				}
				if g.Reason != c.reason || !strings.HasPrefix(g.Detail, fakeColor+": ") || !strings.Contains(g.Detail, c.detail) {
					t.Errorf("game %d: reason %q detail %q, want %q by %s with %q", g.Game, g.Reason, g.Detail, c.reason, fakeColor, c.detail)
				}
			}
			m, _ := tab.Lookup(0, 1)
			if m.Games.L != 4 {
				t.Errorf("fake lost %d of 4", m.Games.L)
			}
		})
	}
}

func TestExternalGoodEnginePlaysLegalGames(t *testing.T) {
	t.Parallel()
	// Two external fakes (noisy output interleaved) and an in-process
	// trivial player, from an opening (ConnectMore replay) and from the
	// empty board (Cloudict new black/new white).
	r := Runner{
		Entrants: []Entrant{
			{Name: "fake1", Command: []string{fakeEngine, "-noise"}},
			{Name: "fake2", Command: []string{fakeEngine}},
			{Name: "trivial", New: newFirstLegal},
		},
		Openings:    []Opening{{}, mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ IIKK LLMM")},
		Concurrency: 2,
	}
	tab, err := r.Run(context.Background(), RoundRobin(Indices(3), 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Games) != 18 {
		t.Fatalf("%d games", len(tab.Games))
	}
	for _, g := range tab.Games {
		if strings.HasPrefix(g.Reason, "forfeit") {
			t.Errorf("game %d (%s-%s): %s %s", g.Game, g.Black, g.White, g.Reason, g.Detail)
		}
		b := engine.NewBoard()
		for i, m := range g.Moves {
			if err := b.Play(m); err != nil {
				t.Fatalf("game %d move %d: %v", g.Game, i, err)
			}
		}
		if b.Winner() == engine.Empty && !b.Full() {
			t.Errorf("game %d ended without six or full board", g.Game)
		}
	}
	// The fake and the trivial player both play row-major first points,
	// so a fake-vs-trivial game equals the trivial-vs-trivial game.
	ref, _ := PlayGame(context.Background(), engine.NewBoard(), &firstLegal{}, &firstLegal{}, r.Openings[1], 0)
	g := tab.Games[2*4+0] // pair 4: round 1 (opening 1), pairing fake1-trivial; fake1 Black
	if g.Black != "fake1" || g.White != "trivial" || g.Opening != "JJ KJJK" {
		t.Fatalf("game 8 is %s-%s %q", g.Black, g.White, g.Opening)
	}
	if !equalMoves(g.Moves, ref.Moves) {
		t.Errorf("fake game %v\nwant %v", g.Moves, ref.Moves)
	}
}

func equalMoves(a, b []engine.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestExternalStartFailureAbortsRun(t *testing.T) {
	r := Runner{Entrants: []Entrant{
		{Name: "missing", Command: []string{"/nonexistent/engine"}},
		{Name: "trivial", New: newFirstLegal},
	}}
	_, err := r.Run(context.Background(), HeadToHead(0, 1, 1))
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/engine") {
		t.Errorf("error %v", err)
	}
}

func TestExternalCancelKillsProcess(t *testing.T) {
	p, err := NewExternalPlayer([]string{fakeEngine, "-mode", "hang"}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = PlayGame(ctx, engine.NewBoard(), p, &firstLegal{}, Opening{}, 0)
	if err == nil || ctx.Err() == nil {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("cancel took %v", time.Since(start))
	}
	if p.proc != nil {
		t.Error("process not reaped after cancel")
	}
}

// TestExternalRoadtuneEngine drives the real protocol engine (cmd/engine)
// when it builds: with the same weights and settings it must play exactly
// the moves of the in-process engine, from the empty board (Cloudict) and
// from openings (ConnectMore replay).
func TestExternalRoadtuneEngine(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/engine").CombinedOutput(); err != nil {
		t.Skipf("cmd/engine does not build: %v\n%s", err, out)
	}
	s := engine.DefaultSettings()
	s.Depth = 1
	w := baseline(t, "zhou2015")
	ops := []Opening{{}, mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ IIKK LLMM")}
	run := func(second Entrant) *Table {
		r := Runner{
			Entrants:    []Entrant{{Name: "inproc", Weights: w, Settings: s}, second},
			Openings:    ops,
			MaxMoves:    60,
			Concurrency: 2,
		}
		tab, err := r.Run(context.Background(), HeadToHead(0, 1, len(ops)))
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	ext := run(Entrant{Name: "other", Command: []string{bin, "-depth", "1"}, MoveTime: 20 * time.Second})
	ref := run(Entrant{Name: "other", Weights: w, Settings: s})
	for i, g := range ext.Games {
		if strings.HasPrefix(g.Reason, "forfeit") {
			t.Errorf("game %d: %s %s", i, g.Reason, g.Detail)
			continue
		}
		if !equalMoves(g.Moves, ref.Games[i].Moves) || g.Result != ref.Games[i].Result {
			t.Errorf("game %d (%q): external %v %v\nin-process %v %v", i, g.Opening, g.Result, g.Moves, ref.Games[i].Result, ref.Games[i].Moves)
		}
	}
}
