package tournament

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/crash"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tournament/wdl"
)

// engineEntrants returns in-process engines with different baselines.
func engineEntrants(t testing.TB, names ...string) []Entrant {
	var out []Entrant
	for _, n := range names {
		out = append(out, Entrant{Engine: Engine{Name: n, Weights: baseline(t, n), Settings: fastSettings()}})
	}
	return out
}

// strip removes what legitimately varies between runs (thinking time).
func strip(recs []GameRecord) []GameRecord {
	out := append([]GameRecord(nil), recs...)
	for i := range out {
		out[i].Time = [2]time.Duration{}
	}
	return out
}

func TestRunDeterministicAcrossConcurrency(t *testing.T) {
	ops, err := GenerateOpenings(2, 11)
	if err != nil {
		t.Fatal(err)
	}
	var ref *Table
	for _, conc := range []int{1, 2, 4} {
		var order []int
		ents := engineEntrants(t, "zhou2015", "qi2018-table3-1", "qi2018-attack")
		for i := range ents {
			ents[i].Settings.Depth = 2 // deep enough for the table to matter
		}
		r := Runner{
			Entrants:    ents,
			Openings:    ops[:3],
			MaxMoves:    40,
			Concurrency: conc,
			OnGame:      func(g GameRecord) error { order = append(order, g.Game); return nil },
		}
		tab, err := r.Run(context.Background(), RoundRobin(Indices(3), 3))
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Games) != 18 {
			t.Fatalf("concurrency %d: %d games", conc, len(tab.Games))
		}
		for i, g := range order {
			if g != i {
				t.Fatalf("concurrency %d: OnGame order %v", conc, order)
			}
		}
		if ref == nil {
			ref = tab
			continue
		}
		if !reflect.DeepEqual(strip(tab.Games), strip(ref.Games)) {
			t.Errorf("concurrency %d: games differ from concurrency 1", conc)
		}
		if !reflect.DeepEqual(tab.Matchups, ref.Matchups) {
			t.Errorf("concurrency %d: matchups %+v, want %+v", conc, tab.Matchups, ref.Matchups)
		}
	}
	var nodes int64
	for _, g := range ref.Games {
		nodes += g.Nodes[0] + g.Nodes[1]
	}
	if nodes == 0 {
		t.Error("no search nodes recorded")
	}
}

// pairingsOnce checks that every game pair k of the fixtures has game 2k
// with A Black and game 2k+1 with B Black, and that each ordered pairing
// (Black, White) of the wanted pairings occurs exactly pairs times.
func pairingsOnce(t *testing.T, tab *Table, want [][2]int, pairs int) {
	t.Helper()
	count := map[[2]int]int{}
	for _, g := range tab.Games {
		count[[2]int{g.BlackIndex, g.WhiteIndex}]++
		if g.Game%2 == 1 {
			f := tab.Games[g.Game-1]
			if f.Pair != g.Pair || f.BlackIndex != g.WhiteIndex || f.WhiteIndex != g.BlackIndex || f.Opening != g.Opening {
				t.Errorf("games %d, %d do not form a colour-swapped pair", f.Game, g.Game)
			}
		}
	}
	for _, w := range want {
		for _, o := range [][2]int{w, {w[1], w[0]}} {
			if count[o] != pairs {
				t.Errorf("ordered pairing %v played %d times, want %d", o, count[o], pairs)
			}
			delete(count, o)
		}
	}
	if len(count) != 0 {
		t.Errorf("unexpected pairings %v", count)
	}
}

func TestRoundRobinAndGroups(t *testing.T) {
	ents := make([]Entrant, 7)
	for i := range ents {
		ents[i] = Entrant{Engine: Engine{Name: string(rune('a' + i))}, New: newFirstLegal}
	}
	r := Runner{Entrants: ents, Openings: []Opening{mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ IIKK")}, Concurrency: 3}
	tab, err := r.Run(context.Background(), RoundRobin([]int{0, 1, 2, 3}, 2))
	if err != nil {
		t.Fatal(err)
	}
	var all [][2]int
	for i := range 4 {
		for j := i + 1; j < 4; j++ {
			all = append(all, [2]int{i, j})
		}
	}
	pairingsOnce(t, tab, all, 2)
	if len(tab.Matchups) != 6 {
		t.Errorf("%d matchups", len(tab.Matchups))
	}

	fx, err := GroupedRoundRobin([][]int{{0, 3, 5}, {1, 2}, {4, 6}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	tab, err = r.Run(context.Background(), fx)
	if err != nil {
		t.Fatal(err)
	}
	pairingsOnce(t, tab, [][2]int{{0, 3}, {0, 5}, {3, 5}, {1, 2}, {4, 6}}, 2)

	for _, bad := range [][][]int{{{0, 1}, {1, 2}}, {{0}}} {
		if _, err := GroupedRoundRobin(bad, 1); err == nil {
			t.Errorf("groups %v accepted", bad)
		}
	}
	fx = Gauntlet(2, Indices(5), 1)
	tab, err = r.Run(context.Background(), fx)
	if err != nil {
		t.Fatal(err)
	}
	pairingsOnce(t, tab, [][2]int{{2, 0}, {2, 1}, {2, 3}, {2, 4}}, 1)
}

// loser always plays an occupied point: it forfeits every game.
func newLoser() (Player, error) { return &scripted{move: engine.Single(engine.PointAt(9, 9))}, nil }

func TestSPRTStopsLopsidedMatchEarly(t *testing.T) {
	var first *Table
	for _, conc := range []int{1, 3} {
		sprt := stats.SPRT{Elo0: 0, Elo1: 10}
		r := Runner{
			Entrants:    []Entrant{{Engine: Engine{Name: "strong"}, New: newFirstLegal}, {Engine: Engine{Name: "weak"}, New: newLoser}},
			Openings:    []Opening{mustOpening(t, "JJ KJJK")},
			Concurrency: conc,
			SPRT:        &sprt,
		}
		var logged int
		r.OnGame = func(GameRecord) error { logged++; return nil }
		tab, err := r.Run(context.Background(), HeadToHead(0, 1, 200))
		if err != nil {
			t.Fatal(err)
		}
		s := tab.SPRT
		if s == nil || s.Decision != "H1" || s.LLR < s.Upper {
			t.Fatalf("SPRT %+v, want H1 above the upper bound", s)
		}
		if s.Pairs >= 200 || s.Pairs < 2 || len(tab.Games) != 2*s.Pairs || logged != len(tab.Games) {
			t.Errorf("stopped after %d pairs with %d games, %d logged", s.Pairs, len(tab.Games), logged)
		}
		// The decision is on the prefix: one pair fewer must not decide.
		m, _ := tab.Lookup(0, 1)
		llr, _, _ := sprt.Test(wdl.Pentanomial{0, 0, 0, 0, m.Pairs[4] - 1}.Counts())
		if llr >= s.Upper {
			t.Errorf("LLR %g with %d pairs already decided", llr, s.Pairs-1)
		}
		if conc == 1 {
			first = tab
		} else if !reflect.DeepEqual(*tab.SPRT, *first.SPRT) || !reflect.DeepEqual(strip(tab.Games), strip(first.Games)) {
			t.Errorf("concurrency %d: SPRT %+v, concurrency 1: %+v", conc, *tab.SPRT, *first.SPRT)
		}
	}
	r := Runner{Entrants: []Entrant{{Engine: Engine{Name: "a"}, New: newFirstLegal}, {Engine: Engine{Name: "b"}, New: newLoser}, {Engine: Engine{Name: "c"}, New: newLoser}}, SPRT: &stats.SPRT{Elo1: 5}}
	if _, err := r.Run(context.Background(), RoundRobin(Indices(3), 1)); err == nil {
		t.Error("SPRT over a round robin accepted")
	}
}

func TestRunCancelAndErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r := Runner{Entrants: []Entrant{{Engine: Engine{Name: "a"}, New: newFirstLegal}, {Engine: Engine{Name: "b"}, New: newFirstLegal}}, Concurrency: 2}
	n := 0
	r.Progress = func(done, total int) {
		if total != 400 {
			t.Errorf("total %d", total)
		}
		n++
		if done == 5 {
			cancel()
		}
	}
	if _, err := r.Run(ctx, HeadToHead(0, 1, 200)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
	boom := errors.New("sink full")
	r = Runner{Entrants: r.Entrants, OnGame: func(GameRecord) error { return boom }}
	if _, err := r.Run(context.Background(), HeadToHead(0, 1, 50)); !errors.Is(err, boom) {
		t.Errorf("OnGame error: %v", err)
	}
	if _, err := r.Run(context.Background(), []Fixture{{A: 0, B: 0}}); err == nil {
		t.Error("self-pairing accepted")
	}
	if _, err := r.Run(context.Background(), []Fixture{{A: 0, B: 2}}); err == nil {
		t.Error("entrant out of range accepted")
	}
	r = Runner{Entrants: []Entrant{{Engine: Engine{Name: "empty"}}, {Engine: Engine{Name: "b"}, New: newFirstLegal}}}
	if _, err := r.Run(context.Background(), HeadToHead(0, 1, 1)); err == nil {
		t.Error("entrant without weights accepted")
	}
}

func TestKnockout(t *testing.T) {
	// Entrant 3 is the only one that does not forfeit: it must win from
	// seed 4 of 5 (seeds 1..3 get byes in round 1).
	ents := []Entrant{{Engine: Engine{Name: "s1"}, New: newLoser},
		{Engine: Engine{Name: "s2"}, New: newLoser},
		{Engine: Engine{Name: "s3"}, New: newLoser},
		{Engine: Engine{Name: "s4"}, New: newFirstLegal},
		{Engine: Engine{Name: "s5"}, New: newLoser}}
	r := Runner{Entrants: ents, Concurrency: 2}
	k, err := r.Knockout(context.Background(), Indices(5), 1)
	if err != nil {
		t.Fatal(err)
	}
	if k.Champion != 3 || len(k.Rounds) != 3 {
		t.Fatalf("champion %d after %d rounds", k.Champion, len(k.Rounds))
	}
	r1 := k.Rounds[0]
	if !reflect.DeepEqual(r1.Byes, []int{0, 1, 2}) || len(r1.Matches) != 1 || r1.Matches[0].A != 3 || r1.Matches[0].B != 4 || r1.Matches[0].Winner != 3 {
		t.Errorf("round 1 %+v", r1)
	}
	// Round 2: 0 v 3, 1 v 2 (losers against each other: a tie, the higher seed 1 advances).
	r2 := k.Rounds[1].Matches
	if len(r2) != 2 || r2[0].A != 0 || r2[0].B != 3 || r2[0].Winner != 3 || r2[1].A != 1 || r2[1].B != 2 || r2[1].Winner != 1 {
		t.Errorf("round 2 %+v", r2)
	}
}

func TestLogRoundTripRebuildsTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	r := Runner{
		Entrants:    append(engineEntrants(t, "zhou2015", "qi2018-defend"), Entrant{Engine: Engine{Name: "trivial"}, New: newFirstLegal}),
		Openings:    []Opening{mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ HHKK")},
		MaxMoves:    30,
		Concurrency: 2,
		OnGame:      func(g GameRecord) error { return AppendGameLog(path, g) },
	}
	tab, err := r.Run(context.Background(), RoundRobin(Indices(3), 2))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadGameLog(path)
	if err != nil {
		t.Fatal(err)
	}
	back, err := BuildTable(tab.Players, recs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Matchups, tab.Matchups) {
		t.Errorf("rebuilt matchups %+v\nwant %+v", back.Matchups, tab.Matchups)
	}
	if !reflect.DeepEqual(strip(back.Games), strip(tab.Games)) {
		t.Error("rebuilt games differ")
	}
	// Standings add up.
	total := 0
	for _, s := range back.Standings() {
		total += s.Games.Games()
	}
	if total != 2*len(recs) {
		t.Errorf("standings count %d games, want %d", total, 2*len(recs))
	}
	// A corrupted log is refused with the game named.
	recs[1].Black = "someone"
	if _, err := BuildTable(tab.Players, recs); err == nil {
		t.Error("mismatched names accepted")
	}
}

// panicker plays first legal moves and panics on its third move: a fault
// of a player's code (a nil map, an index out of range).
type panicker struct {
	firstLegal
	n int
}

func (p *panicker) Play(ctx context.Context, b *engine.Board, last engine.Move) (Reply, error) {
	if p.n++; p.n == 3 {
		var m map[string]int
		m["boom"]++
	}
	return p.firstLegal.Play(ctx, b, last)
}

// TestWorkerPanicIsAnError: a panic in a game worker does not kill the
// process (Go's exit 2, as a clean refusal): Run returns it as a
// *crash.Panic error naming the game, which the commands turn into their
// internal-error exit.
func TestWorkerPanicIsAnError(t *testing.T) {
	r := &Runner{
		Entrants: []Entrant{
			{Engine: Engine{Name: "a"}, New: func() (Player, error) { return &panicker{}, nil }},
			{Engine: Engine{Name: "b"}, New: func() (Player, error) { return &firstLegal{}, nil }},
		},
		Openings:    []Opening{mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ HHKK")},
		Concurrency: 2,
	}
	_, err := r.Run(context.Background(), HeadToHead(0, 1, 2))
	p, ok := crash.As(err)
	if !ok || !strings.Contains(err.Error(), "game ") || !strings.Contains(p.Error(), "nil map") {
		t.Fatalf("Run: %v", err)
	}
}
