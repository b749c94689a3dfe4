package main

import (
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
)

func TestParseConfigOverridesDefaults(t *testing.T) {
	c, err := ParseConfig("x.toml", []byte(`
method = "pso"
seed = 7
[engine]
depth = 3
[pso]
particles = 10
iterations = 4
`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Method != "pso" || c.Seed != 7 || c.Engine.Depth != 3 || c.PSO.Particles != 10 || c.PSO.Iterations != 4 {
		t.Fatalf("values not read: %+v", c)
	}
	if c.Engine.Width != 10 || c.GA.Population != 49 || c.PSO.C1 != 2.05 {
		t.Fatalf("defaults lost: %+v", c)
	}
}

func TestParseConfigErrorsNameFileKeyLine(t *testing.T) {
	cases := []struct {
		name, doc string
		line      int
		key, msg  string
	}{
		{"unknown key", "method = \"ga\"\n[ga]\npopulaton = 10\n", 3, "ga.populaton", "unknown key"},
		{"unknown table", "seed = 1\n\n[gaa]\nx = 1\n", 3, "gaa", "unknown key"},
		{"wrong type", "seed = 1\n[engine]\ndepth = \"deep\"\n", 3, "engine.depth", "incompatible types"},
		{"out of range", "[ga]\npopulation = 12\ngroups = 5\n", 3, "ga.groups", "do not divide"},
		{"bad enum", "\nmethod = \"sa\"\n", 2, "method", "must be"},
		{"bad probability", "[ga]\n\npm = 1.5\n", 3, "ga.pm", "probability"},
		{"syntax", "seed = \n", 1, "seed", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("cfg.toml", []byte(tc.doc))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("want *ConfigError, got %v", err)
			}
			if ce.File != "cfg.toml" || ce.Line != tc.line || ce.Key != tc.key || !strings.Contains(ce.Msg, tc.msg) {
				t.Fatalf("got file %q line %d key %q msg %q; want line %d key %q msg ~%q", ce.File, ce.Line, ce.Key, ce.Msg, tc.line, tc.key, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), "cfg.toml:") {
				t.Fatalf("error text %q does not start with the file", err)
			}
		})
	}
}

// TestShippedConfigsParse loads every config in configs/ (the embedded
// copies are these files) and checks what each preset promises.
func TestShippedConfigsParse(t *testing.T) {
	names := configs.ConfigNames()
	if len(names) < 8 {
		t.Fatalf("only %d embedded configs: %v", len(names), names)
	}
	got := map[string]Config{}
	for _, n := range names {
		data, err := configs.Config(n)
		if err != nil {
			t.Fatal(err)
		}
		c, err := ParseConfig(n+".toml", data)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		got[n] = c
		if c.Validation.Opponent != "" {
			if _, _, err := opponentWeights(c.Validation.Opponent); err != nil {
				t.Errorf("%s: validation opponent: %v", n, err)
			}
		}
	}
	// The reference config documents every key with its default.
	if ref := got["reference"]; !reflect.DeepEqual(ref, DefaultConfig()) {
		t.Errorf("configs/reference.toml differs from DefaultConfig:\n%+v\n%+v", ref, DefaultConfig())
	}
	if c := got["chen2010-ga"]; c.GA.Population != 49 || c.GA.Groups != 7 || c.GA.Generations != 30 || c.GA.Pm != 0.15 || c.Bounds.Mode != "off" {
		t.Errorf("chen2010-ga is not Chen's Table 4.8: %+v", c.GA)
	}
	if c := got["chen2010-pso"]; c.Method != "pso" || c.PSO.Particles != 49 || c.PSO.Iterations != 15 || c.Bounds.Mode != "off" || c.PSO.VMaxFraction != 0 || c.Seed != got["chen2010-ga"].Seed {
		t.Errorf("chen2010-pso is not Chen's Table 5.1 from the GA's population: %+v", c)
	}
	if c := got["qi2018-dual-ga"]; c.Schema != "dual" {
		t.Errorf("qi2018-dual-ga schema %q", c.Schema)
	}
}

// TestExperimentConfigsParse loads the configs of docs/experiments.md.
func TestExperimentConfigsParse(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "configs", "experiments", "*.toml"))
	if err != nil || len(paths) < 6 {
		t.Fatalf("experiment configs: %v %v", paths, err)
	}
	seeds := map[string]uint64{}
	for _, p := range paths {
		c, err := LoadConfig(p)
		if err != nil {
			t.Fatal(err)
		}
		seeds[filepath.Base(p)] = c.Seed
	}
	// Experiments 1–3 start from one initial population.
	if s := seeds["chen2010-ga.toml"]; seeds["chen2010-ga-original.toml"] != s || seeds["chen2010-pso.toml"] != s || seeds["pso-bounded.toml"] != s {
		t.Fatalf("experiments 1–3 must share a seed: %v", seeds)
	}
}
