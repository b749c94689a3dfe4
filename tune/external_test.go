package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/param"
)

// engineBinary builds cmd/engine once per test binary.
var engineBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "roadtune-engine-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/engine").CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ../cmd/engine: %v\n%s", err, out)
	}
	return bin, nil
})

// runExternal runs cfg to the end in a new directory (an external run
// writes no best.json for runStraight to read).
func runExternal(t *testing.T, cfg Config) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	j, err := Start(cfg, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}

func buildEngine(t *testing.T) string {
	t.Helper()
	bin, err := engineBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// searchParams are two of the engine binary's play settings as [[param]]
// tables, starting at the engine's own values.
const searchParams = `
[[param]]
name = "Width"
min = 4
max = 20
c_end = 2

[[param]]
name = "DefendWide"
min = 0
max = 100
c_end = 10
`

// inProcessTOML tunes searchParams on the in-process engine under the
// engine binary's search and weights at depth 1; externalTOML tunes the
// same settings of the engine binary at depth 1 through setoption.
func inProcessTOML() string {
	return `method = "spsa"
seed = 7
schema = "tempo"
[engine]
depth = 1
width = 15
settings = "play"
weights = "roadtune-tempo"
[spsa]
iterations = 3
[output]
games = true
[validation]
opponents = []
` + searchParams
}

func externalTOML(bin string, extra string) string {
	return fmt.Sprintf(`method = "spsa"
seed = 7
[engine]
depth = 1
width = 15
[external]
cmd = %q
args = ["-depth", "1", "-movetime", "0"]
%s
[spsa]
iterations = 3
[output]
games = true
[validation]
opponents = []
`, bin, extra) + searchParams
}

// TestExternalEqualsInProcess: tuning the engine binary's settings as an
// external program through setoption gives the records and best settings
// of tuning the same settings of the in-process engine with the same seed
// (the binary plays exactly the in-process engine's moves at a fixed
// depth, and its processes are reused across games and candidates).
func TestExternalEqualsInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/engine and plays two runs")
	}
	bin := buildEngine(t)
	in, err := Parse("in.toml", []byte(inProcessTOML()))
	if err != nil {
		t.Fatal(err)
	}
	ext, err := Parse("ext.toml", []byte(externalTOML(bin, "")))
	if err != nil {
		t.Fatal(err)
	}
	if ext.Params[0].Type != "int" || *ext.Params[0].Start != 15 || *ext.Params[1].Start != 60 {
		t.Errorf("types and starts from the engine's options: %+v %+v", ext.Params[0], ext.Params[1])
	}
	inDir, _ := runStraight(t, in)
	extDir := runExternal(t, ext)
	strip := func(recs []optimize.Record) string {
		for i := range recs {
			recs[i].Seconds = 0
		}
		data, _ := json.Marshal(recs)
		return string(data)
	}
	if a, b := strip(records(t, inDir)), strip(records(t, extDir)); a != b || len(a) < 10 {
		t.Errorf("records differ:\n in-process %s\n external   %s", a, b)
	}
	// Every fitness game, move by move (names, results and moves; the
	// times and node counts are the machine's).
	games := func(dir string) string {
		files, _ := filepath.Glob(filepath.Join(dir, DirGames, "iteration-*.jsonl"))
		var all []string
		for _, f := range files {
			gs, err := tournament.ReadGameLog(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range gs {
				all = append(all, fmt.Sprintf("%s %d %s-%s %s %s %v", filepath.Base(f), g.Game, g.Black, g.White, g.Result, g.Reason, g.Moves))
			}
		}
		return strings.Join(all, "\n")
	}
	if a, b := games(inDir), games(extDir); a != b || strings.Count(a, "\n") < 5 {
		t.Errorf("games differ:\n in-process %s\n external   %s", a, b)
	}
	var bs [2]param.Best
	for i, dir := range []string{inDir, extDir} {
		data, err := os.ReadFile(filepath.Join(dir, FileBestSettings))
		if err != nil || json.Unmarshal(data, &bs[i]) != nil {
			t.Fatalf("%s: %v", dir, err)
		}
	}
	if !slices.Equal(bs[0].Params, bs[1].Params) || !slices.Equal(bs[0].SetOption, bs[1].SetOption) {
		t.Errorf("best settings: in-process %+v, external %+v", bs[0], bs[1])
	}
	if bs[1].Weights != "" || len(bs[1].Engine) == 0 || bs[1].Engine[0] != bin {
		t.Errorf("external best settings name the engine, not a weight file: %+v", bs[1])
	}
	if _, err := os.Stat(filepath.Join(extDir, FileBest)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an external run wrote %s: %v", FileBest, err)
	}
}

// TestExternalRunLadder: an external run through each way of passing
// values plays its ladder against the engine at its defaults and an
// in-process baseline, and resumes to the uninterrupted run's records.
func TestExternalRunLadder(t *testing.T) {
	bin := fakeenginetest.Build(t)
	cmd := "-options=Width:int:15:1:100,DefendWide:int:60:0:100"
	toml := strings.Replace(externalTOML(bin, `pass = "arg"
template = "--{name}={value}"`), `args = ["-depth", "1", "-movetime", "0"]`, fmt.Sprintf("args = [%q]", cmd), 1)
	toml = strings.ReplaceAll(toml, "[[param]]\n", "[[param]]\ntype = \"int\"\n")
	toml = strings.Replace(toml, "opponents = []", fmt.Sprintf("opponents = [\"defaults\", \"zhou2015\", %q]\npairs = 1",
		fmt.Sprintf("name=rival cmd=%s initstr=\"param Width 3\" arg=-options=Width:int:15:1:100", bin)), 1)
	cfg, err := Parse("ext.toml", []byte(toml))
	if err != nil {
		t.Fatal(err)
	}
	dir := runExternal(t, cfg)
	var rungs []ladder.Rung
	data, _ := os.ReadFile(filepath.Join(dir, ladder.File))
	if json.Unmarshal(data, &rungs) != nil || len(rungs) != 3 || rungs[0].At() != "own search" ||
		rungs[0].Summary.Players[1].Kind != "external" || rungs[1].Summary.Players[1].Kind != "weights" ||
		rungs[2].Summary.Players[1].Name != "rival" || rungs[2].Summary.Players[1].Kind != "external" ||
		!strings.Contains(rungs[2].Summary.Players[1].Settings, "init param Width 3") {
		t.Fatalf("ladder %s", data)
	}
	if _, err := os.Stat(filepath.Join(dir, DirGames, "ladder-rival-own.jsonl")); err != nil {
		t.Errorf("the rival's games: %v", err)
	}
	if !strings.Contains(rungs[0].Summary.Players[0].Settings, "Width=") || !strings.Contains(rungs[0].Summary.Players[1].Settings, "own defaults") {
		t.Errorf("ladder players %+v", rungs[0].Summary.Players)
	}
	report, _ := os.ReadFile(filepath.Join(dir, FileReport))
	if !strings.Contains(string(report), "setoption name Width value ") || !strings.Contains(string(report), "values by arg") ||
		strings.Contains(string(report), "Exported as `best.json`") {
		t.Errorf("report.md of an external run:\n%s", report)
	}
}

// TestExternalExampleConfig: the guide's worked example, the engine
// binary tuned through setoption, parses with the built binary as its
// command and takes its parameters' types and starts from the binary.
func TestExternalExampleConfig(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cmd/engine")
	}
	bin := buildEngine(t)
	data, err := os.ReadFile("../configs/external/roadtune-engine.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `cmd = "./roadtune-engine"`, fmt.Sprintf("cmd = %q", bin), 1)
	if text == string(data) {
		t.Fatal("the example's cmd line moved: update this test")
	}
	c, err := Parse("roadtune-engine.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Params) != 3 || c.Params[0].Type != "int" || *c.Params[0].Start != 15 || *c.Params[1].Start != 19 || *c.Params[2].Start != 10 {
		t.Errorf("the example's parameters: %+v", c.Params)
	}
}

// TestExternalConfigErrors: each bad [external] or [[param]] table of an
// external run is a *ConfigError naming the file, the line and the key,
// before anything runs.
func TestExternalConfigErrors(t *testing.T) {
	bin := fakeenginetest.Build(t)
	defer func(d time.Duration) { externalProbeTime = d }(externalProbeTime)
	externalProbeTime = 500 * time.Millisecond
	opts := `args = ["-options=Width:int:15:1:100,DefendWide:int:60:0:100"]`
	base := strings.Replace(externalTOML(bin, ""), `args = ["-depth", "1", "-movetime", "0"]`, opts, 1)
	for _, tc := range []struct {
		name     string
		edit     func(string) string
		key, msg string
	}{
		{"unknown option", func(s string) string { return strings.Replace(s, `"DefendWide"`, `"Wdith"`, 1) }, "param[2].name", "its options are Width, DefendWide"},
		{"outside the option's range", func(s string) string { return strings.Replace(s, "max = 20", "max = 200", 1) }, "param[1].max", "outside the range"},
		{"min ≥ max", func(s string) string { return strings.Replace(s, "max = 20", "max = 4", 1) }, "param[1].max", "above min"},
		{"start outside", func(s string) string { return strings.Replace(s, "min = 4\n", "min = 4\nstart = 30\n", 1) }, "param[1].start", "outside [min, max]"},
		{"log of 0", func(s string) string { return strings.Replace(s, "min = 0\n", "min = 0\nscale = \"log\"\n", 1) }, "param[2].scale", "both bounds > 0"},
		{"type mismatch", func(s string) string { return strings.Replace(s, "min = 4\n", "min = 4\ntype = \"float\"\n", 1) }, "param[1].type", "lists Width as int"},
		{"no options", func(s string) string { return strings.Replace(s, opts, "", 1) }, "external.cmd", `no "optionsok" within`},
		{"template without value", func(s string) string {
			return strings.Replace(s, "[spsa]", "pass = \"initstr\"\ntemplate = \"param {name}\"\n[spsa]", 1)
		}, "external.template", "no {value}"},
		{"unknown pass", func(s string) string { return strings.Replace(s, "[spsa]", "pass = \"pipe\"\n[spsa]", 1) }, "external.pass", "not one of"},
		{"type needed", func(s string) string {
			return strings.Replace(s, "[spsa]", "pass = \"arg\"\ntemplate = \"--{name}={value}\"\n[spsa]", 1)
		}, "param[1]", "needs type"},
		{"missing program", func(s string) string {
			return strings.Replace(s, fmt.Sprintf("cmd = %q", bin), `cmd = "/no/such/engine"`, 1)
		}, "external.cmd", "no/such"},
		{"engine name", func(s string) string { return strings.Replace(s, "[spsa]", "name = \"my.engine\"\n[spsa]", 1) }, "external.name", "only letters, digits"},
		{"negative movetime", func(s string) string { return strings.Replace(s, "[spsa]", "movetime = -0.5\n[spsa]", 1) }, "external.movetime", "from 0 to 1000000"},
		{"movetime too long", func(s string) string { return strings.Replace(s, "[spsa]", "movetime = \"300h\"\n[spsa]", 1) }, "external.movetime", "from 0 to 1000000"},
		{"movetime not a duration", func(s string) string { return strings.Replace(s, "[spsa]", "movetime = \"soon\"\n[spsa]", 1) }, "external.movetime", "500ms"},
		{"movetime nan", func(s string) string { return strings.Replace(s, "[spsa]", "movetime = nan\n[spsa]", 1) }, "external.movetime", "not a duration"},
		{"texel", func(s string) string { return strings.Replace(s, `method = "spsa"`, `method = "texel"`, 1) }, "external", "texel fits"},
		{"opponent engine", func(s string) string {
			return strings.Replace(s, "opponents = []", `opponents = ["name=x cmd=/no/such/engine"]`, 1)
		}, "validation.opponents", "/no/such/engine"},
		{"ladder depths", func(s string) string { return strings.Replace(s, "opponents = []", "opponents = []\ndepths = [2]", 1) }, "validation.depths", "validation.clocks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.edit(base)
			if data == base {
				t.Fatal("the edit changed nothing")
			}
			_, err := Parse("x.toml", []byte(data))
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("%v: not a *ConfigError", err)
			}
			if ce.File != "x.toml" || ce.Key != tc.key || !strings.Contains(ce.Msg, tc.msg) {
				t.Fatalf("%v: want key %q and %q", err, tc.key, tc.msg)
			}
			field := tc.key[strings.LastIndex(tc.key, ".")+1:]
			if tc.key == "param[1]" {
				field = "[[param]]"
			}
			lines := strings.Split(data, "\n")
			if ce.Line < 1 || ce.Line > len(lines) || !strings.Contains(lines[ce.Line-1], field) {
				t.Fatalf("%v: line %d does not set %s", err, ce.Line, field)
			}
		})
	}
	if _, err := Parse("x.toml", []byte(base)); err != nil {
		t.Errorf("the base config: %v", err)
	}
	// "defaults" needs an [external] engine.
	_, err := Parse("y.toml", []byte(inProcessTOML()+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse("y.toml", []byte(strings.Replace(inProcessTOML(), "opponents = []", `opponents = ["defaults"]`, 1)))
	if err == nil || !strings.Contains(err.Error(), "no [external] table") {
		t.Errorf("defaults without [external]: %v", err)
	}
}

// TestExternalMoveTime: movetime reads as seconds (a number) or a
// duration in quotes into one time.Duration; the resolved config writes
// it as seconds, so its fingerprint key reads as it did when the field
// was float seconds, and the config reads back to the same value.
func TestExternalMoveTime(t *testing.T) {
	bin := fakeenginetest.Build(t)
	for _, tc := range []struct {
		value string
		want  time.Duration
		flat  string
	}{
		{"0.5", 500 * time.Millisecond, "0.5"},
		{"2", 2 * time.Second, "2"},
		{`"1m30s"`, 90 * time.Second, "90"},
		{`"250ms"`, 250 * time.Millisecond, "0.25"},
	} {
		data := strings.Replace(externalTOML(bin, "movetime = "+tc.value), `args = ["-depth", "1", "-movetime", "0"]`,
			`args = ["-options=Width:int:15:1:100,DefendWide:int:60:0:100"]`, 1)
		c, err := Parse("x.toml", []byte(data))
		if err != nil {
			t.Fatalf("movetime = %s: %v", tc.value, err)
		}
		if got := time.Duration(c.External.MoveTime); got != tc.want {
			t.Errorf("movetime = %s read as %v, want %v", tc.value, got, tc.want)
		}
		if r := c.External.Referee(c.Params, ""); r.MoveTime != tc.want {
			t.Errorf("movetime = %s reaches the referee as %v", tc.value, r.MoveTime)
		}
		flat, err := c.Flat()
		if err != nil || flat["external.movetime"] != tc.flat {
			t.Errorf("movetime = %s flattens to %q, want %q (%v)", tc.value, flat["external.movetime"], tc.flat, err)
		}
		enc, err := c.Encode()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse("back.toml", enc)
		if err != nil || back.External.MoveTime != c.External.MoveTime {
			t.Errorf("movetime = %s written and read back: %v, %v", tc.value, back.External.MoveTime, err)
		}
	}
}
