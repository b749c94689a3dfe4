package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary builds cmd/arena and runs it: a one-pair match at depth 1
// between a baseline given by name and one by path writes its outputs; bad
// flags and an unknown baseline exit with status 2.
func TestBinary(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "arena")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	weights := filepath.Join("..", "..", "configs", "weights")
	out := filepath.Join(dir, "run")
	// A baseline by name, another by path.
	cmd := exec.Command(bin, "-pairs", "1", "-depth", "1", "-out", out,
		"zhou2015", filepath.Join(weights, "qi2018-table3-1.json"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("arena: %v\n%s", err, b)
	}
	for _, f := range []string{"summary.json", "games.jsonl", "winrate.png", "winrate.svg", "sgf/game-000000.sgf", "sgf/game-000001.sgf"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	for _, args := range [][]string{{"-nosuchflag"}, {"-depth", "-1", "a.json", "b.json"}, {"only-one.json"}, {"zhou2015", "zhou2016"}} {
		b, err := exec.Command(bin, args...).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(b), "arena:") {
			t.Errorf("%q: %v\n%s", args, err, b)
		}
	}
}
