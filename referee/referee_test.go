package referee

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// baseline loads an embedded baseline weight vector.
func baseline(t testing.TB, name string) engine.Weights {
	t.Helper()
	f, err := configs.LoadWeights(name)
	if err != nil {
		t.Fatal(err)
	}
	return f.Weights()
}

// fastSettings is a depth-1 search with a small table, for quick games.
func fastSettings() engine.Settings {
	s := engine.DefaultSettings()
	s.Depth, s.Width = 1, 6
	s.TableBits = 12
	return s
}

// strip clears the wall-clock times, the one field that varies between runs.
func strip(recs []tournament.GameRecord) []tournament.GameRecord {
	out := append([]tournament.GameRecord(nil), recs...)
	for i := range out {
		out[i].Time = [2]time.Duration{}
	}
	return out
}

func mustOpening(t testing.TB, s string) tournament.Opening {
	t.Helper()
	o, err := tournament.ParseOpening(s)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestVectorRefereeDeterministic(t *testing.T) {
	zhou := baseline(t, "zhou2015").Genes
	flat := []float64{1, 1, 1, 1, 1}
	neg := []float64{-5, -20, -80, -150, -800}
	matches := []optimize.Match{{A: zhou, B: flat}, {A: flat, B: zhou}, {A: zhou, B: neg}, {A: neg, B: flat}}
	play := func(conc int, seed uint64) ([]optimize.Outcome, []tournament.GameRecord) {
		var games []tournament.GameRecord
		var last [2]int
		r := VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 2, MaxMoves: 40},
			Concurrency: conc,
			Progress:    func(done, total int) { last = [2]int{done, total} },
			GameLog:     func(g tournament.GameRecord) error { games = append(games, g); return nil }}
		out, err := r.Play(context.Background(), seed, matches)
		if err != nil {
			t.Fatal(err)
		}
		if last != [2]int{16, 16} || len(games) != 16 {
			t.Fatalf("progress %v, %d games logged", last, len(games))
		}
		return out, games
	}
	o1, g1 := play(1, 42)
	o2, g2 := play(3, 42)
	if !reflect.DeepEqual(o1, o2) || !reflect.DeepEqual(strip(g1), strip(g2)) {
		t.Errorf("concurrency 1 vs 3: %v vs %v", o1, o2)
	}
	// The same referee replays a batch identically with engines reused
	// from an earlier batch of other matches.
	ref := VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 2, MaxMoves: 40}, Concurrency: 2}
	if _, err := ref.Play(context.Background(), 7, matches[2:]); err != nil {
		t.Fatal(err)
	}
	o3, err := ref.Play(context.Background(), 42, matches)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(o1, o3) {
		t.Errorf("reused engines: %v, want %v", o3, o1)
	}
	for i, o := range o1 {
		if o.Games() != 4 {
			t.Errorf("match %d: %d games, want 4", i, o.Games())
		}
	}
	// Pair k of match i is played from MatchOpenings' out[i][k]; fixtures
	// run pair by pair, match by match.
	r := VectorReferee{Setup: Setup{Pairs: 2}}
	ops, err := r.MatchOpenings(42, len(matches))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range g1 {
		i, k := g.Pair%len(matches), g.Pair/len(matches)
		if want := ops[i][k].String(); g.Opening != want {
			t.Errorf("game %d (match %d, pair %d) opening %q, want %q", g.Game, i, k, g.Opening, want)
		}
		if !strings.HasPrefix(g.Black, "m") {
			t.Errorf("player name %q", g.Black)
		}
	}
	// A sign-flipped vector (rewards the opponent's roads) loses to the baseline.
	if o1[2].Wins <= o1[2].Losses {
		t.Errorf("zhou2015 vs negated weights: %+v", o1[2])
	}
}

func TestVectorRefereeErrors(t *testing.T) {
	r := VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings()}}
	_, err := r.Play(context.Background(), 1, []optimize.Match{{A: []float64{1, 2, 3, 4, 5}, B: []float64{1, 2}}})
	if err == nil || !strings.Contains(err.Error(), "match 0, vector B") {
		t.Errorf("wrong gene count: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = r.Play(ctx, 1, []optimize.Match{{A: []float64{1, 2, 3, 4, 5}, B: []float64{5, 4, 3, 2, 1}}})
	if err == nil {
		t.Error("cancelled batch returned no error")
	}
	if out, err := r.Play(context.Background(), 1, nil); err != nil || len(out) != 0 {
		t.Errorf("empty batch: %v %v", out, err)
	}
}

// TestMatchOpeningsNeverRepeatWithinAMatch: a VectorReferee asked for more
// pairs than the radius-3 suite holds draws them from a larger suite, and
// for fewer pairs keeps the radius-3 suite.
func TestMatchOpeningsNeverRepeatWithinAMatch(t *testing.T) {
	r := &VectorReferee{Setup: Setup{Pairs: 200}}
	ops, err := r.MatchOpenings(9, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ops {
		seen := map[string]bool{}
		for _, o := range m {
			if seen[o.String()] {
				t.Fatalf("match %d: opening %s repeats within a 200-pair match", i, o)
			}
			seen[o.String()] = true
		}
	}
	small, err := (&VectorReferee{Setup: Setup{Pairs: 2}}).MatchOpenings(9, 50)
	if err != nil {
		t.Fatal(err)
	}
	r3, err := tournament.GenerateOpenings(3, 9)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, o := range r3 {
		in[o.String()] = true
	}
	for i, m := range small {
		for _, o := range m {
			if !in[o.String()] {
				t.Fatalf("2 pairs, match %d: opening %s is not in the radius-3 suite", i, o)
			}
		}
	}
}

// TestMatchOpeningsPerMatch: the matches of one batch draw their own
// openings (a generation no longer shares one opening), a match's draw does
// not depend on how many matches share the batch, and another seed draws
// other openings.
func TestMatchOpeningsPerMatch(t *testing.T) {
	r := &VectorReferee{Setup: Setup{Pairs: 1}}
	few, err := r.MatchOpenings(5, 3)
	if err != nil {
		t.Fatal(err)
	}
	many, err := r.MatchOpenings(5, 60)
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	for i, m := range many {
		distinct[m[0].String()] = true
		if i < len(few) && few[i][0].String() != m[0].String() {
			t.Errorf("match %d: %s in a batch of 3, %s in a batch of 60", i, few[i][0], m[0])
		}
	}
	// 60 draws from 162 openings: about 50 distinct; ≤ 25 would mean the
	// matches share their openings.
	if len(distinct) <= 25 {
		t.Errorf("60 one-pair matches drew only %d distinct openings", len(distinct))
	}
	other, err := r.MatchOpenings(6, 60)
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for i := range other {
		if other[i][0].String() == many[i][0].String() {
			same++
		}
	}
	if same > 10 {
		t.Errorf("seeds 5 and 6 drew the same opening for %d of 60 matches", same)
	}
}

// TestMatchOpeningsGolden pins the openings drawn for a seed: a run resumed
// or repeated with the same seed plays the same openings. (Pinned when
// openings became per match; a change here makes earlier runs' records
// stale.)
func TestMatchOpeningsGolden(t *testing.T) {
	var suite []tournament.Opening
	for _, s := range []string{"JJ KJJK", "JJ HHKK", "JJ KKLL", "JJ IIKK", "JJ JKJL"} {
		suite = append(suite, mustOpening(t, s))
	}
	for _, c := range []struct {
		r    *VectorReferee
		seed uint64
		want [][]string
	}{
		{&VectorReferee{Setup: Setup{Pairs: 4, Openings: OpeningTexts(suite)}}, 42, [][]string{
			{"JJ IIKK", "JJ KKLL", "JJ HHKK", "JJ KJJK"}, {"JJ HHKK", "JJ IIKK", "JJ KJJK", "JJ KKLL"}}},
		{&VectorReferee{Setup: Setup{Pairs: 3}}, 42, [][]string{
			{"JJ JHIJ", "JJ HGLH", "JJ IHLI"}, {"JJ JHHJ", "JJ IGMJ", "JJ IHIK"}}},
		{&VectorReferee{Setup: Setup{Pairs: 2, OpeningRadius: 2}}, 7, [][]string{
			{"JJ HHLL", "JJ IHKI"}, {"JJ IHJL", "JJ HHLL"}}},
	} {
		ops, err := c.r.MatchOpenings(c.seed, 2)
		if err != nil {
			t.Fatal(err)
		}
		got := make([][]string, len(ops))
		for i, m := range ops {
			for _, o := range m {
				got[i] = append(got[i], o.String())
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("pairs %d, radius %d, %d openings given, seed %d: %q, want %q",
				c.r.Pairs, c.r.OpeningRadius, len(c.r.Openings), c.seed, got, c.want)
		}
	}
	if suite[0].String() != "JJ KJJK" {
		t.Error("MatchOpenings shuffled the caller's Openings")
	}
}

func TestDecided(t *testing.T) {
	for _, c := range []struct {
		pairs     []int
		scheduled int
		want      bool
	}{
		{nil, 3, false},
		{[]int{4}, 1, true},        // the last pair: always decided
		{[]int{4, 4}, 3, true},     // +4 with one pair (±2) left: A wins
		{[]int{4, 3}, 3, true},     // +3 > 2
		{[]int{4, 2}, 3, false},    // +2: a LL pair would tie (A does not win)
		{[]int{0, 2}, 3, true},     // −2: at best a tie, and a tie is not a win
		{[]int{1, 2}, 3, false},    // −1: a WW pair wins
		{[]int{2, 2, 2}, 5, false}, // level with two pairs left
	} {
		if got := Decided(c.pairs, c.scheduled); got != c.want {
			t.Errorf("Decided(%v, %d) = %v, want %v", c.pairs, c.scheduled, got, c.want)
		}
	}
}

// TestEarlyStopKeepsTheVerdict: WinnerOnly matches under "decided" end
// early, keep the full match's verdict (AWins), and do not depend on the
// concurrency; a match that is not WinnerOnly in the same batch plays every
// pair.
func TestEarlyStopKeepsTheVerdict(t *testing.T) {
	t.Parallel() // long and independent (its own directories): uses the second core
	zhou := baseline(t, "zhou2015").Genes
	vecs := [][]float64{zhou, {1, 1, 1, 1, 1}, {-5, -20, -80, -150, -800}, {20, 60, 300, 200, 900}, {100, 100, 400, 500, 3000}}
	var matches []optimize.Match
	for i := range vecs {
		for j := range vecs {
			if i != j {
				matches = append(matches, optimize.Match{A: vecs[i], B: vecs[j], WinnerOnly: true})
			}
		}
	}
	matches[0].WinnerOnly = false
	full, err := (&VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 6, MaxMoves: 40}}).Play(context.Background(), 5, matches)
	if err != nil {
		t.Fatal(err)
	}
	var first []optimize.Outcome
	for _, conc := range []int{1, 2} {
		r := &VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 6, MaxMoves: 40, EarlyStop: "decided"}, Concurrency: conc}
		out, err := r.Play(context.Background(), 5, matches)
		if err != nil {
			t.Fatal(err)
		}
		saved := 0
		for i, o := range out {
			if o.AWins() != full[i].AWins() {
				t.Errorf("match %d: early-stopped %+v, full %+v: another verdict", i, o, full[i])
			}
			if o.Games() > full[i].Games() || o.Games()%2 != 0 {
				t.Errorf("match %d: %d games, full match %d", i, o.Games(), full[i].Games())
			}
			saved += full[i].Games() - o.Games()
		}
		if out[0] != full[0] {
			t.Errorf("the match that is not WinnerOnly: %+v, want every pair %+v", out[0], full[0])
		}
		if saved == 0 {
			t.Error("no game saved over 20 matches of unequal vectors")
		}
		if first == nil {
			first = out
		} else if !reflect.DeepEqual(out, first) {
			t.Errorf("concurrency %d: %v, concurrency 1: %v", conc, out, first)
		}
	}
	for _, bad := range []string{"maybe", "sprt:", "sprt:5"} {
		if _, _, err := ParseEarlyStop(bad); err == nil {
			t.Errorf("ParseEarlyStop(%q) accepted", bad)
		}
	}
	if s, on, err := ParseEarlyStop("sprt:0,10"); err != nil || !on || s == nil || s.Elo1 != 10 {
		t.Errorf("sprt:0,10: %v %v %v", s, on, err)
	}
}

// TestOpeningSetsShareOpenings: matches with the same OpeningSet play the
// same openings pair for pair (common random numbers for a common-opponent
// fitness), wherever they stand in the batch and whether the batch is
// played whole or in ranges; matches without one keep their own draws.
func TestOpeningSetsShareOpenings(t *testing.T) {
	zhou := []float64{20, 80, 150, 800, 1000}
	cands := [][]float64{{100, 200, 400, 800, 1000}, {10, 300, 200, 900, 700}, {50, 50, 500, 500, 2000}}
	var ms []optimize.Match
	for _, c := range cands {
		ms = append(ms, optimize.Match{A: c, B: zhou, OpeningSet: 1}, optimize.Match{A: zhou, B: c, OpeningSet: 2})
	}
	ms = append(ms, optimize.Match{A: zhou, B: cands[0]}) // its own openings
	var games []tournament.GameRecord
	ref := VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 3, MaxMoves: 30},
		Concurrency: 2,
		GameLog:     func(g tournament.GameRecord) error { games = append(games, g); return nil }}
	if _, err := ref.Play(context.Background(), 11, ms); err != nil {
		t.Fatal(err)
	}
	// opening[match][pair] as played.
	played := make([][]string, len(ms))
	for i := range played {
		played[i] = make([]string, 3)
	}
	for _, g := range games {
		played[g.Pair%len(ms)][g.Pair/len(ms)] = g.Opening
	}
	for i := range ms {
		want := played[i%2]
		if i == len(ms)-1 {
			if reflect.DeepEqual(played[i], played[0]) || reflect.DeepEqual(played[i], played[1]) {
				t.Errorf("a match without a set played a set's openings %v", played[i])
			}
			continue
		}
		if !reflect.DeepEqual(played[i], want) {
			t.Errorf("match %d (set %d) played %v, set %d's first match %v", i, ms[i].OpeningSet, played[i], ms[i].OpeningSet, want)
		}
	}
	if reflect.DeepEqual(played[0], played[1]) {
		t.Errorf("sets 1 and 2 drew the same openings %v", played[0])
	}
	// A range of the batch plays its matches' sets as the whole batch does.
	games = nil
	if _, err := ref.PlayRange(context.Background(), 11, Range{First: 4, Total: len(ms)}, ms[4:6]); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		i, k := g.Pair%len(ms), g.Pair/len(ms)
		if g.Opening != played[i][k] {
			t.Errorf("range: match %d pair %d opening %s, whole batch %s", i, k, g.Opening, played[i][k])
		}
	}
}

// TestOpeningsReadOnceAndReplaced: a referee reads its Openings at the
// first batch and keeps them, and a referee whose Openings is replaced by
// another list plays the new one.
func TestOpeningsReadOnceAndReplaced(t *testing.T) {
	r := &VectorReferee{Setup: Setup{Pairs: 2, Openings: []string{"JJ IGJM", "JJ GEJI"}}}
	first, err := r.MatchOpenings(7, 3)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := r.MatchOpenings(7, 3)
	if fmt.Sprint(first) != fmt.Sprint(again) {
		t.Fatalf("the same seed drew %v, then %v", first, again)
	}
	r.Openings = []string{"JJ IGLL", "JJ KKLL"}
	next, err := r.MatchOpenings(7, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range next {
		for _, o := range m {
			if s := o.String(); s != "JJ IGLL" && s != "JJ KKLL" {
				t.Fatalf("replaced openings: a match plays %s", s)
			}
		}
	}
	r.Openings = []string{"JJ", "not an opening"}
	if _, err := r.MatchOpenings(7, 1); err == nil {
		t.Error("an opening that does not parse was played")
	}
}
