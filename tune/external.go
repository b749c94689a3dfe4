// This file holds the [external] table: an external protocol engine as
// the thing a run tunes, its parameters checked against the engine's own
// options before anything runs.

package tune

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/param"
)

// ExternalConfig is the [external] table: the run tunes the options of an
// external engine (any program speaking the Cloudict/ConnectMore text
// protocol, as arena's -engine cmd= plays it) instead of roadtune's
// in-process engine. The method's vector is then the [[param]] tables
// alone (their names are the engine's), and a candidate's values reach
// the engine by pass. Opponents of the ladder may be DefaultsOpponent (the
// same engine at its own defaults), baselines (the in-process engine with
// [engine]'s search) and the run's own vectors (halfway, start).
//
// The table decodes into the referee's description of the engine
// (referee.External: tournament.Engine's keys and the referee's pass and
// template), its keys after cutechess-cli's and arena's options:
//   - cmd: the program, an absolute path, a path relative to dir, or a
//     name looked up in $PATH;
//   - name: names the engine to the workers of a cluster (tune -listen,
//     -nats), which take its batches only when started with -engine
//     name=NAME cmd=PATH, PATH a program with the same SHA-256 as cmd;
//     letters, digits, '-' and '_'; "" = cmd's base name with any other
//     character made '_' (referee.DefaultEngineName);
//   - dir: the engine's working directory, relative to the directory tune
//     runs in, as arena's dir= is ("" = that directory); Parse makes it
//     absolute, so a run resumes with the same engine from anywhere;
//   - args, initstr: the program's fixed arguments and the lines sent
//     after the handshake of every process (arena's arg= and initstr=);
//   - pass: how a candidate's values reach the engine (referee.Passes):
//     "setoption" (the default: `setoption name NAME value V` before every
//     game; the engine must answer `options`), "initstr" (template per
//     parameter, a line before every game), "arg" (template per
//     parameter, an argument: a process per candidate), "file-arg" or
//     "file-initstr" (the values in a file of NAME VALUE lines, named by
//     template's {file} as an argument or a line);
//   - template: fills in {name} and {value} (initstr, arg) or {file} (the
//     file ways): "param {name} {value}", "--{name}={value}",
//     "-valuesfile={file}".
//
// Only movetime is the table's own (MoveTime): the description's limit is
// a time.Duration, which TOML would read from a bare number as
// nanoseconds, while the table's is in seconds.
type ExternalConfig struct {
	referee.External
	// MoveTime is the per-move limit of games without a clock (engine.tc,
	// engine.st), in TOML a number of seconds (0.5) or a duration in
	// quotes ("500ms"); 0 = tournament.DefaultMoveTime. A move over it
	// loses the game.
	MoveTime Seconds `toml:"movetime,omitzero"`
}

// Seconds is a time.Duration as a config writes it: a number of seconds
// (movetime = 0.5), which it also reads, as it reads a duration in quotes
// ("500ms", time.ParseDuration), so the config.toml of a run written with
// either resumes with the same fingerprint.
type Seconds time.Duration

// UnmarshalTOML reads a number of seconds or a duration string. Errors:
// another TOML type, a string time.ParseDuration refuses, a number that
// is not finite or does not fit a time.Duration.
func (s *Seconds) UnmarshalTOML(v any) error {
	var sec float64
	switch v := v.(type) {
	case int64:
		sec = float64(v)
	case float64:
		sec = v
	case string:
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("want seconds (0.5) or a duration in quotes (\"500ms\"): %w", err)
		}
		*s = Seconds(d)
		return nil
	default:
		return fmt.Errorf("want seconds (0.5) or a duration in quotes (\"500ms\"), not %T", v)
	}
	if math.IsNaN(sec) || math.Abs(sec) > math.MaxInt64/float64(time.Second) {
		return fmt.Errorf("%v seconds is not a duration", sec)
	}
	*s = Seconds(math.Round(sec * float64(time.Second)))
	return nil
}

// MarshalTOML writes s as a number of seconds, the shortest that reads
// back to it (0.5, 2).
func (s Seconds) MarshalTOML() ([]byte, error) {
	return []byte(strconv.FormatFloat(time.Duration(s).Seconds(), 'f', -1, 64)), nil
}

// String is s as time.Duration writes it ("500ms").
func (s Seconds) String() string { return time.Duration(s).String() }

// DefaultsOpponent is the ladder opponent of an [external] run that is the
// tuned engine itself at its own defaults: nothing passed.
const DefaultsOpponent = ladder.DefaultsOpponent

// externalFiles is the run directory's folder for the values files of the
// file ways (removed after each batch).
const externalFiles = "values"

// paramTypeInt and paramTypeFloat are the [[param]] type values.
const (
	paramTypeInt   = param.TypeInt
	paramTypeFloat = param.TypeFloat
)

// externalStarts lets Validate start the [external] engine (its
// program's checks, its options, its refusals); FuzzConfig, which parses
// arbitrary configs, turns it off so that no fuzzed command runs.
var externalStarts = func() *atomic.Bool { b := new(atomic.Bool); b.Store(true); return b }()

// externalProbeTime bounds each start of the engine during validation
// (the wait for its reply to name, to options); a variable for tests.
var externalProbeTime = 10 * time.Second

// referee is the External of the config's [external] table, without its
// options (externalRef): the description decoded, its per-move limit
// movetime; fileDir is where the values files go (the run's folder; ""
// before a run has one).
func (x *ExternalConfig) referee(fileDir string) *referee.External {
	r := x.External
	r.MoveTime, r.FileDir = time.Duration(x.MoveTime), fileDir
	return &r
}

// externalRef is the External of the [external] table with the [[param]]
// tables as its options (referee), its values files in fileDir.
func (c *Config) externalRef(fileDir string) *referee.External {
	x := c.External.referee(fileDir)
	x.Params = c.externalParams()
	return x
}

// externalParams are the [[param]] tables as the options of the external
// engine (referee.External.Params: name, type, range).
func (c *Config) externalParams() []engine.Param {
	out := make([]engine.Param, len(c.Params))
	for i, pc := range c.Params {
		out[i] = engine.Param{Name: pc.Name, Float: pc.Type == paramTypeFloat, Min: pc.Min, Max: pc.Max}
	}
	return out
}

// absExternalDir makes external.dir absolute (relative to the current
// directory, as arena's dir= is; "" is the current directory), so the run
// directory's config.toml names the same directory wherever it resumes.
func (x *ExternalConfig) absExternalDir() {
	if x == nil || filepath.IsAbs(x.Dir) {
		return
	}
	if d, err := filepath.Abs(x.Dir); err == nil {
		x.Dir = d
	}
}

// validateExternal checks the [external] table and, for pass setoption,
// asks the engine for its options: every [[param]] must be one of them
// (the error lists them), of its type (filled in when not given) and
// within its range; a missing start is the option's default. For the
// other ways each [[param]] needs a type, and a missing start is the
// middle of its range (the geometric middle for scale "log"). Then the
// engine is started with the lowest and then the highest values as a run
// passes them, and must not refuse them. Errors are *ConfigError naming
// the key.
func (c *Config) validateExternal() error {
	x := c.External
	if c.Method == "texel" {
		return bad("external", "texel fits the in-process engine's evaluation weights by their features: tune an external engine with spsa, ga, pso or cmaes")
	}
	if c.Engine.Weights != "" {
		return bad("engine.weights", "fixes the in-process engine's road weights, and the run tunes the external engine of [external]: leave it out")
	}
	if len(c.Validation.Depths) > 0 {
		return bad("validation.depths", "an external engine searches as its own args and init strings say: give validation.clocks for rungs by the clock instead")
	}
	if x.Program == "" {
		return bad("external.cmd", "is missing: the program to run")
	}
	if x.Name != "" {
		if err := referee.CheckEngineName(x.Name); err != nil {
			return bad("external.name", "%v", err)
		}
	}
	if x.MoveTime < 0 || x.MoveTime > Seconds(1e6*time.Second) {
		return bad("external.movetime", "must be seconds from 0 to 1000000, not %s", x.MoveTime)
	}
	if st, err := os.Stat(x.Dir); x.Dir != "" && (err != nil || !st.IsDir()) {
		return bad("external.dir", "%q is not a directory", x.Dir)
	}
	ref := c.externalRef("values")
	if err := ref.Check(); err != nil {
		key := "external.template"
		if strings.HasPrefix(err.Error(), "pass") {
			key = "external.pass"
		}
		return bad(key, "%v", err)
	}
	if !externalStarts.Load() {
		return nil
	}
	if err := tournament.CheckProgram(ref.Argv(), ref.Dir); err != nil {
		return bad("external.cmd", "%v", err)
	}
	var opts []protocol.Option
	if ref.Pass == "" || ref.Pass == referee.PassSetOption {
		ctx, cancel := context.WithTimeout(context.Background(), 2*externalProbeTime)
		defer cancel()
		var err error
		probe := ref.Engine
		probe.Handshake = externalProbeTime
		opts, err = tournament.ProbeOptions(ctx, probe, tournament.ExternalOptions{})
		if err != nil {
			return bad("external.cmd", "must answer `options` with its options for pass setoption (the default; another pass needs no answer): %v", err)
		}
	}
	for i := range c.Params {
		pc := &c.Params[i]
		if opts != nil {
			j := slices.IndexFunc(opts, func(o protocol.Option) bool { return strings.EqualFold(o.Name, pc.Name) })
			if j < 0 {
				names := make([]string, len(opts))
				for k, o := range opts {
					names[k] = o.Name
				}
				return bad(paramKey(i, "name"), "%q is not an option of %s; its options are %s", pc.Name, x.Program, strings.Join(names, ", "))
			}
			o := opts[j]
			pc.Name = o.Name
			typ := paramTypeInt
			if o.Float {
				typ = paramTypeFloat
			}
			if pc.Type != "" && pc.Type != typ {
				return bad(paramKey(i, "type"), "is %q, but %s lists %s as %s", pc.Type, x.Program, o.Name, typ)
			}
			pc.Type = typ
			for _, f := range []struct {
				key string
				v   float64
			}{{"min", pc.Min}, {"max", pc.Max}} {
				if f.v < o.Min || f.v > o.Max {
					return bad(paramKey(i, f.key), "%g is outside the range %s gives %s, [%g, %g]", f.v, x.Program, o.Name, o.Min, o.Max)
				}
			}
			d := o.Default
			pc.OptionDefault = &d
			if pc.Start == nil && o.Default >= pc.Min && o.Default <= pc.Max {
				d := o.Default
				pc.Start = &d
			}
		}
		switch pc.Type {
		case paramTypeInt, paramTypeFloat:
		case "":
			return bad(paramKey(i, ""), "needs type = %q or %q: pass %q cannot ask the engine for its options", paramTypeInt, paramTypeFloat, x.Pass)
		default:
			return bad(paramKey(i, "type"), "must be %q or %q, not %q", paramTypeInt, paramTypeFloat, pc.Type)
		}
		if pc.Start == nil && pc.Min < pc.Max {
			mid := (pc.Min + pc.Max) / 2
			if pc.Scale == ScaleLog && pc.Min > 0 {
				mid = math.Sqrt(pc.Min * pc.Max)
			}
			pc.Start = &mid
		}
	}
	return nil
}

// checkExternalValues starts the engine with the lowest and then the
// highest values of every parameter, passed as the run passes them, and
// reports a line it refuses (an `error` reply) or a start that fails.
func (c *Config) checkExternalValues() error {
	if !externalStarts.Load() {
		return nil
	}
	dir, err := os.MkdirTemp("", "roadtune-values-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ref := c.externalRef(dir)
	params := ref.Params
	for _, end := range []string{"min", "max"} {
		values := make([]float64, len(params))
		for i, p := range params {
			values[i] = p.Min
			if end == "max" {
				values[i] = p.Max
			}
			values[i] = referee.ParamValue(p, values[i])
		}
		e, _, err := ref.Entrant("check", values, tournament.TimeControl{})
		if err != nil {
			return bad("external", "%v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*externalProbeTime)
		e.Handshake = externalProbeTime
		err = tournament.CheckSetup(ctx, e.Engine, tournament.ExternalOptions{}, e.Setup)
		cancel()
		if err != nil {
			return bad("external", "the engine refuses the [[param]] %s values as pass %q sends them: %v", end, ref.Pass, err)
		}
	}
	return nil
}

// passName is external.pass, "setoption" when not given.
func (x *ExternalConfig) passName() string {
	if x.Pass == "" {
		return string(referee.PassSetOption)
	}
	return string(x.Pass)
}

// describe is how an [external] run's candidate is played, for the
// report: the command and the way values pass.
func (x *ExternalConfig) describe() string {
	s := fmt.Sprintf("external engine %s, values by %s", strings.Join(x.Argv(), " "), x.passName())
	if x.Template != "" {
		s += fmt.Sprintf(" (%q)", x.Template)
	}
	return s
}

// search says how the [external] engine searches, as far as its fixed
// arguments and init strings tell: "depth 2 (its argument -depth 2)" for
// an argument -depth N, --depth N or -depth=N, "depth 3 (its init string
// \"depth 3\")" for an init string "depth N" (Cloudict's), and "the
// engine's own search" when neither sets a depth: roadtune never sets an
// external engine's depth itself.
func (x *ExternalConfig) search() string {
	for i, a := range x.Args {
		name, value, eq := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || !strings.EqualFold(name, "depth") {
			continue
		}
		given := a
		if !eq && i+1 < len(x.Args) {
			value, given = x.Args[i+1], a+" "+x.Args[i+1]
		}
		if isDepth(value) {
			return fmt.Sprintf("depth %s (its argument %s)", value, given)
		}
	}
	for _, line := range x.InitStrings {
		if f := strings.Fields(line); len(f) == 2 && strings.EqualFold(f[0], "depth") && isDepth(f[1]) {
			return fmt.Sprintf("depth %s (its init string %q)", f[1], line)
		}
	}
	return "the engine's own search"
}

// isDepth reports whether s is a search depth: a positive integer.
func isDepth(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0 && !strings.HasPrefix(s, "+")
}

// tunedText names what an [external] run tunes: "the options Width,
// DefendWide and DefendMaxDepth of ./roadtune-engine".
func (c *Config) tunedText() string {
	names := make([]string, len(c.Params))
	for i, pc := range c.Params {
		names[i] = pc.Name
	}
	list := strings.Join(names, ", ")
	if k := len(names); k > 1 {
		list = strings.Join(names[:k-1], ", ") + " and " + names[k-1]
	}
	word := "options"
	if len(names) == 1 {
		word = "option"
	}
	return fmt.Sprintf("the %s %s of %s", word, list, c.External.Program)
}

// startLine is what a run tunes and how its games search, for the line a
// run starts with: "spsa on the tempo schema (12 genes), seed 1, depth 2,
// width 10", or for an [external] run "spsa on the options Width and
// DefendWide of ./roadtune-engine at depth 2 (its argument -depth 2),
// seed 1".
func (c *Config) startLine() string {
	if c.External != nil {
		return fmt.Sprintf("%s on %s at %s, seed %d", c.Method, c.tunedText(), c.External.search(), c.Seed)
	}
	return fmt.Sprintf("%s on the %s schema (%d genes), seed %d, depth %d, width %d",
		c.Method, c.Schema, len(c.GeneNames()), c.Seed, c.Engine.Depth, c.Engine.Width)
}

// playedValues are the values an [external] player's games are played
// with, as the engine receives them (integers rounded): v's, or for v nil
// (DefaultsOpponent, nothing passed) the defaults the engine gave in its
// reply to `options`; nil when they are not known (a pass other than
// setoption) or v does not fit the [[param]] tables.
func (c *Config) playedValues(v []float64) []float64 {
	params := c.externalParams()
	if v != nil && len(v) != len(params) {
		return nil
	}
	out := make([]float64, len(params))
	for i, p := range params {
		if v != nil {
			out[i] = referee.ParamValue(p, v[i])
			continue
		}
		d := c.Params[i].OptionDefault
		if d == nil {
			return nil
		}
		out[i] = *d
		if !p.Float {
			out[i] = math.Round(*d)
		}
	}
	return out
}
