package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/runs"
)

// tinyConfig is the tiny run config of method with its GA generations
// set.
func tinyConfig(method string, generations int) string {
	return strings.Replace(tunetest.Tiny(method), "generations = 3", fmt.Sprintf("generations = %d", generations), 1)
}

func writeConfig(t *testing.T, method string, generations int) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), method+".toml")
	if err := os.WriteFile(p, []byte(tinyConfig(method, generations)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runTune(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

// finished is what a run leaves that must not depend on how often it was
// stopped: records and verification without wall times, and best.json's
// vector.
func finished(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	strip := func(data []byte) {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		delete(m, "seconds")
		j, _ := json.Marshal(m)
		b.Write(append(j, '\n'))
	}
	data, err := os.ReadFile(filepath.Join(dir, tune.FileRecords))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		strip(line)
	}
	data, err = os.ReadFile(filepath.Join(dir, tune.FileValidation))
	if err != nil {
		t.Fatal(err)
	}
	strip(data)
	wf, err := engine.LoadWeightFile(filepath.Join(dir, tune.FileBest))
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(&b, wf.Values)
	return b.String()
}

func TestRunLeavesPlotsReportAndLoadableBest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runTune(t, "-config", writeConfig(t, "ga", 3), "-out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"generation   2:", "verification:", "| best S1=", "verdict: "} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	for _, name := range []string{"fitness", "genes", "diversity", "ladder"} {
		f, err := os.Open(filepath.Join(dir, tune.DirPlots, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() < 200 || img.Bounds().Dy() < 100 {
			t.Fatalf("%s.png: %v", name, err)
		}
	}
	report, _ := os.ReadFile(filepath.Join(dir, tune.FileReport))
	for _, want := range []string{"## Verification", "zhou2015", "Elo", "plots/genes.png", "games/s"} {
		if !bytes.Contains(report, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	wf, err := engine.LoadWeightFile(filepath.Join(dir, tune.FileBest))
	if err != nil {
		t.Fatal(err)
	}
	if wf.Schema != engine.Symmetric || wf.Provenance.Method != "ga" || wf.Provenance.Generation != 2 || wf.Name != "run-g2" {
		t.Fatalf("best.json provenance: %+v", wf)
	}
}

func TestExportAndCompare(t *testing.T) {
	gaDir := filepath.Join(t.TempDir(), "garun")
	psoDir := filepath.Join(t.TempDir(), "psorun")
	for _, r := range []struct{ method, dir string }{{"ga", gaDir}, {"pso", psoDir}} {
		if code, _, stderr := runTune(t, "-config", writeConfig(t, r.method, 3), "-out", r.dir, "-quiet"); code != 0 {
			t.Fatalf("%s: exit %d: %s", r.method, code, stderr)
		}
	}
	out := filepath.Join(t.TempDir(), "tuned.json")
	if code, _, stderr := runTune(t, "export", gaDir, "-o", out); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	wf, err := engine.LoadWeightFile(out)
	if err != nil {
		t.Fatal(err)
	}
	best, _ := engine.LoadWeightFile(filepath.Join(gaDir, tune.FileBest))
	if !reflect.DeepEqual(wf.Values, best.Values) || wf.Name != "garun-g2" {
		t.Fatalf("exported %v %q, best.json %v", wf.Values, wf.Name, best.Values)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o644 {
		t.Fatalf("exported file mode %v", st.Mode().Perm())
	}
	if code, _, _ := runTune(t, "export", gaDir, "-o", out); code != 2 {
		t.Fatalf("export over an existing file: exit %d, want 2", code)
	}
	// Step 0 exists for both methods: steps count from 0 everywhere.
	for _, dir := range []string{gaDir, psoDir} {
		code, stdout, stderr := runTune(t, "export", dir, "-step", "0")
		if code != 0 {
			t.Fatalf("export -step 0 of %s: exit %d: %s", dir, code, stderr)
		}
		if _, err := engine.ParseWeightFile("stdout", []byte(stdout)); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, stderr := runTune(t, "export", psoDir, "-step", "9"); code != 2 || !strings.Contains(stderr, "no iteration 9") {
		t.Fatalf("export of a missing iteration: exit %d: %s", code, stderr)
	}
	// Without -o, compare prints its table and writes nothing; the GA run
	// and the PSO run are two methods, never one averaged over two seeds.
	cwd := t.TempDir()
	t.Chdir(cwd)
	code, stdout, stderr := runTune(t, "compare", gaDir, psoDir)
	if code != 0 || stderr != "" {
		t.Fatalf("compare without -o: exit %d: %s", code, stderr)
	}
	for _, want := range []string{"| garun | ga |", "| psorun | pso |", "not averaged together", "| ga (single runs) | vs zhou2015 d1 | 1 |", "| pso (single runs) |"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("compare without -o: stdout lacks %q:\n%s", want, stdout)
		}
	}
	if entries, _ := os.ReadDir(cwd); len(entries) != 0 || strings.Contains(stdout, "wrote") {
		t.Errorf("compare without -o wrote %v:\n%s", entries, stdout)
	}
	for _, args := range [][]string{{"compare"}, {"compare", "-metric", "fitness", gaDir}, {"compare", "-curve", gaDir}} {
		code, _, stderr := runTune(t, args...)
		if code != 2 || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line", args, code, stderr)
		}
	}
	base := filepath.Join(t.TempDir(), "div")
	if code, _, stderr := runTune(t, "compare", "-o", base, gaDir, psoDir); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	csv, _ := os.ReadFile(base + ".csv")
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	// A GA and a PSO run: generations and iterations are not alike, so
	// the metric is drawn by fitness games spent.
	if len(lines) != 1+3+3 || !strings.HasPrefix(lines[0], "run,fitness games,") || !strings.HasPrefix(lines[1], "garun,") || !strings.HasPrefix(lines[4], "psorun,") {
		t.Fatalf("compare CSV:\n%s", csv)
	}
	if code, _, _ := runTune(t, "compare", "-o", base, "-metric", "gene:Q9", gaDir); code != 2 {
		t.Fatalf("unknown gene: exit %d, want 2", code)
	}
}

// TestBadInputExits2AndWritesNothing covers config, flag and directory
// errors: each exits 2 before anything is written.
func TestBadInputExits2AndWritesNothing(t *testing.T) {
	write := func(name, doc string) string {
		p := filepath.Join(t.TempDir(), name)
		os.WriteFile(p, []byte(doc), 0o644)
		return p
	}
	existing := t.TempDir()
	os.WriteFile(filepath.Join(existing, "keep.txt"), []byte("precious"), 0o644)
	fresh := func() string { return filepath.Join(t.TempDir(), "x") }
	cases := []struct {
		name string
		args []string
		want string
		dir  string
	}{
		{"bad config", []string{"-config", write("bad.toml", "seed = 1\n[ga]\npopulation = \"many\"\n")}, "bad.toml:3", fresh()},
		{"negative seed", []string{"-config", write("seed.toml", "seed = -1\n")}, "seed.toml:1: key \"seed\"", fresh()},
		{"bad SPRT", []string{"-config", write("sprt.toml", "[validation]\nsprt = \"banana\"\n")}, "validation.sprt", fresh()},
		{"unknown opponent", []string{"-config", write("opp.toml", "[validation]\nopponent = \"zhou2016\"\n")}, "zhou2016", fresh()},
		{"unknown ladder opponent", []string{"-config", write("opps.toml", "[validation]\nopponents = [\"halfway\", \"zhou2016\"]\n")}, "opps.toml:2: key \"validation.opponents\"", fresh()},
		{"both opponent keys", []string{"-config", write("both.toml", "[validation]\nopponent = \"zhou2015\"\nopponents = [\"zhou2015\"]\n")}, "both.toml:2: key \"validation.opponent\"", fresh()},
		{"missing config", []string{"-config", filepath.Join(t.TempDir(), "none.toml")}, "none.toml", fresh()},
		{"unknown flag", []string{"-bogus"}, "bogus", fresh()},
		{"bad method flag", []string{"-method", "sa"}, "method", fresh()},
		{"width above the engine's limit", []string{"-width", "150"}, "flag -width", fresh()},
		{"generations for a PSO", []string{"-method", "pso", "-generations", "3"}, "flag -generations", fresh()},
		{"iterations for a GA", []string{"-iterations", "3"}, "flag -iterations", fresh()},
		{"non-empty out", []string{"-config", writeConfig(t, "ga", 3)}, "not empty", existing},
		{"resume missing", []string{"-resume", filepath.Join(t.TempDir(), "none")}, "none", ""},
		{"resume with overrides", []string{"-resume", existing, "-seed", "3"}, "-seed", ""},
		{"resume of a foreign directory", []string{"-resume", existing}, "no config.toml", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.dir != "" {
				args = append(args, "-out", tc.dir)
			}
			code, _, stderr := runTune(t, args...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, want 2 with %q; stderr: %s", code, tc.want, stderr)
			}
			if tc.dir != "" && tc.dir != existing {
				if _, err := os.Stat(tc.dir); !os.IsNotExist(err) {
					t.Fatalf("%s was created", tc.dir)
				}
			}
		})
	}
	if ents, _ := os.ReadDir(existing); len(ents) != 1 {
		t.Fatalf("files were written into the existing directory: %v", ents)
	}
}

// TestValidationJSONHasArenaShape plays the same match as the verification
// with arena: validation.json and arena's summary.json carry the same keys
// and the same numbers.
func TestValidationJSONHasArenaShape(t *testing.T) {
	if testing.Short() {
		t.Skip("runs arena")
	}
	dir := filepath.Join(t.TempDir(), "run")
	// The balanced suite, which both the ladder and arena play by default,
	// each shuffling it by its seed: the same seed, the same match.
	if code, _, stderr := runTune(t, "-config", writeConfig(t, "ga", 2), "-out", dir, "-quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "arena")
	seed := fmt.Sprint(uint64(5) ^ 0x76616c6964) // the run's seed and the verification's stream
	cmd := exec.Command("go", "run", "../arena", "-pairs", "2", "-depth", "1", "-width", "4", "-seed", seed, "-out", out,
		filepath.Join(dir, tune.FileBest), "zhou2015")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("arena: %v\n%s", err, b)
	}
	read := func(path string) map[string]any {
		var m map[string]any
		data, err := os.ReadFile(path)
		if err != nil || json.Unmarshal(data, &m) != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return m
	}
	v, a := read(filepath.Join(dir, tune.FileValidation)), read(filepath.Join(out, "summary.json"))
	keys := func(m map[string]any) []string {
		var k []string
		for x := range m {
			k = append(k, x)
		}
		return k
	}
	if !reflect.DeepEqual(len(keys(v)), len(keys(a))) {
		t.Fatalf("keys differ: %v vs %v", keys(v), keys(a))
	}
	for k := range a {
		if _, ok := v[k]; !ok {
			t.Fatalf("validation.json lacks arena's key %q", k)
		}
	}
	vm := v["matchups"].([]any)[0].(map[string]any)
	am := a["matchups"].([]any)[0].(map[string]any)
	delete(vm, "a")
	delete(am, "a")
	if !reflect.DeepEqual(vm, am) {
		t.Fatalf("the same match differs:\nvalidation.json %v\nsummary.json    %v", vm, am)
	}
	if v["openings"] != a["openings"] || !strings.HasPrefix(fmt.Sprint(a["openings"]), "suite balanced, shuffled by seed "+seed) {
		t.Errorf("openings: validation.json %q, arena %q; want the same balanced suite", v["openings"], a["openings"])
	}
}

// built holds the commands the tests build (tune, and arena for the
// live-ladder page), each once for all the package's tests; TestMain
// removes the directory, and says when the browser tests skipped
// (announceSkips).
var built struct {
	mu    sync.Mutex
	dir   string
	paths map[string]string
}

func TestMain(m *testing.M) {
	code := m.Run()
	announceSkips()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// buildCmd returns the path of the command name ("tune" or "arena"), built
// from this directory or ../arena by the first test that asks. A failed
// build fails the test with the compiler's output.
func buildCmd(t testing.TB, name string) string {
	t.Helper()
	built.mu.Lock()
	defer built.mu.Unlock()
	if p, ok := built.paths[name]; ok {
		return p
	}
	if built.dir == "" {
		dir, err := os.MkdirTemp("", "roadtune-cmd-bin-")
		if err != nil {
			t.Fatal(err)
		}
		built.dir, built.paths = dir, map[string]string{}
	}
	src := "."
	if name != "tune" {
		src = "../" + name
	}
	p := filepath.Join(built.dir, name)
	if out, err := exec.Command("go", "build", "-o", p, src).CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", name, err, out)
	}
	built.paths[name] = p
	return p
}

// TestKilledProcessResumesToTheUninterruptedResult stops the real binary
// at random moments — kill -9 (no chance to clean up), SIGINT, SIGTERM —
// from its first milliseconds to the verification, resumes it (possibly
// stopped again) until it ends, and compares with an uninterrupted run.
func TestKilledProcessResumesToTheUninterruptedResult(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	moments := 8
	if os.Getenv("ROADTUNE_KILL_MOMENTS") != "" {
		fmt.Sscan(os.Getenv("ROADTUNE_KILL_MOMENTS"), &moments)
	}
	bin := buildCmd(t, "tune")
	for _, method := range []string{"ga", "pso"} {
		t.Run(method, func(t *testing.T) {
			cfg := writeConfig(t, method, 8)
			straight := filepath.Join(t.TempDir(), "straight")
			start := time.Now()
			if out, err := exec.Command(bin, "-config", cfg, "-out", straight, "-quiet").CombinedOutput(); err != nil {
				t.Fatalf("uninterrupted run: %v\n%s", err, out)
			}
			whole := time.Since(start)
			want := finished(t, straight)
			rng := rand.New(rand.NewPCG(7, uint64(len(method))))
			signals := []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM}
			killed := 0
			for k := range moments {
				dir := filepath.Join(t.TempDir(), "run")
				fresh := []string{"-config", cfg, "-out", dir, "-quiet"}
				args := fresh
				for stop := 0; ; stop++ {
					cmd := exec.Command(bin, args...)
					var stderr bytes.Buffer
					cmd.Stderr = &stderr
					if err := cmd.Start(); err != nil {
						t.Fatal(err)
					}
					// Half the moments fall in the first 200 ms.
					wait := time.Duration(rng.Int64N(int64(200 * time.Millisecond)))
					if k%2 == 1 {
						wait = time.Duration(rng.Int64N(int64(whole)))
					}
					sig := signals[(k+stop)%len(signals)]
					done := make(chan error, 1)
					go func() { done <- cmd.Wait() }()
					var err error
					select {
					case err = <-done:
					case <-time.After(wait):
						if stop < 3 {
							cmd.Process.Signal(sig)
						}
						err = <-done
					}
					args = []string{"-resume", dir, "-quiet"}
					if err == nil {
						break
					}
					killed++
					ee, ok := err.(*exec.ExitError)
					if !ok {
						t.Fatal(err)
					}
					if ee.ExitCode() == 2 {
						// Stopped before anything usable was written: the
						// message says to start again with the same -out.
						// Or before the directory was made: -resume says there
						// is no directory.
						if !strings.Contains(stderr.String(), "start it again with the same -out") && !strings.Contains(stderr.String(), "flag -resume: no directory") {
							t.Fatalf("moment %d: exit 2: %s", k, stderr.String())
						}
						args = fresh
						continue
					}
					// A signal that arrives before the handler is installed
					// (the first milliseconds) kills the process like kill -9.
					if ee.ExitCode() == -1 {
						continue
					}
					if sig != syscall.SIGKILL && ee.ExitCode() != 130 {
						t.Fatalf("moment %d: %v after %v, want exit 130: %s", k, sig, err, stderr.String())
					}
					if sig != syscall.SIGKILL && !strings.Contains(stderr.String(), "-resume "+dir) {
						t.Fatalf("moment %d: no resume hint: %s", k, stderr.String())
					}
				}
				if got := finished(t, dir); got != want {
					t.Fatalf("moment %d: the resumed run differs:\n%s\nwant\n%s", k, got, want)
				}
			}
			if killed == 0 {
				t.Fatal("no process was stopped before it finished")
			}
			t.Logf("%d stops over %d runs, every resumed run equal to the uninterrupted one", killed, moments)
		})
	}
}

// TestCompareElo measures the best vector's Elo every generation and
// charts it across two runs with compare -metric elo.
func TestCompareElo(t *testing.T) {
	var dirs []string
	for _, name := range []string{"a", "b"} {
		p := filepath.Join(t.TempDir(), "elo.toml")
		doc := strings.Replace(tinyConfig("ga", 2), "pairs = 2\n", "pairs = 1\ndepths = [1]\nelo_every = 1\nelo_pairs = 1\n", 1)
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), name)
		if code, _, stderr := runTune(t, "-config", p, "-out", dir, "-quiet"); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		dirs = append(dirs, dir)
	}
	base := filepath.Join(t.TempDir(), "elo")
	if code, _, stderr := runTune(t, append([]string{"compare", "-o", base, "-metric", "elo"}, dirs...)...); code != 0 {
		t.Fatalf("compare -metric elo: exit %d: %s", code, stderr)
	}
	csv, _ := os.ReadFile(base + ".csv")
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if len(lines) != 1+2+2 || lines[0] != "run,generation,elo" || !strings.HasPrefix(lines[1], "a,0,") || !strings.HasPrefix(lines[4], "b,1,") {
		t.Fatalf("compare CSV:\n%s", csv)
	}

	// Learning curves: both runs as one line, then each as its own.
	curve := filepath.Join(t.TempDir(), "curve")
	if code, _, stderr := runTune(t, "compare", "-curve", "-o", curve, "ga="+dirs[0]+","+dirs[1], dirs[0]); code != 0 {
		t.Fatalf("compare -curve: exit %d: %s", code, stderr)
	}
	csv, _ = os.ReadFile(curve + ".csv")
	lines = strings.Split(strings.TrimSpace(string(csv)), "\n")
	if len(lines) != 1+4+2 || lines[0] != "label,run,step,games,seconds,elo,elo_ci,elo_games" || !strings.HasPrefix(lines[1], "ga,a,0,") ||
		!strings.HasPrefix(lines[4], "ga,b,1,") || !strings.HasPrefix(lines[5], "a,a,0,") {
		t.Fatalf("compare -curve CSV:\n%s", csv)
	}
	// games grow along a run, counting the fitness games only
	var g0, g1 int
	fmt.Sscanf(strings.Split(lines[1], ",")[3], "%d", &g0)
	fmt.Sscanf(strings.Split(lines[2], ",")[3], "%d", &g1)
	if g0 <= 0 || g1 <= g0 {
		t.Errorf("games %d then %d, want growing from > 0", g0, g1)
	}
	// wall time grows along a run too, and has its own chart
	var s0, s1 float64
	fmt.Sscanf(strings.Split(lines[1], ",")[4], "%g", &s0)
	fmt.Sscanf(strings.Split(lines[2], ",")[4], "%g", &s1)
	if s0 <= 0 || s1 <= s0 {
		t.Errorf("seconds %g then %g, want growing from > 0", s0, s1)
	}
	for _, f := range []string{".png", "-time.png", "-time.svg"} {
		if _, err := os.Stat(curve + f); err != nil {
			t.Error(err)
		}
	}
	if code, _, stderr := runTune(t, "compare", "-curve", "-o", curve, "=x"); code != 2 || !strings.Contains(stderr, "empty label") {
		t.Errorf("empty label: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runTune(t, "compare", "-curve", "-o", curve, t.TempDir()); code != 2 || !strings.Contains(stderr, "neither a run") {
		t.Errorf("not a run: exit %d: %s", code, stderr)
	}
}

// TestSeedsSweepAndLadderComparison: -seeds runs the config once per seed
// and writes the ladder comparison; the same command again finds the runs
// done; compare writes the same table for any runs; bad seed lists exit 2.
func TestSeedsSweepAndLadderComparison(t *testing.T) {
	cfg := writeConfig(t, "ga", 2)
	dir := filepath.Join(t.TempDir(), "sweep")
	code, stdout, stderr := runTune(t, "-config", cfg, "-seeds", "3,4", "-out", dir, "-quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(dir, "compare.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| sweep/seed-3 | ga | 3 | 2 |", "| sweep/seed-4 | ga | 4 | 2 |", "vs zhou2015 d1", "vs zhou2015 d2", "mean Elo"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("compare.md lacks %q:\n%s", want, md)
		}
	}
	f, err := os.Open(filepath.Join(dir, "compare-ladder.png"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(f); err != nil {
		t.Errorf("compare-ladder.png: %v", err)
	}
	f.Close()
	if !strings.Contains(stdout, "seed-4") {
		t.Errorf("stdout lacks the table: %s", stdout)
	}
	code, stdout, stderr = runTune(t, "-config", cfg, "-seeds", "3,4", "-out", dir)
	if code != 0 || strings.Count(stdout, "is done") != 2 {
		t.Fatalf("second sweep: exit %d, %s %s", code, stdout, stderr)
	}
	base := filepath.Join(t.TempDir(), "cmp")
	if code, _, stderr := runTune(t, "compare", "-o", base, filepath.Join(dir, "seed-3"), filepath.Join(dir, "seed-4")); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	md2, err := os.ReadFile(base + ".md")
	if err != nil || !bytes.Equal(bytes.ReplaceAll(md2, []byte("cmp-ladder"), []byte("compare-ladder")), md) {
		t.Errorf("compare.md differs between the sweep and compare: %v\n%s\n%s", err, md, md2)
	}
	for _, args := range [][]string{{"-seeds", "1,x"}, {"-seeds", "-1"}, {"-seeds", "1,2", "-seed", "3"}, {"-seeds", "1,1"}} {
		if code, _, _ := runTune(t, append([]string{"-config", cfg, "-out", filepath.Join(t.TempDir(), "x")}, args...)...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestChainRunsItsStagesAndResumes: a config with `then` runs its stages
// into -out/stage-k-method, says where the best vector is, continues with
// -resume of the chain's directory, exports the last stage, sweeps a chain
// per seed, and refuses a bad `then` before writing anything.
func TestChainRunsItsStagesAndResumes(t *testing.T) {
	cdir := t.TempDir()
	first := "then = \"refine.toml\"\n" + strings.Replace(tunetest.Tiny("texel"), `opponents = ["zhou2015"]`, `opponents = []`, 1)
	second := strings.Replace(tunetest.Tiny("spsa"), `opponents = ["zhou2015"]`, `opponents = ["zhou2015", "start"]`, 1)
	for name, text := range map[string]string{"first.toml": first, "refine.toml": second} {
		if err := os.WriteFile(filepath.Join(cdir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(cdir, "first.toml")
	dir := filepath.Join(t.TempDir(), "chain")
	code, stdout, stderr := runTune(t, "-config", cfg, "-out", dir, "-seed", "8")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	last := filepath.Join(dir, "stage-2-spsa")
	if !strings.Contains(stdout, "chain done: 2 stages") || !strings.Contains(stdout, filepath.Join(last, tune.FileBest)) {
		t.Errorf("stdout: %s", stdout)
	}
	r, err := runs.Open(last)
	if err != nil || r.Config.Seed != 8 || !strings.HasSuffix(r.Config.Start, "stage-1-texel") {
		t.Fatalf("the second stage: %v %+v", err, r)
	}
	want := finished(t, last)
	code, stdout, stderr = runTune(t, "-resume", dir)
	if code != 0 || strings.Count(stdout, "is done") != 2 {
		t.Fatalf("-resume of a finished chain: exit %d, %s %s", code, stdout, stderr)
	}
	if got := finished(t, last); got != want {
		t.Errorf("-resume rewrote the chain:\n%s\n%s", got, want)
	}
	out := filepath.Join(t.TempDir(), "w.json")
	if code, _, stderr := runTune(t, "export", dir, "-o", out); code != 0 {
		t.Fatalf("export of a chain: exit %d: %s", code, stderr)
	}
	if wf, err := engine.LoadWeightFile(out); err != nil || !slices.Equal(wf.Values, r.Best) {
		t.Errorf("export of a chain: %v, %v, want the last stage's best %v", err, wf, r.Best)
	}
	sweep := filepath.Join(t.TempDir(), "sweep")
	if code, stdout, stderr := runTune(t, "-config", cfg, "-out", sweep, "-seeds", "8,9", "-quiet"); code != 0 || !strings.Contains(stdout, "seed-9/stage-2-spsa") {
		t.Fatalf("a sweep of chains: exit %d: %s %s", code, stdout, stderr)
	}
	if got := finished(t, filepath.Join(sweep, "seed-8", "stage-2-spsa")); got != strings.ReplaceAll(want, dir, filepath.Join(sweep, "seed-8")) {
		t.Errorf("seed 8 of the sweep differs from the chain run alone:\n%s\n%s", got, want)
	}
	// A then that names nothing: exit 2, nothing written.
	bad := filepath.Join(cdir, "bad.toml")
	if err := os.WriteFile(bad, []byte(strings.Replace(first, "refine.toml", "nothing.toml", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	nowhere := filepath.Join(t.TempDir(), "x")
	if code, _, stderr := runTune(t, "-config", bad, "-out", nowhere); code != 2 || !strings.Contains(stderr, `key "then"`) {
		t.Errorf("bad then: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(nowhere); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused chain wrote %s", nowhere)
	}
}
