package tune_test

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
)

// forging is a referee that answers honestly until its forge flag is set,
// then with counts that overflow any sum (the hostile worker's answer of
// 2026-11-26 without the cluster's checks in between).
type forging struct {
	optimize.Referee
	forge atomic.Bool
}

func (f *forging) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	if !f.forge.Load() {
		return f.Referee.Play(ctx, seed, ms)
	}
	out := make([]optimize.Outcome, len(ms))
	for i := range out {
		out[i] = optimize.Outcome{Wins: math.MaxInt64 / 2, Losses: math.MaxInt64 / 2}
	}
	return out, nil
}

// TestCheckpointRefusesImpossibleCounts: a step whose game count is
// impossible (negative or overflowing) fails before anything is written,
// so the run resumes from its last good checkpoint and then equals the
// uninterrupted run.
func TestCheckpointRefusesImpossibleCounts(t *testing.T) {
	cfg, err := tune.Parse("ga.toml", []byte(tunetest.Tiny("ga")))
	if err != nil {
		t.Fatal(err)
	}
	want := runfixture.RunSteps(t, cfg, tune.Options{})
	ref, err := tune.NewReferee(cfg)
	if err != nil {
		t.Fatal(err)
	}
	f := &forging{Referee: ref}
	dir := filepath.Join(t.TempDir(), "run")
	j, err := tune.Start(cfg, dir, tune.Options{Referee: f})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Steps(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	f.forge.Store(true)
	err = j.Steps(context.Background(), 100)
	if err == nil || !strings.Contains(err.Error(), "impossible") {
		t.Fatalf("a step with forged counts: %v, want the count refused", err)
	}
	if st := j.Status(); st.Steps != 1 || st.Games < 0 {
		t.Fatalf("status after the refused step %+v, want the first step's", st)
	}
	r, err := tune.Resume(dir, tune.Options{})
	if err != nil {
		t.Fatalf("resume after the refused step: %v", err)
	}
	if err := r.Steps(context.Background(), 100); err != nil {
		t.Fatal(err)
	}
	if got := runfixture.Records(t, dir); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("resumed run:\n%s\nuninterrupted run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
