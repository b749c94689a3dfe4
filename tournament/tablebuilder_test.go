package tournament

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// syntheticGames returns the records of a round robin over names, pairs
// game pairs per pairing, with seeded results and reasons, minus a few
// games (a gap in a pair leaves a half pair).
func syntheticGames(names []string, pairs int, seed uint64) []GameRecord {
	rng := rand.New(rand.NewPCG(seed, 1))
	var recs []GameRecord
	for k, f := range RoundRobin(Indices(len(names)), pairs) {
		for i, bw := range [][2]int{{f.A, f.B}, {f.B, f.A}} {
			if rng.IntN(10) == 0 {
				continue // lost
			}
			res := []Result{BlackWins, WhiteWins, Draw}[rng.IntN(3)]
			reason := []string{"six", "move-limit", "forfeit:time"}[rng.IntN(3)]
			recs = append(recs, game(names, 2*k+i, k, bw[0], bw[1], res, reason))
		}
	}
	return recs
}

// TestTableBuilderMatchesBuildTable: records added in any order give
// BuildTable's table (matchup order and orientation included), a
// snapshot taken midway is the table of the games added so far and does
// not change afterwards, and without kept games only Games differs.
func TestTableBuilderMatchesBuildTable(t *testing.T) {
	names := []string{"a", "b", "c", "d"}
	recs := syntheticGames(names, 6, 7)
	want, err := BuildTable(names, recs)
	if err != nil {
		t.Fatal(err)
	}
	if want.Played != len(recs) || len(want.Games) != len(recs) {
		t.Fatalf("BuildTable: %d played, %d games, want %d", want.Played, len(want.Games), len(recs))
	}
	for seed := range uint64(5) {
		shuffled := append([]GameRecord(nil), recs...)
		rand.New(rand.NewPCG(seed, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		kept, counts := NewTableBuilder(names, true), NewTableBuilder(names, false)
		half := len(shuffled) / 2
		var mid *Table
		for i, g := range shuffled {
			if i == half {
				mid = kept.Table()
			}
			if err := kept.Add(g); err != nil {
				t.Fatal(err)
			}
			if err := counts.Add(g); err != nil {
				t.Fatal(err)
			}
		}
		if got := kept.Table(); !reflect.DeepEqual(got, want) {
			t.Errorf("seed %d: builder table\n%+v\nwant\n%+v", seed, got, want)
		}
		got := counts.Table()
		if got.Games != nil || !reflect.DeepEqual(got.Matchups, want.Matchups) || got.Played != want.Played || !reflect.DeepEqual(got.Reasons, want.Reasons) {
			t.Errorf("seed %d: table without games %+v", seed, got)
		}
		if m, ok := got.Lookup(2, 1); !ok || m != want.Matchups[want.index[[2]int{1, 2}]].Flip() {
			t.Errorf("seed %d: lookup %+v, %v", seed, m, ok)
		}
		wantMid, err := BuildTable(names, shuffled[:half])
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(mid, wantMid) {
			t.Errorf("seed %d: midway table\n%+v\nwant\n%+v", seed, mid, wantMid)
		}
	}
}

// TestTableBuilderErrors: each invalid record is refused with BuildTable's
// error text, naming the game, and leaves the builder as it was.
func TestTableBuilderErrors(t *testing.T) {
	names := []string{"a", "b", "c"}
	for _, tc := range []struct {
		name string
		edit func(*GameRecord)
		want string
	}{
		{"duplicate", func(g *GameRecord) { g.Game, g.Pair = 0, 0 }, "game 0 appears twice"},
		{"index", func(g *GameRecord) { g.WhiteIndex = 3 }, "game 3: player indices 2, 3 invalid for 3 players"},
		{"self", func(g *GameRecord) { g.WhiteIndex, g.White = 2, "c" }, "game 3: player indices 2, 2 invalid"},
		{"name", func(g *GameRecord) { g.Black = "z" }, `game 3: players "z", "a" do not match entrants 2 ("c"), 0 ("a")`},
		{"result", func(g *GameRecord) { g.Result = NoResult }, "game 3: no result"},
		{"colours", func(g *GameRecord) { g.BlackIndex, g.WhiteIndex, g.Black, g.White = 0, 2, "a", "c" }, "game 3: pair 1 with game 2 but colours are not swapped"},
		{"colours, earlier game second", func(g *GameRecord) {
			g.Game, g.BlackIndex, g.WhiteIndex, g.Black, g.White = 1, 0, 2, "a", "c"
		}, "game 2: pair 1 with game 1 but colours are not swapped"},
	} {
		b := NewTableBuilder(names, true)
		for _, g := range []GameRecord{game(names, 0, 0, 0, 1, BlackWins, "six"), game(names, 2, 1, 0, 2, Draw, "six")} {
			if err := b.Add(g); err != nil {
				t.Fatal(err)
			}
		}
		before := b.Table()
		g := game(names, 3, 1, 2, 0, WhiteWins, "six")
		tc.edit(&g)
		err := b.Add(g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if after := b.Table(); !reflect.DeepEqual(after, before) {
			t.Errorf("%s: the refused record changed the table: %+v", tc.name, after)
		}
		// BuildTable gives the same error.
		if _, err2 := BuildTable(names, []GameRecord{game(names, 0, 0, 0, 1, BlackWins, "six"), game(names, 2, 1, 0, 2, Draw, "six"), g}); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("%s: BuildTable error %v, builder %v", tc.name, err2, err)
		}
	}
}

// TestTableBuilderMemory: games added in order leave one interval of game
// indices and no half pair, however many they are.
func TestTableBuilderMemory(t *testing.T) {
	names := []string{"a", "b"}
	b := NewTableBuilder(names, false)
	for i := range 10000 {
		black := i % 2
		if err := b.Add(game(names, i, i/2, black, 1-black, Draw, "six")); err != nil {
			t.Fatal(err)
		}
	}
	if len(b.seen) != 1 || len(b.pending) != 0 || b.games != nil {
		t.Errorf("%d intervals, %d pending, %d games kept", len(b.seen), len(b.pending), len(b.games))
	}
	if m := b.Table().Matchups[0]; m.Pairs[2] != 5000 || m.Games.Draws != 10000 {
		t.Errorf("matchup %+v", m)
	}
	// Out of order: intervals merge once the gaps fill.
	var s gameSet
	for _, g := range []int{5, 3, 9, 4, 0, 8, 1, 2, 6, 7} {
		if s.has(g) {
			t.Fatalf("%d in %v before its add", g, s)
		}
		s.add(g)
		if !s.has(g) {
			t.Fatalf("%d not in %v", g, s)
		}
	}
	if !reflect.DeepEqual(s, gameSet{{0, 10}}) || s.has(10) || s.has(-1) {
		t.Errorf("set %v", s)
	}
}
