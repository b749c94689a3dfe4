package param

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/spsa"
)

// Table is one [[param]] table of a config: a search or time setting of
// the engine (engine.Params, by its Go field name) tuned beside the
// road-weight genes, or instead of them with engine.weights. The method's
// vector holds the genes first, then the parameters in the config's order.
// In the style of fishtest's and OpenBench's SPSA input line (name, start,
// min, max, c_end, r_end).
type Table struct {
	// Name is an engine.Params name ("DefendWide"), compared without
	// regard to case; an integer setting is rounded when played. With
	// [external] it is the external engine's option name.
	Name string `toml:"name"`
	// Type is TypeInt (rounded when played) or TypeFloat: optional for the
	// in-process engine's settings and for an external engine that lists
	// its options (it must then agree), required otherwise.
	Type string `toml:"type,omitempty"`
	// Min < Max is the range the method searches (its initial range and
	// its bounds), within the engine's own limits for the setting.
	Min float64 `toml:"min"`
	Max float64 `toml:"max"`
	// Start is where a single-vector method (spsa) starts; nil: the
	// setting's value in the run's engine settings, clamped to [Min, Max].
	Start *float64 `toml:"start,omitempty"`
	// Scale is ScaleLinear (the default) or ScaleLog: the method then
	// searches ln v, which suits a setting whose good values span orders
	// of magnitude (node budgets); both bounds must be > 0.
	Scale string `toml:"scale,omitempty"`
	// CEnd and REnd are SPSA's perturbation and learning rate at the last
	// iteration for this parameter (fishtest's c_end and r_end; [spsa]
	// c_end and r_end by gene name say the same): c_end in the setting's
	// units (with scale "log" taken at the start value, ln(1 + c_end /
	// start)); nil: SPSA's defaults. Other methods ignore them.
	CEnd *float64 `toml:"c_end,omitempty"`
	REnd *float64 `toml:"r_end,omitempty"`
	// OptionDefault is an external engine's default for the option, from
	// its reply to `options`; nil when unknown. It is found when the
	// config is validated, never read from or written to a file.
	OptionDefault *float64 `toml:"-"`
}

// The values of Table.Type and Table.Scale.
const (
	TypeInt     = "int"
	TypeFloat   = "float"
	ScaleLinear = "linear"
	ScaleLog    = "log"
)

// KeyError is a table's field at fault: Key as Key gives it, Msg what is
// wrong with its value.
type KeyError struct {
	Key string
	Msg string
}

func (e *KeyError) Error() string { return fmt.Sprintf("key %q: %s", e.Key, e.Msg) }

func bad(key, format string, args ...any) error {
	return &KeyError{Key: key, Msg: fmt.Sprintf(format, args...)}
}

// Key is the config key of a field of the i-th table (0-based i), as a
// config's line finder reads it: "param[2].min" for the second table's
// min, "param[2]" for the table itself (field "").
func Key(i int, field string) string {
	k := fmt.Sprintf("param[%d]", i+1)
	if field != "" {
		k += "." + field
	}
	return k
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Check checks the tables' own fields, in order: for the in-process
// engine (external false) each name an engine.Params name tuned once,
// its type (if given) the setting's, min and max within the engine's
// range; for an external engine each name one word without braces, tuned
// once (without regard to case); for both, finite min < max, a known
// scale (log with min > 0), and c_end and r_end finite and > 0 when set.
// Starts are CheckStarts'. Errors: a *KeyError naming the table's key.
func Check(ts []Table, external bool) error {
	seen := map[string]int{}
	for i, pc := range ts {
		if !external {
			p, ok := engine.ParamByName(pc.Name)
			if !ok {
				return bad(Key(i, "name"), "%q is not an engine parameter; the parameters are %s", pc.Name, strings.Join(engine.ParamNames(), ", "))
			}
			if j, dup := seen[p.Name]; dup {
				return bad(Key(i, "name"), "%s is tuned twice (also by [[param]] %d)", p.Name, j+1)
			}
			seen[p.Name] = i
			if err := checkType(i, pc.Type, p.Float); err != nil {
				return err
			}
			for _, f := range []struct {
				key string
				v   float64
			}{{"min", pc.Min}, {"max", pc.Max}} {
				if finite(f.v) && (f.v < p.Min || f.v > p.Max) {
					return bad(Key(i, f.key), "%g is outside the engine's range of %s, [%g, %g]", f.v, p.Name, p.Min, p.Max)
				}
			}
		} else {
			if pc.Name == "" || strings.ContainsAny(pc.Name, " \t\r\n{}") {
				return bad(Key(i, "name"), "%q is no option name: one word, without braces", pc.Name)
			}
			if j, dup := seen[strings.ToLower(pc.Name)]; dup {
				return bad(Key(i, "name"), "%s is tuned twice (also by [[param]] %d)", pc.Name, j+1)
			}
			seen[strings.ToLower(pc.Name)] = i
		}
		for _, f := range []struct {
			key string
			v   float64
		}{{"min", pc.Min}, {"max", pc.Max}} {
			if !finite(f.v) {
				return bad(Key(i, f.key), "must be a finite number, not %g", f.v)
			}
		}
		if pc.Min >= pc.Max {
			return bad(Key(i, "max"), "must be above min: [%g, %g] is no range to search", pc.Min, pc.Max)
		}
		switch pc.Scale {
		case "", ScaleLinear:
		case ScaleLog:
			if !(pc.Min > 0) {
				return bad(Key(i, "scale"), "\"log\" needs both bounds > 0 (the method searches ln v), and min is %g", pc.Min)
			}
		default:
			return bad(Key(i, "scale"), "must be %q or %q, not %q", ScaleLinear, ScaleLog, pc.Scale)
		}
		for _, f := range []struct {
			key string
			v   *float64
		}{{"c_end", pc.CEnd}, {"r_end", pc.REnd}} {
			if f.v != nil && !(*f.v > 0 && finite(*f.v)) {
				return bad(Key(i, f.key), "must be a finite number > 0, not %g", *f.v)
			}
		}
	}
	return nil
}

// checkType checks the type of the i-th table of the in-process engine,
// if given, against the setting's (float or not).
func checkType(i int, typ string, float bool) error {
	want := TypeInt
	if float {
		want = TypeFloat
	}
	switch {
	case typ == "" || typ == want:
		return nil
	case typ != TypeInt && typ != TypeFloat:
		return bad(Key(i, "type"), "must be %q or %q, not %q", TypeInt, TypeFloat, typ)
	}
	return bad(Key(i, "type"), "is %q, but the engine's setting is %s", typ, want)
}

// CheckStarts checks that every start given lies in its table's
// [min, max]. Errors: a *KeyError naming the table's start.
func CheckStarts(ts []Table) error {
	for i, pc := range ts {
		if pc.Start != nil && !(*pc.Start >= pc.Min && *pc.Start <= pc.Max) {
			return bad(Key(i, "start"), "%g is outside [min, max] = [%g, %g]", *pc.Start, pc.Min, pc.Max)
		}
	}
	return nil
}

// Extend extends a problem over the schema's genes with the tables:
// names are the names of the whole vector (the genes tuned, then the
// tables'), starts the tables' starts; the tables' ranges are [min, max]
// for both the initial draw and the bounds; a start vector gets the
// starts, and a problem without one gets them too where the method takes
// a start (the genes fixed, tuned false, or a single-vector method:
// accepts, nil for any); a fixed opponent plays with the parameters at
// their starts. With the genes fixed (tuned false) the problem's genes
// are dropped first. No tables: p as it is.
func Extend(ts []Table, p optimize.Problem, names []string, starts []float64, tuned bool, accepts func(optimize.Problem) bool) optimize.Problem {
	if len(ts) == 0 {
		return p
	}
	q := p
	if !tuned {
		q.Genes, q.InitLo, q.InitHi, q.Start, q.Opponent = nil, nil, nil, nil, nil
		q.Bounds = &optimize.Bounds{}
	}
	q.Genes = append(slices.Clone(q.Genes), names[len(q.Genes):]...)
	q.InitLo, q.InitHi = slices.Clone(q.InitLo), slices.Clone(q.InitHi)
	b := optimize.Bounds{}
	if c := q.Bounds.Clone(); c != nil {
		b = *c
	}
	for _, pc := range ts {
		q.InitLo, q.InitHi = append(q.InitLo, pc.Min), append(q.InitHi, pc.Max)
		b.Lo, b.Hi = append(b.Lo, pc.Min), append(b.Hi, pc.Max)
	}
	q.Bounds = &b
	switch {
	case q.Start != nil:
		q.Start = append(slices.Clone(q.Start), starts...)
	case !tuned:
		q.Start = slices.Clone(starts)
		if accepts != nil && !accepts(q) {
			q.Start = nil
		}
	}
	if p.Opponent != nil && tuned {
		q.Opponent = func(name string) ([]float64, error) {
			w, err := p.Opponent(name)
			if err != nil {
				return nil, err
			}
			return append(w, starts...), nil
		}
	}
	return q
}

// Space is the space of a vector whose tables begin at index first when a
// table has scale "log" (optimize.LogCoords: those values by their
// logarithms, the rest as they are); nil when none has.
func Space(ts []Table, first int) optimize.Space {
	s := optimize.LogCoords{Log: make([]bool, first+len(ts))}
	any := false
	for i, pc := range ts {
		s.Log[first+i] = pc.Scale == ScaleLog
		any = any || s.Log[first+i]
	}
	if !any {
		return nil
	}
	return s
}

// SPSAGains is o with the tables' c_end and r_end merged in by the
// engine.Params name (a table of no such name, an external engine's
// option, is left out), c_end converted to ln units for a log-scale table
// at its start (starts, in the tables' order): a copy, o is not changed.
func SPSAGains(ts []Table, o *spsa.Settings, starts []float64) *spsa.Settings {
	cp := *o
	cp.CEnd.Genes, cp.REnd.Genes = maps.Clone(o.CEnd.Genes), maps.Clone(o.REnd.Genes)
	for i, pc := range ts {
		p, ok := engine.ParamByName(pc.Name)
		if !ok {
			continue
		}
		if pc.CEnd != nil {
			v := *pc.CEnd
			if pc.Scale == ScaleLog {
				v = math.Log1p(v / starts[i])
			}
			if cp.CEnd.Genes == nil {
				cp.CEnd.Genes = map[string]float64{}
			}
			cp.CEnd.Genes[p.Name] = v
		}
		if pc.REnd != nil {
			if cp.REnd.Genes == nil {
				cp.REnd.Genes = map[string]float64{}
			}
			cp.REnd.Genes[p.Name] = *pc.REnd
		}
	}
	return &cp
}

// Text lists the tables for a report, with their starts (in the tables'
// order), and SPSA's own gains when spsa is set: "DefendWide in [0, 100]
// from 60, DefendShare in [0.3, 0.9] (log) from 0.7 (c_end 0.05)".
func Text(ts []Table, starts []float64, spsa bool) string {
	parts := make([]string, len(ts))
	for i, pc := range ts {
		name := pc.Name
		if p, ok := engine.ParamByName(pc.Name); ok {
			name = p.Name
		}
		s := fmt.Sprintf("%s in [%g, %g]", name, pc.Min, pc.Max)
		if pc.Scale == ScaleLog {
			s += " (log)"
		}
		s += fmt.Sprintf(" from %g", starts[i])
		// SPSA's own gains of the parameter, which its method line,
		// giving the [spsa] defaults, does not show.
		var gains []string
		if pc.CEnd != nil {
			gains = append(gains, fmt.Sprintf("c_end %g", *pc.CEnd))
		}
		if pc.REnd != nil {
			gains = append(gains, fmt.Sprintf("r_end %g", *pc.REnd))
		}
		if len(gains) > 0 && spsa {
			s += " (" + strings.Join(gains, ", ") + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, ", ")
}

// Best is the tuned settings of a run in a form the engine binary takes:
// every tuned parameter by its engine name with the value it plays
// (integers rounded), and the same as the protocol's `setoption name NAME
// value V` lines (engine/protocol) to send after starting `cmd/engine
// -weights best.json`. A run writes it as best-settings.json.
type Best struct {
	Name    string `json:"name"`    // as best.json's name
	Weights string `json:"weights"` // the weight file of the road weights (best.json); "" for an [external] run
	// Engine is an [external] run's engine command (external.cmd and
	// args), to which the values are passed as the run passed them.
	Engine    []string  `json:"engine,omitempty"`
	Params    []Setting `json:"params"`
	SetOption []string  `json:"setoption"`
}

// Setting is one tuned setting: its engine name and the value it plays.
type Setting struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}
