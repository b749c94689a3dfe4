package ga

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

// tableReferee answers from game tables in the layout of Chen 2010
// Tables 4.2–4.6: result[row][col] is the row player's result ('W', 'D' or
// 'L') in the game where row moves first. Individuals are identified by
// their single gene, Body[id]. A match between A and B is the game pair
// (A first, then B first), so its outcome from A's view is result[A][B]
// plus the inverse of result[B][A].
type tableReferee struct {
	result map[[2]int]byte
	calls  int
}

// addTable reads rows such as "B1 - L W W" for the players ids, in order.
func (r *tableReferee) addTable(t *testing.T, ids []int, rows string) {
	t.Helper()
	if r.result == nil {
		r.result = map[[2]int]byte{}
	}
	lines := strings.Split(strings.TrimSpace(rows), "\n")
	if len(lines) != len(ids) {
		t.Fatalf("table has %d rows, want %d", len(lines), len(ids))
	}
	for i, line := range lines {
		f := strings.Fields(line)[1:]
		if len(f) != len(ids) {
			t.Fatalf("row %q has %d entries, want %d", line, len(f), len(ids))
		}
		for j, e := range f {
			if i != j {
				r.result[[2]int{ids[i], ids[j]}] = e[0]
			}
		}
	}
}

func (r *tableReferee) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	r.calls++
	out := make([]optimize.Outcome, len(ms))
	for i, m := range ms {
		a, b := int(m.A[0]), int(m.B[0])
		first, ok1 := r.result[[2]int{a, b}]
		second, ok2 := r.result[[2]int{b, a}]
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("no table entry for Body[%d] v Body[%d]", a, b)
		}
		for _, g := range []byte{first, invert(second)} {
			switch g {
			case 'W':
				out[i].Wins++
			case 'D':
				out[i].Draws++
			case 'L':
				out[i].Losses++
			}
		}
	}
	return out, nil
}

func invert(g byte) byte {
	switch g {
	case 'W':
		return 'L'
	case 'L':
		return 'W'
	}
	return g
}

// chenExample loads Chen 2010 Tables 4.2–4.6 (as corrected in optimizers.md)
// and an elite table that yields the thesis's elite results B2 = 3, B5 = 5,
// B11 = 9, B16 = 6, B18 = 2. It returns the referee, the population (gene =
// body number) and the five groups as 0-based individual indices.
func chenExample(t *testing.T) (*tableReferee, [][]float64, [][]int) {
	r := &tableReferee{}
	r.addTable(t, []int{1, 2, 3, 4}, `
B1 - L W W
B2 W - W W
B3 L L - L
B4 L L W -`)
	r.addTable(t, []int{5, 6, 7, 8}, `
B5 - W W W
B6 L - W L
B7 L L - L
B8 D W W -`)
	r.addTable(t, []int{9, 10, 11, 12}, `
B9  - W L D
B10 L - L L
B11 D W - W
B12 D W L -`)
	r.addTable(t, []int{13, 14, 15, 16}, `
B13 - L W L
B14 D - D D
B15 W D - D
B16 D W W -`)
	r.addTable(t, []int{17, 18, 19, 20}, `
B17 - L W W
B18 D - W W
B19 D L - D
B20 D D W -`)
	// The thesis gives only the elite totals; this table produces them
	// (points 2, 4, 8, 5, 1 over 8 games each, plus the starting 1).
	r.addTable(t, []int{2, 5, 11, 16, 18}, `
B2  - D L L W
B5  D - L D W
B11 W W - W W
B16 W D L - W
B18 W L L L -`)
	pop := make([][]float64, 20)
	for i := range pop {
		pop[i] = []float64{float64(i + 1)}
	}
	groups := [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15}, {16, 17, 18, 19}}
	return r, pop, groups
}

func TestChenWorkedExampleImproved(t *testing.T) {
	ref, pop, groups := chenExample(t)
	ctx := context.Background()
	out, err := ref.Play(ctx, 1, groupMatches(pop, groups))
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 5*6 {
		t.Fatalf("got %d group outcomes, want 30", len(out))
	}
	st, err := GroupStage(FitnessImproved, groups, out)
	if err != nil {
		t.Fatal(err)
	}
	wantGroup := []float64{
		5, 7, 1, 3,
		6.5, 3, 1, 5.5,
		4.5, 1, 6.5, 4,
		3, 4, 3.5, 5.5,
		4.5, 6, 2, 3.5,
	}
	for i, w := range wantGroup {
		if st.GroupFitness[i] != w {
			t.Errorf("B%d group fitness %g, want %g", i+1, st.GroupFitness[i], w)
		}
		if st.Group[i] != i/4 {
			t.Errorf("B%d in group %d, want %d", i+1, st.Group[i], i/4)
		}
	}
	wantChamp := []int{2, 5, 11, 16, 18}
	for j, b := range wantChamp {
		if st.Champions[j] != b-1 {
			t.Errorf("champion of group %d is B%d, want B%d", j+1, st.Champions[j]+1, b)
		}
	}

	eout, err := ref.Play(ctx, 2, groupMatches(pop, [][]int{st.Champions}))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.EliteStage(eout); err != nil {
		t.Fatal(err)
	}
	wantElite := []float64{3, 5, 9, 6, 2}
	for j, w := range wantElite {
		if st.EliteFitness[j] != w {
			t.Errorf("elite fitness of B%d %g, want %g", wantChamp[j], st.EliteFitness[j], w)
		}
	}
	// Eq. 4.5 computes f·e/b in that order; the products are exact, so each
	// result is the correctly rounded quotient the literal fraction gives.
	wantNorm := []float64{
		15.0 / 7, 3, 3.0 / 7, 9.0 / 7,
		5, 15 / 6.5, 5 / 6.5, 27.5 / 6.5,
		40.5 / 6.5, 9 / 6.5, 9, 36 / 6.5,
		18 / 5.5, 24 / 5.5, 21 / 5.5, 6,
		9.0 / 6, 2, 4.0 / 6, 7.0 / 6,
	}
	for i, w := range wantNorm {
		if st.Fitness[i] != w {
			t.Errorf("B%d normalised fitness %.17g, want %.17g", i+1, st.Fitness[i], w)
		}
	}
}

func TestChenWorkedExampleOriginal(t *testing.T) {
	ref, pop, groups := chenExample(t)
	out, err := ref.Play(context.Background(), 1, groupMatches(pop, groups))
	if err != nil {
		t.Fatal(err)
	}
	st, err := GroupStage(FitnessOriginal, groups, out)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{2, 6, -6, -2}
	for i, w := range want {
		if st.GroupFitness[i] != w || st.Fitness[i] != w {
			t.Errorf("B%d original fitness %g (selection %g), want %g", i+1, st.GroupFitness[i], st.Fitness[i], w)
		}
	}
	if st.Champions[0] != 1 {
		t.Errorf("original champion of group 1 is B%d, want B2", st.Champions[0]+1)
	}
	// Every group sums to 0 in the original form (a zero-sum ±1 count).
	for j, g := range groups {
		s := 0.0
		for _, i := range g {
			s += st.GroupFitness[i]
		}
		if s != 0 {
			t.Errorf("group %d original fitness sums to %g, want 0", j+1, s)
		}
	}
	if err := st.EliteStage(nil); err == nil {
		t.Error("EliteStage in the original form: want an error")
	}
}

func TestRoundRobinFitnessCountsGames(t *testing.T) {
	// A match of 4 games (2 game pairs): A 3 wins 1 draw over B; B drew 2 and
	// lost 2 to C; A and C split 1-1 with 2 draws.
	out := []optimize.Outcome{{Wins: 3, Draws: 1}, {Wins: 1, Draws: 2, Losses: 1}, {Draws: 2, Losses: 2}}
	f, err := RoundRobinFitness(FitnessImproved, 3, out)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1 + 3.5 + 2, 1 + 0.5 + 1, 1 + 2 + 3}
	for i := range want {
		if f[i] != want[i] {
			t.Errorf("player %d: %g, want %g", i, f[i], want[i])
		}
	}
	g, err := RoundRobinFitness(FitnessOriginal, 3, out)
	if err != nil {
		t.Fatal(err)
	}
	wantO := []float64{3 + 0, -3 - 2, 0 + 2}
	for i := range wantO {
		if g[i] != wantO[i] {
			t.Errorf("original player %d: %g, want %g", i, g[i], wantO[i])
		}
	}
	if _, err := RoundRobinFitness(FitnessImproved, 3, out[:2]); err == nil {
		t.Error("2 outcomes for 3 players: want an error")
	}
	if _, err := RoundRobinFitness(FitnessImproved, 2, []optimize.Outcome{{Wins: -1}}); err == nil {
		t.Error("negative count: want an error")
	}
}

func TestChampionTieGoesToFirstListed(t *testing.T) {
	if c := Champion([]float64{3, 5, 5, 1}); c != 1 {
		t.Errorf("Champion = %d, want 1", c)
	}
	if c := Champion(nil); c != -1 {
		t.Errorf("Champion(nil) = %d, want -1", c)
	}
}

func TestGroupStageRejectsBadPartition(t *testing.T) {
	two := []optimize.Outcome{{Wins: 1, Losses: 1}, {Wins: 2}}
	for name, groups := range map[string][][]int{
		"duplicate": {{0, 1}, {1, 2}},
		"outside":   {{0, 5}, {1, 2}},
		"empty":     {{0, 1, 2, 3}, {}},
	} {
		if _, err := GroupStage(FitnessImproved, groups, two); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
	if _, err := GroupStage(FitnessImproved, [][]int{{0, 1}, {2, 3}}, two[:1]); err == nil {
		t.Error("too few outcomes: want an error")
	}
	if _, err := GroupStage(FitnessImproved, [][]int{{0, 1}, {2, 3}}, append(two, two...)); err == nil {
		t.Error("too many outcomes: want an error")
	}
}
