package launch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/tune"
)

// TestSweep: one run per seed, each as tune.Start would make it; a sweep run
// again keeps finished runs; a changed config is refused, naming the key.
func TestSweep(t *testing.T) {
	t.Parallel() // long and independent (its own directories): uses the second core
	cfg := runfixture.Tiny(t, "ga")
	dir := filepath.Join(t.TempDir(), "sweep")
	dirs, err := Sweep(context.Background(), cfg, []int64{3, 4}, dir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 2 || dirs[1] != tune.SweepDir(dir, 4) {
		t.Fatalf("dirs %v", dirs)
	}
	var bests [][]float64
	for i, d := range dirs {
		r, err := tune.ReadRun(d)
		if err != nil {
			t.Fatal(err)
		}
		if r.Phase != tune.PhaseDone || r.Config.Seed != []int64{3, 4}[i] {
			t.Fatalf("%s: phase %s, seed %d", d, r.Phase, r.Config.Seed)
		}
		bests = append(bests, r.Best)
	}
	// The same seed alone gives the same run.
	alone := cfg
	alone.Seed = 4
	job, err := tune.Start(alone, filepath.Join(t.TempDir(), "alone"), tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := job.Best(); !slices.Equal(got, bests[1]) {
		t.Errorf("seed 4 alone: best %v, in the sweep %v", got, bests[1])
	}
	// Run again: both are done, nothing is rewritten.
	cp := filepath.Join(dirs[0], tune.FileCheckpoint)
	before, _ := os.ReadFile(cp)
	var log bytes.Buffer
	if _, err := Sweep(context.Background(), cfg, []int64{3, 4}, dir, tune.Options{Log: &log}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(cp)
	if !bytes.Equal(before, after) || strings.Count(log.String(), "is done") != 2 {
		t.Errorf("a finished sweep was run again: %q", log.String())
	}
	// Another setting into the same directory: refused.
	other := cfg
	other.Match.Pairs++
	_, err = Sweep(context.Background(), other, []int64{3}, dir, tune.Options{})
	var in *tune.InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "match.pairs") {
		t.Errorf("changed config: %v", err)
	}
	for _, seeds := range [][]int64{nil, {1, 1}, {-1}} {
		if _, err := Sweep(context.Background(), cfg, seeds, t.TempDir(), tune.Options{}); !errors.As(err, &in) {
			t.Errorf("seeds %v: %v", seeds, err)
		}
	}
	// A budget by the clock cannot be shared by a sweep's seeds.
	budgeted := cfg
	budgeted.Budget = "1h"
	if _, err := Sweep(context.Background(), budgeted, []int64{1, 2}, t.TempDir(), tune.Options{}); !errors.As(err, &in) || !strings.Contains(err.Error(), "-seeds") {
		t.Errorf("a budgeted sweep: %v", err)
	}
}
