package param

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// External is the [external] table: the run tunes the options of an
// external engine (any program speaking the Cloudict/ConnectMore text
// protocol, as arena's -engine cmd= plays it) instead of roadtune's
// in-process engine. The method's vector is then the [[param]] tables
// alone (their names are the engine's), and a candidate's values reach
// the engine by pass. Opponents of the ladder may be the same engine at
// its own defaults, baselines (the in-process engine with [engine]'s
// search) and the run's own vectors (halfway, start).
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
//     runs in, as arena's dir= is ("" = that directory); AbsDir makes it
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
type External struct {
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

// Options are the tables as the options of an external engine
// (referee.External.Params: name, type, range).
func Options(ts []Table) []engine.Param {
	out := make([]engine.Param, len(ts))
	for i, pc := range ts {
		out[i] = engine.Param{Name: pc.Name, Float: pc.Type == TypeFloat, Min: pc.Min, Max: pc.Max}
	}
	return out
}

// Referee is the referee's External of the table: the description
// decoded, its per-move limit movetime, the tables as its options, its
// values files in fileDir (the run's folder; "" before a run has one).
func (x *External) Referee(ts []Table, fileDir string) *referee.External {
	r := x.External
	r.MoveTime, r.FileDir = time.Duration(x.MoveTime), fileDir
	r.Params = Options(ts)
	return &r
}

// AbsDir makes dir absolute (relative to the current directory, as
// arena's dir= is; "" is the current directory), so the run directory's
// config.toml names the same directory wherever it resumes. A nil x is
// left as it is.
func (x *External) AbsDir() {
	if x == nil || filepath.IsAbs(x.Dir) {
		return
	}
	if d, err := filepath.Abs(x.Dir); err == nil {
		x.Dir = d
	}
}

// Check checks the table's own keys with ts as the engine's options: a
// program, a cluster name referee.CheckEngineName takes, movetime from 0
// to 1,000,000 s, dir a directory, a pass and template the referee can
// send ts by (referee.External.Check). Errors: a *KeyError naming the
// key ("external.cmd").
func (x *External) Check(ts []Table) error {
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
	if err := x.Referee(ts, "values").Check(); err != nil {
		key := "external.template"
		if strings.HasPrefix(err.Error(), "pass") {
			key = "external.pass"
		}
		return bad(key, "%v", err)
	}
	return nil
}

// Fit starts the engine (each start bounded by probe) to check its
// program and, for pass setoption, asks it for its options: every table
// must be one of them (the error lists them), of its type (filled in when
// not given) and within its range; a missing start is the option's
// default, which OptionDefault keeps. For the other ways each table needs
// a type, and a missing start is the middle of its range (the geometric
// middle for scale "log"). It changes ts. Errors: a *KeyError naming the
// key.
func (x *External) Fit(ts []Table, probe time.Duration) error {
	ref := x.Referee(ts, "")
	if err := tournament.CheckProgram(ref.Argv(), ref.Dir); err != nil {
		return bad("external.cmd", "%v", err)
	}
	var opts []protocol.Option
	if ref.Pass == "" || ref.Pass == referee.PassSetOption {
		ctx, cancel := context.WithTimeout(context.Background(), 2*probe)
		defer cancel()
		e := ref.Engine
		e.Handshake = probe
		var err error
		if opts, err = tournament.ProbeOptions(ctx, e, tournament.ExternalOptions{}); err != nil {
			return bad("external.cmd", "must answer `options` with its options for pass setoption (the default; another pass needs no answer): %v", err)
		}
	}
	for i := range ts {
		pc := &ts[i]
		if opts != nil {
			if err := fitOption(i, pc, opts, x.Program); err != nil {
				return err
			}
		}
		switch pc.Type {
		case TypeInt, TypeFloat:
		case "":
			return bad(Key(i, ""), "needs type = %q or %q: pass %q cannot ask the engine for its options", TypeInt, TypeFloat, x.Pass)
		default:
			return bad(Key(i, "type"), "must be %q or %q, not %q", TypeInt, TypeFloat, pc.Type)
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

// fitOption fits the i-th table pc to the engine's option of its name
// (without regard to case) among opts, program's: its name as the engine
// spells it, its type, its range within the option's, its default.
func fitOption(i int, pc *Table, opts []protocol.Option, program string) error {
	j := slices.IndexFunc(opts, func(o protocol.Option) bool { return strings.EqualFold(o.Name, pc.Name) })
	if j < 0 {
		names := make([]string, len(opts))
		for k, o := range opts {
			names[k] = o.Name
		}
		return bad(Key(i, "name"), "%q is not an option of %s; its options are %s", pc.Name, program, strings.Join(names, ", "))
	}
	o := opts[j]
	pc.Name = o.Name
	typ := TypeInt
	if o.Float {
		typ = TypeFloat
	}
	if pc.Type != "" && pc.Type != typ {
		return bad(Key(i, "type"), "is %q, but %s lists %s as %s", pc.Type, program, o.Name, typ)
	}
	pc.Type = typ
	for _, f := range []struct {
		key string
		v   float64
	}{{"min", pc.Min}, {"max", pc.Max}} {
		if f.v < o.Min || f.v > o.Max {
			return bad(Key(i, f.key), "%g is outside the range %s gives %s, [%g, %g]", f.v, program, o.Name, o.Min, o.Max)
		}
	}
	d := o.Default
	pc.OptionDefault = &d
	if pc.Start == nil && o.Default >= pc.Min && o.Default <= pc.Max {
		d := o.Default
		pc.Start = &d
	}
	return nil
}

// CheckValues starts the engine (each start bounded by probe) with the
// lowest and then the highest values of every table, passed as a run
// passes them, and reports a line it refuses (an `error` reply) or a
// start that fails, as a *KeyError of key "external"; other errors are
// the file system's.
func (x *External) CheckValues(ts []Table, probe time.Duration) error {
	dir, err := os.MkdirTemp("", "roadtune-values-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	ref := x.Referee(ts, dir)
	for _, end := range []string{"min", "max"} {
		values := make([]float64, len(ref.Params))
		for i, p := range ref.Params {
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
		ctx, cancel := context.WithTimeout(context.Background(), 2*probe)
		e.Handshake = probe
		err = tournament.CheckSetup(ctx, e.Engine, tournament.ExternalOptions{}, e.Setup)
		cancel()
		if err != nil {
			return bad("external", "the engine refuses the [[param]] %s values as pass %q sends them: %v", end, ref.Pass, err)
		}
	}
	return nil
}

// PassName is external.pass, "setoption" when not given.
func (x *External) PassName() string {
	if x.Pass == "" {
		return string(referee.PassSetOption)
	}
	return string(x.Pass)
}

// Describe is how a run's candidate is played, for the report: the
// command and the way values pass.
func (x *External) Describe() string {
	s := fmt.Sprintf("external engine %s, values by %s", strings.Join(x.Argv(), " "), x.PassName())
	if x.Template != "" {
		s += fmt.Sprintf(" (%q)", x.Template)
	}
	return s
}

// Search says how the engine searches, as far as its fixed arguments and
// init strings tell: "depth 2 (its argument -depth 2)" for an argument
// -depth N, --depth N or -depth=N, "depth 3 (its init string \"depth
// 3\")" for an init string "depth N" (Cloudict's), and "the engine's own
// search" when neither sets a depth: roadtune never sets an external
// engine's depth itself.
func (x *External) Search() string {
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

// Tuned names what a run tunes of the engine, ts its options: "the
// options Width, DefendWide and DefendMaxDepth of ./roadtune-engine".
func (x *External) Tuned(ts []Table) string {
	names := make([]string, len(ts))
	for i, pc := range ts {
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
	return fmt.Sprintf("the %s %s of %s", word, list, x.Program)
}

// Played are the values an external player's games are played with, as
// the engine receives them (integers rounded): v's, or for v nil (the
// engine at its defaults, nothing passed) the defaults the engine gave in
// its reply to `options` (OptionDefault); nil when they are not known (a
// pass other than setoption) or v does not fit the tables.
func Played(ts []Table, v []float64) []float64 {
	params := Options(ts)
	if v != nil && len(v) != len(params) {
		return nil
	}
	out := make([]float64, len(params))
	for i, p := range params {
		if v != nil {
			out[i] = referee.ParamValue(p, v[i])
			continue
		}
		d := ts[i].OptionDefault
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
