package optimize_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/ga"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// robustGA is a small robust GA's settings for the synthetic problems.
func robustGA(generations int) *ga.Settings {
	s := ga.DefaultSettings()
	s.Variant = ga.VariantRobust
	s.Population, s.Elite, s.Generations = 16, 4, generations
	s.Sigma, s.SigmaEnd = 0.3, 0.05
	s.RaceBudget, s.RaceRounds = 400, 3
	return &s
}

// runAll drives a method to the end and returns its answer and records.
func runAll(t testing.TB, spec optimize.Spec, opts optimize.Options, p optimize.Problem, seed uint64, ref optimize.Referee) ([]float64, []optimize.Record) {
	t.Helper()
	m, err := spec.New(opts, p, rand.NewPCG(seed, 7))
	if err != nil {
		t.Fatal(err)
	}
	var recs []optimize.Record
	st := optimize.Status{}
	err = optimize.Run(context.Background(), m, ref, optimize.Settings{Recorder: func(r optimize.Record, _ optimize.Status) error {
		recs = append(recs, r)
		return nil
	}}, &st)
	if err != nil {
		t.Fatal(err)
	}
	return m.Best(), recs
}

func basinProblem() (optimize.Problem, func() *optimizetest.BasinReferee) {
	p := optimizetest.Problem("a", "b")
	return p, func() *optimizetest.BasinReferee {
		return &optimizetest.BasinReferee{
			Peaks:   [][]float64{{1000, 1000}, {3500, 3500}},
			Heights: []float64{1, 1.4}, Widths: []float64{3000, 1000},
			Temperature: 0.1,
		}
	}
}

// TestRestartsFindTheGlobalBasin: on a deceptive problem (a broad low
// peak and a narrow high one) a single run of the robust GA ends in the
// low basin on some seeds; six starts raced for the answer, on the same
// budget of generations, return the high basin on at least 4 of the first
// 5 such seeds, and on at least as many seeds overall.
func TestRestartsFindTheGlobalBasin(t *testing.T) {
	p, mk := basinProblem()
	var failed []uint64
	oneWins, multiWins := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		r := mk()
		x1, _ := runAll(t, ga.Spec, robustGA(120), p, seed, r)
		multi := robustGA(120)
		multi.Starts = 6
		x2, _ := runAll(t, ga.Spec, multi, p, seed, r)
		if r.Basin(x1) == 1 {
			oneWins++
		} else if len(failed) < 5 {
			failed = append(failed, seed)
		}
		if r.Basin(x2) == 1 {
			multiWins++
		}
	}
	if len(failed) < 5 {
		t.Fatalf("the problem is not deceptive: one start failed on %d of 20 seeds, want 5 or more", len(failed))
	}
	found := 0
	for _, seed := range failed {
		multi := robustGA(120)
		multi.Starts = 6
		r := mk()
		if x, _ := runAll(t, ga.Spec, multi, p, seed, r); r.Basin(x) == 1 {
			found++
		}
	}
	if found < 4 {
		t.Errorf("six starts found the high basin on %d of the 5 seeds %v where one start failed, want ≥ 4", found, failed)
	}
	if multiWins < oneWins {
		t.Errorf("over 20 seeds six starts found the high basin %d times, one start %d times", multiWins, oneWins)
	}
}

// TestGrowingPrecisionKeepsImproving: on the synthetic noisy problem one
// plain robust GA stops improving as its budget grows (the noise of one
// game pair per comparison, not the budget, limits it), while refinement
// phases with growing pairs per match lower the final error: on each of
// 5 seeds the error at 8 times the budget is below the error at twice
// it, the mean over the seeds falls at every doubling from 80 to 320
// generations, and at 320 generations it is below the plain run's.
func TestGrowingPrecisionKeepsImproving(t *testing.T) {
	p := optimizetest.Problem("a", "b", "c", "d")
	budgets := []int{80, 160, 320}
	errs := make([][]float64, len(budgets)) // errs[b][seed]
	plain := 0.0
	for seed := uint64(1); seed <= 5; seed++ {
		for b, gens := range budgets {
			s := robustGA(gens)
			s.Phases = 2
			ref := &optimizetest.TargetReferee{Target: []float64{1200, 2500, 800, 3100}, Temperature: 200}
			x, _ := runAll(t, ga.Spec, s, p, seed, ref)
			errs[b] = append(errs[b], ref.Distance(x))
		}
		ref := &optimizetest.TargetReferee{Target: []float64{1200, 2500, 800, 3100}, Temperature: 200}
		x, _ := runAll(t, ga.Spec, robustGA(320), p, seed, ref)
		plain += ref.Distance(x) / 5
	}
	for i := range 5 {
		if errs[2][i] >= errs[0][i] {
			t.Errorf("seed %d: error %.0f at 320 generations, %.0f at 80: growing precision did not improve", i+1, errs[2][i], errs[0][i])
		}
	}
	mean := func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s / float64(len(x))
	}
	for b := 1; b < len(budgets); b++ {
		if mean(errs[b]) >= mean(errs[b-1]) {
			t.Errorf("mean error %.0f at %d generations, %.0f at %d: no gain from doubling the budget", mean(errs[b]), budgets[b], mean(errs[b-1]), budgets[b-1])
		}
	}
	if got := mean(errs[2]); got >= plain {
		t.Errorf("mean error at 320 generations: %.0f with growing precision, %.0f plain", got, plain)
	}
}

// TestRestartsResumeAndReplay: a schedule of 3 starts and 2 phases (with
// and without the hall of fame) stopped after any step and restored from
// its state, or failing at any referee call and stepped again, gives
// exactly the uninterrupted records.
func TestRestartsResumeAndReplay(t *testing.T) {
	for _, hof := range []bool{false, true} {
		t.Run(fmt.Sprintf("hall_of_fame=%v", hof), func(t *testing.T) { testResumeAndReplay(t, hof) })
	}
}

func testResumeAndReplay(t *testing.T, hof bool) {
	p := optimizetest.Problem("a", "b", "c")
	opts := robustGA(24)
	opts.Starts, opts.Phases, opts.Growth, opts.HallOfFame = 3, 2, 2, hof
	newRef := func() optimize.Referee {
		return &optimizetest.TargetReferee{Target: []float64{1000, 2000, 3000}, Temperature: 300}
	}
	want, wantRecs := runAll(t, ga.Spec, opts, p, 11, newRef())
	if len(wantRecs) < 10 {
		t.Fatalf("%d steps", len(wantRecs))
	}
	js := func(recs []optimize.Record) string {
		recs = slices.Clone(recs)
		for i := range recs {
			recs[i].Seconds = 0 // wall time, set by Run
		}
		b, err := json.Marshal(recs)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for stop := 0; stop <= len(wantRecs); stop++ {
		m, err := ga.Spec.New(opts, p, rand.NewPCG(11, 7))
		if err != nil {
			t.Fatal(err)
		}
		ref := newRef()
		var recs []optimize.Record
		for range stop {
			rec, err := m.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
		state, err := m.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ga.Spec.Restore(opts, p, state)
		if err != nil {
			t.Fatalf("stop %d: %v", stop, err)
		}
		for !back.Done() {
			rec, err := back.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
		if js(recs) != js(wantRecs) || !slices.Equal(back.Best(), want) {
			t.Fatalf("stopped after %d steps: the resumed run differs", stop)
		}
	}
	// A referee failing at call k leaves the run as it was: stepping again
	// with a working referee gives the uninterrupted run.
	for k := 0; k < 60; k += 7 {
		m, err := ga.Spec.New(opts, p, rand.NewPCG(11, 7))
		if err != nil {
			t.Fatal(err)
		}
		bad := &optimizetest.FailingReferee{Ref: newRef(), FailAt: k}
		var recs []optimize.Record
		for !m.Done() {
			rec, err := m.Step(context.Background(), bad)
			if errors.Is(err, optimizetest.ErrEngine) {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, rec)
		}
		if js(recs) != js(wantRecs) {
			t.Fatalf("a failure at referee call %d changed the run", k)
		}
	}
}

// TestRestartsForecastAndRecords: the schedule splits the budget as
// documented, the forecast at the start counts every game the run plays
// (races at most their budget), and the records carry the sub-run, phase
// and pairs.
func TestRestartsForecastAndRecords(t *testing.T) {
	for _, hof := range []bool{false, true} {
		t.Run(fmt.Sprintf("hall_of_fame=%v", hof), func(t *testing.T) { testForecastAndRecords(t, hof) })
	}
}

func testForecastAndRecords(t *testing.T, hof bool) {
	ro := optimize.RestartOptions{Starts: 3, Phases: 2}
	got := ro.Schedule(90)
	want := []optimize.SubRun{{0, 15, 1}, {0, 15, 1}, {0, 15, 1}, {1, 11, 2}, {2, 6, 4}}
	if !slices.Equal(got, want) {
		t.Errorf("Schedule(90) = %v, want %v", got, want)
	}
	p := optimizetest.Problem("a", "b")
	opts := robustGA(90)
	opts.Starts, opts.Phases, opts.HallOfFame = 3, 2, hof
	m, err := ga.Spec.New(opts, p, rand.NewPCG(2, 3))
	if err != nil {
		t.Fatal(err)
	}
	f := m.Forecast()
	ref := &optimizetest.TargetReferee{Target: []float64{1000, 2000}, Temperature: 300}
	_, recs := runAll(t, ga.Spec, opts, p, 2, ref)
	races := 0
	for _, r := range recs {
		races += int(r.Metrics["race_games"])
	}
	if f.Steps != len(recs) || f.Steps != 15*3+11+6 {
		t.Errorf("forecast %d steps, the run played %d", f.Steps, len(recs))
	}
	if ref.Games-races != f.Games-2*opts.RaceBudget || races > 2*opts.RaceBudget {
		t.Errorf("forecast %d games (with 2 races of at most %d), the run played %d (races %d)", f.Games, opts.RaceBudget, ref.Games, races)
	}
	if r := recs[len(recs)-1]; r.Metrics["phase"] != 2 || r.Metrics["pairs"] != 4 || r.Metrics["subrun"] != 5 {
		t.Errorf("last record's metrics %v", r.Metrics)
	}
	if recs[0].Metrics["pairs"] != 1 {
		t.Errorf("first record's pairs %v", recs[0].Metrics["pairs"])
	}
	// The last phase's pool: the centroid, and with the hall of fame the
	// four earlier answers.
	var gen ga.RobustGeneration
	if b, err := json.Marshal(recs[len(recs)-1].Detail); err != nil || json.Unmarshal(b, &gen) != nil {
		t.Fatal("the last record's detail is not a robust generation")
	}
	pool := []string{"centroid"}
	if hof {
		pool = append(pool, "answer of start 1", "answer of start 2", "answer of start 3", "answer of phase 1")
	}
	if !slices.Equal(gen.Pool, pool) {
		t.Errorf("the last phase's pool %q, want %q", gen.Pool, pool)
	}
}

// TestRestartOptionsRefused: each bad restart key is refused naming it.
func TestRestartOptionsRefused(t *testing.T) {
	p := optimizetest.Problem("a", "b")
	cases := []struct {
		key string
		set func(*ga.Settings)
	}{
		{"starts", func(s *ga.Settings) { s.Starts = -1 }},
		{"phases", func(s *ga.Settings) { s.Phases = -1 }},
		{"phases", func(s *ga.Settings) { s.Phases = 9 }},
		{"precision_growth", func(s *ga.Settings) { s.Phases, s.Growth = 1, 1 }},
		{"start_share", func(s *ga.Settings) { s.Phases, s.StartShare = 1, 1 }},
		{"start_share", func(s *ga.Settings) { s.StartShare = 0.5 }},
		{"generations", func(s *ga.Settings) { s.Generations, s.Starts, s.Phases = 3, 3, 1 }},
		{"race_budget", func(s *ga.Settings) { s.Starts, s.RaceBudget = 3, 10 }},
		{"hall_of_fame", func(s *ga.Settings) { s.Starts, s.HallOfFame = 3, true }},
		{"phases", func(s *ga.Settings) { s.Variant, s.Population, s.Phases = ga.VariantChen, 14, 1 }},
	}
	for _, c := range cases {
		s := robustGA(30)
		c.set(s)
		err := ga.Spec.Validate(s, p)
		var oe *optimize.OptionError
		if !errors.As(err, &oe) || oe.Key != c.key {
			t.Errorf("%+v: error %v, want one naming %s", s.RestartOptions, err, c.key)
		}
		if _, err := ga.Spec.New(s, p, rand.NewPCG(1, 1)); err == nil {
			t.Errorf("%+v: New accepted it", s.RestartOptions)
		}
	}
}
