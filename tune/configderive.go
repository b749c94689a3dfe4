// This file holds what a validated Config tells the rest of the job: its
// method (Spec, MethodOptions), the problem and search space the method
// works in (Problem, searchProblem, space, newMethod, restoreMethod), the
// engine settings and ladder depths of its games, its start vector, and
// the engine line of reports.

package tune

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
)

// Spec returns the registered method the config names.
func (c *Config) Spec() (optimize.Spec, error) {
	s, ok := registry[c.Method]
	if !ok {
		return optimize.Spec{}, bad("method", "must be one of %s, not %q", strings.Join(MethodNames(), ", "), c.Method)
	}
	return s, nil
}

// MethodOptions returns the options of the config's method (the value its
// Spec.Options made, decoded from the method's table).
func (c *Config) MethodOptions() optimize.Options { return c.Options[c.Method] }

// EloDepth is the depth of the Elo measured during the run:
// validation.elo_depth, 0 read as the engine depth.
func (c Config) EloDepth() int {
	if c.Validation.EloDepth > 0 {
		return c.Validation.EloDepth
	}
	return c.Engine.Depth
}

// ladderDepths are the ladder's depths (Depths with 0 read as the engine
// depth; [engine depth, engine depth + 1] when empty, the engine depth
// alone when it is engine.MaxDepth) and its width.
func (c *Config) ladderDepths() (depths []int, width int) {
	depths = []int{c.Engine.Depth, c.Engine.Depth + 1}
	if c.External != nil { // one rung at the external engine's own search
		depths = []int{0}
	}
	if c.Engine.Depth >= engine.MaxDepth {
		depths = depths[:1]
	}
	if len(c.Validation.Depths) > 0 {
		depths = make([]int, len(c.Validation.Depths))
		for i, d := range c.Validation.Depths {
			if d == 0 {
				d = c.Engine.Depth
			}
			depths[i] = d
		}
	}
	width = c.Validation.Width
	if width == 0 {
		width = c.Engine.Width
	}
	return depths, width
}

// EloOpponent is the opponent of the Elo measured during the run: the
// first opponent that is not Halfway, or "".
func (c *Config) EloOpponent() string {
	for _, o := range c.Validation.Opponents {
		if o != Halfway && o != StartOpponent {
			return o
		}
	}
	return ""
}

// engineSettings is the search every game of the run uses: fixed depth and
// width, no clock, so games are reproducible.
func (c *Config) engineSettings(depth, width int) engine.Settings {
	s := engine.DefaultSettings()
	if c.Engine.Settings == PlaySettings {
		s = engine.PlaySettings()
	} else {
		s.ThreatSearch = c.Engine.ThreatSearch
	}
	s.Depth = depth
	s.Width = width
	s.MoveTime = 0
	s.MaxNodes = 0
	return s
}

// geneRange returns per-gene [lo, hi] from a range config: the alert
// threshold of the dual schema (its last gene) takes the alert range.
func (c *Config) geneRange(r RangeConfig) (lo, hi []float64) {
	names := c.SchemaGenes()
	lo, hi = make([]float64, len(names)), make([]float64, len(names))
	alert := c.Schema.AlertIndex()
	for d := range names {
		lo[d], hi[d] = r.Lo, r.Hi
		if d == alert {
			lo[d], hi[d] = r.AlertLo, r.AlertHi
		}
	}
	return lo, hi
}

// Problem is what the config tells a method of the vectors it tunes: the
// schema's genes, then the [[param]] tables (withParams).
func (c *Config) Problem() optimize.Problem {
	var start []float64
	lo, hi := c.geneRange(c.Init)
	switch {
	case c.chained:
		// A stand-in of the right shape, so a method that refuses a start
		// (the GA, the PSO) says so before the chain begins.
		start = make([]float64, len(lo))
		for d := range start {
			start[d] = (lo[d] + hi[d]) / 2
		}
	case c.Start != "":
		start, _ = c.startVector() // Validate reports its error
	}
	blo, bhi := c.geneRange(c.Bounds.RangeConfig)
	p := optimize.Problem{
		Genes:  c.SchemaGenes(),
		InitLo: lo, InitHi: hi,
		Bounds:    &optimize.Bounds{Lo: blo, Hi: bhi},
		BoundMode: c.Bounds.Mode,
		Pairs:     c.Match.Pairs,
		Start:     start,
		Opponent:  c.vectorOf, // the SPSA option opponents
	}
	return c.withParams(p, c.takesStart)
}

// takesStart reports whether the config's method takes a start vector in
// q (a population method refuses one).
func (c *Config) takesStart(q optimize.Problem) bool {
	spec, err := c.Spec()
	if err != nil {
		return false
	}
	var oe *optimize.OptionError
	return !errors.As(spec.Validate(c.methodOptions(), q), &oe) || oe.Field != "Start"
}

// searchProblem is Problem in the coordinates the method searches (space):
// with space.scale "log", optimize.LogSpace.Problem of it; with
// space.monotone, optimize.ChainSpace.Problem. Errors name the key:
// space.scale or space.norm; a start without logarithm (start); a range
// without one (space.scale, the message names the range and gene);
// space.monotone for a chain that names no gene of the schema, a gene
// twice, or cannot hold with the bounds.
func (c *Config) searchProblem() (optimize.Problem, error) {
	p := c.Problem()
	s, err := c.space()
	if err != nil || s == nil {
		return p, err
	}
	q, err := s.Problem(p)
	if err != nil {
		key := "space.scale" // the key that asked for logarithms
		switch {
		case len(c.Space.Monotone) > 0:
			key = "space.monotone"
		case c.Start != "" && strings.Contains(err.Error(), "start"):
			key = "start"
		}
		return p, bad(key, "%v", err)
	}
	return q, nil
}

// space is the change of coordinates of the [space] table, nil for the
// weights themselves (scale "linear", no chains). Errors name the key.
func (c *Config) space() (optimize.Space, error) {
	if len(c.Params) > 0 { // validateParams refuses a gene space beside them
		return c.paramSpaceOf(), nil
	}
	switch c.Space.Scale {
	case "", ScaleLinear:
	case ScaleLog:
		if len(c.Space.Monotone) > 0 {
			return nil, bad("space.monotone", "works on the weights themselves: give it with scale = %q, not %q", ScaleLinear, ScaleLog)
		}
		if !(c.Space.Norm > 0) || math.IsInf(c.Space.Norm, 1) {
			return nil, bad("space.norm", "must be a finite number > 0 with scale = \"log\", not %g", c.Space.Norm)
		}
		return optimize.LogSpace{Norm: c.Space.Norm}, nil
	default:
		return nil, bad("space.scale", "must be %q or %q, not %q", ScaleLinear, ScaleLog, c.Space.Scale)
	}
	if len(c.Space.Monotone) == 0 {
		return nil, nil
	}
	if !c.Bounds.Mode.Enforced() {
		return nil, bad("space.monotone", "needs bounds.mode \"clamp\" or \"reflect\": the bounds keep every increment ≥ 0, and with \"off\" a chain can fall")
	}
	index := map[string]int{}
	for d, g := range c.SchemaGenes() {
		index[g] = d
	}
	chains := make([][]int, len(c.Space.Monotone))
	for i, ch := range c.Space.Monotone {
		if len(ch) < 2 {
			return nil, bad("space.monotone", "chain %d has %d gene(s): a chain orders at least 2", i+1, len(ch))
		}
		for _, g := range ch {
			d, ok := index[g]
			if !ok {
				return nil, bad("space.monotone", "chain %d: %q is not a gene of schema %q (%s)", i+1, g, c.Schema, strings.Join(c.SchemaGenes(), ", "))
			}
			chains[i] = append(chains[i], d)
		}
	}
	return optimize.ChainSpace{Chains: chains}, nil
}

// newMethod makes the config's method for its search space (New).
func (c *Config) newMethod(spec optimize.Spec, pcg *rand.PCG) (optimize.Method, error) {
	p, err := c.searchProblem()
	if err != nil {
		return nil, err
	}
	m, err := spec.New(c.methodOptions(), p, pcg)
	return c.inSpace(m, err)
}

// restoreMethod is newMethod for a checkpointed state (Restore).
func (c *Config) restoreMethod(spec optimize.Spec, state []byte) (optimize.Method, error) {
	p, err := c.searchProblem()
	if err != nil {
		return nil, err
	}
	m, err := spec.Restore(c.methodOptions(), p, state)
	return c.inSpace(m, err)
}

// inSpace wraps a method made for searchProblem so that it plays and
// answers weights (optimize.InSpace); m as it is in the linear space.
func (c *Config) inSpace(m optimize.Method, err error) (optimize.Method, error) {
	if err != nil {
		return m, err
	}
	s, err := c.space()
	if err != nil || s == nil {
		return m, err
	}
	return optimize.InSpace(s, m), nil
}

// startVector loads Start (vectorOf).
func (c *Config) startVector() ([]float64, error) { return c.vectorOf(c.Start) }

// vectorOf loads a vector of the config's schema given by a baseline's
// name, a weight file or a run directory (its best.json): Start and the
// fixed opponents of a method's pool; a vector of another schema serves
// when it has an exact equivalent (engine.Weights.As: a symmetric vector
// for the asymmetric and tempo schemas).
func (c *Config) vectorOf(name string) ([]float64, error) {
	path := name
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, FileBest)
	}
	wf, err := configs.LoadWeights(path)
	if err != nil {
		return nil, err
	}
	w, err := wf.Weights().As(c.Schema)
	if err != nil {
		return nil, fmt.Errorf("%s holds a %s vector, the run tunes the %s schema", path, wf.Schema, c.Schema)
	}
	return w.Genes, nil
}

// generatedOpenings reports whether the config plays the generated suites
// rather than a suite file.
func (c *Config) generatedOpenings() bool { return c.Openings == "" || c.Openings == "generated" }

// engineLine describes the search of the run's games for reports.
func (c *Config) engineLine() string {
	s := fmt.Sprintf("depth %d, width %d, threat search %v", c.Engine.Depth, c.Engine.Width, c.Engine.ThreatSearch)
	if c.Engine.Settings == PlaySettings {
		s = fmt.Sprintf("depth %d, width %d, engine.PlaySettings", c.Engine.Depth, c.Engine.Width)
	}
	if tc, err := c.clock(); err == nil && !tc.IsZero() {
		s += fmt.Sprintf(", clock %s (depth the deepest iteration; games not reproducible)", tc)
	}
	if !c.tunedGenes() && c.Engine.Weights != "" {
		s += ", road weights fixed to " + c.Engine.Weights
	}
	return s
}
