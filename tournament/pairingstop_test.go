package tournament

import (
	"context"
	"reflect"
	"slices"
	"testing"
)

// TestPairingStopEndsEachPairingOnItsPrefix: with several interleaved
// pairings, each ends as soon as the rule says so, the table holds exactly
// the prefix the rule saw (the same games as the full schedule's first
// pairs), and the result does not depend on the concurrency.
func TestPairingStopEndsEachPairingOnItsPrefix(t *testing.T) {
	ops, err := GenerateOpenings(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	const pairs = 8
	var fixtures []Fixture
	for k := range pairs { // pair-major, as package referee schedules
		for _, ab := range [][2]int{{0, 1}, {2, 3}, {4, 5}} {
			fixtures = append(fixtures, Fixture{A: ab[0], B: ab[1], Opening: k})
		}
	}
	entrants := func() []Entrant {
		e := engineEntrants(t, "zhou2015", "qi2018-table3-1", "qi2018-attack", "zhou2015", "qi2018-table3-1", "qi2018-defend")
		for i := range e {
			e[i].Name = e[i].Name + "#" + string(rune('a'+i))
		}
		return e
	}
	full, err := (&Runner{Entrants: entrants(), Openings: ops, MaxMoves: 50, Concurrency: 2}).Run(context.Background(), fixtures)
	if err != nil {
		t.Fatal(err)
	}
	// Stop a pairing after its third pair, or once A leads by 2 pairs' worth.
	rule := func(a, b int, p []int, scheduled int) bool {
		if a%2 != 0 || b != a+1 {
			t.Errorf("pairing %d-%d", a, b)
		}
		if scheduled != pairs {
			t.Errorf("scheduled %d, want %d", scheduled, pairs)
		}
		lead := 0
		for _, s := range p {
			lead += s - 2
		}
		return len(p) == 3 || lead >= 4
	}
	var first *Table
	for _, conc := range []int{1, 2, 4} {
		var seen [][]int
		var logged []int
		r := Runner{Entrants: entrants(), Openings: ops, MaxMoves: 50, Concurrency: conc,
			PairingStop: func(a, b int, p []int, n int) bool { seen = append(seen, slices.Clone(p)); return rule(a, b, p, n) },
			OnGame:      func(g GameRecord) error { logged = append(logged, g.Game); return nil },
		}
		tab, err := r.Run(context.Background(), fixtures)
		if err != nil {
			t.Fatal(err)
		}
		// Every pairing ends at ≤ 3 pairs: 3 pairings × ≤ 6 games.
		for _, ab := range [][2]int{{0, 1}, {2, 3}, {4, 5}} {
			m, ok := tab.Lookup(ab[0], ab[1])
			if !ok || m.Games.Wins+m.Games.Draws+m.Games.Losses > 6 || m.Games.Wins+m.Games.Draws+m.Games.Losses < 2 {
				t.Fatalf("concurrency %d, pairing %v: %+v", conc, ab, m.Games)
			}
		}
		// The games kept are the full schedule's games with the same index.
		byGame := map[int]GameRecord{}
		for _, g := range full.Games {
			byGame[g.Game] = g
		}
		for _, g := range tab.Games {
			if want := byGame[g.Game]; !reflect.DeepEqual(strip([]GameRecord{g}), strip([]GameRecord{want})) {
				t.Fatalf("game %d differs from the full schedule's", g.Game)
			}
		}
		if len(logged) != len(tab.Games) {
			t.Errorf("OnGame saw %d games, the table holds %d", len(logged), len(tab.Games))
		}
		if first == nil {
			first = tab
			if len(tab.Games) >= len(full.Games) {
				t.Fatalf("no game was saved: %d of %d", len(tab.Games), len(full.Games))
			}
		} else if !reflect.DeepEqual(strip(tab.Games), strip(first.Games)) {
			t.Errorf("concurrency %d kept other games than concurrency 1", conc)
		}
	}
}
