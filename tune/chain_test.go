package tune

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/resumetest"
	"github.com/roadtune/roadtune/internal/tunetest"
)

// writeChain writes a two-stage chain into a new directory: a.toml (the
// tiny Texel run without a ladder, then b.toml) and b.toml (the tiny SPSA
// run, whose ladder also plays its start), and loads a.toml.
func writeChain(t *testing.T, second string) (Config, string) {
	t.Helper()
	dir := t.TempDir()
	a := "then = \"b.toml\"\n" + strings.Replace(tunetest.Tiny("texel"), `opponents = ["zhou2015"]`, `opponents = []`, 1)
	if err := os.WriteFile(filepath.Join(dir, "a.toml"), []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.toml"), []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(filepath.Join(dir, "a.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg, dir
}

var spsaStage = strings.NewReplacer(`opponents = ["zhou2015"]`, `opponents = ["zhou2015", "start"]`, "seed = 5", "seed = 99").Replace(tunetest.Tiny("spsa"))

// startNamed replaces the start vector's directory in a ladder by "START":
// the rung against the start names where it came from.
func startNamed(o resumetest.Outcome, startDir string) resumetest.Outcome {
	abs, _ := filepath.Abs(startDir)
	for i, r := range o.Ladder {
		o.Ladder[i] = strings.ReplaceAll(r, abs, "START")
	}
	return o
}

// straightChain runs cfg's chain uninterrupted into a new directory and
// returns its stages and their directories.
func straightChain(t *testing.T, cfg Config) ([]Config, []string) {
	t.Helper()
	stages, err := Stages(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := Chain(context.Background(), stages, filepath.Join(t.TempDir(), "chain"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return stages, dirs
}

// TestChainEqualsItsStagesRunByHand: a chain's stages are the runs a user
// would make by hand (the second with -start the first's directory and the
// first's seed); run again it keeps finished stages; a changed stage is
// refused naming the key; a stage's snapshot knows its place.
func TestChainEqualsItsStagesRunByHand(t *testing.T) {
	t.Parallel() // long and independent (its own directories): uses the second core
	cfg, cdir := writeChain(t, spsaStage)
	stages, err := Stages(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(stages) != 2 || stages[1].Method != "spsa" || stages[1].Seed != cfg.Seed {
		t.Fatalf("stages: %d, second %s seed %d", len(stages), stages[1].Method, stages[1].Seed)
	}
	dir := filepath.Join(t.TempDir(), "chain")
	dirs, err := Chain(context.Background(), stages, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 || dirs[0] != StageDir(dir, 1, "texel") || dirs[1] != StageDir(dir, 2, "spsa") {
		t.Fatalf("dirs %v", dirs)
	}

	// By hand.
	hand := t.TempDir()
	first, second := filepath.Join(hand, "texel"), filepath.Join(hand, "spsa")
	for i, c := range []Config{cfg, {}} {
		d := first
		if i == 1 {
			data, err := os.ReadFile(filepath.Join(cdir, "b.toml"))
			if err != nil {
				t.Fatal(err)
			}
			if c, err = Parse("b.toml", data, Override{Key: "start", Value: strconv.Quote(first)}, Override{Key: "seed", Value: fmt.Sprint(cfg.Seed)}); err != nil {
				t.Fatal(err)
			}
			d = second
		}
		j, err := Start(c, d, Options{})
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
	r, err := ReadSnapshot(dirs[1])
	if err != nil || r.Stage != 2 || r.Stages != 2 || r.Chain() != "chain" || r.Phase != PhaseDone {
		t.Fatalf("ReadSnapshot(stage 2): %v %+v", err, r)
	}

	// Run again: both stages are done, nothing is rewritten.
	before, _ := os.ReadFile(filepath.Join(dirs[1], FileCheckpoint))
	var log bytes.Buffer
	if _, err := Chain(context.Background(), stages, dir, Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	if _, err := ResumeChain(context.Background(), dir, Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dirs[1], FileCheckpoint))
	if !bytes.Equal(before, after) || strings.Count(log.String(), "is done") != 4 {
		t.Errorf("a finished chain was run again: %q", log.String())
	}

	// A changed second stage into the same directory: refused, naming the key.
	changed := stages
	changed[1].Match.Pairs++
	var in *InputError
	if _, err := Chain(context.Background(), changed, dir, Options{}); !errors.As(err, &in) || !strings.Contains(err.Error(), "stage 2") || !strings.Contains(err.Error(), "match.pairs") {
		t.Errorf("changed stage: %v", err)
	}
	// A run's directory is not a chain's.
	if _, err := Chain(context.Background(), stages, first, Options{}); !errors.As(err, &in) || !strings.Contains(err.Error(), "holds a run") {
		t.Errorf("a run's directory: %v", err)
	}
}

// TestChainStoppedAnywhereResumes stops a chain after a random number of
// games, several times, and continues it with ResumeChain: each stage ends
// as the uninterrupted chain's. The interruption names the chain's
// directory to resume, not the stage's.
func TestChainStoppedAnywhereResumes(t *testing.T) {
	t.Parallel() // long and independent (its own directories): uses the second core
	cfg, _ := writeChain(t, spsaStage)
	stages, dirs := straightChain(t, cfg)
	var err error
	total := 0
	for _, d := range dirs {
		r, err := ReadSnapshot(d)
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
			opts := Options{Events: Events{Games: gc.Games}}
			if first {
				_, err = Chain(ctx, stages, dir, opts)
				first = false
			} else {
				_, err = ResumeChain(ctx, dir, opts)
			}
			cancel()
			var ie *InterruptedError
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
			got := startNamed(resumetest.ReadOutcome(t, StageDir(dir, s+1, stages[s].Method)), StageDir(dir, 1, stages[0].Method))
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
	cfg, dir := writeChain(t, spsaStage)
	_, dirs := straightChain(t, cfg)
	t.Chdir(filepath.Dir(dir))
	rel, err := Load(filepath.Join(filepath.Base(dir), "a.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if filepath.IsAbs(rel.Then) {
		t.Fatalf("then %q: the test needs a relative path", rel.Then)
	}
	stages, err := Stages(rel)
	if err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(t.TempDir(), "chain")
	ctx, cancel := context.WithCancel(context.Background())
	gc := &resumetest.GameCounter{N: 3, Cancel: cancel}
	_, err = Chain(ctx, stages, run, Options{Events: Events{Games: gc.Games}})
	cancel()
	var ie *InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("want an interruption in stage 1, got %v", err)
	}
	if _, err := ResumeChain(context.Background(), run, Options{}); err != nil {
		t.Fatalf("resuming the chain: %v", err)
	}
	for s := range dirs {
		want := startNamed(resumetest.ReadOutcome(t, dirs[s]), dirs[0])
		got := startNamed(resumetest.ReadOutcome(t, StageDir(run, s+1, stages[s].Method)), StageDir(run, 1, stages[0].Method))
		want.Equal(t, got, "a chain resumed from a relative config")
	}
}

// TestChainBadInput: a bad `then` is found before anything is written,
// naming the file and key.
func TestChainBadInput(t *testing.T) {
	for _, tc := range []struct{ second, want string }{
		{"start = \"zhou2015\"\n" + tunetest.Tiny("spsa"), `b.toml:1: key "start": a later stage of a chain starts from the best vector`},
		{tunetest.Tiny("ga"), `b.toml`},
		{tunetest.Tiny("spsa") + "pairs = -1\n", `b.toml:`},
		{"then = \"a.toml\"\n" + tunetest.Tiny("spsa"), "at most 8 stages"},
	} {
		cfg, _ := writeChain(t, tc.second)
		_, err := Stages(cfg)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("second stage %.40q: %v, want a ConfigError with %q", tc.second, err, tc.want)
		}
	}
	// A then that names no file, and no embedded config.
	for _, then := range []string{"missing.toml", "no-such-config"} {
		c, err := Parse("a.toml", []byte("then = \""+then+"\"\n"+tunetest.Tiny("texel")))
		if err == nil {
			_, err = Stages(c)
		}
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Key != "then" {
			t.Errorf("then = %q: %v", then, err)
		}
	}
}

// TestChainStageOfAnotherSchemaIsRefused: a later stage starts from the
// best vector of the stage before, so a stage of another schema (a depth-4
// GA stage after a tempo Texel stage) is refused when the chain is
// resolved, before anything runs, naming the later file, its line and the
// key.
func TestChainStageOfAnotherSchemaIsRefused(t *testing.T) {
	dir := t.TempDir()
	first := "method = \"texel\"\nschema = \"tempo\"\nthen = \"deep.toml\"\n[texel]\nrounds = 1\n"
	deep := "method = \"ga\"\nschema = \"symmetric\"\n[engine]\ndepth = 4\n[ga]\nvariant = \"robust\"\npopulation = 8\ngenerations = 1\n"
	for name, text := range map[string]string{"first.toml": first, "deep.toml": deep} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := Load(filepath.Join(dir, "first.toml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Stages(cfg)
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Key != "schema" || ce.Line != 2 || !strings.HasSuffix(ce.File, "deep.toml") {
		t.Fatalf("Stages: %v, want a ConfigError at deep.toml:2 key schema", err)
	}
	if !strings.Contains(err.Error(), `give schema = "tempo"`) {
		t.Errorf("the error does not say what to give: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the directory holds %d entries, want the 2 configs only", len(entries))
	}
}

// TestOvernightPresetsAreBudgetedChains: the population methods' overnight
// presets are chains sized by the clock (budget "8h") of the method from
// a random start, then refine-overnight.toml's SPSA against its pool at
// the same depth, with the learning curve measured in both stages.
func TestOvernightPresetsAreBudgetedChains(t *testing.T) {
	for _, m := range []string{"ga", "pso", "cmaes"} {
		cfg, err := LoadEmbedded("overnight-" + m)
		if err != nil {
			t.Fatalf("overnight-%s: %v", m, err)
		}
		stages, err := Stages(cfg)
		if err != nil {
			t.Fatalf("overnight-%s: %v", m, err)
		}
		if cfg.Budget != "8h" || len(stages) != 2 || stages[0].Method != m || stages[1].Method != "spsa" {
			t.Errorf("overnight-%s: budget %q, %d stages", m, cfg.Budget, len(stages))
			continue
		}
		if cfg.Start != "" || stages[0].Engine.Depth != stages[1].Engine.Depth {
			t.Errorf("overnight-%s: start %q, depths %d then %d", m, cfg.Start, stages[0].Engine.Depth, stages[1].Engine.Depth)
		}
		for k, s := range stages {
			if s.Validation.EloEvery <= 0 {
				t.Errorf("overnight-%s stage %d: no learning curve (validation.elo_every)", m, k+1)
			}
		}
		if o := stages[1].Options["spsa"]; o == nil || len(stages[1].Validation.Opponents) < 4 {
			t.Errorf("overnight-%s stage 2: options %v, ladder %v", m, o, stages[1].Validation.Opponents)
		}
	}
}
