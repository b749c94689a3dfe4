package launch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/runs"
)

// TestNewLaunchKinds: the flags' combinations resolve to a run, a sweep
// or a chain with the default directory names, before anything is
// written; bad seed lists are refused naming the seed. Launch.Config is
// the config resolved.
func TestNewLaunchKinds(t *testing.T) {
	now := time.Date(2026, 11, 25, 8, 30, 0, 0, time.UTC)
	cfg := runfixture.Tiny(t, "spsa")
	l, err := New(cfg, "", nil, now)
	if err != nil || l.Kind != KindRun || l.Resume || l.Dir != filepath.Join("runs", "20261125-083000-spsa") || l.Config().Method != "spsa" || l.Config().Seed != cfg.Seed {
		t.Fatalf("run: %+v, %v", l, err)
	}
	l, err = New(cfg, "", []int64{1, 2}, now)
	if err != nil || l.Kind != KindSweep || l.Dir != filepath.Join("runs", "20261125-083000-spsa-sweep") {
		t.Fatalf("sweep: %+v, %v", l, err)
	}
	chain, dir := runfixture.WriteChain(t, runfixture.SPSAStage)
	l, err = New(chain, filepath.Join(dir, "out"), nil, now)
	if err != nil || l.Kind != KindChain || len(l.stages) != 2 {
		t.Fatalf("chain: %+v, %v", l, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !os.IsNotExist(err) {
		t.Fatalf("New wrote its directory: %v", err)
	}
	if l := Resume(dir); l.Kind != KindRun || !l.Resume || l.Config().Method != "" {
		t.Fatalf("resume of a run: %+v", l)
	}
	var ie *tune.InputError
	if _, err := New(cfg, "", []int64{3, 3}, now); !errors.As(err, &ie) || !strings.Contains(err.Error(), "seed 3 is listed twice") {
		t.Fatalf("repeated seed: %v", err)
	}
}

// TestLaunchRunAndExport: a launched run calls its hooks in order (Track
// before the job exists, Job before the first game), ends with the best
// vector and status; resumed when finished it plays nothing; its export
// equals best.json's vector and never overwrites a file without force.
func TestLaunchRunAndExport(t *testing.T) {
	cfg := runfixture.Tiny(t, "spsa")
	dir := filepath.Join(t.TempDir(), "run")
	l, err := New(cfg, dir, nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	resuming := false
	hooks := Hooks{
		Track: func(d string, opts *tune.Options) {
			if _, err := os.Stat(filepath.Join(d, tune.FileCheckpoint)); err == nil && !resuming {
				t.Error("Track after the checkpoint was written")
			}
			calls = append(calls, "track "+d)
		},
		Job: func(j *tune.Job, _ *tune.Options) error {
			calls = append(calls, "job "+j.Dir())
			if j.Status().Steps != 0 && !j.Done() {
				t.Errorf("Job hook after %d steps", j.Status().Steps)
			}
			return nil
		},
		Group: func(string, tune.Config, *tune.Options) error { t.Error("Group called for a run"); return nil },
	}
	out, err := l.Run(context.Background(), tune.Options{}, hooks)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(calls, "|") != "track "+dir+"|job "+dir {
		t.Fatalf("hooks %q", calls)
	}
	if len(out.Dirs) != 1 || out.Status.Steps != 4 || out.Best() != filepath.Join(dir, tune.FileBest) || out.Comparison != nil {
		t.Fatalf("outcome %+v", out)
	}
	calls, resuming = nil, true
	again, err := Resume(dir).Run(context.Background(), tune.Options{}, hooks)
	if err != nil || again.Status != out.Status || len(calls) != 2 {
		t.Fatalf("resume of a finished run: %+v, %v, hooks %q", again, err, calls)
	}
	// A hook's error stops the launch before a game.
	stop := errors.New("no workers")
	l2, _ := New(cfg, filepath.Join(t.TempDir(), "stopped"), nil, time.Now())
	if _, err := l2.Run(context.Background(), tune.Options{}, Hooks{Job: func(*tune.Job, *tune.Options) error { return stop }}); !errors.Is(err, stop) {
		t.Fatalf("hook error: %v", err)
	}

	wf, r, err := runs.Export(dir, -1)
	if err != nil {
		t.Fatal(err)
	}
	best, err := engine.LoadWeightFile(out.Best())
	if err != nil {
		t.Fatal(err)
	}
	if r.Dir != dir || !slices.Equal(wf.Values, best.Values) {
		t.Fatalf("export %v from %s, best.json %v", wf.Values, r.Dir, best.Values)
	}
	path := filepath.Join(t.TempDir(), "w.json")
	if err := os.WriteFile(path, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ie *tune.InputError
	if err := runs.WriteExport(path, wf, false); !errors.As(err, &ie) || !strings.Contains(err.Error(), "-force") {
		t.Fatalf("overwrite without force: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "keep" {
		t.Fatalf("the existing file was changed: %q", data)
	}
	if err := runs.WriteExport(path, wf, true); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runs.Export(dir, 99); !errors.As(err, &ie) || !strings.Contains(err.Error(), "no iteration 99") {
		t.Fatalf("export of a missing step: %v", err)
	}
	if _, _, err := runs.Export(t.TempDir(), -1); !errors.As(err, &ie) {
		t.Fatalf("export of a directory without a run: %v", err)
	}
}

// TestSweepWritesItsLearningCurve: a sweep whose runs measure their Elo
// draws them as one learning curve linked from compare.md; one that does
// not, none.
func TestSweepWritesItsLearningCurve(t *testing.T) {
	for _, measured := range []bool{true, false} {
		cfg := runfixture.Tiny(t, "spsa")
		if measured {
			cfg = runfixture.TinyWith(t, "spsa", "validation.elo_every", "2", "validation.elo_pairs", "1")
		}
		dir := filepath.Join(t.TempDir(), "sweep")
		l, err := New(cfg, dir, []int64{3, 4}, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.Run(context.Background(), tune.Options{}, Hooks{}); err != nil {
			t.Fatal(err)
		}
		md, _ := os.ReadFile(filepath.Join(dir, FileCompare+".md"))
		csv, err := os.ReadFile(filepath.Join(dir, FileCurve+".csv"))
		if !measured {
			if err == nil || strings.Contains(string(md), FileCurve) {
				t.Fatalf("no Elo measured, yet a curve: %v\n%s", err, md)
			}
			continue
		}
		// 4 steps, elo_every 2: steps 1 and 3 of each of the 2 seeds.
		if err != nil || strings.Count(string(csv), "\nspsa,seed-") != 4 || !strings.Contains(string(md), "![learning curve by games]("+FileCurve+".png)") ||
			!strings.Contains(string(md), "![learning curve by wall time]("+FileCurve+"-time.png)") {
			t.Fatalf("curve %v:\n%s\ncompare.md:\n%s", err, csv, md)
		}
		for _, f := range []string{".png", "-time.png"} {
			if _, err := os.Stat(filepath.Join(dir, FileCurve+f)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestLaunchHooksThen: Hooks.Then runs both hooks in order and
// stops at the first error.
func TestLaunchHooksThen(t *testing.T) {
	var order []string
	stop := errors.New("stop")
	a := Hooks{Job: func(*tune.Job, *tune.Options) error { order = append(order, "a"); return nil }}
	b := Hooks{Job: func(*tune.Job, *tune.Options) error { order = append(order, "b"); return stop }}
	if err := a.Then(b).Job(nil, nil); err != stop || strings.Join(order, "") != "ab" {
		t.Errorf("Then: %v, order %v", err, order)
	}
	order = nil
	if err := b.Then(a).Job(nil, nil); err != stop || strings.Join(order, "") != "b" {
		t.Errorf("Then stops at the first error: %v, order %v", err, order)
	}
	Hooks{}.Then(Hooks{}).Track("x", &tune.Options{}) // nil hooks are skipped
}

// TestParseSeeds: -seeds takes comma-separated non-negative integers;
// anything else is a *InputError naming the flag and the item.
func TestParseSeeds(t *testing.T) {
	var ie *tune.InputError
	for _, s := range []string{"1,x", "-2", "1,,2", ""} {
		if _, err := ParseSeeds(s); !errors.As(err, &ie) || !strings.Contains(err.Error(), "-seeds") {
			t.Errorf("ParseSeeds(%q): %v", s, err)
		}
	}
	if got, err := ParseSeeds("4, 2,9"); err != nil || len(got) != 3 || got[0] != 4 || got[1] != 2 || got[2] != 9 {
		t.Errorf("ParseSeeds: %v, %v", got, err)
	}
}

// TestSummary: a chain names its stages, best vector and report (its last
// stage's); a run names its steps, games and best vector only when quiet,
// its progress lines having said the rest.
func TestSummary(t *testing.T) {
	out := &Result{Dirs: []string{"c/stage-1", "c/stage-2"}, Status: optimize.Status{Steps: 4, Games: 96}}
	chain := &Launch{Dir: "c", Kind: KindChain}
	want := "chain done: 2 stages in c. Best vector: " + filepath.Join("c/stage-2", tune.FileBest) + "\nreport: " + filepath.Join("c/stage-2", tune.FileReport) + "\n"
	if got := chain.Summary(out, true); got != want {
		t.Errorf("chain:\n got %q\nwant %q", got, want)
	}
	run := &Launch{Dir: "c/stage-2", Kind: KindRun}
	if got, want := run.Summary(out, false), "done: 4 steps, 96 games. Best vector: "+filepath.Join("c/stage-2", tune.FileBest)+"\n"; got != want {
		t.Errorf("quiet run:\n got %q\nwant %q", got, want)
	}
	if got := run.Summary(out, true); got != "" {
		t.Errorf("verbose run: %q, want nothing", got)
	}
}

// FuzzParseSeeds reads arbitrary text as -seeds: no panic; an error is
// an *InputError naming the flag; seeds read are one per comma-separated
// item, each ≥ 0, and written back parse to the same seeds.
func FuzzParseSeeds(f *testing.F) {
	for _, s := range []string{"1,2,3", "0", " 7 , 8", "", "1,,2", "-1", "1e3", "9223372036854775808", "1,x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		seeds, err := ParseSeeds(s)
		if err != nil {
			var ie *tune.InputError
			if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), "flag -seeds") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if len(seeds) != strings.Count(s, ",")+1 {
			t.Fatalf("%q: %d seeds", s, len(seeds))
		}
		words := make([]string, len(seeds))
		for i, n := range seeds {
			if n < 0 {
				t.Fatalf("%q: seed %d", s, n)
			}
			words[i] = strconv.FormatInt(n, 10)
		}
		back, err := ParseSeeds(strings.Join(words, ","))
		if err != nil || !slices.Equal(back, seeds) {
			t.Fatalf("%q: seeds %v read back as %v, %v", s, seeds, back, err)
		}
	})
}
