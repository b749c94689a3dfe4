package tune

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize/ga"
	"github.com/roadtune/roadtune/optimize/pso"
)

func TestParseOverridesDefaults(t *testing.T) {
	c, err := Parse("x.toml", []byte(`
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
	p := c.Options["pso"].(*pso.Settings)
	if c.Method != "pso" || c.Seed != 7 || c.Engine.Depth != 3 || p.Particles != 10 || p.Iterations != 4 {
		t.Fatalf("values not read: %+v %+v", c, p)
	}
	if c.Engine.Width != 10 || c.Options["ga"].(*ga.Settings).Population != 49 || p.C1 != 2.05 {
		t.Fatalf("defaults lost: %+v", c)
	}
}

func TestParseErrorsNameFileKeyLine(t *testing.T) {
	cases := []struct {
		name, doc string
		line      int
		key, msg  string
	}{
		{"unknown key", "method = \"ga\"\n[ga]\npopulaton = 10\n", 3, "ga.populaton", `unknown key (did you mean "ga.population"?)`},
		{"unknown table", "seed = 1\n\n[gaa]\nx = 1\n", 3, "gaa", "unknown key"},
		{"old stall key", "[ga]\nstall = 3\n", 2, "ga.stall", "top-level key \"stall\""},
		{"wrong type", "seed = 1\n[engine]\ndepth = \"deep\"\n", 3, "engine.depth", "incompatible types"},
		{"wrong type in a method table", "[ga]\n\npopulation = \"many\"\n", 3, "ga.population", "incompatible types"},
		{"out of range", "[ga]\npopulation = 12\ngroups = 5\n", 3, "ga.groups", "divide"},
		{"bad enum", "\nmethod = \"sa\"\n", 2, "method", "must be"},
		{"bad probability", "[ga]\n\npm = 1.5\n", 3, "ga.pm", "probability"},
		{"negative seed", "\n\nseed = -1\n", 3, "seed", "0 or more"},
		{"NaN init", "[init]\nalert_lo = nan\n", 2, "init.alert_lo", "finite"},
		{"engine width above the engine's limit", "[engine]\nwidth = 101\n", 2, "engine.width", "must be at most 100, not 101"},
		{"verification width above the engine's limit", "[validation]\nwidth = 150\n", 2, "validation.width", "must be at most 100, not 150"},
		{"unknown opponent", "[validation]\nopponent = \"zhou2016\"\n", 2, "validation.opponent", "zhou2016"},
		{"bad SPRT", "[validation]\nsprt = \"banana\"\n", 2, "validation.sprt", ""},
		{"syntax", "seed = \n", 1, "seed", ""},
		{"unknown start vector", "method = \"spsa\"\nstart = \"nosuch.json\"\n", 2, "start", "nosuch.json"},
		{"start vector of another schema", "method = \"texel\"\nstart = \"qi2018-table3-1\"\n", 2, "start", "asymmetric"},
		{"start vector for the chen2010 GA", "\nstart = \"zhou2015\"\n", 2, "start", "variant = \"robust\""},
		{"unknown pool opponent", "method = \"spsa\"\n[spsa]\nopponents = [\"self\", \"zhou2016\"]\n", 3, "spsa.opponents", "entry 2, \"zhou2016\""},
		{"pool opponent of another schema", "method = \"spsa\"\n[spsa]\n\nopponents = [\"qi2018-table3-1\"]\n", 4, "spsa.opponents", "asymmetric vector"},
		{"empty pool entry", "method = \"spsa\"\n[spsa]\nopponents = [\"\"]\n", 3, "spsa.opponents", "empty"},
		{"unknown engine settings", "[engine]\n\nsettings = \"fast\"\n", 3, "engine.settings", "\"default\" or \"play\""},
		{"unknown opening suite", "\nopenings = \"balance\"\n", 2, "openings", "balanced"},
		{"bad early stop", "[match]\nearly_stop = \"soon\"\n", 2, "match.early_stop", "decided"},
		{"more ladder pairs than the suite's openings", "openings = \"balanced\"\n[validation]\npairs = 5000\n", 3, "validation.pairs", "distinct openings; the suite \"balanced\" has"},
		{"both opponent keys", "[validation]\nopponents = [\"zhou2015\"]\nopponent = \"zhou2015\"\n", 3, "validation.opponent", "not both"},
		{"both depth keys", "[validation]\n\ndepth = 2\ndepths = [2]\n", 3, "validation.depth", "not both"},
		{"unknown opponent in the list", "seed = 1\n[validation]\nopponents = [\"zhou2015\", \"zhou2016\"]\n", 3, "validation.opponents", "opponent 2"},
		{"unknown opponent, older key", "[validation]\n\nopponent = \"zhou2016\"\n", 3, "validation.opponent", "zhou2016"},
		{"opponent twice", "[validation]\nopponents = [\"halfway\", \"halfway\"]\n", 2, "validation.opponents", "twice"},
		{"opponents not a list", "[validation]\nopponents = \"zhou2015\"\n", 2, "validation.opponents", "incompatible"},
		{"depth twice", "[engine]\ndepth = 2\n[validation]\ndepths = [0, 2]\n", 4, "validation.depths", "twice"},
		{"negative depth", "[validation]\ndepths = [2, -1]\n", 2, "validation.depths", "0 (the engine depth) or more"},
		{"depth too deep", "[validation]\ndepths = [2, 13]\n", 2, "validation.depths", "depth 13"},
		{"depth too deep, older key", "[validation]\n\n\ndepth = 13\n", 4, "validation.depth", "depth 13"},
		{"no pairs", "[validation]\npairs = 0\n", 2, "validation.pairs", "at least 1"},
		{"negative width", "[validation]\nwidth = -1\n", 2, "validation.width", "0 (the engine width)"},
		{"negative elo_every", "[validation]\nelo_every = -1\n", 2, "validation.elo_every", "0 (off)"},
		{"no elo pairs", "[validation]\nelo_every = 2\nelo_pairs = 0\n", 3, "validation.elo_pairs", "at least 1"},
		{"robust GA pool entry unknown", "[ga]\nvariant = \"robust\"\npool = [\"centroid\", \"zhou2016\"]\n", 3, "ga.pool", "zhou2016"},
		{"robust PSO race that cannot decide", "method = \"pso\"\n[pso]\nvariant = \"robust\"\nrace_budget = 10\n", 4, "pso.race_budget", "race"},
		{"CMA-ES population too small", "method = \"cmaes\"\n[cmaes]\nlambda = 3\n", 3, "cmaes.lambda", "at least 4"},
		{"CMA-ES warm start of another schema", "method = \"cmaes\"\nstart = \"qi2018-table3-1\"\n", 2, "start", "asymmetric"},
		{"unknown space scale", "[space]\nscale = \"ln\"\n", 2, "space.scale", "\"linear\" or \"log\""},
		{"log space without a norm", "[space]\nscale = \"log\"\nnorm = 0.0\n", 3, "space.norm", "> 0"},
		{"log space for texel", "method = \"texel\"\n[space]\nscale = \"log\"\n", 3, "space.scale", "linear in the weights"},
		{"log space with the method's norm", "method = \"cmaes\"\n[cmaes]\nnorm = 100.0\n[space]\nscale = \"log\"\n", 3, "cmaes.norm", "must be 0"},
		{"log space for the dual schema", "schema = \"dual\"\n[space]\nscale = \"log\"\n", 3, "space.scale", "initial range of gene alert"},
		{"monotone chain of an unknown gene", "schema = \"tempo\"\n[space]\nmonotone = [[\"M1\", \"S2\"]]\n", 3, "space.monotone", "\"S2\" is not a gene of schema \"tempo\""},
		{"monotone chain of one gene", "schema = \"tempo\"\n[space]\nmonotone = [[\"M1\"]]\n", 3, "space.monotone", "chain 1 has 1 gene"},
		{"monotone gene in two chains", "schema = \"tempo\"\n[space]\nmonotone = [[\"M1\", \"M2\"], [\"M2\", \"M3\"]]\n", 3, "space.monotone", "gene M2 is in two chains"},
		{"monotone without bounds", "schema = \"tempo\"\n[bounds]\nmode = \"off\"\n[space]\nmonotone = [[\"M1\", \"M2\"]]\n", 5, "space.monotone", "bounds.mode"},
		{"monotone in log space", "schema = \"tempo\"\n[space]\nscale = \"log\"\nmonotone = [[\"M1\", \"M2\"]]\n", 4, "space.monotone", "scale = \"linear\""},
		{"monotone for texel", "method = \"texel\"\nschema = \"tempo\"\n[space]\nmonotone = [[\"M1\", \"M2\"]]\n", 4, "space.monotone", "texel"},
		{"negative elo_depth", "[validation]\nelo_every = 2\nelo_depth = -1\n", 3, "validation.elo_depth", "engine.depth"},
		{"elo_depth too deep", "[validation]\nelo_every = 2\nelo_depth = 99\n", 3, "validation.elo_depth", "depth 99"},
		{"elo against halfway only", "[validation]\nopponents = [\"halfway\"]\nelo_every = 2\n", 3, "validation.elo_every", "halfway"},
		{"elo_every not a number", "[validation]\nelo_every = \"often\"\n", 2, "validation.elo_every", "incompatible"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("cfg.toml", []byte(tc.doc))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("want *ConfigError, got %v", err)
			}
			if ce.File != "cfg.toml" || ce.Line != tc.line || ce.Key != tc.key || !strings.Contains(ce.Msg, tc.msg) {
				t.Fatalf("got file %q line %d key %q msg %q; want line %d key %q msg ~%q", ce.File, ce.Line, ce.Key, ce.Msg, tc.line, tc.key, tc.msg)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("cfg.toml:%d: key %q", tc.line, tc.key)) {
				t.Fatalf("error text %q does not start with the file, line and key", err)
			}
		})
	}
}

// TestPlaySettingsAtAFixedDepth: engine.settings = "play" starts the games'
// search from engine.PlaySettings (the engine binary's), keeps the config's
// depth and width, and plays without a clock, so tuning stays reproducible;
// the default is the tuning search.
func TestPlaySettingsAtAFixedDepth(t *testing.T) {
	c, err := Parse("p.toml", []byte("[engine]\ndepth = 3\nwidth = 12\nsettings = \"play\"\nthreat_search = false\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := c.engineSettings(c.Engine.Depth, c.Engine.Width)
	want := engine.PlaySettings()
	want.Depth, want.Width, want.MoveTime, want.MaxNodes = 3, 12, 0, 0
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("play settings:\n got %+v\nwant %+v", got, want)
	}
	if got.DefendNodes == 0 || !got.ThreatSearch {
		t.Fatalf("play settings without the defensive check or the threat search: %+v", got)
	}
	d, err := Parse("d.toml", []byte("[engine]\ndepth = 3\nwidth = 12\n"))
	if err != nil {
		t.Fatal(err)
	}
	def := d.engineSettings(3, 12)
	if def.DefendNodes != 0 || def.Killers {
		t.Fatalf("default settings carry play knobs: %+v", def)
	}
	if !strings.Contains(c.engineLine(), "PlaySettings") || strings.Contains(d.engineLine(), "PlaySettings") {
		t.Fatalf("report lines %q / %q do not say which search", c.engineLine(), d.engineLine())
	}
}

// TestValidationAgreesWithTheOwnersLimits walks each limit's edges: the
// config accepts exactly what the engine, the GA and the PSO accept.
func TestValidationAgreesWithTheOwnersLimits(t *testing.T) {
	cases := []struct {
		key      string
		ok, fail string
	}{
		{"engine.depth", "1", "0"},
		{"engine.depth", fmt.Sprint(engine.MaxDepth), fmt.Sprint(engine.MaxDepth + 1)},
		{"engine.width", "1", "0"},
		{"engine.width", fmt.Sprint(engine.MaxWidth), fmt.Sprint(engine.MaxWidth + 1)},
		{"validation.depths", fmt.Sprintf("[%d]", engine.MaxDepth), fmt.Sprintf("[%d]", engine.MaxDepth+1)},
		{"validation.depths", "[0, 3]", "[-1]"},
		{"validation.pairs", "1", "0"},
		{"validation.elo_every", "0", "-1"},
		{"validation.width", fmt.Sprint(engine.MaxWidth), fmt.Sprint(engine.MaxWidth + 1)},
		{"validation.width", "0", "-1"},
		{"match.pairs", "1", "0"},
		{"seed", "0", "-1"},
		{"stall", "0", "-1"},
		{"concurrency", "0", "-1"},
		{"ga.population", "7", "6"}, // 7 groups need 14: 7 is too few with the default groups
		{"ga.pc1", "1", "1.0000001"},
		{"ga.pm", "0", "-0.01"},
		{"ga.generations", "1", "-1"}, // 0 = the default, 30
		{"pso.particles", "2", "1"},
		{"pso.iterations", "1", "-1"}, // 0 = the default, 15
		{"pso.c1", "0", "-1"},
		{"pso.vmax_fraction", "0", "-0.5"},
	}
	for _, tc := range cases {
		t.Run(tc.key+"="+tc.fail, func(t *testing.T) {
			method := strings.Split(tc.key, ".")[0]
			if method != "ga" && method != "pso" {
				method = "ga"
			}
			try := func(v string) error {
				c := DefaultConfig()
				if err := c.Set("method", `"`+method+`"`); err != nil {
					t.Fatal(err)
				}
				if tc.key == "ga.population" {
					if err := c.Set("ga.groups", "1"); err != nil {
						t.Fatal(err)
					}
					v = map[string]string{"7": "2", "6": "1"}[v]
				}
				if err := c.Set(tc.key, v); err != nil {
					return err
				}
				return c.Validate()
			}
			if err := try(tc.ok); err != nil {
				t.Fatalf("%s = %s refused: %v", tc.key, tc.ok, err)
			}
			err := try(tc.fail)
			var ce *ConfigError
			if !errors.As(err, &ce) || ce.Key != tc.key {
				t.Fatalf("%s = %s: want a *ConfigError naming the key, got %v", tc.key, tc.fail, err)
			}
		})
	}
	// The engine's own check agrees at the edges the config walks.
	s := engine.DefaultSettings()
	s.Width = engine.MaxWidth + 1
	if s.Validate() == nil {
		t.Fatal("engine accepts a width the config refuses")
	}
}

func TestOverridesNameTheirFlag(t *testing.T) {
	doc := []byte("method = \"pso\"\n")
	_, err := Parse("cfg.toml", doc, Override{Key: "@budget", Value: "3", Source: "flag -generations", Unit: "generation"})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.File != "flag -generations" || !strings.Contains(ce.Msg, "does not apply") {
		t.Fatalf("-generations with pso: %v", err)
	}
	c, err := Parse("cfg.toml", doc, Override{Key: "@budget", Value: "3", Source: "flag -steps"})
	if err != nil || c.Options["pso"].(*pso.Settings).Iterations != 3 {
		t.Fatalf("-steps 3 with pso: %v", err)
	}
	_, err = Parse("cfg.toml", doc, Override{Key: "engine.width", Value: "150", Source: "flag -width"})
	if !errors.As(err, &ce) || ce.File != "flag -width" || ce.Key != "engine.width" || ce.Line != 0 {
		t.Fatalf("-width 150: %v", err)
	}
	_, err = Parse("cfg.toml", doc, Override{Key: "method", Value: `"ga"`, Source: "flag -method"}, Override{Key: "@budget", Value: "2", Source: "flag -generations", Unit: "generation"})
	if err != nil {
		t.Fatalf("-method ga -generations 2 over a pso file: %v", err)
	}
}

// TestShippedConfigsParse loads every embedded config and checks what each
// preset promises.
func TestShippedConfigsParse(t *testing.T) {
	names := configs.ConfigNames()
	if len(names) < 8 {
		t.Fatalf("only %d embedded configs: %v", len(names), names)
	}
	got := map[string]Config{}
	for _, n := range names {
		var ov []Override
		if strings.HasPrefix(n, "refine-") {
			// A refinement preset needs the run to refine: refused without.
			if _, err := LoadEmbedded(n); err == nil || !strings.Contains(err.Error(), "start") {
				t.Errorf("%s without -start: %v", n, err)
			}
			ov = append(ov, Override{Key: "start", Value: `"zhou2015"`, Source: "test"})
		}
		c, err := LoadEmbedded(n, ov...)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		got[n] = c
	}
	// The reference config documents every key with its default.
	if ref := got["reference"]; !reflect.DeepEqual(ref, DefaultConfig()) {
		t.Errorf("configs/reference.toml differs from DefaultConfig:\n%+v\n%+v", ref, DefaultConfig())
	}
	g := got["chen2010-ga"].Options["ga"].(*ga.Settings)
	if g.Population != 49 || g.Groups != 7 || g.Generations != 30 || g.Pm != 0.15 || got["chen2010-ga"].Bounds.Mode != "off" {
		t.Errorf("chen2010-ga is not Chen's Table 4.8: %+v", g)
	}
	c := got["chen2010-pso"]
	p := c.Options["pso"].(*pso.Settings)
	if c.Method != "pso" || p.Particles != 49 || p.Iterations != 15 || c.Bounds.Mode != "off" || p.VMaxFraction != 0 || c.Seed != got["chen2010-ga"].Seed {
		t.Errorf("chen2010-pso is not Chen's Table 5.1 from the GA's population: %+v %+v", c, p)
	}
	if c := got["qi2018-dual-ga"]; c.Schema != "dual" {
		t.Errorf("qi2018-dual-ga schema %q", c.Schema)
	}
}

// TestExperimentConfigsParse loads the configs of docs/experiments.md
// from the repository's root, where run.sh runs them (weight files they
// name are relative to it).
func TestExperimentConfigsParse(t *testing.T) {
	t.Chdir("..")
	paths, err := filepath.Glob(filepath.Join("configs", "experiments", "*.toml"))
	if err != nil || len(paths) < 6 {
		t.Fatalf("experiment configs: %v %v", paths, err)
	}
	seeds := map[string]int64{}
	for _, p := range paths {
		var ov []Override
		if strings.HasPrefix(filepath.Base(p), "refine-") {
			// A refinement preset needs the run to refine: refused without.
			if _, err := Load(p); err == nil || !strings.Contains(err.Error(), "start") {
				t.Errorf("%s without -start: %v", p, err)
			}
			ov = append(ov, Override{Key: "start", Value: `"zhou2015"`, Source: "test"})
		}
		c, err := Load(p, ov...)
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

// TestEncodeParsesBack checks the resolved config written to config.toml
// reads back to the same config, and that Flat and the fingerprint see a
// change.
func TestEncodeParsesBack(t *testing.T) {
	c, err := LoadEmbedded("pso")
	if err != nil {
		t.Fatal(err)
	}
	data, err := c.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("config.toml", data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if !reflect.DeepEqual(back, c) {
		t.Fatalf("round trip differs:\n%+v\n%+v", back, c)
	}
	a, _ := c.Flat()
	back.Engine.Depth++
	back.Concurrency = 7
	b, _ := back.Flat()
	if d := diffFlat(a, b); len(d) != 1 || !strings.HasPrefix(d[0], "engine.depth: 3 → 4") {
		t.Fatalf("diff %q", d)
	}
	if fingerprint(a) == fingerprint(b) {
		t.Fatal("fingerprint blind to engine.depth")
	}
	back.Engine.Depth--
	b, _ = back.Flat()
	if fingerprint(a) != fingerprint(b) {
		t.Fatal("fingerprint sees concurrency, which may change on resume")
	}
}

// TestSymmetricVectorServesOtherSchemas: a symmetric start or pool
// opponent serves the asymmetric and tempo schemas as the same evaluation
// (S for both sides' roads, no threat term) and is refused by the dual one.
func TestSymmetricVectorServesOtherSchemas(t *testing.T) {
	zhou := []float64{20, 80, 150, 800, 1000}
	for _, c := range []struct {
		schema engine.Schema
		want   []float64
	}{
		{"symmetric", zhou},
		{"asymmetric", append(slices.Clone(zhou), zhou...)},
		{"tempo", append(append(slices.Clone(zhou), zhou...), 0, 0)},
	} {
		got, err := (&Config{Schema: c.schema}).vectorOf("zhou2015")
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.schema, got, err, c.want)
		}
	}
	if _, err := (&Config{Schema: "dual"}).vectorOf("zhou2015"); err == nil || !strings.Contains(err.Error(), "symmetric vector") {
		t.Errorf("dual: %v, want a schema error", err)
	}
}
