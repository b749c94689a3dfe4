// This file holds the external engine as the thing being tuned: how a
// candidate's parameter values reach another program (setoption lines,
// init-string or argument templates, a values file per candidate).

package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/tournament"
)

// Pass is how a candidate's parameter values reach an external engine.
type Pass string

// The ways of passing values. setoption and the two line ways reach a
// process that is reused between games and candidates (the lines are sent
// before every game, after the handshake and the init strings); the
// argument ways change the command line, so each distinct candidate runs
// in processes of its own (reused only between its own games).
const (
	// PassSetOption sends `setoption name NAME value V` per parameter
	// (roadtune's protocol extension, UCI's shape).
	PassSetOption Pass = "setoption"
	// PassInitStr sends Template with {name} and {value} filled in, one
	// line per parameter ("param {name} {value}").
	PassInitStr Pass = "initstr"
	// PassArg appends Template with {name} and {value} filled in to the
	// command, one argument per parameter ("--{name}={value}").
	PassArg Pass = "arg"
	// PassFileArg writes the candidate's values file (ValuesFile) and
	// appends Template with {file} filled in to the command
	// ("-valuesfile={file}").
	PassFileArg Pass = "file-arg"
	// PassFileInitStr writes the candidate's values file and sends
	// Template with {file} filled in before every game ("valuesfile {file}").
	PassFileInitStr Pass = "file-initstr"
)

// Passes are the ways of passing values, in the order the docs list them.
var Passes = []Pass{PassSetOption, PassInitStr, PassArg, PassFileArg, PassFileInitStr}

// External is an external protocol engine (Cloudict/ConnectMore text
// protocol) as the player a match vector stands for: the engine's
// description, the options the vector holds one value each of, and how
// the candidate's values reach the program (Pass).
//
// Its JSON is the cluster's wire form (Setup.External): the name,
// SHA-256, arguments, init strings, way of passing, template, limits and
// options, never the program path, the directory or FileDir, which are
// the machine's own (each worker runs its own copy of the program,
// matched by Name and SHA256): a decoded External has no Program until a
// worker puts its copy's path there. Its toml tags (with
// tournament.Engine's) are the keys of a tuning config's [external]
// table.
type External struct {
	// Engine describes the program: Name names it where its games are
	// played on other machines (package cluster hands a batch of it only
	// to workers that declared an engine of this name whose program has
	// the same SHA256; "" stands for DefaultEngineName of Program: the
	// games do not depend on it); Program and Args are the program and its
	// fixed arguments (a relative program is taken from Dir); Dir, InitStrings,
	// MoveTime (tournament.DefaultMoveTime when 0) and Handshake
	// (tournament.DefaultHandshake when 0) are the driver's. Its Weights,
	// Settings and Time are not used: Setup.Time is every player's clock.
	tournament.Engine
	// Params are the engine's options a vector holds a value for, in
	// order: their Name, Float, Min and Max.
	Params []engine.Param `toml:"-"`
	// Pass is how the values reach the engine (PassSetOption when "").
	Pass Pass `toml:"pass,omitempty"`
	// Template is the line or argument of the initstr, arg, file-arg and
	// file-initstr ways: with {name} and {value} for the first two ({name}
	// may be left out with a single parameter), with {file} for the file
	// ways.
	Template string `toml:"template,omitempty"`
	// FileDir is the directory the file ways write the values files to
	// (created when missing); a batch's files are removed when it ends.
	FileDir string `toml:"-"`
}

// externalJSON is External's wire form, in the order of its fields.
type externalJSON struct {
	Name        string         `json:"name"`
	SHA256      string         `json:"sha256"`
	Args        []string       `json:"args,omitempty"`
	InitStrings []string       `json:"init_strings,omitempty"`
	Pass        Pass           `json:"pass,omitempty"`
	Template    string         `json:"template,omitempty"`
	MoveTime    time.Duration  `json:"move_time,omitempty"` // nanoseconds
	Handshake   time.Duration  `json:"handshake,omitempty"` // nanoseconds
	Params      []engine.Param `json:"params"`
}

// MarshalJSON writes x's wire form: name, sha256, args, init_strings, pass, template, move_time and handshake
// (nanoseconds), params (name, float, min, max); no path, directory or
// FileDir.
func (x External) MarshalJSON() ([]byte, error) {
	w := externalJSON{Name: x.Name, SHA256: x.SHA256, Args: x.Args, InitStrings: x.InitStrings, Pass: x.Pass, Template: x.Template,
		MoveTime: x.MoveTime, Handshake: x.Handshake, Params: x.Params}
	if w.Params == nil {
		w.Params = []engine.Param{}
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads MarshalJSON's wire form, without a Program (the
// reader's own copy runs). Errors: JSON's.
func (x *External) UnmarshalJSON(data []byte) error {
	var w externalJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*x = External{Engine: tournament.Engine{Name: w.Name, SHA256: w.SHA256, Args: w.Args,
		InitStrings: w.InitStrings, MoveTime: w.MoveTime, Handshake: w.Handshake},
		Params: w.Params, Pass: w.Pass, Template: w.Template}
	return nil
}

// Check reports what makes x unable to pass its Params: an unknown Pass,
// an empty command, a template without {value} (or without {name} for
// more than one parameter) for the initstr and arg ways, a template
// without {file} or no FileDir for the file ways, a template with a
// newline.
func (x *External) Check() error {
	if x.Program == "" {
		return errors.New("no command")
	}
	if strings.ContainsAny(x.Template, "\r\n") {
		return fmt.Errorf("template %q holds a line break", x.Template)
	}
	switch x.pass() {
	case PassSetOption:
		if x.Template != "" {
			return fmt.Errorf("template %q is not used by pass %q (setoption lines are fixed): leave it out", x.Template, PassSetOption)
		}
	case PassInitStr, PassArg:
		if !strings.Contains(x.Template, "{value}") {
			return fmt.Errorf("template %q has no {value}: pass %q fills in each parameter's value", x.Template, x.pass())
		}
		if len(x.Params) > 1 && !strings.Contains(x.Template, "{name}") {
			return fmt.Errorf("template %q has no {name}: with %d parameters the engine could not tell them apart", x.Template, len(x.Params))
		}
	case PassFileArg, PassFileInitStr:
		if !strings.Contains(x.Template, "{file}") {
			return fmt.Errorf("template %q has no {file}: pass %q names the values file with it", x.Template, x.pass())
		}
		if x.FileDir == "" {
			return fmt.Errorf("pass %q needs a directory for the values files", x.pass())
		}
	default:
		return fmt.Errorf("pass %q is not one of %s", x.Pass, passNames())
	}
	return nil
}

func passNames() string {
	s := make([]string, len(Passes))
	for i, p := range Passes {
		s[i] = string(p)
	}
	return strings.Join(s, ", ")
}

func (x *External) pass() Pass {
	if x.Pass == "" {
		return PassSetOption
	}
	return x.Pass
}

// FormatValue writes a parameter's value as an engine reads it: an
// integer parameter as a whole number, a float as briefly as it reads
// back exactly.
func FormatValue(p engine.Param, v float64) string {
	if !p.Float {
		return strconv.FormatInt(int64(math.Round(v)), 10)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// SetOptionLine is the protocol line that sets parameter p to v
// (protocol.Command's SetOption, v rounded for an integer parameter as
// FormatValue rounds it): `setoption name Width value 12`.
func SetOptionLine(p engine.Param, v float64) string {
	if !p.Float {
		v = math.Round(v)
	}
	return protocol.Command{Kind: protocol.SetOption, Option: p.Name, Value: v}.String()
}

// ValuesFile is the content of a candidate's values file: one
// "NAME VALUE" line per parameter, in the order of params.
func ValuesFile(params []engine.Param, values []float64) []byte {
	var b strings.Builder
	for i, p := range params {
		fmt.Fprintf(&b, "%s %s\n", p.Name, FormatValue(p, values[i]))
	}
	return []byte(b.String())
}

func fill(template string, kv ...string) string {
	return strings.NewReplacer(kv...).Replace(template)
}

// Entrant is the tournament entrant of the candidate with these values
// (one per Params entry, as played: clamped and rounded by ParamValue),
// named name, playing by the time control tc; values nil is the engine at
// its own defaults (nothing is passed). The file ways write the values
// file (named by a hash of its content, so equal candidates share one)
// and return its path as file ("" else).
func (x *External) Entrant(name string, values []float64, tc tournament.TimeControl) (e tournament.Entrant, file string, err error) {
	e = tournament.Entrant{Engine: x.Engine}
	e.Name, e.Time, e.Args = name, tc, append([]string(nil), x.Args...)
	if values == nil {
		return e, "", nil
	}
	params := x.Params
	if len(values) != len(params) {
		return e, "", fmt.Errorf("%d values for %d parameters", len(values), len(params))
	}
	switch x.pass() {
	case PassSetOption:
		for i, p := range params {
			e.Setup = append(e.Setup, SetOptionLine(p, values[i]))
		}
	case PassInitStr, PassArg:
		for i, p := range params {
			s := fill(x.Template, "{name}", p.Name, "{value}", FormatValue(p, values[i]))
			if x.pass() == PassArg {
				e.Args = append(e.Args, s)
			} else {
				e.Setup = append(e.Setup, s)
			}
		}
	case PassFileArg, PassFileInitStr:
		data := ValuesFile(params, values)
		sum := sha256.Sum256(data)
		file = filepath.Join(x.FileDir, "values-"+hex.EncodeToString(sum[:8])+".txt")
		if err := os.MkdirAll(x.FileDir, 0o755); err != nil {
			return e, "", err
		}
		if err := fileio.WriteAtomic(file, data); err != nil {
			return e, "", err
		}
		s := fill(x.Template, "{file}", file)
		if x.pass() == PassFileArg {
			e.Args = append(e.Args, s)
		} else {
			e.Setup = append(e.Setup, s)
		}
	default:
		return e, "", x.Check()
	}
	return e, file, nil
}
