package tune

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/spsa"
	"github.com/roadtune/roadtune/optimize/texel"
	"github.com/roadtune/roadtune/tune/ladder"
)

// TestStartVector: spsa and texel start from the configured vector (a
// baseline or a run directory's best.json) instead of a random draw.
func TestStartVector(t *testing.T) {
	f, err := configs.LoadWeights("zhou2015")
	if err != nil {
		t.Fatal(err)
	}
	zhou := f.Weights().Genes
	cfg := tiny(t, "spsa")
	cfg.Start = "zhou2015"
	cfg.Validation.Opponents = []string{}
	job := oneStep(t, cfg)
	recs := records(t, job.Dir())
	var it spsa.Iteration
	if err := json.Unmarshal(recs[0].Detail.(json.RawMessage), &it); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(it.ThetaBefore, zhou) {
		t.Errorf("spsa started from %v, want zhou2015 %v", it.ThetaBefore, zhou)
	}
	// A run directory: its best.json.
	cfg2 := tiny(t, "texel")
	cfg2.Start = job.Dir()
	cfg2.Validation.Opponents = []string{}
	job2 := oneStep(t, cfg2)
	var r texel.Round
	if err := json.Unmarshal(records(t, job2.Dir())[0].Detail.(json.RawMessage), &r); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.ThetaBefore, job.Best()) {
		t.Errorf("texel started from %v, want the spsa run's best %v", r.ThetaBefore, job.Best())
	}
	// The ladder can play the start vector itself.
	cfg3 := tiny(t, "spsa")
	cfg3.Start = "zhou2015"
	cfg3.Validation.Opponents = []string{StartOpponent}
	cfg3.Validation.Depths = []int{1}
	job3 := oneStep(t, cfg3)
	if err := job3.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var rungs []ladder.Rung
	data, err := os.ReadFile(filepath.Join(job3.Dir(), ladder.File))
	if err != nil || json.Unmarshal(data, &rungs) != nil || len(rungs) != 1 || rungs[0].Opponent != StartOpponent ||
		rungs[0].Summary.Players[1].Source != "start: zhou2015" {
		t.Fatalf("ladder against the start: %v %s", err, data)
	}
	cfg3.Start = ""
	if err := cfg3.Validate(); err == nil || !strings.Contains(err.Error(), "no start") {
		t.Errorf("opponent start without a start: %v", err)
	}
}

// records reads a run's checkpointed records.
func records(t *testing.T, dir string) []optimize.Record {
	t.Helper()
	r, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r.Records
}

// oneStep starts cfg in a new directory and plays its first step.
func oneStep(t *testing.T, cfg Config) *Job {
	t.Helper()
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	job, err := Start(cfg, filepath.Join(t.TempDir(), cfg.Method), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Steps(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	return job
}
