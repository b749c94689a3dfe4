package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

// tinyConfig is a run of a few seconds: depth 1, small population.
const tinyConfig = `
method = "%s"
seed = 5
[engine]
depth = 1
width = 4
[ga]
population = 6
groups = 2
generations = 3
[pso]
particles = 4
iterations = 3
[validation]
opponent = "zhou2015"
pairs = 1
`

func writeConfig(t *testing.T, method string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), method+".toml")
	if err := os.WriteFile(p, []byte(strings.Replace(tinyConfig, "%s", method, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runTune(t *testing.T, ctx context.Context, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(ctx, args, &out, &errb)
	return code, out.String(), errb.String()
}

// records reads generations.jsonl with the wall-time fields removed: the
// only fields allowed to differ between a resumed and an uninterrupted run.
func records(t *testing.T, dir string) []map[string]any {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, fileGenerations))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "seconds")
		delete(m, "wall_seconds")
		out = append(out, m)
	}
	return out
}

func bestValues(t *testing.T, dir string) []float64 {
	t.Helper()
	wf, err := engine.LoadWeightFile(filepath.Join(dir, fileBest))
	if err != nil {
		t.Fatal(err)
	}
	return wf.Values
}

// TestResumeEqualsUninterrupted runs each method once straight through and
// once stopped after its first checkpoint and resumed, through the CLI, and
// compares every record and the best vector.
func TestResumeEqualsUninterrupted(t *testing.T) {
	for _, method := range []string{"ga", "pso"} {
		t.Run(method, func(t *testing.T) {
			cfg := writeConfig(t, method)
			straight := filepath.Join(t.TempDir(), "straight")
			if code, _, stderr := runTune(t, context.Background(), "-config", cfg, "-out", straight, "-quiet"); code != 0 {
				t.Fatalf("uninterrupted run: exit %d: %s", code, stderr)
			}

			stopped := filepath.Join(t.TempDir(), "stopped")
			ctx, cancel := context.WithCancel(context.Background())
			go func() { // cancel as soon as the first step is checkpointed
				defer cancel()
				for range 2000 {
					var cp checkpoint
					data, err := os.ReadFile(filepath.Join(stopped, fileCheckpoint))
					if err == nil && json.Unmarshal(data, &cp) == nil && cp.Steps >= 1 {
						return
					}
					time.Sleep(5 * time.Millisecond)
				}
			}()
			code, _, stderr := runTune(t, ctx, "-config", cfg, "-out", stopped, "-quiet")
			if code != 130 {
				t.Fatalf("interrupted run: exit %d, want 130: %s", code, stderr)
			}
			if !strings.Contains(stderr, "-resume "+stopped) {
				t.Fatalf("interrupted run does not say how to resume: %s", stderr)
			}
			if code, _, stderr := runTune(t, context.Background(), "-resume", stopped, "-quiet"); code != 0 {
				t.Fatalf("resume: exit %d: %s", code, stderr)
			}
			a, b := records(t, straight), records(t, stopped)
			if len(a) != 3 || len(b) != 3 {
				t.Fatalf("records: %d uninterrupted, %d resumed; want 3 each", len(a), len(b))
			}
			for i := range a {
				ja, _ := json.Marshal(a[i])
				jb, _ := json.Marshal(b[i])
				if !bytes.Equal(ja, jb) {
					t.Fatalf("record %d differs after resume:\n%s\n%s", i, ja, jb)
				}
			}
			va, vb := bestValues(t, straight), bestValues(t, stopped)
			for d := range va {
				if va[d] != vb[d] {
					t.Fatalf("best.json differs: %v vs %v", va, vb)
				}
			}
			for _, f := range []string{fileReport, fileValidation, "plots/genes.png", "plots/genes.svg", "plots/validation.png"} {
				if _, err := os.Stat(filepath.Join(stopped, f)); err != nil {
					t.Errorf("resumed run lacks %s: %v", f, err)
				}
			}
			// A finished run resumes to nothing new.
			if code, _, stderr := runTune(t, context.Background(), "-resume", stopped, "-quiet"); code != 0 {
				t.Fatalf("resume of a finished run: exit %d: %s", code, stderr)
			}
		})
	}
}

// TestRunLeavesPlotsReportAndLoadableBest checks a GA run directory.
func TestRunLeavesPlotsReportAndLoadableBest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runTune(t, context.Background(), "-config", writeConfig(t, "ga"), "-out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "generation   2:") || !strings.Contains(stdout, "validation:") {
		t.Fatalf("progress lines missing from stdout:\n%s", stdout)
	}
	for _, name := range []string{"fitness", "genes", "diversity", "validation"} {
		f, err := os.Open(filepath.Join(dir, dirPlots, name+".png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s.png: %v", name, err)
		}
		if img.Bounds().Dx() < 200 || img.Bounds().Dy() < 100 {
			t.Fatalf("%s.png is %v", name, img.Bounds())
		}
		svg, err := os.ReadFile(filepath.Join(dir, dirPlots, name+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Fatalf("%s.svg: %v", name, err)
		}
	}
	report, err := os.ReadFile(filepath.Join(dir, fileReport))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Validation", "zhou2015", "Elo", "![", "plots/genes.png", "games/s"} {
		if !bytes.Contains(report, []byte(want)) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	wf, err := engine.LoadWeightFile(filepath.Join(dir, fileBest))
	if err != nil {
		t.Fatal(err)
	}
	if wf.Schema != engine.Symmetric || wf.Provenance.Method != "ga" || wf.Provenance.Generation != 2 {
		t.Fatalf("best.json provenance: %+v", wf)
	}
	if _, err := engine.New(wf.Weights(), engine.DefaultSettings()); err != nil {
		t.Fatalf("best.json does not load into the engine: %v", err)
	}
}

// TestExportRoundTrip exports a run's best vector and loads it back.
func TestExportRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := runTune(t, context.Background(), "-config", writeConfig(t, "ga"), "-out", dir, "-quiet"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "tuned.json")
	if code, _, stderr := runTune(t, context.Background(), "export", dir, "-o", out); code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	wf, err := engine.LoadWeightFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := bestValues(t, dir)
	for d := range want {
		if wf.Values[d] != want[d] {
			t.Fatalf("exported %v, run best %v", wf.Values, want)
		}
	}
	if wf.Provenance.Tool != "roadtune tune" || wf.Provenance.Run != "run" || wf.Name != "run-g2" {
		t.Fatalf("provenance lost: %+v", wf.Provenance)
	}
	// An existing file is not overwritten without -force.
	if code, _, _ := runTune(t, context.Background(), "export", dir, "-o", out); code != 2 {
		t.Fatalf("export over an existing file: exit %d, want 2", code)
	}
	// To standard output, loadable as is.
	code, stdout, _ := runTune(t, context.Background(), "export", dir)
	if code != 0 {
		t.Fatalf("export to stdout: exit %d", code)
	}
	if _, err := engine.ParseWeightFile("stdout", []byte(stdout)); err != nil {
		t.Fatalf("exported JSON does not parse: %v", err)
	}
	if code, _, _ := runTune(t, context.Background(), "export", filepath.Join(t.TempDir(), "nope")); code != 2 {
		t.Fatalf("export of a missing run: exit %d, want 2", code)
	}
}

// TestBadInputExits2AndWritesNothing covers config and flag errors.
func TestBadInputExits2AndWritesNothing(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.toml")
	os.WriteFile(bad, []byte("seed = 1\n[ga]\npopulation = \"many\"\n"), 0o644)
	existing := t.TempDir()
	os.WriteFile(filepath.Join(existing, "keep.txt"), []byte("precious"), 0o644)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"bad config", []string{"-config", bad, "-out", filepath.Join(t.TempDir(), "x")}, "bad.toml:3"},
		{"missing config", []string{"-config", filepath.Join(t.TempDir(), "none.toml")}, "none.toml"},
		{"unknown flag", []string{"-bogus"}, "bogus"},
		{"bad method flag", []string{"-method", "sa", "-out", filepath.Join(t.TempDir(), "x")}, "method"},
		{"bad depth flag", []string{"-depth", "0", "-out", filepath.Join(t.TempDir(), "x")}, "-depth"},
		{"non-empty out", []string{"-config", writeConfig(t, "ga"), "-out", existing}, "not empty"},
		{"resume missing", []string{"-resume", filepath.Join(t.TempDir(), "none")}, "none"},
		{"resume with overrides", []string{"-resume", existing, "-seed", "3"}, "-seed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runTune(t, context.Background(), tc.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr: %s", code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Fatalf("stderr %q lacks %q", stderr, tc.want)
			}
		})
	}
	if data, _ := os.ReadFile(filepath.Join(existing, "keep.txt")); string(data) != "precious" {
		t.Fatal("an existing file was overwritten")
	}
	if ents, _ := os.ReadDir(existing); len(ents) != 1 {
		t.Fatalf("files were written into the existing directory: %v", ents)
	}
}

// TestSIGINTLeavesResumableCheckpoint sends a real SIGINT to the tune
// binary mid-run and resumes the run to the end.
func TestSIGINTLeavesResumableCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildTune(t)
	cfg := longConfig(t, 40)
	dir := filepath.Join(t.TempDir(), "run")
	cmd := exec.Command(bin, "-config", cfg, "-out", dir, "-quiet")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitSteps(t, cmd, dir, 2)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 130 {
		t.Fatalf("after SIGINT: %v, want exit 130; stderr: %s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "Resume with") {
		t.Fatalf("no resume hint: %s", stderr.String())
	}
	var cp checkpoint
	if data, err := os.ReadFile(filepath.Join(dir, fileCheckpoint)); err != nil || json.Unmarshal(data, &cp) != nil {
		t.Fatalf("checkpoint unreadable after SIGINT: %v", err)
	}
	if cp.Steps < 2 || cp.Steps >= 40 || cp.Phase != phaseOptimize {
		t.Fatalf("checkpoint after SIGINT: steps %d phase %s", cp.Steps, cp.Phase)
	}
	if n := len(records(t, dir)); n < cp.Steps {
		t.Fatalf("generations.jsonl has %d records, checkpoint %d", n, cp.Steps)
	}
	// Resume and finish the run.
	res := exec.Command(bin, "-resume", dir, "-quiet")
	if out, err := res.CombinedOutput(); err != nil {
		t.Fatalf("resume after SIGINT: %v\n%s", err, out)
	}
	if n := len(records(t, dir)); n != 40 {
		t.Fatalf("resumed run has %d records, want 40", n)
	}
}

// TestExportGenerationAndCompare exports an earlier generation's best and
// charts diversity across a GA and a PSO run.
func TestExportGenerationAndCompare(t *testing.T) {
	gaDir := filepath.Join(t.TempDir(), "garun")
	psoDir := filepath.Join(t.TempDir(), "psorun")
	if code, _, stderr := runTune(t, context.Background(), "-config", writeConfig(t, "ga"), "-out", gaDir, "-quiet"); code != 0 {
		t.Fatalf("ga: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runTune(t, context.Background(), "-config", writeConfig(t, "pso"), "-out", psoDir, "-quiet"); code != 0 {
		t.Fatalf("pso: exit %d: %s", code, stderr)
	}
	recs := records(t, gaDir)
	g1 := filepath.Join(t.TempDir(), "g1.json")
	if code, _, stderr := runTune(t, context.Background(), "export", gaDir, "-generation", "1", "-o", g1); code != 0 {
		t.Fatalf("export -generation 1: exit %d: %s", code, stderr)
	}
	wf, err := engine.LoadWeightFile(g1)
	if err != nil {
		t.Fatal(err)
	}
	want := recs[1]["best"].(map[string]any)["genes"].([]any)
	for d := range want {
		if wf.Values[d] != want[d].(float64) {
			t.Fatalf("generation 1 exported %v, record says %v", wf.Values, want)
		}
	}
	if wf.Name != "garun-g1" || wf.Provenance.Generation != 1 {
		t.Fatalf("name %q generation %d", wf.Name, wf.Provenance.Generation)
	}
	i2 := filepath.Join(t.TempDir(), "i2.json")
	if code, _, stderr := runTune(t, context.Background(), "export", psoDir, "-generation", "2", "-o", i2); code != 0 {
		t.Fatalf("export pso iteration 2: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runTune(t, context.Background(), "export", gaDir, "-generation", "9"); code != 2 || !strings.Contains(stderr, "no generation 9") {
		t.Fatalf("export of a missing generation: exit %d: %s", code, stderr)
	}

	base := filepath.Join(t.TempDir(), "div")
	if code, _, stderr := runTune(t, context.Background(), "compare", "-o", base, gaDir, psoDir); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, stderr)
	}
	csv, err := os.ReadFile(base + ".csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if len(lines) != 1+3+3 || !strings.HasPrefix(lines[1], "garun,0,") || !strings.HasPrefix(lines[4], "psorun,1,") {
		t.Fatalf("compare CSV:\n%s", csv)
	}
	div0 := recs[0]["diversity"].(map[string]any)["mean_distance"].(float64)
	if !strings.HasPrefix(lines[1], "garun,0,"+strconv.FormatFloat(div0, 'g', 10, 64)) {
		t.Fatalf("GA generation 0 diversity %v not in %q", div0, lines[1])
	}
	for _, ext := range []string{".png", ".svg"} {
		if st, err := os.Stat(base + ext); err != nil || st.Size() == 0 {
			t.Fatalf("compare %s: %v", ext, err)
		}
	}
	if code, _, _ := runTune(t, context.Background(), "compare", "-o", base, "-metric", "gene:Q9", gaDir); code != 2 {
		t.Fatalf("unknown gene: exit %d, want 2", code)
	}
}

// TestKill9ResumesToTheUninterruptedResult kills the tune binary with
// SIGKILL mid-run (no chance to clean up), resumes it, and compares every
// record and the best vector with an uninterrupted run.
func TestKill9ResumesToTheUninterruptedResult(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildTune(t)
	cfg := longConfig(t, 12)
	straight := filepath.Join(t.TempDir(), "straight")
	if out, err := exec.Command(bin, "-config", cfg, "-out", straight, "-quiet").CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}

	dir := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(bin, "-config", cfg, "-out", dir, "-quiet")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitSteps(t, cmd, dir, 3)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if out, err := exec.Command(bin, "-resume", dir, "-quiet").CombinedOutput(); err != nil {
		t.Fatalf("resume after kill -9: %v\n%s", err, out)
	}
	a, b := records(t, straight), records(t, dir)
	if len(a) != 12 || len(b) != 12 {
		t.Fatalf("records: %d uninterrupted, %d after kill -9 and resume", len(a), len(b))
	}
	for i := range a {
		ja, _ := json.Marshal(a[i])
		jb, _ := json.Marshal(b[i])
		if !bytes.Equal(ja, jb) {
			t.Fatalf("record %d differs after kill -9 and resume", i)
		}
	}
	va, vb := bestValues(t, straight), bestValues(t, dir)
	for d := range va {
		if va[d] != vb[d] {
			t.Fatalf("best.json differs: %v vs %v", va, vb)
		}
	}
}

// buildTune builds the tune binary into a temporary directory.
func buildTune(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tune")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// longConfig is tinyConfig (GA) with more generations.
func longConfig(t *testing.T, generations int) string {
	t.Helper()
	cfg := writeConfig(t, "ga")
	data, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(data, []byte("generations = 3"), []byte(fmt.Sprintf("generations = %d", generations)), 1), 0o644)
	return cfg
}

// waitSteps waits until the run in dir has checkpointed steps
// generations, killing cmd and failing after 60 s.
func waitSteps(t *testing.T, cmd *exec.Cmd, dir string, steps int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var cp checkpoint
		data, err := os.ReadFile(filepath.Join(dir, fileCheckpoint))
		if err == nil && json.Unmarshal(data, &cp) == nil && cp.Steps >= steps {
			return
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no checkpoint with %d generations within 60 s", steps)
		}
		time.Sleep(2 * time.Millisecond)
	}
}
