package runfixture

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// Tiny is the tiny config of method (tunetest.Tiny): a run of well under
// a second.
func Tiny(t testing.TB, method string) tune.Config {
	t.Helper()
	c, err := tune.Parse(method+".toml", []byte(tunetest.Tiny(method)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TinyWith is Tiny with the keys of kv (key, value, …) set.
func TinyWith(t testing.TB, method string, kv ...string) tune.Config {
	t.Helper()
	c := Tiny(t, method)
	for i := 0; i+1 < len(kv); i += 2 {
		if err := c.Set(kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

// Straight plays cfg to its end in a new directory and returns it.
func Straight(t testing.TB, cfg tune.Config) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "straight")
	j, err := tune.Start(cfg, dir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// WriteChain writes a chain's configs, a.toml (the tiny Texel without a
// ladder, then b.toml) and b.toml (second), and returns the first loaded.
func WriteChain(t testing.TB, second string) (tune.Config, string) {
	t.Helper()
	dir := t.TempDir()
	a := "then = \"b.toml\"\n" + strings.Replace(tunetest.Tiny("texel"), `opponents = ["zhou2015"]`, `opponents = []`, 1)
	if err := os.WriteFile(filepath.Join(dir, "a.toml"), []byte(a), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "b.toml"), []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := tune.Load(filepath.Join(dir, "a.toml"))
	if err != nil {
		t.Fatal(err)
	}
	return cfg, dir
}

// SPSAStage is a chain's second stage: the tiny SPSA with a ladder
// against zhou2015 and the chain's start.
var SPSAStage = strings.NewReplacer(`opponents = ["zhou2015"]`, `opponents = ["zhou2015", "start"]`, "seed = 5", "seed = 99").Replace(tunetest.Tiny("spsa"))

// StraightChain plays the chain of cfg to its end.
func StraightChain(t testing.TB, cfg tune.Config) ([]tune.Config, []string) {
	t.Helper()
	stages, err := tune.Stages(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := tune.Chain(context.Background(), stages, filepath.Join(t.TempDir(), "chain"), tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return stages, dirs
}
