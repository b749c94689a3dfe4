package tournament

import (
	"context"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/tournament/stats"
)

// logged runs r on fixtures and returns the table and the records OnGame
// saw, in order.
func logged(t *testing.T, r Runner, fixtures []Fixture) (*Table, []GameRecord) {
	t.Helper()
	var seen []GameRecord
	r.OnGame = func(g GameRecord) error { seen = append(seen, g); return nil }
	tab, err := r.Run(context.Background(), fixtures)
	if err != nil {
		t.Fatal(err)
	}
	return tab, seen
}

// TestRunDiscardKeepsCounts: a run with Discard passes on the same games
// and ends with the same counts as a normal run, without the records.
func TestRunDiscardKeepsCounts(t *testing.T) {
	ops, err := GenerateOpenings(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	r := Runner{Entrants: engineEntrants(t, "zhou2015", "qi2018-table3-1", "qi2018-attack"), Openings: ops, MaxMoves: 40, Concurrency: 2}
	fx := RoundRobin(Indices(3), 3)
	full, fullSeen := logged(t, r, fx)
	r.Discard = true
	tab, seen := logged(t, r, fx)
	if tab.Games != nil {
		t.Errorf("Discard kept %d games", len(tab.Games))
	}
	if !reflect.DeepEqual(tab.Matchups, full.Matchups) || tab.Played != full.Played || !reflect.DeepEqual(tab.Reasons, full.Reasons) {
		t.Errorf("Discard table %+v\nwant %+v", tab, full)
	}
	if tab.Played != 18 || !reflect.DeepEqual(strip(seen), strip(fullSeen)) || !reflect.DeepEqual(strip(seen), strip(full.Games)) {
		t.Errorf("OnGame saw %d games with Discard, %d without; %d played", len(seen), len(fullSeen), tab.Played)
	}
}

// resumeFrom returns the games of log with index below k, minus gaps: what
// an interrupted run leaves in its games log.
func resumeFrom(log []GameRecord, k int, gaps ...int) []GameRecord {
	var out []GameRecord
	for _, g := range log {
		if g.Game < k && !slices.Contains(gaps, g.Game) {
			out = append(out, g)
		}
	}
	return out
}

// checkResumed runs r with each resume set cut from the full run's games
// log and checks the table is the full run's, OnGame sees exactly the
// full run's other games in order, and Progress ends at the total having
// started with the resumed games.
func checkResumed(t *testing.T, r Runner, fixtures []Fixture, full *Table, fullLog []GameRecord, resumes [][]GameRecord) {
	t.Helper()
	for _, resume := range resumes {
		var idx []int
		for _, g := range resume {
			idx = append(idx, g.Game)
		}
		var progress [][2]int
		r.Resume = resume
		r.Progress = func(done, total int) { progress = append(progress, [2]int{done, total}) }
		tab, seen := logged(t, r, fixtures)
		if !reflect.DeepEqual(tab.Matchups, full.Matchups) || !reflect.DeepEqual(tab.SPRT, full.SPRT) || tab.Played != full.Played {
			t.Errorf("resume %v: table %+v %+v\nwant %+v %+v", idx, tab.Matchups, tab.SPRT, full.Matchups, full.SPRT)
		}
		if !reflect.DeepEqual(strip(tab.Games), strip(full.Games)) {
			t.Errorf("resume %v: games differ from the full run's", idx)
		}
		var want []GameRecord
		for _, g := range fullLog {
			if !slices.Contains(idx, g.Game) {
				want = append(want, g)
			}
		}
		if !reflect.DeepEqual(strip(seen), strip(want)) {
			t.Errorf("resume %v: OnGame saw %d games, want the full run's %d others", idx, len(seen), len(want))
		}
		total := 2 * len(fixtures)
		if len(progress) == 0 || progress[0] != [2]int{len(resume), total} || progress[len(progress)-1][0] > total {
			t.Errorf("resume %v: progress %v", idx, progress)
		}
	}
}

// TestRunResumeGivesTheFullTable: a run resumed from the first k games of
// a deterministic run's games log (k odd and even, with gaps) ends with
// the full run's table, and plays and passes on just the other games.
func TestRunResumeGivesTheFullTable(t *testing.T) {
	ops, err := GenerateOpenings(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	r := Runner{Entrants: engineEntrants(t, "zhou2015", "qi2018-table3-1"), Openings: ops, MaxMoves: 40, Concurrency: 2}
	fx := HeadToHead(0, 1, 8)
	full, fullLog := logged(t, r, fx)
	checkResumed(t, r, fx, full, fullLog, [][]GameRecord{
		resumeFrom(fullLog, 7, 2, 5), // trailing half pair 6, gaps
		resumeFrom(fullLog, 10, 3),
		resumeFrom(fullLog, 16), // everything: nothing to play
		{fullLog[9], fullLog[4]},
	})
}

// TestRunResumeWithSPRT: resumed games count in the SPRT, so the test
// stops at the full run's pair.
func TestRunResumeWithSPRT(t *testing.T) {
	sprt := stats.SPRT{Elo0: 0, Elo1: 10}
	r := Runner{
		Entrants:    []Entrant{{Engine: Engine{Name: "strong"}, New: newFirstLegal}, {Engine: Engine{Name: "weak"}, New: newLoser}},
		Openings:    []Opening{mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ IIKK")},
		Concurrency: 3,
		SPRT:        &sprt,
	}
	fx := HeadToHead(0, 1, 200)
	full, fullLog := logged(t, r, fx)
	n := 2 * full.SPRT.Pairs
	if full.SPRT.Decision != "H1" || n < 6 {
		t.Fatalf("full run SPRT %+v", full.SPRT)
	}
	checkResumed(t, r, fx, full, fullLog, [][]GameRecord{
		resumeFrom(fullLog, n-3, 1),
		resumeFrom(fullLog, n-2),
		resumeFrom(fullLog, n), // decided by the resumed games alone
	})
}

// TestRunResumeWithPairingStop: resumed games count in PairingStop as
// they did when played.
func TestRunResumeWithPairingStop(t *testing.T) {
	ops, err := GenerateOpenings(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	var fx []Fixture
	for k := range 6 {
		for _, ab := range [][2]int{{0, 1}, {2, 3}} {
			fx = append(fx, Fixture{A: ab[0], B: ab[1], Opening: k})
		}
	}
	ents := engineEntrants(t, "zhou2015", "qi2018-table3-1", "qi2018-attack", "qi2018-defend")
	r := Runner{Entrants: ents, Openings: ops, MaxMoves: 40, Concurrency: 2,
		PairingStop: func(a, b int, p []int, _ int) bool {
			lead := 0
			for _, s := range p {
				lead += s - 2
			}
			return len(p) == 4 || (a == 0 && lead >= 2)
		},
	}
	full, fullLog := logged(t, r, fx)
	if len(full.Games) >= 2*len(fx) {
		t.Fatalf("no pairing ended early: %d games", len(full.Games))
	}
	checkResumed(t, r, fx, full, fullLog, [][]GameRecord{
		resumeFrom(fullLog, 5, 1),
		resumeFrom(fullLog, 12, 4, 9),
		fullLog,
	})
}

// TestRunResumeRefusesForeignGames: a resumed record that does not fit the
// schedule stops the run before any game, naming the game.
func TestRunResumeRefusesForeignGames(t *testing.T) {
	r := Runner{
		Entrants: []Entrant{{Engine: Engine{Name: "a"}, New: newFirstLegal}, {Engine: Engine{Name: "b"}, New: newFirstLegal}},
		Openings: []Opening{mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ IIKK")},
	}
	fx := HeadToHead(0, 1, 3)
	full, err := r.Run(context.Background(), fx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		edit func(*GameRecord)
		want string
	}{
		{func(g *GameRecord) { g.Game = 6 }, "resumed game 6: not in the schedule of 6 games"},
		{func(g *GameRecord) { g.Game = -1 }, "resumed game -1: not in the schedule"},
		{func(g *GameRecord) { g.Pair = 0 }, "resumed game 3: pair 0, the schedule's is 1"},
		{func(g *GameRecord) { g.Black = "c" }, `resumed game 3: "c" (1) vs "a" (0), the schedule has "b" (1) vs "a" (0)`},
		{func(g *GameRecord) { g.BlackIndex, g.WhiteIndex = 0, 1 }, `resumed game 3: "b" (0) vs "a" (1)`},
		{func(g *GameRecord) { g.Opening = "JJ KJJK" }, `resumed game 3: opening "JJ KJJK", the schedule's is "JJ IIKK"`},
		{func(g *GameRecord) { g.Result = NoResult }, "resumed game 3: no result"},
	} {
		g := full.Games[3]
		tc.edit(&g)
		r.Resume = []GameRecord{full.Games[0], g}
		r.OnGame = func(GameRecord) error { t.Fatal("a game was played"); return nil }
		if _, err := r.Run(context.Background(), fx); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	r.Resume = []GameRecord{full.Games[2], full.Games[1], full.Games[2]}
	if _, err := r.Run(context.Background(), fx); err == nil || !strings.Contains(err.Error(), "resumed game 2: given twice (records 0 and 2)") {
		t.Errorf("duplicate: %v", err)
	}
	r.Resume = full.Games[:1]
	if _, err := r.Knockout(context.Background(), Indices(2), 1); err == nil {
		t.Error("a knockout accepted Resume")
	}
}

// TestRunMemoryFlat: a long run with Discard holds no more after 40,000
// games than after 10,000 (heap in use measured from OnGame, after a GC).
func TestRunMemoryFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("40,000 games")
	}
	const games = 40000
	var at10k, atEnd uint64
	heap := func() uint64 {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	n := 0
	r := Runner{
		Entrants: []Entrant{{Engine: Engine{Name: "a"}, New: newFirstLegal}, {Engine: Engine{Name: "b"}, New: newFirstLegal}},
		Openings: []Opening{mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ IIKK")},
		Discard:  true,
		OnGame: func(GameRecord) error {
			n++
			switch n {
			case games / 4:
				at10k = heap()
			case games:
				atEnd = heap()
			}
			return nil
		},
	}
	tab, err := r.Run(context.Background(), HeadToHead(0, 1, games/2))
	if err != nil {
		t.Fatal(err)
	}
	if tab.Played != games || n != games {
		t.Fatalf("%d games played, %d passed on", tab.Played, n)
	}
	const slack = 3 << 20
	t.Logf("heap in use: %.1f MB after %d games, %.1f MB after %d", float64(at10k)/(1<<20), games/4, float64(atEnd)/(1<<20), games)
	if atEnd > at10k+slack {
		t.Errorf("heap in use grew from %d to %d bytes between game %d and game %d", at10k, atEnd, games/4, games)
	}
}
