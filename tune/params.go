package tune

import (
	"encoding/json"
	"fmt"
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
	"github.com/roadtune/roadtune/tune/param"
)

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
// table's key (param.Key).
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
		return bad(param.Key(0, "name"), "texel fits evaluation weights by their features and cannot tune a search setting: use spsa, ga, pso or cmaes")
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
	if err := param.Check(c.Params, c.External != nil); err != nil {
		return keyError(err)
	}
	if c.External != nil {
		if err := c.validateExternal(); err != nil {
			return err
		}
	}
	if err := param.CheckStarts(c.Params); err != nil {
		return keyError(err)
	}
	if c.External != nil {
		return c.checkExternalValues()
	}
	return nil
}

// keyError is a *param.KeyError as the config's error of that key
// (nil for nil).
func keyError(err error) error {
	if ke, ok := err.(*param.KeyError); ok {
		return bad(ke.Key, "%s", ke.Msg)
	}
	return err
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
// [[param]] tables (param.Extend); accepts reports whether the method
// takes a start vector.
func (c *Config) withParams(p optimize.Problem, accepts func(optimize.Problem) bool) optimize.Problem {
	return param.Extend(c.Params, p, c.GeneNames(), c.paramStarts(), c.tunedGenes(), accepts)
}

// paramSpaceOf is the space of the config's vector when a parameter has
// scale "log" (param.Space), nil when none has.
func (c *Config) paramSpaceOf() optimize.Space {
	return param.Space(c.Params, len(c.GeneNames())-len(c.Params))
}

// methodOptions is the method's options for the run: the config's, and
// for SPSA the [[param]] tables' c_end and r_end merged in by gene name
// (param.SPSAGains), over a copy.
func (c *Config) methodOptions() optimize.Options {
	opts := c.MethodOptions()
	if o, ok := opts.(*spsa.Settings); ok && len(c.Params) > 0 {
		return param.SPSAGains(c.Params, o, c.paramStarts())
	}
	return opts
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
// settings of the best vector so far (param.Best), beside best.json,
// which holds its road weights.
const FileBestSettings = "best-settings.json"

// bestSettings is the param.Best of vector v of the run, named name;
// nil for a run without parameters.
func (c *Config) bestSettings(name string, v []float64) (*param.Best, error) {
	if len(c.Params) == 0 {
		return nil, nil
	}
	_, values, err := c.splitVector(v)
	if err != nil {
		return nil, err
	}
	bs := &param.Best{Name: name, Weights: FileBest, Params: []param.Setting{}, SetOption: []string{}}
	if c.External != nil {
		bs.Weights = ""
		bs.Engine = c.External.Argv()
	}
	for i, p := range c.enginParams() {
		bs.Params = append(bs.Params, param.Setting{Name: p.Name, Value: values[i]})
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
	var got param.Best
	data, err := fileio.ReadFile(j.dir.Path(FileBestSettings), fileio.Config)
	if err != nil || json.Unmarshal(data, &got) != nil {
		return false
	}
	return slices.Equal(got.Params, want.Params)
}

// paramsText lists the [[param]] tables for a report (param.Text).
func (c *Config) paramsText() string {
	return param.Text(c.Params, c.paramStarts(), c.Method == "spsa")
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
