package optimize_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// raceField is five candidates at known distances from the synthetic
// referee's target (candidate 3 is the truly best) and one opponent.
func raceField() (cands, opps [][]float64, best int) {
	cands = [][]float64{{1.0, 0}, {0.8, 0}, {0.9, 0}, {0.3, 0}, {0.7, 0}}
	return cands, [][]float64{{0.6, 0}}, 3
}

// TestRaceFindsTheTrulyBest: of candidates with known strengths, the race
// returns the truly best on 5 seeds, drops the clearly weaker ones early
// and keeps to its budget.
func TestRaceFindsTheTrulyBest(t *testing.T) {
	cands, opps, best := raceField()
	names := []string{"a", "b", "c", "d", "e"}
	c := optimize.RaceConfig{Budget: 20000, Alpha: 0.05, MinRounds: 3}
	for seed := uint64(1); seed <= 5; seed++ {
		ref := &optimizetest.TargetReferee{Target: []float64{0, 0}, Temperature: 0.5, Pairs: 2}
		rec, err := optimize.Race(context.Background(), ref, rand.New(rand.NewPCG(seed, 9)), cands, opps, names, c, 4)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Winner != best {
			t.Errorf("seed %d: winner %d (%v), want %d", seed, rec.Winner, rec.Score, best)
		}
		if rec.Games > c.Budget || rec.Games != ref.Games {
			t.Errorf("seed %d: %d games recorded, %d played, budget %d", seed, rec.Games, ref.Games, c.Budget)
		}
		if !rec.Decided {
			t.Errorf("seed %d: a 20,000-game race did not decide: %+v", seed, rec)
		}
		// Dropped candidates stop playing, so the race saves games.
		for i, d := range rec.Dropped {
			if i != best && (d < 0 || rec.Played[i] != d) {
				t.Errorf("seed %d: candidate %d dropped after round %d, played %d", seed, i, d, rec.Played[i])
			}
		}
		if rec.Games > len(cands)*rec.Rounds*4 {
			t.Errorf("seed %d: %d games in %d rounds", seed, rec.Games, rec.Rounds)
		}
	}
}

// TestRaceBudget: a race stops when the next round would pass its budget
// and then names the leader, undecided; with no round in the budget it
// names the first candidate.
func TestRaceBudget(t *testing.T) {
	cands, opps, _ := raceField()
	ref := &optimizetest.TargetReferee{Target: []float64{0, 0}, Temperature: 50, Pairs: 1}
	c := optimize.RaceConfig{Budget: 5 * 2 * 4, Alpha: 0.05, MinRounds: 3}
	rec, err := optimize.Race(context.Background(), ref, rand.New(rand.NewPCG(1, 1)), cands, opps, nil, c, 2)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Rounds != 4 || rec.Games != 40 || rec.Decided {
		t.Errorf("budget of 4 rounds: %+v", rec)
	}
	c.Budget = 9
	rec, err = optimize.Race(context.Background(), ref, rand.New(rand.NewPCG(1, 1)), cands, opps, nil, c, 2)
	if err != nil || rec.Rounds != 0 || rec.Winner != 0 {
		t.Errorf("no round in the budget: %+v %v", rec, err)
	}
}

// TestRaceReferee: a failing referee's error comes back wrapped.
func TestRaceReferee(t *testing.T) {
	cands, opps, _ := raceField()
	ref := &optimizetest.FailingReferee{Ref: &optimizetest.TargetReferee{Target: []float64{0, 0}}, FailAt: 1}
	_, err := optimize.Race(context.Background(), ref, rand.New(rand.NewPCG(1, 1)), cands, opps, nil, optimize.RaceConfig{Budget: 1000, Alpha: 0.05, MinRounds: 2}, 2)
	if !errors.Is(err, optimizetest.ErrEngine) {
		t.Errorf("error %v", err)
	}
}

func TestRaceConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		c     optimize.RaceConfig
		field string
	}{
		{optimize.RaceConfig{}, ""},
		{optimize.RaceConfig{Budget: 120, Alpha: 0.05, MinRounds: 3}, ""},
		{optimize.RaceConfig{Budget: 119, Alpha: 0.05, MinRounds: 3}, "Budget"},
		{optimize.RaceConfig{Budget: -1, Alpha: 0.05, MinRounds: 3}, "Budget"},
		{optimize.RaceConfig{Budget: 120, Alpha: 0, MinRounds: 3}, "Alpha"},
		{optimize.RaceConfig{Budget: 120, Alpha: 0.6, MinRounds: 3}, "Alpha"},
		{optimize.RaceConfig{Budget: 120, Alpha: 0.05, MinRounds: 1}, "MinRounds"},
	} {
		err := tc.c.Validate(5, 2, 4) // 3 rounds × 5 × 2 × 4 = 120 games
		var re *optimize.RaceError
		switch {
		case tc.field == "" && err != nil:
			t.Errorf("%+v: %v", tc.c, err)
		case tc.field != "" && (!errors.As(err, &re) || re.Field != tc.field):
			t.Errorf("%+v: error %v, want one on %s", tc.c, err, tc.field)
		}
	}
}

// TestPoolMatchesShareOpenings: every candidate meets opponent j in a
// match of opening set j+1, and PoolOutcomes sums per candidate.
func TestPoolMatchesShareOpenings(t *testing.T) {
	cands := [][]float64{{1, 2}, {3, 4}, {5, 6}}
	opps := [][]float64{{0, 0}, {9, 9}}
	ms := optimize.PoolMatches(cands, opps)
	if len(ms) != 6 {
		t.Fatalf("%d matches", len(ms))
	}
	for i, m := range ms {
		c, j := i/2, i%2
		if m.OpeningSet != j+1 || m.A[0] != cands[c][0] || m.B[0] != opps[j][0] {
			t.Errorf("match %d: %+v", i, m)
		}
	}
	ms[0].A[0] = 99
	if cands[0][0] != 1 {
		t.Error("PoolMatches shares the candidates' genes")
	}
	out := []optimize.Outcome{{Wins: 1}, {Losses: 2}, {Draws: 2}, {Wins: 1, Losses: 1}, {}, {Wins: 3}}
	sum := optimize.PoolOutcomes(out, 3, 2)
	if sum[0] != (optimize.Outcome{Wins: 1, Losses: 2}) || sum[1] != (optimize.Outcome{Wins: 1, Draws: 2, Losses: 1}) || sum[2] != (optimize.Outcome{Wins: 3}) {
		t.Errorf("sums %v", sum)
	}
	// On the synthetic referee, common openings make a stronger candidate
	// score at least as well as a weaker one against the same opponent.
	ref := &optimizetest.TargetReferee{Target: []float64{0, 0}, Temperature: 1, Pairs: 8}
	out2, err := ref.Play(context.Background(), 3, optimize.PoolMatches([][]float64{{1, 0}, {2, 0}}, [][]float64{{1.5, 0}}))
	if err != nil {
		t.Fatal(err)
	}
	if out2[0].Wins < out2[1].Wins {
		t.Errorf("common openings: the closer candidate won %d, the farther %d", out2[0].Wins, out2[1].Wins)
	}
}

func TestResolvePool(t *testing.T) {
	p := optimizetest.Problem("a", "b")
	p.Opponent = func(name string) ([]float64, error) {
		if name == "base" {
			return []float64{1, 2}, nil
		}
		if name == "short" {
			return []float64{1}, nil
		}
		return nil, errors.New("no such baseline")
	}
	pool, err := optimize.ResolvePool("pool", []string{"centroid", "base", "best"}, p)
	if err != nil || len(pool) != 3 || pool[1].Genes[1] != 2 || !pool[0].Own() || !pool[2].Own() {
		t.Fatalf("%+v %v", pool, err)
	}
	v := optimize.PoolVectors(pool, []float64{7, 7}, []float64{8, 8})
	if v[0][0] != 7 || v[1][0] != 1 || v[2][0] != 8 {
		t.Errorf("vectors %v", v)
	}
	for _, names := range [][]string{nil, {""}, {"centroid", "centroid"}, {"nope"}, {"short"}} {
		_, err := optimize.ResolvePool("pool", names, p)
		var oe *optimize.OptionError
		if !errors.As(err, &oe) || oe.Key != "pool" {
			t.Errorf("%q: error %v", names, err)
		}
	}
	p.Opponent = nil
	if _, err := optimize.ResolvePool("pool", []string{"base"}, p); err == nil {
		t.Error("a runner without opponents resolved a name")
	}
}

func TestTallyScaleCentroidAroundStart(t *testing.T) {
	var tl optimize.Tally
	if tl.Mean() != 0.5 {
		t.Errorf("empty tally mean %g", tl.Mean())
	}
	tl.Add(optimize.Outcome{Wins: 3, Draws: 2, Losses: 3})
	tl.Decay(0.5)
	tl.Add(optimize.Outcome{Wins: 4})
	if tl.Games != 8 || tl.Points != 6 || tl.Steps != 2 || tl.Mean() != 0.75 {
		t.Errorf("tally %+v", tl)
	}
	// Shrinkage: 6 of 8 with 4 games of ½ is 8/12; 0 is Mean; the lucky
	// 2 of 2 falls below 15 of 20 once shrunk.
	if s := tl.Shrunk(4); math.Abs(s-8.0/12) > 1e-15 || tl.Shrunk(0) != tl.Mean() {
		t.Errorf("Shrunk(4) %g, Shrunk(0) %g", s, tl.Shrunk(0))
	}
	lucky, steady := optimize.Tally{Points: 2, Games: 2}, optimize.Tally{Points: 15, Games: 20}
	if lucky.Mean() <= steady.Mean() || lucky.Shrunk(4) >= steady.Shrunk(4) {
		t.Errorf("lucky %g/%g, steady %g/%g", lucky.Mean(), lucky.Shrunk(4), steady.Mean(), steady.Shrunk(4))
	}
	if e := (optimize.Tally{}); e.Shrunk(0) != 0.5 || e.Shrunk(4) != 0.5 {
		t.Errorf("empty tally shrunk %g, %g", e.Shrunk(0), e.Shrunk(4))
	}
	x := optimize.ScaleTo([]float64{3, 4}, 10)
	if x[0] != 6 || x[1] != 8 {
		t.Errorf("ScaleTo %v", x)
	}
	if z := optimize.ScaleTo([]float64{0, 0}, 10); z[0] != 0 {
		t.Errorf("zero vector scaled to %v", z)
	}
	if c := optimize.Centroid([][]float64{{1, 2}, {3, 6}}); c[0] != 2 || c[1] != 4 {
		t.Errorf("centroid %v", c)
	}
	start := []float64{100, 200, 300, 400}
	pop := optimize.AroundStart(rand.New(rand.NewPCG(1, 2)), start, 200, 0.1)
	if len(pop) != 200 || pop[0][0] != 100 || pop[0][3] != 400 {
		t.Fatalf("first vector %v", pop[0])
	}
	// The perturbation's norm is about spread × ‖start‖ (≈ 54.8).
	s := 0.0
	for _, x := range pop[1:] {
		s += optimize.Distance(x, start)
	}
	if m := s / 199; m < 40 || m > 60 {
		t.Errorf("mean distance to the start %g, want about 50", m)
	}
}

// TestRaceField: the answer, the latest mean when given, then the top
// vectors best first with their names; without a latest mean it is left out.
func TestRaceField(t *testing.T) {
	a, m, t1, t2 := []float64{1}, []float64{2}, []float64{3}, []float64{4}
	name := func(k int) string { return fmt.Sprintf("top %d", k) }
	cands, names := optimize.RaceField(a, "answer", m, "mean", [][]float64{t1, t2}, name)
	if len(cands) != 4 || &cands[1][0] != &m[0] || &cands[3][0] != &t2[0] || !slices.Equal(names, []string{"answer", "mean", "top 1", "top 2"}) {
		t.Errorf("field %v, names %v", cands, names)
	}
	cands, names = optimize.RaceField(a, "mean", nil, "mean", [][]float64{t1}, name)
	if len(cands) != 2 || &cands[0][0] != &a[0] || !slices.Equal(names, []string{"mean", "top 1"}) {
		t.Errorf("without a latest mean: field %v, names %v", cands, names)
	}
}
