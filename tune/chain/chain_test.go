package chain_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fixture/resumetest"
	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/chain"
	"github.com/roadtune/roadtune/tune/runs"
)

// startNamed replaces the start vector's directory in a ladder by "START":
// the rung against the start names where it came from.
func startNamed(o resumetest.Outcome, startDir string) resumetest.Outcome {
	abs, _ := filepath.Abs(startDir)
	for i, r := range o.Ladder {
		o.Ladder[i] = strings.ReplaceAll(r, abs, "START")
	}
	return o
}

// TestChainEqualsItsStagesRunByHand: a chain's stages are the runs a user
// would make by hand (the second with -start the first's directory and the
// first's seed); run again it keeps finished stages; a changed stage is
// refused naming the key; a stage's snapshot knows its place.
func TestChainEqualsItsStagesRunByHand(t *testing.T) {
	t.Parallel() // long and independent (its own directories): uses the second core
	cfg, cdir := runfixture.WriteChain(t, runfixture.SPSAStage)
	stages, err := tune.Stages(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(stages) != 2 || stages[1].Method != "spsa" || stages[1].Seed != cfg.Seed {
		t.Fatalf("stages: %d, second %s seed %d", len(stages), stages[1].Method, stages[1].Seed)
	}
	dir := filepath.Join(t.TempDir(), "chain")
	dirs, err := chain.Run(context.Background(), stages, dir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 || dirs[0] != tune.StageDir(dir, 1, "texel") || dirs[1] != tune.StageDir(dir, 2, "spsa") {
		t.Fatalf("dirs %v", dirs)
	}

	// By hand.
	hand := t.TempDir()
	first, second := filepath.Join(hand, "texel"), filepath.Join(hand, "spsa")
	for i, c := range []tune.Config{cfg, {}} {
		d := first
		if i == 1 {
			data, err := os.ReadFile(filepath.Join(cdir, "b.toml"))
			if err != nil {
				t.Fatal(err)
			}
			if c, err = tune.Parse("b.toml", data, tune.Override{Key: "start", Value: strconv.Quote(first)}, tune.Override{Key: "seed", Value: fmt.Sprint(cfg.Seed)}); err != nil {
				t.Fatal(err)
			}
			d = second
		}
		j, err := tune.Start(c, d, tune.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	resumetest.ReadOutcome(t, first).Equal(t, resumetest.ReadOutcome(t, dirs[0]), "the chain's first stage")
	want := startNamed(resumetest.ReadOutcome(t, second), first)
	want.Equal(t, startNamed(resumetest.ReadOutcome(t, dirs[1]), dirs[0]), "the chain's second stage")
	if len(want.Ladder) != 4 {
		t.Fatalf("the second stage's ladder has %d rungs, want 4 (zhou2015 and start at 2 depths)", len(want.Ladder))
	}

	// A stage's snapshot knows its place in the chain.
	r, err := runs.ReadSnapshot(dirs[1])
	if err != nil || r.Stage != 2 || r.Stages != 2 || r.Chain() != "chain" || r.Phase != tune.PhaseDone {
		t.Fatalf("ReadSnapshot(stage 2): %v %+v", err, r)
	}

	// Run again: both stages are done, nothing is rewritten.
	before, _ := os.ReadFile(filepath.Join(dirs[1], tune.FileCheckpoint))
	var log bytes.Buffer
	if _, err := chain.Run(context.Background(), stages, dir, tune.Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	if _, err := chain.Resume(context.Background(), dir, tune.Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dirs[1], tune.FileCheckpoint))
	if !bytes.Equal(before, after) || strings.Count(log.String(), "is done") != 4 {
		t.Errorf("a finished chain was run again: %q", log.String())
	}

	// A changed second stage into the same directory: refused, naming the key.
	changed := stages
	changed[1].Match.Pairs++
	var in *tune.InputError
	if _, err := chain.Run(context.Background(), changed, dir, tune.Options{}); !errors.As(err, &in) || !strings.Contains(err.Error(), "stage 2") || !strings.Contains(err.Error(), "match.pairs") {
		t.Errorf("changed stage: %v", err)
	}
	// A run's directory is not a chain's.
	if _, err := chain.Run(context.Background(), stages, first, tune.Options{}); !errors.As(err, &in) || !strings.Contains(err.Error(), "holds a run") {
		t.Errorf("a run's directory: %v", err)
	}
}

// TestChainStoppedAnywhereResumes stops a chain after a random number of
// games, several times, and continues it with Resume: each stage ends
// as the uninterrupted chain's. The interruption names the chain's
// directory to resume, not the stage's.
func TestChainStoppedAnywhereResumes(t *testing.T) {
	t.Parallel() // long and independent (its own directories): uses the second core
	cfg, _ := runfixture.WriteChain(t, runfixture.SPSAStage)
	stages, dirs := runfixture.StraightChain(t, cfg)
	var err error
	total := 0
	for _, d := range dirs {
		r, err := tune.ReadRun(d)
		if err != nil {
			t.Fatal(err)
		}
		total += r.Status.Games
	}
	total += 2 * 2 * 2 * 2 // the second stage's ladder
	moments := 8
	if testing.Short() {
		moments = 2
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for k := range moments {
		dir := filepath.Join(t.TempDir(), "chain")
		n := rng.IntN(total + 1)
		first := true
		for stops := 0; ; stops++ {
			ctx, cancel := context.WithCancel(context.Background())
			gc := &resumetest.GameCounter{N: n, Cancel: cancel}
			if n == 0 {
				cancel()
			}
			opts := tune.Options{Events: tune.Events{Games: gc.Games}}
			if first {
				_, err = chain.Run(ctx, stages, dir, opts)
				first = false
			} else {
				_, err = chain.Resume(ctx, dir, opts)
			}
			cancel()
			var ie *tune.InterruptedError
			if !errors.As(err, &ie) {
				break
			}
			if !strings.Contains(err.Error(), "-resume "+dir+"\n") && !strings.HasSuffix(err.Error(), "-resume "+dir) {
				t.Fatalf("the interruption does not name the chain: %v", err)
			}
			n = rng.IntN(total/2 + 2)
			if stops > 8 {
				n = total * 10
			}
		}
		if err != nil {
			t.Fatalf("moment %d: %v", k, err)
		}
		for s := range dirs {
			want := startNamed(resumetest.ReadOutcome(t, dirs[s]), dirs[0])
			got := startNamed(resumetest.ReadOutcome(t, tune.StageDir(dir, s+1, stages[s].Method)), tune.StageDir(dir, 1, stages[0].Method))
			want.Equal(t, got, "a resumed chain's stage")
		}
	}
}

// TestChainFromARelativePathResumes: a chain started from a config named
// relative to the working directory (`tune -config configs/overnight.toml`)
// and stopped in its first stage resumes, and ends as the uninterrupted
// chain. The first stage's `then` is stored resolved against the working
// directory; resuming must not resolve it again against the run's.
func TestChainFromARelativePathResumes(t *testing.T) {
	cfg, dir := runfixture.WriteChain(t, runfixture.SPSAStage)
	_, dirs := runfixture.StraightChain(t, cfg)
	t.Chdir(filepath.Dir(dir))
	rel, err := tune.Load(filepath.Join(filepath.Base(dir), "a.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if filepath.IsAbs(rel.Then) {
		t.Fatalf("then %q: the test needs a relative path", rel.Then)
	}
	stages, err := tune.Stages(rel)
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(t.TempDir(), "chain")
	ctx, cancel := context.WithCancel(context.Background())
	gc := &resumetest.GameCounter{N: 3, Cancel: cancel}
	_, err = chain.Run(ctx, stages, run, tune.Options{Events: tune.Events{Games: gc.Games}})
	cancel()
	var ie *tune.InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("want an interruption in stage 1, got %v", err)
	}
	if _, err := chain.Resume(context.Background(), run, tune.Options{}); err != nil {
		t.Fatalf("resuming the chain: %v", err)
	}
	for s := range dirs {
		want := startNamed(resumetest.ReadOutcome(t, dirs[s]), dirs[0])
		got := startNamed(resumetest.ReadOutcome(t, tune.StageDir(run, s+1, stages[s].Method)), tune.StageDir(run, 1, stages[0].Method))
		want.Equal(t, got, "a chain resumed from a relative config")
	}
}

// TestBudgetChainSplit: a chain's budget is split among its stages by
// their forecast time at their configured steps (the log says so), each stage's share is of the
// budget left when it starts, and the chain ends within the budget (+5%);
// a later stage's own budget is refused.
func TestBudgetChainSplit(t *testing.T) {
	const budget = 10 * time.Minute
	cfg, cdir := runfixture.WriteChain(t, strings.Replace(tunetest.Tiny("spsa"), "seed = 5", "seed = 99", 1))
	cfg, err := tune.Load(filepath.Join(cdir, "a.toml"), tune.Override{Key: "budget", Value: resumetest.Hours(t, "0.1666666666666666667"), Source: "flag -hours"})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Budget != budget.String() {
		t.Fatalf("-hours 1/6: budget %q", cfg.Budget)
	}
	stages, err := tune.Stages(cfg)
	if err != nil {
		t.Fatal(err)
	}
	clock := resumetest.NewClock(time.Second)
	t0 := clock.Now()
	var log bytes.Buffer
	dir := filepath.Join(t.TempDir(), "chain")
	dirs, err := chain.Run(context.Background(), stages, dir, tune.Options{Referee: resumetest.NewClockReferee(clock), Clock: clock.Now, Events: tune.Events{Games: clock.Games}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	used := clock.Now().Sub(t0)
	t.Logf("the chain took %v of its %v budget", used, budget)
	if used > budget*105/100 || used < budget*75/100 {
		t.Errorf("the chain took %v of its %v budget:\n%s", used, budget, log.String())
	}
	// texel: 3 rounds of 16 games; spsa: 4 iterations of 2 games.
	if !strings.Contains(log.String(), "chain: budget 10m0s split by the stages' forecast time at their configured steps: stage 1 (texel) 48 games in ") ||
		!strings.Contains(log.String(), "; stage 2 (spsa) 8 games in ") {
		t.Errorf("the log does not say how the budget was split:\n%s", log.String())
	}
	b1, b2 := resumetest.ReadBudget(t, dirs[0]), resumetest.ReadBudget(t, dirs[1])
	cf, _, err := tune.ReadChainFile(dir)
	if err != nil || cf.Budget == nil {
		t.Fatalf("chain.json's budget: %+v %v", cf.Budget, err)
	}
	// Stage 1 takes its forecast time's share of the budget after the
	// calibration, stage 2 what is left. Each stage's forecast holds its
	// ladder, so the split is not the games' 48:8.
	if len(cf.Budget.Split) != 2 || cf.Budget.Split[0] <= 0 || cf.Budget.Split[1] <= 0 {
		t.Fatalf("chain.json's split %v", cf.Budget.Split)
	}
	want1 := (budget.Seconds() - cf.Budget.Calibration) * cf.Budget.Split[0] / (cf.Budget.Split[0] + cf.Budget.Split[1])
	if math.Abs(b1.Seconds-want1) > 1 {
		t.Errorf("stage 1's share %gs, want %gs", b1.Seconds, want1)
	}
	if games := (budget.Seconds() - cf.Budget.Calibration) * 48 / 56; math.Abs(b1.Seconds-games) < 1 {
		t.Errorf("stage 1's share %gs is the games' share: the ladders are not in the split", b1.Seconds)
	}
	if want := budget.Seconds() - cf.Budget.Calibration - b1.Elapsed; math.Abs(b2.Seconds-want) > 1 {
		t.Errorf("stage 2's share %gs, want %gs", b2.Seconds, want)
	}
	for _, s := range cf.Stages {
		if strings.Contains(s.Config, "budget") {
			t.Errorf("chain.json's stage holds a budget:\n%s", s.Config)
		}
	}
	// Run again: the chain is done, and the same budget is kept.
	if _, err := chain.Run(context.Background(), stages, dir, tune.Options{Referee: resumetest.NewClockReferee(clock), Clock: clock.Now, Events: tune.Events{Games: clock.Games}}); err != nil {
		t.Errorf("the same chain again: %v", err)
	}
	// A later stage with a budget of its own.
	os.WriteFile(filepath.Join(cdir, "b.toml"), []byte("budget = \"1h\"\n"+tunetest.Tiny("spsa")), 0o644)
	if _, err := tune.Stages(cfg); err == nil || !strings.Contains(err.Error(), `b.toml:1: key "budget": a later stage of a chain takes its share`) {
		t.Errorf("a later stage's budget: %v", err)
	}
}
