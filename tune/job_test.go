package tune

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fixture/resumetest"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tune/ladder"
)

func tiny(t *testing.T, method string) Config {
	t.Helper()
	c, err := Parse(method+".toml", []byte(tunetest.Tiny(method, "[hill]\nsteps = 4\n")))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runStraight(t *testing.T, cfg Config) (string, resumetest.Outcome) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "straight")
	j, err := Start(cfg, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir, resumetest.ReadOutcome(t, dir)
}

// TestStopAnywhereResumesToTheUninterruptedResult stops small runs of every
// shipped method (and the test-only one; Texel with a window of every round,
// whose earlier positions a resumed run reads back from positions/) after a random number of games — from
// before the first game to inside the verification, several times in one
// run — and resumes each until done: every record, the best vector and the
// verification equal the uninterrupted run's.
func TestStopAnywhereResumesToTheUninterruptedResult(t *testing.T) {
	// 8 moments a method in the plain test run (each a whole run stopped
	// up to 9 times), 4 for the search-space variants, whose methods' own
	// resume the plain ones already cover (they add the space's state);
	// CI's race run: one run a method, stopped before its first game and
	// then, resumed, at random moments (up to 8 more stops). The
	// first stops are stratified: moment k stops first in the k-th of
	// equal slices of the run's games, so that few moments still reach
	// every part of a run (the method's steps, the last checkpoint, the
	// ladder); the later stops fall anywhere.
	moments, spaceMoments := 8, 4
	if testing.Short() {
		moments, spaceMoments = 1, 1
	}
	methods := []string{"ga", "pso", "spsa", "texel", "hill", "cmaes-log", "ga-monotone", "ga-restarts"}
	if testing.Short() {
		// The race run: the job's handlers that the game workers call
		// (records, progress, checkpoints, the ladder's) are the same for
		// every method but Texel, which also samples positions from the
		// workers' games; the other methods and the search spaces add
		// state, not concurrency.
		methods = []string{"ga", "texel"}
	}
	for _, method := range methods {
		t.Run(method, func(t *testing.T) {
			t.Parallel() // independent runs in their own directories: both cores
			cfg := tiny(t, strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(method, "-log"), "-monotone"), "-restarts"))
			switch {
			case strings.HasSuffix(method, "-restarts"):
				// So does a restart schedule (optimize.Spec.New):
				// two starts raced, a refinement phase at twice the pairs
				// with the starts' answers in its pool.
				for _, kv := range [][2]string{{"ga.variant", `"robust"`}, {"ga.generations", "6"}, {"ga.race_budget", "72"},
					{"ga.starts", "2"}, {"ga.phases", "1"}, {"ga.hall_of_fame", "true"}} {
					if err := cfg.Set(kv[0], kv[1]); err != nil {
						t.Fatal(err)
					}
				}
			case strings.HasSuffix(method, "-log"):
				// A log-space search (optimize.LogSpace) resumes as well.
				cfg.Space.Scale = ScaleLog
			case strings.HasSuffix(method, "-monotone"):
				// So does a search of increments (optimize.ChainSpace).
				cfg.Space.Monotone = [][]string{cfg.GeneNames()[:4]}
			}
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			_, want := runStraight(t, cfg)
			total := 0
			for _, r := range want.Records {
				var m struct{ Games int }
				_ = json.Unmarshal([]byte(r), &m)
				total += m.Games
			}
			depths, _ := cfg.ladderDepths()
			total += 2 * cfg.Validation.Pairs * len(cfg.Validation.Opponents) * len(depths) // the ladder's games
			rng := rand.New(rand.NewPCG(uint64(len(method)), 99))
			moments := moments
			if method != cfg.Method {
				moments = spaceMoments
			}
			stopped := 0
			for k := range moments {
				dir := filepath.Join(t.TempDir(), "run")
				// Moment 0 stops before the first game; the rest anywhere.
				n := 0
				if k > 0 {
					lo, hi := (k-1)*total/(moments-1), k*total/(moments-1)
					n = lo + 1 + rng.IntN(max(hi-lo, 1))
				}
				stops := 0
				j, err := Start(cfg, dir, Options{})
				for err == nil {
					ctx, cancel := context.WithCancel(context.Background())
					gc := &resumetest.GameCounter{N: n, Cancel: cancel}
					if n == 0 {
						cancel()
					}
					// Reopen the job with the counter wired in.
					j, err = Resume(dir, Options{Events: Events{Games: gc.Games}})
					if err != nil {
						cancel()
						break
					}
					err = j.Run(ctx)
					cancel()
					var ie *InterruptedError
					if !errors.As(err, &ie) {
						break
					}
					err = nil
					stops++
					n = rng.IntN(total/2 + 2)
					if stops > 8 {
						n = total * 10
					}
				}
				if err != nil {
					t.Fatalf("moment %d: %v", k, err)
				}
				if stops > 0 {
					stopped++
				}
				want.Equal(t, resumetest.ReadOutcome(t, dir), "resumed run")
			}
			if stopped < (moments+1)/2 {
				t.Fatalf("only %d of %d runs were really stopped", stopped, moments)
			}
			t.Logf("%d of %d runs stopped at least once, all resumed to the uninterrupted result", stopped, moments)
		})
	}
}

func TestStartRefusesAUsedDirectoryAndReusesAnUnstartedOne(t *testing.T) {
	cfg := tiny(t, "ga")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	var ie *InputError
	if _, err := Start(cfg, dir, Options{}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "notes.txt") {
		t.Fatalf("non-empty directory: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "notes.txt")); string(data) != "mine" {
		t.Fatal("a refused start touched the user's file")
	}

	// A run stopped before its first checkpoint leaves config.toml and a
	// temporary file: Resume says how to start again; Start reuses it.
	dir = filepath.Join(t.TempDir(), "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".checkpoint.json.tmp-123"), []byte("{"), 0o644)
	if _, err := Resume(dir, Options{}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "start it again with the same -out") {
		t.Fatalf("resume of a directory with nothing usable: %v", err)
	}
	j, err := Start(cfg, dir, Options{})
	if err != nil {
		t.Fatalf("start in a directory holding only a temp file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".checkpoint.json.tmp-123")); !os.IsNotExist(err) {
		t.Fatal("the leftover temp file is still there")
	}
	// A started run is refused by Start.
	if _, err := Start(cfg, dir, Options{}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("start over a run: %v", err)
	}
	_ = j
}

// startStopped runs a tiny GA for two steps and returns its directory.
func startStopped(t *testing.T) (Config, string) {
	t.Helper()
	cfg := tiny(t, "ga")
	dir := filepath.Join(t.TempDir(), "run")
	j, err := Start(cfg, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Steps(context.Background(), 2); err != nil {
		t.Fatal(err)
	}
	return cfg, dir
}

func TestResumeRefusesAChangedConfigNamingTheKey(t *testing.T) {
	_, dir := startStopped(t)
	path := filepath.Join(dir, FileConfig)
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), "depth = 1", "depth = 2", 1)
	if edited == string(data) {
		t.Fatalf("config.toml has no depth = 1:\n%s", data)
	}
	os.WriteFile(path, []byte(edited), 0o644)
	_, err := Resume(dir, Options{})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "engine.depth: 1 → 2") {
		t.Fatalf("changed config: %v", err)
	}
	// Concurrency may change, through the option.
	os.WriteFile(path, data, 0o644)
	conc := 1
	if _, err := Resume(dir, Options{Concurrency: &conc}); err != nil {
		t.Fatalf("resume with another concurrency: %v", err)
	}
}

func TestResumeValidatesTheCheckpoint(t *testing.T) {
	cases := []struct {
		name, want string
		edit       func(m map[string]any)
	}{
		{"version", "version 9", func(m map[string]any) { m["version"] = 9 }},
		{"phase", `phase "bogus"`, func(m map[string]any) { m["phase"] = "bogus" }},
		{"steps", "steps", func(m map[string]any) { m["status"].(map[string]any)["steps"] = 3 }},
		{"games", "games", func(m map[string]any) { m["status"].(map[string]any)["games"] = 1 }},
		{"done too early", `phase "done"`, func(m map[string]any) { m["phase"] = "done" }},
		{"best", "best", func(m map[string]any) { m["best"].([]any)[0] = 1.5 }},
		{"unknown field", "unknown field", func(m map[string]any) { m["extra"] = 1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, dir := startStopped(t)
			path := filepath.Join(dir, FileCheckpoint)
			data, _ := os.ReadFile(path)
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			tc.edit(m)
			data, _ = json.Marshal(m)
			os.WriteFile(path, data, 0o644)
			_, err := Resume(dir, Options{})
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want an *InputError about %q, got %v", tc.want, err)
			}
		})
	}
}

func TestResumeDropsRecordsAfterTheCheckpointAndRebuildsBest(t *testing.T) {
	cfg := tiny(t, "ga")
	_, want := runStraight(t, cfg)
	_, dir := startStopped(t)
	// A torn line after the checkpointed records, a stray temp file, and
	// an edited best.json.
	f, _ := os.OpenFile(filepath.Join(dir, FileRecords), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"step":2,"games":`)
	f.Close()
	os.WriteFile(filepath.Join(dir, ".best.json.tmp-9"), nil, 0o644)
	best := filepath.Join(dir, FileBest)
	wf, _ := engine.LoadWeightFile(best)
	wf.Values[0] = 12345
	if err := engine.WriteWeightFile(best, wf); err != nil {
		t.Fatal(err)
	}
	j, err := Resume(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ".best.json.tmp-9")); !os.IsNotExist(err) {
		t.Fatal("resume left the temp file")
	}
	if got, _ := engine.LoadWeightFile(best); got.Values[0] == 12345 {
		t.Fatal("resume kept an edited best.json")
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want.Equal(t, resumetest.ReadOutcome(t, dir), "after a torn record")

	// A finished run whose best.json was deleted: rebuilt, not verified
	// from nothing; Run again does nothing new.
	os.Remove(best)
	j, err = Resume(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !j.Done() {
		t.Fatal("a finished run resumes as not done")
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want.Equal(t, resumetest.ReadOutcome(t, dir), "after best.json was deleted")
}

func TestRecordsAreAppendedAndFilesAreReadable(t *testing.T) {
	cfg := tiny(t, "ga")
	dir := filepath.Join(t.TempDir(), "run")
	j, err := Start(cfg, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Steps(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	ino := func() uint64 {
		st, err := os.Stat(filepath.Join(dir, FileRecords))
		if err != nil {
			t.Fatal(err)
		}
		return st.Sys().(*syscall.Stat_t).Ino
	}
	before := ino()
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ino() != before {
		t.Fatal("generations.jsonl was replaced, not appended to")
	}
	for _, f := range []string{FileConfig, FileCheckpoint, FileRecords, FileBest, FileValidation, ladder.File, FileReport, "plots/genes.png", "plots/ladder.png", "games/ladder-zhou2015-d1.jsonl", "games/ladder-zhou2015-d2.jsonl"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s has mode %v, want 0644", f, st.Mode().Perm())
		}
	}
	rep, _ := os.ReadFile(filepath.Join(dir, FileReport))
	for _, s := range []string{"## Verification", "zhou2015", "Elo ± 95%"} {
		if !strings.Contains(string(rep), s) {
			t.Errorf("report.md lacks %q", s)
		}
	}
}
