package tune

import (
	"context"
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
		r := VectorReferee{
			Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 2, MaxMoves: 40, Concurrency: conc,
			Progress: func(done, total int) { last = [2]int{done, total} },
			GameLog:  func(g tournament.GameRecord) error { games = append(games, g); return nil },
		}
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
	ref := VectorReferee{Schema: engine.Symmetric, Settings: fastSettings(), Pairs: 2, MaxMoves: 40, Concurrency: 2}
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
	// All matches of a batch use the batch's openings, pair k from opening k.
	r := VectorReferee{Pairs: 2}
	ops, _ := r.BatchOpenings(42)
	for _, g := range g1 {
		if g.Opening != ops[g.Pair/len(matches)].String() {
			t.Errorf("game %d (pair %d) opening %q, want %q", g.Game, g.Pair, g.Opening, ops[g.Pair/len(matches)])
		}
		if !strings.HasPrefix(g.Black, "m") {
			t.Errorf("player name %q", g.Black)
		}
	}
	ops2, _ := r.BatchOpenings(43)
	if ops[0].String() == ops2[0].String() && ops[1].String() == ops2[1].String() {
		t.Error("seeds 42 and 43 draw the same openings")
	}
	// A sign-flipped vector (rewards the opponent's roads) loses to the baseline.
	if o1[2].Wins <= o1[2].Losses {
		t.Errorf("zhou2015 vs negated weights: %+v", o1[2])
	}
}

func TestVectorRefereeErrors(t *testing.T) {
	r := VectorReferee{Schema: engine.Symmetric, Settings: fastSettings()}
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

// TestBatchOpeningsNeverRepeatWithinAMatch: a VectorReferee asked for more
// pairs than the radius-3 suite holds draws them from a larger suite, and
// for fewer pairs keeps the radius-3 suite.
func TestBatchOpeningsNeverRepeatWithinAMatch(t *testing.T) {
	r := &VectorReferee{Pairs: 200}
	ops, err := r.BatchOpenings(9)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range ops {
		if seen[o.String()] {
			t.Fatalf("opening %s repeats within a 200-pair match", o)
		}
		seen[o.String()] = true
	}
	small, err := (&VectorReferee{Pairs: 2}).BatchOpenings(9)
	if err != nil {
		t.Fatal(err)
	}
	r3, err := tournament.GenerateOpenings(3, 9)
	if err != nil {
		t.Fatal(err)
	}
	if small[0].String() != r3[0].String() || small[1].String() != r3[1].String() {
		t.Fatalf("2 pairs: got %v, want the radius-3 suite's first openings %v %v", small, r3[0], r3[1])
	}
}

// TestBatchOpeningsGolden pins the openings drawn for a seed, as they were
// when VectorReferee lived in package tournament: a run resumed or repeated
// with the same seed plays the same openings.
func TestBatchOpeningsGolden(t *testing.T) {
	var suite []tournament.Opening
	for _, s := range []string{"JJ KJJK", "JJ HHKK", "JJ KKLL", "JJ IIKK", "JJ JKJL"} {
		suite = append(suite, mustOpening(t, s))
	}
	for _, c := range []struct {
		r    *VectorReferee
		seed uint64
		want []string
	}{
		{&VectorReferee{Pairs: 4, Openings: suite}, 42, []string{"JJ JKJL", "JJ KJJK", "JJ KKLL", "JJ HHKK"}},
		{&VectorReferee{Pairs: 3}, 42, []string{"JJ IGGI", "JJ HGLG", "JJ GGMM"}},
		{&VectorReferee{Pairs: 2, OpeningRadius: 2}, 7, []string{"JJ HHKJ", "JJ HHLH"}},
	} {
		ops, err := c.r.BatchOpenings(c.seed)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]string, len(ops))
		for i, o := range ops {
			got[i] = o.String()
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("pairs %d, radius %d, %d openings given, seed %d: %q, want %q",
				c.r.Pairs, c.r.OpeningRadius, len(c.r.Openings), c.seed, got, c.want)
		}
	}
	if suite[0].String() != "JJ KJJK" {
		t.Error("BatchOpenings shuffled the caller's Openings")
	}
}
