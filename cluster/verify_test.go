package cluster

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// TestCheckResult: an honest result passes the checks; forged counts,
// records and positions do not, with the early-stop rule's counts
// allowed for WinnerOnly matches only.
func TestCheckResult(t *testing.T) {
	ref := testReferee() // 2 pairs, early stop "decided"
	matches := testMatches(t)[:3]
	matches[0].WinnerOnly, matches[1].WinnerOnly, matches[2].WinnerOnly = true, false, false
	b := &Batch{Run: "r", Seed: 5, First: 3, Total: 9, Sample: true, Games: true, Setup: SetupOf(ref), Matches: matches}
	honest, err := b.replay(context.Background(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.checkResult(honest); err != nil {
		t.Fatalf("the honest result is refused: %v", err)
	}
	forged := func(change func(r *Result)) Result {
		r := honest
		r.Outcomes = append([]optimize.Outcome(nil), honest.Outcomes...)
		r.Records = append(r.Records[:0:0], honest.Records...)
		r.Positions = append(r.Positions[:0:0], honest.Positions...)
		change(&r)
		return r
	}
	for _, tc := range []struct {
		name, want string
		r          Result
	}{
		{"overflowing", "each count", forged(func(r *Result) { r.Outcomes[1] = optimize.Outcome{Wins: math.MaxInt64 / 2, Losses: math.MaxInt64 / 2} })},
		{"negative", "each count", forged(func(r *Result) { r.Outcomes[1] = optimize.Outcome{Wins: 5, Losses: -1} })},
		{"short", "want 4", forged(func(r *Result) { r.Outcomes[1] = optimize.Outcome{Wins: 2} })},
		{"odd early stop", "even count", forged(func(r *Result) { r.Outcomes[0] = optimize.Outcome{Wins: 3} })},
		{"missing outcome", "outcomes for 3 matches", forged(func(r *Result) { r.Outcomes = r.Outcomes[:2] })},
		{"swapped", "the game records count", forged(func(r *Result) {
			o := r.Outcomes[1]
			r.Outcomes[1] = optimize.Outcome{Wins: o.Losses, Draws: o.Draws, Losses: o.Wins}
			if o.Wins == o.Losses {
				r.Outcomes[1] = optimize.Outcome{Wins: o.Wins + o.Draws, Losses: o.Losses}
			}
		})},
		{"foreign game", "not a game of the batch", forged(func(r *Result) { r.Records[0].Game, r.Records[0].Pair = 0, 0 })},
		{"foreign player", "are not match", forged(func(r *Result) { r.Records[0].Black = "m0.A" })},
		{"many positions", "positions from", forged(func(r *Result) {
			for len(r.Positions) <= maxPositionsPerGame*len(r.Records) {
				r.Positions = append(r.Positions, r.Positions...)
			}
		})},
		{"bad tempo", "tempo", forged(func(r *Result) { r.Positions[0].Tempo = 2 })},
	} {
		if err := b.checkResult(tc.r); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	// A WinnerOnly match may end after any whole pair; the others may not.
	if w := honest.Outcomes[0]; w.Games() == 4 {
		early := forged(func(r *Result) { r.Outcomes[0] = optimize.Outcome{Wins: 2}; r.Records = nil; r.Positions = nil })
		nb := *b
		nb.Games, nb.Sample = false, false
		if err := nb.checkResult(early); err != nil {
			t.Errorf("a WinnerOnly match decided after one pair: %v", err)
		}
	}
}

// TestSampled: the sample is a pure function of seed and key, about the
// share asked for, and differs between seeds.
func TestSampled(t *testing.T) {
	const n = 20000
	hits, same := 0, 0
	for i := range n {
		key := fmt.Sprintf("run.%016x.%d.abc", i, i%7)
		if sampled(1, key, DefaultVerifySample) {
			hits++
			if sampled(2, key, DefaultVerifySample) {
				same++
			}
		}
		if sampled(1, key, DefaultVerifySample) != sampled(1, key, DefaultVerifySample) {
			t.Fatal("not deterministic")
		}
	}
	if share := float64(hits) / n; math.Abs(share-DefaultVerifySample) > 0.005 {
		t.Errorf("share %.4f, want about %v", share, DefaultVerifySample)
	}
	if same > hits/5 {
		t.Errorf("seeds 1 and 2 share %d of %d sampled batches", same, hits)
	}
	if sampled(1, "k", 0) || sampled(1, "k", -1) || !sampled(1, "k", 1) {
		t.Error("shares 0, −1 and 1")
	}
}

// TestReplayCost: over many calls through two honest workers the results
// equal the in-process referee's, nobody is quarantined, and the replays
// cost each worker's first results plus about DefaultVerifySample of the
// games (logged: games replayed / games played).
func TestReplayCost(t *testing.T) {
	matches := testMatches(t)
	c := newCluster(t, testReferee())
	c.coord.VerifySeed = 7
	for _, name := range []string{"w1", "w2"} {
		c.worker(t, &Worker{Conn: c.dial(t, name), Name: name, Concurrency: 1})
	}
	for seed := uint64(100); seed < 130; seed++ {
		want, _ := inProcess(t, seed, matches)
		got, err := c.coord.Play(context.Background(), seed, matches)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seed %d: %v, in-process %v", seed, got, want)
		}
	}
	st := c.coord.Stats()
	if q := c.coord.QuarantinedWorkers(); len(q) > 0 || st.Refused+st.Mismatched+st.Revoked > 0 {
		t.Fatalf("honest workers quarantined: %v, stats %+v", q, st)
	}
	t.Logf("replay cost: %d games replayed for %d played (%.1f%%) in 30 calls of 9 matches, batches of 8 games, 2 workers", st.Replayed, st.Accepted, 100*float64(st.Replayed)/float64(st.Accepted))
	if st.Replayed == 0 || st.Replayed > st.Accepted/4 {
		t.Errorf("replayed %d games for %d played", st.Replayed, st.Accepted)
	}
}

// TestTimedParamsBatches: a batch of search-parameter vectors played by
// the clock reaches the worker whole (its setup rebuilds the parameters
// and the time control), passes the consistency checks, and is never
// replayed: the coordinator asks for a replay of every batch, and an
// honest worker of timed games, whose games a replay would not repeat,
// is not quarantined. The fingerprint of a setup without parameters or
// clock is the one it had before they existed.
func TestTimedParamsBatches(t *testing.T) {
	zhou, err := configs.LoadWeights("zhou2015")
	if err != nil {
		t.Fatal(err)
	}
	ref := testReferee()
	if got := Fingerprint(EngineBuild, SetupOf(ref)); got != "497e9554b4d55120" {
		t.Errorf("the plain setup's fingerprint is %s, was 497e9554b4d55120 before parameters and clocks", got)
	}
	width, _ := engine.ParamByName("Width")
	ref.Params, ref.Fixed = []string{width.Name}, zhou.Weights().Genes
	ref.Time = tournament.TimeControl{PerMove: 10 * time.Millisecond}
	back, err := RefereeWith(SetupOf(ref), 1, nil, "")
	if err != nil || len(back.Params) != 1 || back.Params[0] != "Width" || back.Time != ref.Time || !slices.Equal(back.Fixed, ref.Fixed) {
		t.Fatalf("setup round trip: %+v, %v", back, err)
	}
	c := newCluster(t, ref)
	c.coord.VerifySample = 1
	c.worker(t, &Worker{Conn: c.dial(t, "w1"), Name: "w1", Concurrency: 1})
	matches := []optimize.Match{{A: []float64{6}, B: []float64{3}}, {A: []float64{2}, B: []float64{6}, WinnerOnly: true}}
	out, err := c.coord.Play(context.Background(), 3, matches)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Games() != 4 {
		t.Fatalf("outcomes %v", out)
	}
	st := c.coord.Stats()
	if q := c.coord.QuarantinedWorkers(); len(q) > 0 || st.Replayed > 0 || st.Refused+st.Mismatched+st.Revoked > 0 {
		t.Fatalf("timed batches: quarantined %v, stats %+v", q, st)
	}
}
