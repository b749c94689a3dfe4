package runs

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/chain"
)

// stopAfter returns options that cancel the context once a step of unit
// has made the status reach steps.
func stopAfter(cancel context.CancelFunc, unit string, steps int) tune.Options {
	cur := ""
	return tune.Options{Events: tune.Events{
		Plan: func(p tune.Plan) { cur = p.Unit },
		Step: func(_ optimize.Record, st optimize.Status, _ optimize.Forecast) {
			if cur == unit && st.Steps >= steps {
				cancel()
			}
		},
	}}
}

// TestExportOfAnUnfinishedChain: a chain stopped in either stage exports
// its best vector so far with a warning, and the provenance names the
// chain, the stage and what was done of what; a finished stage exported
// on its own is not unfinished.
func TestExportOfAnUnfinishedChain(t *testing.T) {
	cfg, _ := runfixture.WriteChain(t, runfixture.SPSAStage)
	stages, err := tune.Stages(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "night")
	export := func(dir, wantUnfinished string, wantStage int) {
		t.Helper()
		var out, warn bytes.Buffer
		if err := ExportTo(&out, &warn, dir, -1, "", false); err != nil {
			t.Fatal(err)
		}
		wf, _, err := Export(dir, -1)
		if err != nil {
			t.Fatal(err)
		}
		p := wf.Provenance
		if p.Chain != "night" || p.Stage != wantStage || p.Unfinished != wantUnfinished {
			t.Errorf("%s: provenance chain %q stage %d unfinished %q, want night, %d, %q", dir, p.Chain, p.Stage, p.Unfinished, wantStage, wantUnfinished)
		}
		if !strings.Contains(out.String(), `"unfinished": "`+wantUnfinished+`"`) != (wantUnfinished == "") {
			t.Errorf("%s: the exported file does not record %q:\n%s", dir, wantUnfinished, out.String())
		}
		wantWarn := ""
		if wantUnfinished != "" {
			wantWarn = "tune: warning: " + dir + " has not finished (" + wantUnfinished + "): the vector exported is the best so far; `tune -resume " + dir + "` finishes it\n"
		}
		if warn.String() != wantWarn {
			t.Errorf("%s: warning %q, want %q", dir, warn.String(), wantWarn)
		}
	}
	var ie *tune.InterruptedError
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := chain.Run(ctx, stages, dir, stopAfter(cancel, "round", 1)); !errors.As(err, &ie) {
		t.Fatalf("chain stopped in stage 1: %v", err)
	}
	cancel()
	export(dir, "stage 1 of 2 (texel): 1 of 3 rounds", 1)

	ctx, cancel = context.WithCancel(context.Background())
	if _, err := chain.Resume(ctx, dir, stopAfter(cancel, "iteration", 2)); !errors.As(err, &ie) {
		t.Fatalf("chain stopped in stage 2: %v", err)
	}
	cancel()
	export(dir, "stage 2 of 2 (spsa): 2 of 4 iterations", 2)
	export(tune.StageDir(dir, 1, "texel"), "", 1)
}

// TestExportOfARunStoppedBeforeItsLadder: a run stopped once its
// optimisation is over says the ladder is missing; finished, it is not
// unfinished and is not a chain's.
func TestExportOfARunStoppedBeforeItsLadder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	j, err := tune.Start(runfixture.Tiny(t, "spsa"), dir, tune.Options{Events: tune.Events{Verify: func(int) { cancel() }}})
	if err != nil {
		t.Fatal(err)
	}
	var ie *tune.InterruptedError
	if err := j.Run(ctx); !errors.As(err, &ie) {
		t.Fatalf("stopped at the ladder: %v", err)
	}
	wf, _, err := Export(dir, -1)
	if want := "spsa over after 4 iterations; the verification ladder not played"; err != nil || wf.Provenance.Unfinished != want || wf.Provenance.Chain != "" || wf.Provenance.Stage != 0 {
		t.Fatalf("export before the ladder: %v, provenance %+v, want unfinished %q", err, wf.Provenance, want)
	}
	if j, err = tune.Resume(dir, tune.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	if err := ExportTo(&bytes.Buffer{}, &warn, dir, -1, "", false); err != nil || warn.Len() > 0 {
		t.Fatalf("export of a finished run: %v, warning %q", err, warn.String())
	}
}
