package tune

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/ladder"
)

// TestOpeningsKey: with openings = FILE every fitness game and every
// ladder game starts from an opening of the file, and the ladder's
// summary names the suite.
func TestOpeningsKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite.txt")
	lines := []string{"JJ KJJK", "JJ HHKK", "JJ KKLL", "JJ IIKK", "JJ JKJL", "JJ IHKI"}
	if err := os.WriteFile(path, []byte("# test suite\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := map[string]bool{}
	for _, l := range lines {
		in[l] = true
	}
	cfg := tiny(t, "ga")
	cfg.Openings = path
	cfg.Output.Games = true
	cfg.Validation.Opponents = []string{"zhou2015"}
	cfg.Validation.Depths = []int{1}
	cfg.Validation.Pairs = 4
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	job, err := Start(cfg, filepath.Join(t.TempDir(), "run"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(job.Dir(), DirGames, "*.jsonl"))
	games := 0
	for _, l := range logs {
		recs, err := tournament.ReadGameLog(l)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range recs {
			if !in[g.Opening] {
				t.Fatalf("%s: game %d opened with %q, not from the suite", filepath.Base(l), g.Game, g.Opening)
			}
			games++
		}
	}
	if games < 50 {
		t.Fatalf("only %d games checked in %v", games, logs)
	}
	data, _ := os.ReadFile(filepath.Join(job.Dir(), ladder.File))
	if !strings.Contains(string(data), "suite "+path) {
		t.Errorf("the ladder does not name the suite: %.300s", data)
	}
	cfg.Validation.Pairs = 7 // more pairs than the suite's 6 openings
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "validation.pairs") {
		t.Errorf("7 pairs from 6 openings: %v", err)
	}
}
