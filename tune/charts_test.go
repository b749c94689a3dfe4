package tune

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestRunChartsAreThePlots: RunResults.Charts of a finished run renders
// the charts the run saved under plots/, byte for byte, and while a run is
// unfinished it renders the charts of the steps so far.
func TestRunChartsAreThePlots(t *testing.T) {
	t.Parallel()
	cfg := tiny(t, "pso")
	dir := filepath.Join(t.TempDir(), "run")
	job, err := Start(cfg, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Steps(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	charts, err := r.Charts()
	if err != nil || len(charts) == 0 || charts[0].Name != "genes" {
		t.Fatalf("charts of a running job: %v, %v", len(charts), err)
	}
	if err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	if charts, err = r.Charts(); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range charts {
		names[c.Name] = true
		svg, err := c.Chart.SVG()
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		file, err := os.ReadFile(filepath.Join(dir, DirPlots, c.Name+".svg"))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !bytes.Equal(svg, file) {
			t.Errorf("%s: the rendered chart differs from plots/%s.svg", c.Name, c.Name)
		}
	}
	if !names["ladder"] || !names["genes"] {
		t.Errorf("charts %v: want genes and ladder", names)
	}
}
