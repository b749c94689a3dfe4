package configs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// runScript is the script that reruns the experiments.
var runScript = filepath.Join(repoRoot, "configs", "experiments", "run.sh")

// shellList is the words of a bash array assignment NAME=(a b c) in
// script, nil when there is none.
func shellList(script, name string) []string {
	m := regexp.MustCompile(`(?m)^` + name + `=\(([^)]*)\)`).FindStringSubmatch(script)
	if m == nil {
		return nil
	}
	return strings.Fields(m[1])
}

// TestRunScriptWritesUnderRuns: by default run.sh's outputs and the copy
// collect makes stay out of the tracked docs/experiments (a rerun must
// not overwrite the measured pages' files unless asked: DOCS=...).
func TestRunScriptWritesUnderRuns(t *testing.T) {
	data, err := os.ReadFile(runScript)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, v := range []struct{ name, want string }{{"OUT", "runs/"}, {"DOCS", "$OUT/"}} {
		m := regexp.MustCompile(`(?m)^` + v.name + `=\$\{` + v.name + `:-([^}]*)\}`).FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("run.sh sets no default for %s (want %s=${%s:-...})", v.name, v.name, v.name)
		}
		if !strings.HasPrefix(m[1], v.want) || strings.Contains(m[1], "docs/experiments") {
			t.Errorf("run.sh's default %s is %q: want it under %s, never docs/experiments", v.name, m[1], v.want)
		}
	}
}

// TestRunScriptCoversTheIndex: every experiment of docs/experiments's
// index (its table's ids, 12.1–12.11 counted as 12) is a step of run.sh
// (a function eN run by default) or one of its BY_HAND experiments, so
// the README's "rerun them all" holds; and the script's steps are the
// index's, no more.
func TestRunScriptCoversTheIndex(t *testing.T) {
	data, err := os.ReadFile(runScript)
	if err != nil {
		t.Fatal(err)
	}
	script := string(data)
	steps, byHand := shellList(script, "STEPS"), shellList(script, "BY_HAND")
	if len(steps) == 0 {
		t.Fatal("run.sh has no STEPS=(...) list")
	}
	index, err := os.ReadFile(filepath.Join(repoRoot, "docs", "experiments", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range regexp.MustCompile(`(?m)^\| \[(\d+)(?:\.\d+)?\]\(`).FindAllStringSubmatch(string(index), -1) {
		if id := "e" + m[1]; !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) < 20 {
		t.Fatalf("found %d experiments in the index: its table changed shape", len(ids))
	}
	for _, id := range ids {
		if !slices.Contains(steps, id) && !slices.Contains(byHand, id) {
			t.Errorf("experiment %s of the index is neither a step of run.sh nor in its BY_HAND list", id)
		}
	}
	for _, id := range append(slices.Clone(steps), byHand...) {
		if !slices.Contains(ids, id) {
			t.Errorf("run.sh's %s is no experiment of the index", id)
		}
		if !regexp.MustCompile(`(?m)^` + id + `\(\) \{`).MatchString(script) {
			t.Errorf("run.sh lists %s but defines no function %s()", id, id)
		}
	}
	for _, id := range byHand {
		if !slices.Contains(steps, id) {
			t.Errorf("run.sh's BY_HAND %s is not in STEPS: it would never say how to run it", id)
		}
	}
}
