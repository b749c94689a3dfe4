// This file holds the [external] table's place in a Config: an external
// protocol engine as the thing a run tunes (param.External), its checks
// against the rest of the config, and the engine started to check its
// options before anything runs.

package tune

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/param"
)

// DefaultsOpponent is the ladder opponent of an [external] run that is the
// tuned engine itself at its own defaults: nothing passed.
const DefaultsOpponent = ladder.DefaultsOpponent

// externalFiles is the run directory's folder for the values files of the
// file ways (removed after each batch).
const externalFiles = "values"

// externalStarts lets Validate start the [external] engine (its
// program's checks, its options, its refusals); FuzzConfig, which parses
// arbitrary configs, turns it off so that no fuzzed command runs.
var externalStarts = func() *atomic.Bool { b := new(atomic.Bool); b.Store(true); return b }()

// externalProbeTime bounds each start of the engine during validation
// (the wait for its reply to name, to options); a variable for tests.
var externalProbeTime = 10 * time.Second

// externalRef is the External of the [external] table with the [[param]]
// tables as its options, its values files in fileDir.
func (c *Config) externalRef(fileDir string) *referee.External {
	return c.External.Referee(c.Params, fileDir)
}

// externalParams are the [[param]] tables as the options of the external
// engine (param.Options).
func (c *Config) externalParams() []engine.Param { return param.Options(c.Params) }

// validateExternal checks the [external] table against the rest of the
// config and on its own (param.External.Check), then, unless
// externalStarts is off, starts the engine to fit the [[param]] tables to
// its options (param.External.Fit). Errors are *ConfigError naming the
// key.
func (c *Config) validateExternal() error {
	switch {
	case c.Method == "texel":
		return bad("external", "texel fits the in-process engine's evaluation weights by their features: tune an external engine with spsa, ga, pso or cmaes")
	case c.Engine.Weights != "":
		return bad("engine.weights", "fixes the in-process engine's road weights, and the run tunes the external engine of [external]: leave it out")
	case len(c.Validation.Depths) > 0:
		return bad("validation.depths", "an external engine searches as its own args and init strings say: give validation.clocks for rungs by the clock instead")
	}
	if err := c.External.Check(c.Params); err != nil {
		return keyError(err)
	}
	if !externalStarts.Load() {
		return nil
	}
	return keyError(c.External.Fit(c.Params, externalProbeTime))
}

// checkExternalValues starts the engine with the lowest and then the
// highest values of every parameter (param.External.CheckValues), unless
// externalStarts is off.
func (c *Config) checkExternalValues() error {
	if !externalStarts.Load() {
		return nil
	}
	return keyError(c.External.CheckValues(c.Params, externalProbeTime))
}

// tunedText names what an [external] run tunes: "the options Width,
// DefendWide and DefendMaxDepth of ./roadtune-engine".
func (c *Config) tunedText() string { return c.External.Tuned(c.Params) }

// startLine is what a run tunes and how its games search, for the line a
// run starts with: "spsa on the tempo schema (12 genes), seed 1, depth 2,
// width 10", or for an [external] run "spsa on the options Width and
// DefendWide of ./roadtune-engine at depth 2 (its argument -depth 2),
// seed 1".
func (c *Config) startLine() string {
	if c.External != nil {
		return fmt.Sprintf("%s on %s at %s, seed %d", c.Method, c.tunedText(), c.External.Search(), c.Seed)
	}
	return fmt.Sprintf("%s on the %s schema (%d genes), seed %d, depth %d, width %d",
		c.Method, c.Schema, len(c.GeneNames()), c.Seed, c.Engine.Depth, c.Engine.Width)
}
