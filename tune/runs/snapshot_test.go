package runs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/tune"
)

// TestRunChartsAreThePlots: RunResults.Charts of a finished run renders
// the charts the run saved under plots/, byte for byte, and while a run is
// unfinished it renders the charts of the steps so far.
func TestRunChartsAreThePlots(t *testing.T) {
	t.Parallel()
	cfg := runfixture.Tiny(t, "pso")
	cfg.Validation.SPRT = "0,20" // the ladder's rung then has its LLR chart
	dir := filepath.Join(t.TempDir(), "run")
	job, err := tune.Start(cfg, dir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Steps(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	r, err := ReadSnapshot(dir)
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
	if r, err = ReadSnapshot(dir); err != nil {
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
		file, err := os.ReadFile(filepath.Join(dir, tune.DirPlots, c.Name+".svg"))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !bytes.Equal(svg, file) {
			t.Errorf("%s: the rendered chart differs from plots/%s.svg", c.Name, c.Name)
		}
	}
	if !names["ladder"] || !names["genes"] || !names["sprt-zhou2015-d1"] {
		t.Errorf("charts %v: want genes, ladder and the rung's SPRT (sprt-zhou2015-d1)", names)
	}
}

// TestReadersOfAFinishedRun: a finished run's snapshot holds its
// records, and its best vector after each step as a weight file, the
// last best.json's; a step it has not is refused naming those it has.
func TestReadersOfAFinishedRun(t *testing.T) {
	dir := runfixture.Straight(t, runfixture.Tiny(t, "pso"))
	r, err := ReadSnapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if r.Phase != tune.PhaseDone || len(r.Records) != 3 || r.Records[0].Step != 0 {
		t.Fatalf("phase %q, %d records", r.Phase, len(r.Records))
	}
	for k := range 3 {
		wf, err := r.WeightFile(k)
		if err != nil {
			t.Fatal(err)
		}
		if len(wf.Values) != 5 || wf.Provenance.Generation != k || wf.Provenance.Method != "pso" {
			t.Fatalf("step %d: %+v", k, wf)
		}
	}
	if _, err := r.WeightFile(3); err == nil || !strings.Contains(err.Error(), "0..2") {
		t.Fatalf("step 3: %v", err)
	}
	last, _ := r.WeightFile(-1)
	best, _ := engine.LoadWeightFile(filepath.Join(dir, tune.FileBest))
	for d := range best.Values {
		if best.Values[d] != last.Values[d] {
			t.Fatalf("WeightFile(-1) %v is not best.json %v", last.Values, best.Values)
		}
	}
}
