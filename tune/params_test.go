package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
	"github.com/roadtune/roadtune/internal/fixture/resumetest"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/optimize/spsa"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/param"
)

// paramsTOML is the tiny config of method tuning three search settings
// of the default search, the road weights fixed to zhou2015 when fixed.
func paramsTOML(method string, fixed bool, extra ...string) string {
	s := tunetest.Tiny(method, append([]string{`
[[param]]
name = "Width"
min = 2
max = 8
start = 4
c_end = 1
r_end = 0.004

[[param]]
name = "singles"   # compared without regard to case
min = 2
max = 12

[[param]]
name = "DefendNodes"
min = 100
max = 2000
scale = "log"
`}, extra...)...)
	if fixed {
		s = strings.Replace(s, "[engine]\n", "[engine]\nweights = \"zhou2015\"\n", 1)
	}
	return s
}

func parseParams(t *testing.T, method string, fixed bool, extra ...string) Config {
	t.Helper()
	c, err := Parse(method+".toml", []byte(paramsTOML(method, fixed, extra...)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestParamSpace: the method's vector is the genes (unless fixed), then
// the parameters; their ranges are [min, max], a log-scale one searched
// by its logarithm; SPSA starts from the parameters' starts (the run's
// setting where none is given) and takes their c_end and r_end; a
// population method gets no start.
func TestParamSpace(t *testing.T) {
	c := parseParams(t, "spsa", true)
	if got := c.GeneNames(); !slices.Equal(got, []string{"Width", "Singles", "DefendNodes"}) {
		t.Fatalf("GeneNames %v", got)
	}
	singles, _ := engine.ParamByName("Singles")
	p := c.Problem()
	if want := []float64{4, min(singles.Get(engine.DefaultSettings()), 12), 100}; !slices.Equal(p.Start, want) {
		t.Errorf("start %v, want %v (Width's start, the run's Singles and DefendNodes clamped to [min, max])", p.Start, want)
	}
	if !slices.Equal(p.Bounds.Lo, []float64{2, 2, 100}) || !slices.Equal(p.InitHi, []float64{8, 12, 2000}) {
		t.Errorf("ranges %v..%v, init up to %v", p.Bounds.Lo, p.Bounds.Hi, p.InitHi)
	}
	q, err := c.searchProblem()
	if err != nil {
		t.Fatal(err)
	}
	if q.Bounds.Lo[2] != math.Log(100) || q.Bounds.Hi[0] != 8 || q.Start[2] != math.Log(100) {
		t.Errorf("search problem %+v: DefendNodes should be searched by its logarithm, the rest as they are", q.Bounds)
	}
	o := c.methodOptions().(*spsa.Settings)
	if o.CEnd.Genes["Width"] != 1 || o.REnd.Genes["Width"] != 0.004 || len(c.MethodOptions().(*spsa.Settings).CEnd.Genes) != 0 {
		t.Errorf("spsa options: c_end %v, r_end %v; the config's own must stay as they were", o.CEnd.Genes, o.REnd.Genes)
	}
	g := parseParams(t, "ga", false)
	if names := g.GeneNames(); len(names) != 8 || names[4] != "S5" || names[5] != "Width" {
		t.Errorf("genes then parameters: %v", names)
	}
	if g.Problem().Start != nil {
		t.Error("the GA got a start vector")
	}
	if got := c.formatVector([]float64{5.6, 3.2, 1234.56}); got != "Width=6 Singles=3 DefendNodes=1235" {
		t.Errorf("formatVector: %q", got)
	}
	// The vector as players: integers rounded, the road weights fixed.
	zhou, _ := configs.LoadWeights("zhou2015")
	genes, values, err := c.splitVector([]float64{5.6, 3.2, 2000.4})
	if err != nil || !slices.Equal(genes, zhou.Values) || !slices.Equal(values, []float64{6, 3, 2000}) {
		t.Errorf("splitVector: %v %v %v", genes, values, err)
	}
}

// TestParamConfigErrors: each bad [[param]] table, engine.weights and
// clock key is a *ConfigError naming the file, the line that sets the
// key and the key, before anything runs.
func TestParamConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, method string
		fixed        bool
		edit         func(string) string
		key, msg     string
	}{
		{"unknown name", "spsa", true, func(s string) string { return strings.Replace(s, `"singles"`, `"Wdith"`, 1) }, "param[2].name", "DefendWide"},
		{"min ≥ max", "spsa", true, func(s string) string { return strings.Replace(s, "max = 8", "max = 2", 1) }, "param[1].max", "above min"},
		{"outside the engine's range", "spsa", true, func(s string) string { return strings.Replace(s, "max = 8", "max = 900", 1) }, "param[1].max", "engine's range"},
		{"start outside", "spsa", true, func(s string) string { return strings.Replace(s, "start = 4", "start = 9", 1) }, "param[1].start", "outside [min, max]"},
		{"log of 0", "spsa", true, func(s string) string { return strings.Replace(s, "min = 100\n", "min = 0\n", 1) }, "param[3].scale", "both bounds > 0"},
		{"scale", "spsa", true, func(s string) string { return strings.Replace(s, `scale = "log"`, `scale = "exp"`, 1) }, "param[3].scale", `"linear" or "log"`},
		{"twice", "spsa", true, func(s string) string { return strings.Replace(s, `"DefendNodes"`, `"width"`, 1) }, "param[3].name", "twice"},
		{"c_end 0", "spsa", true, func(s string) string { return strings.Replace(s, "c_end = 1", "c_end = 0", 1) }, "param[1].c_end", "> 0"},
		{"r_end < 0", "spsa", true, func(s string) string { return strings.Replace(s, "r_end = 0.004", "r_end = -1", 1) }, "param[1].r_end", "> 0"},
		{"texel", "texel", false, func(s string) string { return s }, "param[1].name", "texel fits evaluation weights"},
		{"weights without params", "spsa", true, func(s string) string { return s[:strings.Index(s, "[[param]]")] }, "engine.weights", "at least one"},
		{"unknown weights", "spsa", true, func(s string) string { return strings.Replace(s, `weights = "zhou2015"`, `weights = "nosuch"`, 1) }, "engine.weights", "nosuch"},
		{"tc and st", "spsa", true, func(s string) string {
			return strings.Replace(s, "[engine]\n", "[engine]\ntc = \"2+0.02\"\nst = 0.05\n", 1)
		}, "engine.st", "not both"},
		{"margin without a clock", "spsa", true, func(s string) string { return strings.Replace(s, "[engine]\n", "[engine]\ntimemargin = 20\n", 1) }, "engine.timemargin", "engine.tc or engine.st"},
		{"negative margin", "spsa", true, func(s string) string {
			return strings.Replace(s, "[engine]\n", "[engine]\nst = 0.1\ntimemargin = -1\n", 1)
		}, "engine.timemargin", "from 0"},
		{"a method norm", "ga", false, func(s string) string { return strings.Replace(s, "[ga]\n", "[ga]\nnorm = 1000\n", 1) }, "ga.norm", "must be 0"},
		{"bad tc", "spsa", true, func(s string) string { return strings.Replace(s, "[engine]\n", "[engine]\ntc = \"2+x\"\n", 1) }, "engine.tc", "increment"},
		{"bad clock rung", "spsa", true, func(s string) string {
			return strings.Replace(s, "[validation]\n", "[validation]\nclocks = [\"st=0.05\", \"depth=3\"]\n", 1)
		}, "validation.clocks", "clock 2"},
		{"log gene space", "spsa", false, func(s string) string {
			return strings.Replace(s, "[validation]\n", "[space]\nscale = \"log\"\n[validation]\n", 1)
		}, "space.scale", "its own scale"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.edit(paramsTOML(tc.method, tc.fixed))
			_, err := Parse("p.toml", []byte(data))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("%v: not a *ConfigError", err)
			}
			if ce.File != "p.toml" || ce.Key != tc.key || !strings.Contains(ce.Msg, tc.msg) {
				t.Fatalf("%v: want key %q and %q", err, tc.key, tc.msg)
			}
			field := tc.key[strings.LastIndex(tc.key, ".")+1:]
			lines := strings.Split(data, "\n")
			if ce.Line < 1 || ce.Line > len(lines) || !strings.Contains(lines[ce.Line-1], field) {
				t.Fatalf("%v: line %d does not set %s", err, ce.Line, field)
			}
		})
	}
}

// readBestSettings reads a run's best-settings.json and applies it to the
// default search as the engine binary's setoption would.
func readBestSettings(t *testing.T, dir string) (param.Best, engine.Settings) {
	t.Helper()
	var bs param.Best
	data, err := os.ReadFile(filepath.Join(dir, FileBestSettings))
	if err != nil || json.Unmarshal(data, &bs) != nil {
		t.Fatalf("%s: %v %s", FileBestSettings, err, data)
	}
	s := engine.DefaultSettings()
	for i, p := range bs.Params {
		ep, ok := engine.ParamByName(p.Name)
		if !ok || ep.Set(&s, p.Value) != nil || !strings.HasPrefix(bs.SetOption[i], "setoption name "+p.Name+" value ") {
			t.Fatalf("%s: %+v does not load", FileBestSettings, p)
		}
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	// The engine binary's protocol takes the setoption lines as they are.
	wf, err := engine.LoadWeightFile(filepath.Join(dir, bs.Weights))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	srv, err := protocol.NewServer(protocol.Config{Weights: wf.Weights(), Settings: engine.DefaultSettings()}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join(bs.SetOption, "\n") + "\noptions\nquit\n"
	if err := srv.Run(context.Background(), strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	for i, p := range bs.Params {
		if want := fmt.Sprintf("option name %s ", p.Name); !strings.Contains(out.String(), want) ||
			!strings.Contains(out.String(), fmt.Sprintf("default %s ", strings.Fields(bs.SetOption[i])[4])) || strings.Contains(out.String(), "error") {
			t.Fatalf("the engine's protocol after %q:\n%s", bs.SetOption, out.String())
		}
	}
	return bs, s
}

// TestParamsOnlySPSARun: SPSA tunes three search settings with the road
// weights fixed: the records name the parameters, best.json holds the
// fixed weights, best-settings.json the record's best, rounded, and the
// ladder plays the tuned settings against the run's own.
func TestParamsOnlySPSARun(t *testing.T) {
	cfg := parseParams(t, "spsa", true, "[output]\ngames = true")
	cfg.Validation.Depths = []int{1}
	dir, out := runStraight(t, cfg)
	zhou, _ := configs.LoadWeights("zhou2015")
	if !slices.Equal(out.Best, zhou.Values) {
		t.Errorf("best.json %v, want zhou2015's fixed weights", out.Best)
	}
	recs := records(t, dir)
	last := recs[len(recs)-1].Best
	bs, s := readBestSettings(t, dir)
	if len(last) != 3 || bs.Params[0].Value != math.Round(min(max(last[0], 2), 8)) || s.Width != int(bs.Params[0].Value) {
		t.Errorf("best %v, settings %+v", last, bs)
	}
	report, _ := os.ReadFile(filepath.Join(dir, FileReport))
	for _, want := range []string{"| Width | Singles | DefendNodes |", "setoption name DefendNodes value", "road weights fixed to zhou2015"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	var rungs []ladder.Rung
	data, _ := os.ReadFile(filepath.Join(dir, ladder.File))
	if json.Unmarshal(data, &rungs) != nil || len(rungs) != 1 || !strings.Contains(rungs[0].Summary.Players[0].Settings, "Width=") ||
		!strings.Contains(rungs[0].Summary.Players[1].Settings, "the run's settings") {
		t.Errorf("ladder %s", data)
	}
}

// TestWeightsAndParamsGARun: the GA tunes the road weights and two
// settings together; best.json holds the genes of the record's best, and
// best-settings.json its settings; the genes chart has the parameters'
// own chart.
func TestWeightsAndParamsGARun(t *testing.T) {
	cfg := parseParams(t, "ga", false)
	cfg.Params = cfg.Params[:2]
	cfg.Validation.Opponents = []string{}
	dir, out := runStraight(t, cfg)
	recs := records(t, dir)
	best := recs[len(recs)-1].Best
	if len(best) != 7 || !slices.Equal(out.Best, best[:5]) {
		t.Fatalf("best.json %v, the record's best %v", out.Best, best)
	}
	bs, _ := readBestSettings(t, dir)
	if bs.Params[0].Name != "Width" || bs.Params[1].Value != math.Round(min(max(best[6], 2), 12)) {
		t.Errorf("settings %+v of %v", bs, best)
	}
	for _, f := range []string{"plots/genes.png", "plots/genes-params.png"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// TestParamsRunResumes: a run on search settings stopped part-way and
// resumed ends with the uninterrupted run's records, best vector,
// settings and ladder.
func TestParamsRunResumes(t *testing.T) {
	cfg := parseParams(t, "spsa", true)
	cfg.Validation.Depths = []int{1}
	straight, want := runStraight(t, cfg)
	wantBS, _ := readBestSettings(t, straight)
	dir := filepath.Join(t.TempDir(), "run")
	j, err := Start(cfg, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	gc := &resumetest.GameCounter{N: 5, Cancel: cancel}
	if j, err = Resume(dir, Options{Events: Events{Games: gc.Games}}); err != nil {
		t.Fatal(err)
	}
	var ie *InterruptedError
	if err := j.Run(ctx); !errors.As(err, &ie) {
		t.Fatalf("the run was not stopped: %v", err)
	}
	if j, err = Resume(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	want.Equal(t, resumetest.ReadOutcome(t, dir), "resumed run")
	if bs, _ := readBestSettings(t, dir); !slices.Equal(bs.Params, wantBS.Params) {
		t.Errorf("resumed settings %+v, want %+v", bs.Params, wantBS.Params)
	}
}

// TestTimedRun: a run by the clock plays its fitness games and a ladder
// rung under the clock and finishes.
func TestTimedRun(t *testing.T) {
	cfg := parseParams(t, "spsa", true, "[output]\ngames = true")
	cfg.Engine.ST, cfg.Engine.TimeMargin = 0.01, 500 // no time forfeits on a loaded machine
	cfg.Validation.Depths = []int{1}
	cfg.Validation.Clocks = []string{"st=0.01 timemargin=500"}
	cfg.Options["spsa"].(*spsa.Settings).Iterations = 2
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	dir, _ := runStraight(t, cfg)
	var rungs []ladder.Rung
	data, _ := os.ReadFile(filepath.Join(dir, ladder.File))
	if json.Unmarshal(data, &rungs) != nil || len(rungs) != 2 || rungs[0].Clock != "" || rungs[1].Clock != "st=0.01 timemargin=500" {
		t.Fatalf("ladder %s", data)
	}
	games, err := os.ReadFile(filepath.Join(dir, DirGames, "ladder-zhou2015-st0.01-timemargin500.jsonl"))
	if err != nil || !strings.Contains(string(games), `"st=0.01 timemargin=500"`) {
		t.Errorf("the timed rung's games: %v", err)
	}
	fitness, _ := filepath.Glob(filepath.Join(dir, DirGames, "*"))
	found := false
	for _, f := range fitness {
		if data, err := os.ReadFile(f); err == nil && !strings.Contains(f, "ladder") && strings.Contains(string(data), `"st=0.01 timemargin=500"`) {
			found = true
		}
	}
	if !found {
		t.Errorf("no fitness game was played by the clock: %v", fitness)
	}
}

// TestParamsPopulationMethods: the PSO and CMA-ES tune parameters too
// (CMA-ES from the parameters' starts, the PSO from its initial draw).
func TestParamsPopulationMethods(t *testing.T) {
	for _, method := range []string{"pso", "cmaes"} {
		t.Run(method, func(t *testing.T) {
			cfg := parseParams(t, method, true)
			cfg.Validation.Opponents = []string{}
			dir, _ := runStraight(t, cfg)
			recs := records(t, dir)
			if len(recs) == 0 || len(recs[len(recs)-1].Best) != 3 {
				t.Fatalf("records %v", recs)
			}
			readBestSettings(t, dir)
		})
	}
}

// TestPlainConfigsKeepTheirFingerprint: a config without parameters or
// clocks encodes none of their keys, so the fingerprint of a run started
// before they existed still matches and the run resumes.
func TestPlainConfigsKeepTheirFingerprint(t *testing.T) {
	c := DefaultConfig()
	flat, err := c.Flat()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"engine.weights", "engine.tc", "engine.st", "validation.clocks", "param"} {
		if v, ok := flat[k]; ok {
			t.Errorf("a plain config encodes %s = %s", k, v)
		}
	}
	p := parseParams(t, "spsa", true)
	p.Engine.ST = 0.5
	if flat, _ := p.Flat(); flat["engine.st"] != "0.5" || !strings.Contains(flat["param"], `"DefendNodes"`) {
		t.Errorf("a params config's flat keys: %v", flat)
	}
}
