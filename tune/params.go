package tune

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/spsa"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
)

// ParamConfig is one [[param]] table of a config: a search or time
// setting of the engine (engine.Params, by its Go field name) tuned
// beside the road-weight genes, or instead of them with engine.weights.
// The method's vector holds the genes first, then the parameters in the
// config's order. In the style of fishtest's and OpenBench's SPSA input
// line (name, start, min, max, c_end, r_end).
type ParamConfig struct {
	// Name is an engine.Params name ("DefendWide"), compared without
	// regard to case; an integer setting is rounded when played. With
	// [external] it is the external engine's option name.
	Name string `toml:"name"`
	// Type is "int" (rounded when played) or "float": optional for the
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
	// Scale is "linear" (the default) or "log": the method then searches
	// ln v, which suits a setting whose good values span orders of
	// magnitude (node budgets); both bounds must be > 0.
	Scale string `toml:"scale,omitempty"`
	// CEnd and REnd are SPSA's perturbation and learning rate at the last
	// iteration for this parameter (fishtest's c_end and r_end; [spsa]
	// c_end and r_end by gene name say the same): c_end in the setting's
	// units (with scale "log" taken at the start value, ln(1 + c_end /
	// start)); nil: SPSA's defaults. Other methods ignore them.
	CEnd *float64 `toml:"c_end,omitempty"`
	REnd *float64 `toml:"r_end,omitempty"`
	// optionDefault is an [external] engine's default for the option, from
	// its reply to `options` (Validate, pass setoption); nil when unknown.
	optionDefault *float64
}

// paramKey is the config key of a field of the i-th [[param]] table
// (0-based i), as keyLine finds it: "param[2].min" for the second.
func paramKey(i int, field string) string {
	k := fmt.Sprintf("param[%d]", i+1)
	if field != "" {
		k += "." + field
	}
	return k
}

// tunedGenes reports whether the road-weight genes are tuned: they are
// unless engine.weights fixes them.
func (c *Config) tunedGenes() bool { return c.Engine.Weights == "" && c.External == nil }

// SchemaGenes are the road-weight genes of the config's schema, in order,
// whether the run tunes them or not.
func (c *Config) SchemaGenes() []string { return c.Schema.GeneNames() }

// GeneNames are the names of the values of the method's vector, in
// order: the schema's genes (unless engine.weights fixes them), then the
// [[param]] names as the engine spells them.
func (c *Config) GeneNames() []string {
	var names []string
	if c.tunedGenes() {
		names = c.SchemaGenes()
	}
	for _, p := range c.enginParams() {
		names = append(names, p.Name)
	}
	return names
}

// enginParams are the engine.Params of the [[param]] tables, in order;
// an unknown name is left out (Validate reports it).
func (c *Config) enginParams() []engine.Param {
	if c.External != nil {
		return c.externalParams()
	}
	var out []engine.Param
	for _, pc := range c.Params {
		if p, ok := engine.ParamByName(pc.Name); ok {
			out = append(out, p)
		}
	}
	return out
}

// validateParams checks the [[param]] tables and engine.weights (and
// [external], whose options they are then): each a *ConfigError naming the
// table's key (paramKey).
func (c *Config) validateParams() error {
	if c.External != nil && len(c.Params) == 0 {
		return bad("external", "tunes the external engine's options: give at least one [[param]] table")
	}
	if c.External == nil && !c.tunedGenes() {
		if len(c.Params) == 0 {
			return bad("engine.weights", "fixes the road weights, so the run tunes its [[param]] tables alone: give at least one")
		}
		if _, err := c.fixedWeights(); err != nil {
			return bad("engine.weights", "%v", err)
		}
		if c.Start != "" && !c.chained {
			return bad("start", "is a road-weight vector, and engine.weights fixes the road weights: each [[param]] starts at its own start")
		}
	}
	if len(c.Params) == 0 {
		return nil
	}
	if c.Method == "texel" && c.External == nil {
		return bad(paramKey(0, "name"), "texel fits evaluation weights by their features and cannot tune a search setting: use spsa, ga, pso or cmaes")
	}
	if c.Space.Scale == ScaleLog || len(c.Space.Monotone) > 0 {
		key := "space.scale"
		if len(c.Space.Monotone) > 0 {
			key = "space.monotone"
		}
		return bad(key, "changes the coordinates of the road-weight genes, and the run tunes [[param]] tables too: give each parameter its own scale instead")
	}
	if n, ok := c.MethodOptions().(interface{ NormOption() float64 }); ok && n.NormOption() > 0 {
		return bad(c.Method+".norm", "must be 0 with [[param]] tables: a norm scales the whole vector, search settings with it")
	}
	seen := map[string]int{}
	for i := range c.Params {
		pc := &c.Params[i]
		if c.External == nil {
			p, ok := engine.ParamByName(pc.Name)
			if !ok {
				return bad(paramKey(i, "name"), "%q is not an engine parameter; the parameters are %s", pc.Name, strings.Join(engine.ParamNames(), ", "))
			}
			if j, dup := seen[p.Name]; dup {
				return bad(paramKey(i, "name"), "%s is tuned twice (also by [[param]] %d)", p.Name, j+1)
			}
			seen[p.Name] = i
			if err := checkParamType(i, pc.Type, p.Float); err != nil {
				return err
			}
			for _, f := range []struct {
				key string
				v   float64
			}{{"min", pc.Min}, {"max", pc.Max}} {
				if finite(f.v) && (f.v < p.Min || f.v > p.Max) {
					return bad(paramKey(i, f.key), "%g is outside the engine's range of %s, [%g, %g]", f.v, p.Name, p.Min, p.Max)
				}
			}
		} else {
			if pc.Name == "" || strings.ContainsAny(pc.Name, " \t\r\n{}") {
				return bad(paramKey(i, "name"), "%q is no option name: one word, without braces", pc.Name)
			}
			if j, dup := seen[strings.ToLower(pc.Name)]; dup {
				return bad(paramKey(i, "name"), "%s is tuned twice (also by [[param]] %d)", pc.Name, j+1)
			}
			seen[strings.ToLower(pc.Name)] = i
		}
		for _, f := range []struct {
			key string
			v   float64
		}{{"min", pc.Min}, {"max", pc.Max}} {
			if !finite(f.v) {
				return bad(paramKey(i, f.key), "must be a finite number, not %g", f.v)
			}
		}
		if pc.Min >= pc.Max {
			return bad(paramKey(i, "max"), "must be above min: [%g, %g] is no range to search", pc.Min, pc.Max)
		}
		switch pc.Scale {
		case "", ScaleLinear:
		case ScaleLog:
			if !(pc.Min > 0) {
				return bad(paramKey(i, "scale"), "\"log\" needs both bounds > 0 (the method searches ln v), and min is %g", pc.Min)
			}
		default:
			return bad(paramKey(i, "scale"), "must be %q or %q, not %q", ScaleLinear, ScaleLog, pc.Scale)
		}
		for _, f := range []struct {
			key string
			v   *float64
		}{{"c_end", pc.CEnd}, {"r_end", pc.REnd}} {
			if f.v != nil && !(*f.v > 0 && finite(*f.v)) {
				return bad(paramKey(i, f.key), "must be a finite number > 0, not %g", *f.v)
			}
		}
	}
	if c.External != nil {
		if err := c.validateExternal(); err != nil {
			return err
		}
	}
	for i, pc := range c.Params {
		if pc.Start != nil && !(*pc.Start >= pc.Min && *pc.Start <= pc.Max) {
			return bad(paramKey(i, "start"), "%g is outside [min, max] = [%g, %g]", *pc.Start, pc.Min, pc.Max)
		}
	}
	if c.External != nil {
		return c.checkExternalValues()
	}
	return nil
}

// checkParamType checks the type of the i-th [[param]] of the in-process
// engine, if given, against the setting's.
func checkParamType(i int, typ string, float bool) error {
	want := paramTypeInt
	if float {
		want = paramTypeFloat
	}
	switch {
	case typ == "" || typ == want:
		return nil
	case typ != paramTypeInt && typ != paramTypeFloat:
		return bad(paramKey(i, "type"), "must be %q or %q, not %q", paramTypeInt, paramTypeFloat, typ)
	}
	return bad(paramKey(i, "type"), "is %q, but the engine's setting is %s", typ, want)
}

// paramStart is the start of the i-th parameter: its start, or the run's
// setting clamped to [min, max].
func (c *Config) paramStart(i int) float64 {
	pc := c.Params[i]
	if pc.Start != nil {
		return *pc.Start
	}
	if c.External != nil { // validateExternal fills start in
		return (pc.Min + pc.Max) / 2
	}
	p, _ := engine.ParamByName(pc.Name)
	return min(max(p.Get(c.engineSettings(c.Engine.Depth, c.Engine.Width)), pc.Min), pc.Max)
}

// paramStarts are every parameter's start, in order.
func (c *Config) paramStarts() []float64 {
	out := make([]float64, len(c.Params))
	for i := range out {
		out[i] = c.paramStart(i)
	}
	return out
}

// fixedWeights loads engine.weights as genes of the config's schema; nil
// when the genes are tuned.
func (c *Config) fixedWeights() ([]float64, error) {
	if c.tunedGenes() || c.External != nil {
		return nil, nil
	}
	return c.vectorOf(c.Engine.Weights)
}

// withParams extends a problem over the schema's genes with the
// parameters: their ranges are [min, max] for both the initial draw and
// the bounds; a start vector gets the parameters' starts, and a problem
// without one gets them too where the method takes a start (the genes
// fixed, or a single-vector method); a fixed opponent plays with the
// parameters at their starts. With engine.weights the genes are dropped
// first. accepts reports whether the method takes a start vector.
func (c *Config) withParams(p optimize.Problem, accepts func(optimize.Problem) bool) optimize.Problem {
	if len(c.Params) == 0 {
		return p
	}
	q := p
	if !c.tunedGenes() {
		q.Genes, q.InitLo, q.InitHi, q.Start, q.Opponent = nil, nil, nil, nil, nil
		q.Bounds = &optimize.Bounds{}
	}
	q.Genes = append(slices.Clone(q.Genes), c.GeneNames()[len(q.Genes):]...)
	q.InitLo, q.InitHi = slices.Clone(q.InitLo), slices.Clone(q.InitHi)
	b := optimize.Bounds{}
	if q.Bounds != nil {
		b = optimize.Bounds{Lo: slices.Clone(q.Bounds.Lo), Hi: slices.Clone(q.Bounds.Hi)}
	}
	for _, pc := range c.Params {
		q.InitLo, q.InitHi = append(q.InitLo, pc.Min), append(q.InitHi, pc.Max)
		b.Lo, b.Hi = append(b.Lo, pc.Min), append(b.Hi, pc.Max)
	}
	q.Bounds = &b
	starts := c.paramStarts()
	switch {
	case q.Start != nil:
		q.Start = append(slices.Clone(q.Start), starts...)
	case !c.tunedGenes():
		q.Start = starts
		if accepts != nil && !accepts(q) {
			q.Start = nil
		}
	}
	if p.Opponent != nil && c.tunedGenes() {
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

// paramSpaceOf is the space of the config's vector when a parameter has
// scale "log" (optimize.LogCoords: those parameters by their
// logarithms, the rest as it is), nil when none has.
func (c *Config) paramSpaceOf() optimize.Space {
	first := len(c.GeneNames()) - len(c.Params)
	s := optimize.LogCoords{Log: make([]bool, first+len(c.Params))}
	any := false
	for i, pc := range c.Params {
		s.Log[first+i] = pc.Scale == ScaleLog
		any = any || s.Log[first+i]
	}
	if !any {
		return nil
	}
	return s
}

// methodOptions is the method's options for the run: the config's, and
// for SPSA the [[param]] tables' c_end and r_end merged in by gene name
// (converted to ln units for a log-scale parameter), over a copy.
func (c *Config) methodOptions() optimize.Options {
	opts := c.MethodOptions()
	o, ok := opts.(*spsa.Settings)
	if !ok || len(c.Params) == 0 {
		return opts
	}
	cp := *o
	cp.CEnd.Genes, cp.REnd.Genes = maps.Clone(o.CEnd.Genes), maps.Clone(o.REnd.Genes)
	for i, pc := range c.Params {
		p, ok := engine.ParamByName(pc.Name)
		if !ok {
			continue
		}
		if pc.CEnd != nil {
			v := *pc.CEnd
			if pc.Scale == ScaleLog {
				v = math.Log1p(v / c.paramStart(i))
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

// clock is the time control of every fitness game: engine.tc or
// engine.st, with engine.timemargin; zero for none.
func (c *Config) clock() (tournament.TimeControl, error) {
	tc, err := c.clockTime()
	if err != nil {
		return tc, err
	}
	switch m := c.Engine.TimeMargin; {
	case m < 0 || m > 3_600_000:
		return tc, bad("engine.timemargin", "must be milliseconds from 0 to 3600000, not %d", m)
	case m > 0 && tc.IsZero():
		return tc, bad("engine.timemargin", "is the overrun a timed move may take: give it with engine.tc or engine.st")
	}
	tc.Margin = time.Duration(c.Engine.TimeMargin) * time.Millisecond
	return tc, nil
}

// clockTime is clock without the margin.
func (c *Config) clockTime() (tournament.TimeControl, error) {
	switch {
	case c.Engine.TC != "" && c.Engine.ST != 0:
		return tournament.TimeControl{}, bad("engine.st", "give engine.tc or engine.st, not both")
	case c.Engine.TC != "":
		tc, err := tournament.ParseClock("tc=" + c.Engine.TC)
		if err != nil {
			return tc, bad("engine.tc", "%v", err)
		}
		return tc, nil
	case c.Engine.ST != 0:
		if !(c.Engine.ST > 0) || c.Engine.ST > 1e6 {
			return tournament.TimeControl{}, bad("engine.st", "must be a time in seconds > 0, not %g", c.Engine.ST)
		}
		return tournament.TimeControl{PerMove: time.Duration(c.Engine.ST * float64(time.Second))}, nil
	}
	return tournament.TimeControl{}, nil
}

// ladderClocks are the time controls of the ladder's timed rungs:
// validation.clocks, or the engine's clock when the run plays by one and
// validation.clocks is empty.
func (c *Config) ladderClocks() ([]tournament.TimeControl, error) {
	var out []tournament.TimeControl
	for i, s := range c.Validation.Clocks {
		tc, err := tournament.ParseClock(s)
		if err != nil {
			return nil, bad("validation.clocks", "clock %d: %v", i+1, err)
		}
		if slices.Contains(out, tc) {
			return nil, bad("validation.clocks", "clock %q is listed twice", s)
		}
		out = append(out, tc)
	}
	if len(out) == 0 {
		tc, err := c.clock()
		if err != nil {
			return nil, err
		}
		if !tc.IsZero() {
			out = append(out, tc)
		}
	}
	return out, nil
}

// playerRef is the referee that turns one of the run's vectors into a
// player at a search depth and width (referee.VectorReferee.Player): the
// schema, the engine settings at that depth and width, the parameters and
// the fixed road weights.
func (c *Config) playerRef(depth, width int) (*referee.VectorReferee, error) {
	fixed, err := c.fixedWeights()
	if err != nil {
		return nil, err
	}
	s := referee.Setup{Schema: c.Schema, Settings: c.engineSettings(depth, width)}
	if c.External != nil {
		s.External = c.externalRef(c.externalFileDir)
	} else {
		s.Fixed = fixed
		for _, p := range c.enginParams() {
			s.Params = append(s.Params, p.Name)
		}
	}
	return &referee.VectorReferee{Setup: s}, nil
}

// splitVector parts a vector of the run into its road weights (the
// schema's genes, engine.weights' when fixed) and its parameter values
// as played (clamped, integers rounded).
func (c *Config) splitVector(v []float64) (genes, params []float64, err error) {
	r, err := c.playerRef(c.Engine.Depth, c.Engine.Width)
	if err != nil {
		return nil, nil, err
	}
	ps := c.enginParams() // the referee's VectorParams
	if c.External != nil {
		if len(v) != len(ps) {
			return nil, nil, fmt.Errorf("vector has %d values, want %d (one per [[param]])", len(v), len(ps))
		}
		for i, p := range ps {
			params = append(params, referee.ParamValue(p, v[i]))
		}
		return nil, params, nil
	}
	w, _, err := r.Player(v)
	if err != nil {
		return nil, nil, err
	}
	n := len(v) - len(ps)
	for i, p := range ps {
		params = append(params, referee.ParamValue(p, v[n+i]))
	}
	return w.Genes, params, nil
}

// FileBestSettings is, for a run with [[param]] tables, the search
// settings of the best vector so far (BestSettings), beside best.json,
// which holds its road weights.
const FileBestSettings = "best-settings.json"

// BestSettings is the tuned search settings of a run in a form the
// engine binary takes: every tuned parameter by its engine name with the
// value it plays (integers rounded), and the same as the protocol's
// `setoption name NAME value V` lines (engine/protocol) to send after
// starting `cmd/engine -weights best.json`.
type BestSettings struct {
	Name    string `json:"name"`    // as best.json's name
	Weights string `json:"weights"` // the weight file of the road weights (best.json); "" for an [external] run
	// Engine is an [external] run's engine command (external.cmd and
	// args), to which the values are passed as the run passed them.
	Engine    []string       `json:"engine,omitempty"`
	Params    []ParamSetting `json:"params"`
	SetOption []string       `json:"setoption"`
}

// ParamSetting is one tuned setting: its engine.Params name and value.
type ParamSetting struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// bestSettings is the BestSettings of vector v of the run, named name;
// nil for a run without parameters.
func (c *Config) bestSettings(name string, v []float64) (*BestSettings, error) {
	if len(c.Params) == 0 {
		return nil, nil
	}
	_, values, err := c.splitVector(v)
	if err != nil {
		return nil, err
	}
	bs := &BestSettings{Name: name, Weights: FileBest, Params: []ParamSetting{}, SetOption: []string{}}
	if c.External != nil {
		bs.Weights = ""
		bs.Engine = c.External.Argv()
	}
	for i, p := range c.enginParams() {
		bs.Params = append(bs.Params, ParamSetting{Name: p.Name, Value: values[i]})
		bs.SetOption = append(bs.SetOption, referee.SetOptionLine(p, values[i]))
	}
	return bs, nil
}

// writeBestSettings writes FileBestSettings for the checkpoint's best
// vector, when the run tunes parameters.
func (j *Job) writeBestSettings(wf *engine.WeightFile, best []float64) error {
	bs, err := j.cfg.bestSettings(wf.Name, best)
	if err != nil || bs == nil {
		return err
	}
	return results.WriteJSONAtomic(j.dir.Path(FileBestSettings), bs)
}

// bestSettingsHold reports whether FileBestSettings holds the
// checkpoint's best vector's settings (true for a run without
// parameters).
func (j *Job) bestSettingsHold() bool {
	want, err := j.cfg.bestSettings("", j.cp.Best)
	if err != nil || want == nil {
		return err == nil
	}
	var got BestSettings
	data, err := fileio.ReadFile(j.dir.Path(FileBestSettings), fileio.Config)
	if err != nil || json.Unmarshal(data, &got) != nil {
		return false
	}
	return slices.Equal(got.Params, want.Params)
}

// playerSettings is the search of a player of the run at a depth and
// width: the engine settings with the [[param]] values of v (the run's
// vector the player stands for) set on them; the engine settings alone
// for v nil (a fixed opponent).
func (c *Config) playerSettings(v []float64, depth, width int) (engine.Settings, error) {
	r, err := c.playerRef(depth, width)
	if err != nil || v == nil {
		return c.engineSettings(depth, width), err
	}
	_, s, err := r.Player(v)
	return s, err
}

// playerLine says how a ladder player plays when it is not plain
// (tournament.PlayerInfo.Settings): its clock and the tuned parameters'
// values, "" for a player of a run on the road weights at a fixed depth.
func (c *Config) playerLine(v []float64, s engine.Settings, tc tournament.TimeControl) string {
	var parts []string
	if !tc.IsZero() {
		parts = append(parts, fmt.Sprintf("%s, depth ≤ %d", tc, s.Depth))
	}
	if len(c.Params) > 0 && c.External == nil { // an [external] run's in-process opponents play [engine]'s search
		for _, p := range c.enginParams() {
			parts = append(parts, fmt.Sprintf("%s=%s", p.Name, strconv.FormatFloat(p.Get(s), 'g', -1, 64)))
		}
		if v == nil {
			parts = append(parts, "(the run's settings)")
		}
	}
	return strings.Join(parts, " ")
}

// paramsText lists the [[param]] tables for a report: "DefendWide in
// [0, 100] from 60, DefendShare in [0.3, 0.9] (log) from 0.7".
func (c *Config) paramsText() string {
	parts := make([]string, len(c.Params))
	for i, pc := range c.Params {
		name := pc.Name
		if p, ok := engine.ParamByName(pc.Name); ok {
			name = p.Name
		}
		s := fmt.Sprintf("%s in [%g, %g]", name, pc.Min, pc.Max)
		if pc.Scale == ScaleLog {
			s += " (log)"
		}
		s += fmt.Sprintf(" from %g", c.paramStart(i))
		// SPSA's own gains of the parameter, which its method line,
		// giving the [spsa] defaults, does not show.
		var gains []string
		if pc.CEnd != nil {
			gains = append(gains, fmt.Sprintf("c_end %g", *pc.CEnd))
		}
		if pc.REnd != nil {
			gains = append(gains, fmt.Sprintf("r_end %g", *pc.REnd))
		}
		if len(gains) > 0 && c.Method == "spsa" {
			s += " (" + strings.Join(gains, ", ") + ")"
		}
		parts[i] = s
	}
	return strings.Join(parts, ", ")
}

// formatVector is a vector of the run for the console: the genes as
// formatGenes writes them, then each parameter's played value
// ("DefendShare=0.65"), as many digits as it has up to 4.
func (c *Config) formatVector(v []float64) string {
	names := c.GeneNames()
	n := len(v) - len(c.Params)
	if len(c.Params) == 0 || n < 0 || len(names) != len(v) {
		return formatGenes(names, v)
	}
	parts := []string{}
	if n > 0 {
		parts = append(parts, formatGenes(names[:n], v[:n]))
	}
	for i, p := range c.enginParams() {
		parts = append(parts, fmt.Sprintf("%s=%s", p.Name, strconv.FormatFloat(referee.ParamValue(p, v[n+i]), 'g', 4, 64)))
	}
	return strings.Join(parts, " ")
}
