package tune

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSweep: one run per seed, each as Start would make it; a sweep run
// again keeps finished runs; a changed config is refused, naming the key.
func TestSweep(t *testing.T) {
	t.Parallel() // long and independent (its own directories): uses the second core
	cfg := tiny(t, "ga")
	dir := filepath.Join(t.TempDir(), "sweep")
	dirs, err := Sweep(context.Background(), cfg, []int64{3, 4}, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 || dirs[1] != SweepDir(dir, 4) {
		t.Fatalf("dirs %v", dirs)
	}
	var bests [][]float64
	for i, d := range dirs {
		r, err := Open(d)
		if err != nil {
			t.Fatal(err)
		}
		if r.Phase != phaseDone || r.Config.Seed != []int64{3, 4}[i] {
			t.Fatalf("%s: phase %s, seed %d", d, r.Phase, r.Config.Seed)
		}
		bests = append(bests, r.Best)
	}
	// The same seed alone gives the same run.
	alone := cfg
	alone.Seed = 4
	job, err := Start(alone, filepath.Join(t.TempDir(), "alone"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := job.Best(); !slices.Equal(got, bests[1]) {
		t.Errorf("seed 4 alone: best %v, in the sweep %v", got, bests[1])
	}
	// The ladder comparison: a row per seed, a column per rung.
	cmp, err := CompareRuns(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Runs) != 2 || len(cmp.Columns) != 2 || cmp.Columns[0] != (RungKey{Opponent: "zhou2015", Depth: 1}) || cmp.Columns[1] != (RungKey{Opponent: "zhou2015", Depth: 2}) {
		t.Fatalf("comparison columns %v of %d runs", cmp.Columns, len(cmp.Runs))
	}
	for _, r := range cmp.Runs {
		g := r.Rungs[RungKey{Opponent: "zhou2015", Depth: 1}]
		if g.Match().N != 4 || g.Verdict != Verdict(g.Match().Elo, g.Match().EloCI) {
			t.Errorf("%s: rung %+v", r.Name, g.Match())
		}
	}
	if md := cmp.Markdown(); !strings.Contains(md, "| sweep/seed-3 | ga | 3 |") || !strings.Contains(md, "| sweep (ga) | vs zhou2015 d2 | 2 |") {
		t.Errorf("markdown:\n%s", md)
	}
	if bars := cmp.Chart().Bars; len(bars) != 4 || bars[0].Label != "sweep/seed-3 vs zhou2015 d1" {
		t.Errorf("chart bars %+v", bars)
	}
	// A run without a ladder is left out of the Elo comparison, with a note.
	none := cfg
	none.Validation.Opponents = []string{}
	job, err = Start(none, filepath.Join(t.TempDir(), "noladder"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, err := CompareRuns([]string{job.Dir()}); err != nil || len(c.Runs) != 0 || len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0], "no verification ladder") {
		t.Errorf("a run without a ladder: %v %+v", err, c)
	}
	// Run again: both are done, nothing is rewritten.
	cp := filepath.Join(dirs[0], FileCheckpoint)
	before, _ := os.ReadFile(cp)
	var log bytes.Buffer
	if _, err := Sweep(context.Background(), cfg, []int64{3, 4}, dir, Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(cp)
	if !bytes.Equal(before, after) || strings.Count(log.String(), "is done") != 2 {
		t.Errorf("a finished sweep was run again: %q", log.String())
	}
	// Another setting into the same directory: refused.
	other := cfg
	other.Match.Pairs++
	_, err = Sweep(context.Background(), other, []int64{3}, dir, Options{})
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "match.pairs") {
		t.Errorf("changed config: %v", err)
	}
	for _, seeds := range [][]int64{nil, {1, 1}, {-1}} {
		if _, err := Sweep(context.Background(), cfg, seeds, t.TempDir(), Options{}); !errors.As(err, &in) {
			t.Errorf("seeds %v: %v", seeds, err)
		}
	}
}
