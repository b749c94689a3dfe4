package runfixture

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
)

// Finished plays the tiny run of method (with the TOML tables of extra,
// as tunetest.Tiny) to its end in dir.
func Finished(t testing.TB, dir, method string, extra ...string) {
	t.Helper()
	c, err := tune.Parse(method+".toml", []byte(tunetest.Tiny(method, extra...)))
	if err != nil {
		t.Fatal(err)
	}
	j, err := tune.Start(c, dir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// InterruptedChain plays a chain, the tiny GA then the tiny SPSA, in
// parent/chain and stops it after the SPSA's first iteration as Ctrl-C
// does: stage-1-ga done, stage-2-spsa interrupted. It returns the chain's
// directory.
func InterruptedChain(t testing.TB, parent string) string {
	t.Helper()
	spsa := filepath.Join(t.TempDir(), "spsa.toml")
	if err := os.WriteFile(spsa, []byte(tunetest.Tiny("spsa")), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := tune.Parse("ga.toml", []byte(tunetest.Tiny("ga")))
	if err != nil {
		t.Fatal(err)
	}
	c.Then = spsa
	stages, err := tune.Stages(c)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	steps := 0
	opts := tune.Options{Events: tune.Events{Step: func(optimize.Record, optimize.Status, optimize.Forecast) {
		if steps++; steps == 4 { // the GA's 3 generations, then one SPSA iteration
			cancel()
		}
	}}}
	dir := filepath.Join(parent, "chain")
	var ie *tune.InterruptedError
	if _, err := tune.Chain(ctx, stages, dir, opts); !errors.As(err, &ie) {
		t.Fatalf("chain stopped after stage 2's first step: %v", err)
	}
	return dir
}
