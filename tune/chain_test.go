package tune_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tune"
)

// TestChainBadInput: a bad `then` is found before anything is written,
// naming the file and key.
func TestChainBadInput(t *testing.T) {
	for _, tc := range []struct{ second, want string }{
		{"start = \"zhou2015\"\n" + tunetest.Tiny("spsa"), `b.toml:1: key "start": a later stage of a chain starts from the best vector`},
		{tunetest.Tiny("ga"), `b.toml`},
		{tunetest.Tiny("spsa") + "pairs = -1\n", `b.toml:`},
		{"then = \"a.toml\"\n" + tunetest.Tiny("spsa"), "at most 8 stages"},
	} {
		cfg, _ := runfixture.WriteChain(t, tc.second)
		_, err := tune.Stages(cfg)
		var ce *tune.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("second stage %.40q: %v, want a ConfigError with %q", tc.second, err, tc.want)
		}
	}
	// A then that names no file, and no embedded config.
	for _, then := range []string{"missing.toml", "no-such-config"} {
		c, err := tune.Parse("a.toml", []byte("then = \""+then+"\"\n"+tunetest.Tiny("texel")))
		if err == nil {
			_, err = tune.Stages(c)
		}
		var ce *tune.ConfigError
		if !errors.As(err, &ce) || ce.Key != "then" {
			t.Errorf("then = %q: %v", then, err)
		}
	}
}

// TestChainStageOfAnotherSchemaIsRefused: a later stage starts from the
// best vector of the stage before, so a stage of another schema (a depth-4
// GA stage after a tempo Texel stage) is refused when the chain is
// resolved, before anything runs, naming the later file, its line and the
// key.
func TestChainStageOfAnotherSchemaIsRefused(t *testing.T) {
	dir := t.TempDir()
	first := "method = \"texel\"\nschema = \"tempo\"\nthen = \"deep.toml\"\n[texel]\nrounds = 1\n"
	deep := "method = \"ga\"\nschema = \"symmetric\"\n[engine]\ndepth = 4\n[ga]\nvariant = \"robust\"\npopulation = 8\ngenerations = 1\n"
	for name, text := range map[string]string{"first.toml": first, "deep.toml": deep} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := tune.Load(filepath.Join(dir, "first.toml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tune.Stages(cfg)
	var ce *tune.ConfigError
	if !errors.As(err, &ce) || ce.Key != "schema" || ce.Line != 2 || !strings.HasSuffix(ce.File, "deep.toml") {
		t.Fatalf("Stages: %v, want a ConfigError at deep.toml:2 key schema", err)
	}
	if !strings.Contains(err.Error(), `give schema = "tempo"`) {
		t.Errorf("the error does not say what to give: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the directory holds %d entries, want the 2 configs only", len(entries))
	}
}

// TestOvernightPresetsAreBudgetedChains: the population methods' overnight
// presets are chains sized by the clock (budget "8h") of the method from
// a random start, then refine-overnight.toml's SPSA against its pool at
// the same depth, with the learning curve measured in both stages.
func TestOvernightPresetsAreBudgetedChains(t *testing.T) {
	for _, m := range []string{"ga", "pso", "cmaes"} {
		cfg, err := tune.LoadEmbedded("overnight-" + m)
		if err != nil {
			t.Fatalf("overnight-%s: %v", m, err)
		}
		stages, err := tune.Stages(cfg)
		if err != nil {
			t.Fatalf("overnight-%s: %v", m, err)
		}
		if cfg.Budget != "8h" || len(stages) != 2 || stages[0].Method != m || stages[1].Method != "spsa" {
			t.Errorf("overnight-%s: budget %q, %d stages", m, cfg.Budget, len(stages))
			continue
		}
		if cfg.Start != "" || stages[0].Engine.Depth != stages[1].Engine.Depth {
			t.Errorf("overnight-%s: start %q, depths %d then %d", m, cfg.Start, stages[0].Engine.Depth, stages[1].Engine.Depth)
		}
		for k, s := range stages {
			if s.Validation.EloEvery <= 0 {
				t.Errorf("overnight-%s stage %d: no learning curve (validation.elo_every)", m, k+1)
			}
		}
		if o := stages[1].Options["spsa"]; o == nil || len(stages[1].Validation.Opponents) < 4 {
			t.Errorf("overnight-%s stage 2: options %v, ladder %v", m, o, stages[1].Validation.Opponents)
		}
	}
}
