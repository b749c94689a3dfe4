// This file holds Config.Validate: every value checked by the room that
// owns its limit, including the checks that read files (openings, weight
// files, the start vector), each error a ConfigError naming its key.

package tune

import (
	"errors"
	"math"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tune/ladder"
)

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Validate checks every value. Each limit is checked by the room that owns
// it: engine settings by engine.Settings.Validate, a method's options by its
// Spec.Validate, the verification opponent by configs.LoadWeights and the
// SPRT by stats.ParseSPRT, so nothing that fails later passes here. The
// error is a *ConfigError naming the key (Parse fills in the file and
// line).
func (c *Config) Validate() error {
	spec, err := c.Spec()
	if err != nil {
		return err
	}
	if _, err := engine.ParseSchema(string(c.Schema)); err != nil {
		return bad("schema", "must be %s, not %q", engine.SchemaNames, c.Schema)
	}
	if c.Seed < 0 {
		return bad("seed", "must be 0 or more, not %d", c.Seed)
	}
	if c.Concurrency < 0 {
		return bad("concurrency", "must be 0 (all cores) or more, not %d", c.Concurrency)
	}
	if c.Stall < 0 {
		return bad("stall", "must be 0 (off) or more, not %d", c.Stall)
	}
	if _, err := c.BudgetSeconds(); err != nil {
		return err
	}
	// 0 means "the default" to engine.Settings, not in a config.
	if err := settingsErr("engine", engine.CheckDepth(c.Engine.Depth)); err != nil {
		return err
	}
	if err := settingsErr("engine", engine.CheckWidth(c.Engine.Width)); err != nil {
		return err
	}
	if err := settingsErr("engine", c.engineSettings(c.Engine.Depth, c.Engine.Width).Validate()); err != nil {
		return err
	}
	if c.Engine.Settings != "" && c.Engine.Settings != DefaultSettings && c.Engine.Settings != PlaySettings {
		return bad("engine.settings", "must be %q or %q, not %q", DefaultSettings, PlaySettings, c.Engine.Settings)
	}
	if c.Engine.MaxMoves < 0 {
		return bad("engine.max_moves", "must be 0 (no limit) or more, not %d", c.Engine.MaxMoves)
	}
	if !c.generatedOpenings() {
		suite, err := configs.LoadOpenings(c.Openings)
		if err != nil {
			return bad("openings", "%v", err)
		}
		if distinct := distinctOpenings(suite); c.Match.Pairs > distinct {
			return bad("match.pairs", "%d pairs a match need as many distinct openings; the suite %q has %d", c.Match.Pairs, c.Openings, distinct)
		} else if len(c.Validation.Opponents) > 0 && c.Validation.Pairs > distinct {
			return bad("validation.pairs", "%d pairs a rung need as many distinct openings; the suite %q has %d", c.Validation.Pairs, c.Openings, distinct)
		}
	}
	if _, _, err := referee.ParseEarlyStop(c.Match.EarlyStop); err != nil {
		return bad("match.early_stop", "%v", err)
	}
	if c.Match.Pairs < 1 {
		return bad("match.pairs", "must be at least 1, not %d", c.Match.Pairs)
	}
	if err := c.Init.check("init"); err != nil {
		return err
	}
	if err := c.Bounds.Mode.Validate(); err != nil {
		return bad("bounds.mode", "%v", err)
	}
	if err := c.Bounds.RangeConfig.check("bounds"); err != nil {
		return err
	}
	if err := c.validateVerification(); err != nil {
		return err
	}
	opts := c.MethodOptions()
	if opts == nil {
		return bad(c.Method, "no options for method %q", c.Method)
	}
	if c.Start != "" && !c.chained {
		if _, err := c.startVector(); err != nil {
			return bad("start", "%v", err)
		}
	}
	if c.Then != "" {
		if err := checkThen(c.Then); err != nil {
			return bad("then", "%v", err)
		}
	}
	if err := c.validateParams(); err != nil {
		return err
	}
	if _, err := c.clock(); err != nil {
		return err
	}
	if _, err := c.ladderClocks(); err != nil {
		return err
	}
	problem, err := c.searchProblem()
	if err != nil {
		return err
	}
	if len(c.Space.Monotone) > 0 && c.Method == "texel" {
		return bad("space.monotone", "texel fits the weights themselves by their features; monotone chains serve the methods that play candidates (ga, pso, spsa, cmaes)")
	}
	if c.Space.Scale == ScaleLog {
		if c.Method == "texel" {
			return bad("space.scale", "texel fits a model linear in the weights; \"log\" serves the methods that play candidates (ga, pso, spsa, cmaes)")
		}
		if n, ok := opts.(interface{ NormOption() float64 }); ok && n.NormOption() > 0 {
			return bad(c.Method+".norm", "must be 0 with space.scale = \"log\": space.norm (%g) scales every played vector, and a norm of ln w would change the vector's shape", c.Space.Norm)
		}
	}
	if err := spec.Validate(c.methodOptions(), problem); err != nil {
		var oe *optimize.OptionError
		if errors.As(err, &oe) {
			if k, ok := problemKeys[oe.Field]; ok && oe.Key == "" {
				return bad(k, "%s", oe.Msg)
			}
			key := c.Method
			if oe.Key != "" {
				key += "." + oe.Key
			}
			return bad(key, "%s", oe.Msg)
		}
		return bad(c.Method, "%v", err)
	}
	return nil
}

func (r RangeConfig) check(table string) error {
	for _, f := range []struct {
		key string
		v   float64
	}{{"lo", r.Lo}, {"hi", r.Hi}, {"alert_lo", r.AlertLo}, {"alert_hi", r.AlertHi}} {
		if !finite(f.v) {
			return bad(table+"."+f.key, "must be a finite number, not %g", f.v)
		}
	}
	if r.Lo > r.Hi {
		return bad(table+".hi", "range [%g, %g] must have lo ≤ hi", r.Lo, r.Hi)
	}
	if r.AlertLo > r.AlertHi {
		return bad(table+".alert_hi", "alert range [%g, %g] must have alert_lo ≤ alert_hi", r.AlertLo, r.AlertHi)
	}
	return nil
}

// settingsErr names the config key of an engine.Settings error.
func settingsErr(table string, err error) error {
	if err == nil {
		return nil
	}
	var se *engine.SettingsError
	if errors.As(err, &se) {
		return bad(table+"."+strings.ToLower(se.Field), "%s", se.Msg)
	}
	return bad(table, "%v", err)
}

// validateVerification resolves every ladder opponent, depth and the SPRT,
// so a bad one fails before anything is played or written.
func (c *Config) validateVerification() error {
	v := c.Validation
	if v.Opponent != "" {
		return bad("validation.opponent", "the older spelling of validation.opponents, folded in by Parse and Set: set Opponents instead")
	}
	if v.Depth != 0 {
		return bad("validation.depth", "the older spelling of validation.depths, folded in by Parse and Set: set Depths instead")
	}
	seen := map[string]bool{}
	for i, o := range v.Opponents {
		if seen[o] {
			return bad("validation.opponents", "opponent %q is listed twice", o)
		}
		seen[o] = true
		if o == Halfway {
			continue
		}
		if o == DefaultsOpponent {
			if c.External == nil {
				return bad("validation.opponents", "opponent %d: %q is the [external] engine at its own defaults, and the run has no [external] table", i+1, o)
			}
			continue
		}
		if o == StartOpponent {
			if c.Start == "" && !c.chained && c.External == nil {
				return bad("validation.opponents", "opponent %d: %q is the run's start vector, and the config sets no start", i+1, o)
			}
			continue
		}
		if ladder.IsEngineSpec(o) {
			if externalStarts.Load() {
				if _, err := ladder.EngineSpec(o); err != nil {
					return bad("validation.opponents", "opponent %d (an external engine, as arena's -engine): %v", i+1, err)
				}
			}
			continue
		}
		if _, err := configs.LoadWeights(o); err != nil {
			return bad("validation.opponents", "opponent %d: %v", i+1, err)
		}
	}
	if len(v.Opponents) > 0 && v.Pairs < 1 {
		return bad("validation.pairs", "must be at least 1 when there are opponents, not %d", v.Pairs)
	}
	if v.SPRT != "" {
		if _, err := stats.ParseSPRT(v.SPRT); err != nil {
			return bad("validation.sprt", "%v", err)
		}
	}
	for _, d := range v.Depths {
		if d < 0 {
			return bad("validation.depths", "depths must be 0 (the engine depth) or more, not %d", d)
		}
	}
	if v.Width < 0 {
		return bad("validation.width", "must be 0 (the engine width) or more, not %d", v.Width)
	}
	depths, width := c.ladderDepths()
	for i, d := range depths {
		if d == 0 && c.External != nil {
			continue // the external engine's own search
		}
		if slices.Contains(depths[:i], d) {
			return bad("validation.depths", "depth %d is listed twice (0 stands for engine.depth %d)", d, c.Engine.Depth)
		}
		s := c.engineSettings(d, width).Validate()
		var se *engine.SettingsError
		if errors.As(s, &se) && se.Field == "Depth" {
			return bad("validation.depths", "depth %d: %s", d, se.Msg)
		}
		if err := settingsErr("validation", s); err != nil {
			return err
		}
	}
	if v.EloEvery < 0 {
		return bad("validation.elo_every", "must be 0 (off) or more, not %d", v.EloEvery)
	}
	if v.EloEvery > 0 {
		if v.EloPairs < 1 {
			return bad("validation.elo_pairs", "must be at least 1 when elo_every is set, not %d", v.EloPairs)
		}
		if v.EloDepth < 0 {
			return bad("validation.elo_depth", "must be 0 (engine.depth) or a search depth, not %d", v.EloDepth)
		}
		s := c.engineSettings(c.EloDepth(), c.Engine.Width).Validate()
		var se *engine.SettingsError
		if errors.As(s, &se) && se.Field == "Depth" {
			return bad("validation.elo_depth", "depth %d: %s", v.EloDepth, se.Msg)
		}
		if c.EloOpponent() == "" {
			return bad("validation.elo_every", "needs an opponent other than %q in validation.opponents to measure the Elo against", Halfway)
		}
	}
	return nil
}

// problemKeys are the config keys behind the optimize.Problem fields a
// method's OptionError may name (OptionError.Field).
var problemKeys = map[string]string{"Start": "start", "InitLo": "init", "InitHi": "init", "Bounds": "bounds"}

// distinctOpenings counts the distinct openings of a suite.
func distinctOpenings(suite []tournament.Opening) int {
	seen := map[string]bool{}
	for _, o := range suite {
		seen[o.String()] = true
	}
	return len(seen)
}
