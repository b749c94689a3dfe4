// This file holds the tuning job's config types (Config and its tables),
// their defaults (DefaultConfig) and the error every config check returns
// (ConfigError). Reading a config from TOML is in configdecode.go, Set and
// overrides in configset.go, validation in configvalidate.go, values
// derived from a config in configderive.go, and the resume fingerprint in
// fingerprint.go.

package tune

import (
	"fmt"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/param"
)

// Config is a tuning job: what to tune, how to play the games, which method
// optimises and with what options, and how the result is verified.
// configs/reference.toml documents every key; configs/default.toml is the
// job `go run ./cmd/tune` runs. Load or Parse a Config from TOML, or take
// DefaultConfig and Set keys; Validate before use.
type Config struct {
	Method      string        `toml:"method"`      // a registered method name (Methods): "ga", "pso"
	Schema      engine.Schema `toml:"schema"`      // symmetric, asymmetric, dual, tempo or cross (engine.Schemas)
	Seed        int64         `toml:"seed"`        // seeds every random choice of the run; ≥ 0
	Concurrency int           `toml:"concurrency"` // games played at once; 0 = all cores
	Name        string        `toml:"name"`        // a label for the run, written into provenance
	Stall       int           `toml:"stall"`       // stop once the best vector is unchanged this many steps; 0 = off
	// Openings is the opening suite of every match, fitness and ladder: an
	// embedded suite name ("balanced", the default: openings cut by colour
	// bias), an opening file's path (configs.LoadOpenings), or "generated"
	// (or "") for the generated 3-stone suites, the smallest radius ≥ 3
	// with a distinct opening per pair.
	Openings string `toml:"openings"`
	// Start is the vector a single-vector method (spsa, texel) starts from
	// instead of a uniform draw from [init]: a weight file of the config's
	// schema, a baseline name, or a run directory (its best.json), to refine
	// an earlier result. "" = a random start. Experiments that judge a
	// method start at random: a hand-set start is only for what it tests.
	Start string `toml:"start"`
	// Then names the config of a next stage, which starts from this run's
	// best vector (its start is set by the chain; see Stages and Chain):
	// an embedded config's name ("overnight-spsa"), or a file path (ending
	// in .toml), relative to this config file's directory: Load makes it
	// so, and in an embedded config "x.toml" names the embedded config x.
	// "" = no next stage.
	Then string `toml:"then"`
	// Budget, when set, is a wall-clock budget for the whole run, a Go
	// duration ("8h", "90m", "2h30m"): Start calibrates the seconds a game
	// takes on this machine and sizes the method's step budget
	// (Spec.BudgetKey) so that tuning, the Elo measurements and the ladder
	// end within it, then writes the resolved step count (and no budget)
	// into the run's config.toml; a clock guards the deadline while it
	// runs (see budget.go). In a chain it is the first stage's key and
	// covers the whole chain. "" = no budget: the method's own step count.
	Budget string `toml:"budget,omitempty"`

	Engine     EngineConfig     `toml:"engine"`
	Match      MatchConfig      `toml:"match"`
	Init       RangeConfig      `toml:"init"`
	Bounds     BoundsConfig     `toml:"bounds"`
	Validation ValidationConfig `toml:"validation"`
	Output     OutputConfig     `toml:"output"`
	Space      SpaceConfig      `toml:"space"`
	// Params are the [[param]] tables: search and time settings tuned
	// beside the road-weight genes (or alone, with engine.weights), after
	// them in the method's vector.
	Params []param.Table `toml:"param,omitempty"`
	// External, when set, is the [external] table: the run tunes an
	// external engine's options (the [[param]] tables) instead of the
	// in-process engine.
	External *param.External `toml:"external,omitempty"`

	// Options holds each registered method's options by method name (the
	// config's [ga], [pso] … tables): the value Spec.Options returns,
	// decoded over its defaults.
	Options map[string]optimize.Options `toml:"-"`

	// chained marks a later stage of a chain before the stage before it
	// has finished: its start vector is that stage's best, which Validate
	// cannot load yet.
	chained bool
	// externalFileDir is where an [external] run writes its values
	// files: the run directory's folder, set when the job starts.
	externalFileDir string
	// budgetFrom is where Budget was set, for errors found when the job
	// starts (a budget too short): the file and line, or the flag; zero
	// when Budget is "".
	budgetFrom budgetSource
}

// EngineConfig is the search every fitness game uses.
type EngineConfig struct {
	Depth        int  `toml:"depth"`         // alpha-beta depth in moves (stone pairs)
	Width        int  `toml:"width"`         // moves kept per node
	ThreatSearch bool `toml:"threat_search"` // continuous-double-threat search before alpha-beta
	MaxMoves     int  `toml:"max_moves"`     // adjudicate a draw after this many moves; 0 = only a full board
	// Settings is the search the games start from before depth and width
	// are set: "default" (engine.DefaultSettings, the tuning search of
	// every preset; "" means it) or "play" (engine.PlaySettings, the
	// engine binary's: the defensive check, killer moves, the deeper threat
	// search). Either plays at a fixed depth without a clock, so games stay
	// reproducible; with "play", threat_search is always on.
	Settings string `toml:"settings"`
	// Weights, when set, fixes every player's road weights to this vector
	// (a baseline name, a weight file or a run directory, as start takes
	// them), and the run tunes its [[param]] tables alone. "" = the
	// road-weight genes are tuned.
	Weights string `toml:"weights,omitempty"`
	// TC and ST put every fitness game on a clock, in arena's notation:
	// TC a game clock "[moves/]time[+increment]" in seconds ("2+0.02"),
	// ST a fixed time per move in seconds (0.05); depth is then the
	// deepest iteration. Timed games depend on the machine and its load:
	// they are not reproducible. "" and 0 = no clock.
	TC string  `toml:"tc,omitempty"`
	ST float64 `toml:"st,omitzero"`
	// TimeMargin is the overrun a move may take beyond its time before it
	// loses on time, in milliseconds (arena's timemargin=), with tc or st;
	// 0 = none. On a loaded machine a short clock without one turns games
	// into time forfeits.
	TimeMargin int `toml:"timemargin,omitzero"`
}

// MatchConfig says how long a match between two vectors is.
type MatchConfig struct {
	Pairs int `toml:"pairs"` // game pairs (colours swapped) per match; Chen plays 1
	// EarlyStop ends a match that only decides who is better (the PSO's
	// knockout and best updates) early: "decided" (default) once the
	// remaining pairs cannot change the winner, "sprt:ELO0,ELO1" also when a
	// GSPRT on its pairs accepts, "off" never (referee.VectorReferee.EarlyStop).
	EarlyStop string `toml:"early_stop"`
}

// RangeConfig is a per-gene interval; the alert threshold of the dual schema
// has its own, since it is a score difference and not a road weight.
type RangeConfig struct {
	Lo      float64 `toml:"lo"`
	Hi      float64 `toml:"hi"`
	AlertLo float64 `toml:"alert_lo"`
	AlertHi float64 `toml:"alert_hi"`
}

// BoundsConfig limits genes during the run.
type BoundsConfig struct {
	Mode optimize.BoundMode `toml:"mode"` // off (the theses), clamp or reflect (PSO; the GA clamps)
	RangeConfig
}

// ValidationConfig is the verification ladder of the tuned vector, played
// when the optimiser stops: one match (a rung) against every opponent at
// every depth, each with its Elo, 95% interval, LOS and verdict; and,
// optionally, the best vector's Elo measured during the run.
//
// The older single-valued keys of a config file, opponent and depth, are
// still read: Parse and Set fold each into a one-element list (opponent =
// "" into no opponents); giving both spellings of one key is an error.
type ValidationConfig struct {
	// Opponents are the ladder's opponents, in order: baseline names
	// (configs/weights), weight-file paths, or Halfway (this run's best
	// vector after step ⌊(steps−1)/2⌋). Empty = no ladder.
	Opponents []string `toml:"opponents"`
	Pairs     int      `toml:"pairs"` // game pairs per rung over generated openings
	SPRT      string   `toml:"sprt"`  // "elo0,elo1[,alpha,beta]" to stop each rung early; "" = fixed length
	// Depths are the ladder's search depths; empty = [engine.depth,
	// engine.depth + 1] (engine.depth alone at engine.MaxDepth); a 0
	// stands for engine.depth.
	Depths []int `toml:"depths"`
	Width  int   `toml:"width"` // 0 = the engine width
	// Clocks add rungs played by the clock, in arena's notation
	// ("st=0.05", "tc=2+0.02"), with engine.depth as the deepest
	// iteration, after each opponent's depth rungs. Empty = the engine's
	// clock (engine.tc or engine.st) when it has one, else none.
	Clocks []string `toml:"clocks,omitempty"`
	// EloEvery, when > 0, measures the best vector's Elo during the run:
	// after steps K−1, 2K−1, … and after the last step, EloPairs game
	// pairs against the first opponent that is not Halfway, at EloDepth
	// (0 = the engine depth) and the engine width; the step's record holds
	// the metrics "elo", "elo_ci" and "elo_games" (the learning curve that
	// `tune compare -curve` draws). 0 = off.
	EloEvery int `toml:"elo_every"`
	EloPairs int `toml:"elo_pairs"`
	EloDepth int `toml:"elo_depth"`

	// Opponent and Depth are the older spellings of Opponents and Depths,
	// read from files and Set only (folded in there); Validate refuses
	// them set.
	Opponent string `toml:"opponent,omitempty"`
	Depth    int    `toml:"depth,omitzero"`
}

// Halfway is the ladder opponent that stands for the run's own best vector
// after step ⌊(steps−1)/2⌋: did the second half of the run still gain?
const Halfway = ladder.Halfway

// StartOpponent is the ladder opponent that stands for the run's start
// vector (Config.Start): did refining it gain? Valid only with a start.
const StartOpponent = ladder.StartOpponent

// The values of EngineConfig.Settings.
const (
	DefaultSettings = "default" // engine.DefaultSettings
	PlaySettings    = "play"    // engine.PlaySettings
)

// OutputConfig says what a run directory keeps besides the essentials.
type OutputConfig struct {
	Games bool `toml:"games"` // keep every fitness game (games/*.jsonl); verification games are always kept
}

// SpaceConfig is the [space] table: the coordinates a method searches.
type SpaceConfig struct {
	// Scale is "linear" (the weights themselves, the default) or "log":
	// the method searches u = ln w and plays exp(u) scaled to Norm
	// (optimize.LogSpace); [init] and [bounds] ranges become
	// [ln max(lo, 1), ln hi].
	Scale string `toml:"scale"`
	// Norm is the Euclidean norm of every played vector in log space,
	// weight units, > 0.
	Norm float64 `toml:"norm"`
	// Monotone lists chains of gene names whose weights must not fall
	// along the chain, e.g. [["M1","M2","M3","M4"], ["W1","W2","W3","W4"]]
	// for the tempo schema (a road of more stones is worth at least one
	// of fewer): the method searches each chain's first weight and the
	// increments after it, kept ≥ 0 by the bounds, and plays the running
	// sums (optimize.ChainSpace). Needs bounds.mode "clamp" or "reflect"
	// and scale "linear"; texel fits the weights themselves and refuses it.
	Monotone [][]string `toml:"monotone"`
}

// The search scales of SpaceConfig.Scale.
const (
	ScaleLinear = param.ScaleLinear
	ScaleLog    = param.ScaleLog
)

// DefaultConfig is what a key left out of a config file takes: the GA on
// the symmetric schema at depth 2, width 10, bounds [0, 4000] clamped, a
// verification ladder of 20 pairs a rung against zhou2015 and the run's
// halfway vector at the engine depth and one deeper, no Elo measurement
// during the run, and every registered method's default options.
func DefaultConfig() Config {
	c := Config{
		Method:     "ga",
		Schema:     "symmetric",
		Seed:       1,
		Engine:     EngineConfig{Depth: 2, Width: 10, ThreatSearch: true, Settings: DefaultSettings},
		Openings:   "balanced",
		Match:      MatchConfig{Pairs: 1, EarlyStop: "decided"},
		Init:       RangeConfig{Lo: 0, Hi: 4000, AlertLo: -2000, AlertHi: 2000},
		Bounds:     BoundsConfig{Mode: optimize.BoundsClamp, RangeConfig: RangeConfig{Lo: 0, Hi: 4000, AlertLo: -4000, AlertHi: 4000}},
		Validation: ValidationConfig{Opponents: []string{"zhou2015", Halfway}, Pairs: 20, Depths: []int{}, Clocks: []string{}, EloPairs: 20},
		Space:      SpaceConfig{Scale: ScaleLinear, Norm: 10000, Monotone: [][]string{}},
		Options:    map[string]optimize.Options{},
	}
	for _, s := range Methods() {
		c.Options[s.Name] = s.Options()
	}
	return c
}

// ConfigError is a bad config: the file (or "flag -x"), the key and the line
// it stands on (Line 0 when unknown or not from a file). Its message is
// "FILE:LINE: key \"engine.depth\": must be at least 1, not 0", or for a
// flag "flag -depth: must be at least 1, not 0" (the flag names the key).
type ConfigError struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" && !strings.HasPrefix(e.File, "flag -") {
		if e.File != "" {
			b.WriteString(": ")
		}
		fmt.Fprintf(&b, "key %q", e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func bad(key, format string, args ...any) error {
	return &ConfigError{Key: key, Msg: fmt.Sprintf(format, args...)}
}
