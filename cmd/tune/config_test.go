package main

import (
	"errors"
	"strings"
	"testing"
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
