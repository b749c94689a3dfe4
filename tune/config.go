package tune

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// Config is a tuning job: what to tune, how to play the games, which method
// optimises and with what options, and how the result is verified.
// configs/reference.toml documents every key; configs/default.toml is the
// job `go run ./cmd/tune` runs. Load or Parse a Config from TOML, or take
// DefaultConfig and Set keys; Validate before use.
type Config struct {
	Method      string `toml:"method"`      // a registered method name (Methods): "ga", "pso"
	Schema      string `toml:"schema"`      // "symmetric", "asymmetric", "dual", "tempo" or "cross"
	Seed        int64  `toml:"seed"`        // seeds every random choice of the run; ≥ 0
	Concurrency int    `toml:"concurrency"` // games played at once; 0 = all cores
	Name        string `toml:"name"`        // a label for the run, written into provenance
	Stall       int    `toml:"stall"`       // stop once the best vector is unchanged this many steps; 0 = off
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
	Params []ParamConfig `toml:"param,omitempty"`

	// Options holds each registered method's options by method name (the
	// config's [ga], [pso] … tables): the value Spec.Options returns,
	// decoded over its defaults.
	Options map[string]any `toml:"-"`

	// chained marks a later stage of a chain before the stage before it
	// has finished: its start vector is that stage's best, which Validate
	// cannot load yet.
	chained bool
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
	Mode string `toml:"mode"` // "off" (the theses), "clamp" or "reflect" (PSO; the GA clamps)
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
const Halfway = "halfway"

// StartOpponent is the ladder opponent that stands for the run's start
// vector (Config.Start): did refining it gain? Valid only with a start.
const StartOpponent = "start"

// The values of EngineConfig.Settings.
const (
	DefaultSettings = "default" // engine.DefaultSettings
	PlaySettings    = "play"    // engine.PlaySettings
)

// validationAliases maps each older validation key to the list it stands
// for.
var validationAliases = map[string]string{"validation.opponent": "validation.opponents", "validation.depth": "validation.depths"}

// foldAliases turns the older keys opponent and depth into the lists they
// stand for; defined tells which validation keys ("opponent", …) the
// document sets.
func (v *ValidationConfig) foldAliases(defined func(key string) bool) error {
	if defined("opponent") {
		if defined("opponents") {
			return bad("validation.opponent", "give validation.opponents or the older validation.opponent, not both")
		}
		v.Opponents = []string{}
		if v.Opponent != "" {
			v.Opponents = []string{v.Opponent}
		}
		v.Opponent = ""
	}
	if defined("depth") {
		if defined("depths") {
			return bad("validation.depth", "give validation.depths or the older validation.depth, not both")
		}
		v.Depths, v.Depth = []int{v.Depth}, 0
	}
	return nil
}

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
	ScaleLinear = "linear"
	ScaleLog    = "log"
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
		Bounds:     BoundsConfig{Mode: "clamp", RangeConfig: RangeConfig{Lo: 0, Hi: 4000, AlertLo: -4000, AlertHi: 4000}},
		Validation: ValidationConfig{Opponents: []string{"zhou2015", Halfway}, Pairs: 20, Depths: []int{}, Clocks: []string{}, EloPairs: 20},
		Space:      SpaceConfig{Scale: ScaleLinear, Norm: 10000, Monotone: [][]string{}},
		Options:    map[string]any{},
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

// Load reads a TOML config file over DefaultConfig, applies the overrides
// and validates it (Parse). The file must be a regular file of at most
// 1 MiB (fileio.Config); a file that is not is a *fileio.Error, refused
// before it is read.
func Load(path string, overrides ...Override) (Config, error) {
	data, err := fileio.ReadFile(path, fileio.Config)
	if err != nil {
		return Config{}, err
	}
	c, err := Parse(path, data, overrides...)
	c.Then = thenFrom(c.Then, path)
	return c, err
}

// LoadEmbedded parses the embedded config configs/<name>.toml.
func LoadEmbedded(name string, overrides ...Override) (Config, error) {
	data, err := configs.Config(name)
	if err != nil {
		return Config{}, err
	}
	c, err := Parse("configs/"+name+".toml (embedded)", data, overrides...)
	c.Then = thenFrom(c.Then, "")
	return c, err
}

// Override sets one key after the file is read, as a flag does: Value is
// TOML ("3", `"pso"`), Source names where it came from in errors ("flag
// -depth"). Key "@budget" is the chosen method's step budget
// (Spec.BudgetKey in its table); with Unit set, the override applies only
// to a method whose steps are of that unit ("generation").
type Override struct {
	Key, Value, Source string
	Unit               string
}

// FlagOverride is the override a command-line flag gives: key set to
// value (quoted as a TOML string when str), its source "flag -NAME", and
// for the flags named after a method's step unit (generations,
// iterations, rounds) that unit, so a flag for another method's budget is
// refused naming it.
func FlagOverride(flag, key, value string, str bool) Override {
	if str {
		value = strconv.Quote(value)
	}
	o := Override{Key: key, Value: value, Source: "flag -" + flag}
	if flag == "generations" || flag == "iterations" || flag == "rounds" {
		o.Unit = strings.TrimSuffix(flag, "s")
	}
	return o
}

// Parse decodes data (named name in errors) over DefaultConfig, applies the
// overrides in order and validates the result. Unknown keys, wrong types and
// out-of-range values are a *ConfigError naming the file and line of the key
// (or the override's Source).
func Parse(name string, data []byte, overrides ...Override) (Config, error) {
	c, err := decode(name, data)
	if err != nil {
		return Config{}, err
	}
	from := map[string]string{}
	for _, o := range overrides {
		key := o.Key
		if key == "@budget" {
			spec, err := c.Spec()
			if err != nil {
				return Config{}, locate(err, name, data, from)
			}
			if o.Unit != "" && o.Unit != spec.Unit {
				return Config{}, &ConfigError{File: o.Source, Msg: fmt.Sprintf("does not apply to method %q, whose steps are %ss (use -steps)", c.Method, spec.Unit)}
			}
			key = c.Method + "." + spec.BudgetKey
		}
		if err := c.Set(key, o.Value); err != nil {
			var ce *ConfigError
			if errors.As(err, &ce) {
				ce.File = o.Source
			}
			return Config{}, err
		}
		from[key] = o.Source
	}
	if err := c.Validate(); err != nil {
		return Config{}, locate(err, name, data, from)
	}
	return c, nil
}

// locate fills in where a *ConfigError's key was set: the override's
// source, or the file and line.
func locate(err error, name string, data []byte, from map[string]string) error {
	var ce *ConfigError
	if errors.As(err, &ce) {
		// A list set through its older single-valued key is named by it.
		for old, key := range validationAliases {
			if ce.Key == key && (from[old] != "" || keyLine(data, key) == 0 && keyLine(data, old) > 0) {
				ce.Key = old
			}
		}
		if src, ok := from[ce.Key]; ok {
			ce.File, ce.Line = src, 0
		} else {
			ce.File, ce.Line = name, keyLine(data, ce.Key)
		}
	}
	return err
}

// decode reads data over DefaultConfig without validating values.
func decode(name string, data []byte) (Config, error) {
	c := DefaultConfig()
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&c)
	if err != nil {
		return Config{}, tomlError(name, err)
	}
	// The method tables, decoded into the registered methods' options.
	var raw map[string]toml.Primitive
	mdRaw, err := toml.Decode(string(data), &raw)
	if err != nil {
		return Config{}, tomlError(name, err)
	}
	for _, s := range Methods() {
		p, ok := raw[s.Name]
		if !ok {
			continue
		}
		if err := mdRaw.PrimitiveDecode(p, c.Options[s.Name]); err != nil {
			ce := tomlError(name, err)
			if ce.Key != "" && !strings.HasPrefix(ce.Key, s.Name+".") {
				ce.Key = s.Name + "." + ce.Key
			}
			if ce.Line == 0 {
				ce.Line = keyLine(data, ce.Key)
			}
			return Config{}, ce
		}
	}
	if err := c.Validation.foldAliases(func(k string) bool { return md.IsDefined("validation", k) }); err != nil {
		var ce *ConfigError
		errors.As(err, &ce)
		ce.File, ce.Line = name, keyLine(data, ce.Key)
		return Config{}, ce
	}
	var unknown []string
	for _, k := range md.Undecoded() {
		if _, isMethod := registry[k[0]]; !isMethod {
			unknown = append(unknown, k.String())
		}
	}
	for _, k := range mdRaw.Undecoded() {
		if _, isMethod := registry[k[0]]; isMethod && len(k) > 1 {
			unknown = append(unknown, k.String())
		}
	}
	if len(unknown) > 0 {
		slices.SortFunc(unknown, func(a, b string) int { return keyLine(data, a) - keyLine(data, b) })
		k := unknown[0]
		msg := "unknown key" + cmdline.DidYouMean(k, knownKeys())
		if strings.HasSuffix(k, ".stall") {
			msg = "unknown key (the stall rule is the top-level key \"stall\" for every method)"
		}
		return Config{}, &ConfigError{File: name, Line: keyLine(data, k), Key: k, Msg: msg}
	}
	return c, nil
}

// knownKeys are the dotted keys of DefaultConfig, for "did you mean".
func knownKeys() []string {
	c := DefaultConfig()
	flat, err := c.Flat()
	if err != nil {
		return nil
	}
	keys := make([]string, 0, len(flat))
	for k := range flat {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// tomlError turns a BurntSushi/toml error into a *ConfigError with the line
// and key where the decoder gives them.
func tomlError(name string, err error) *ConfigError {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &ConfigError{File: name, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
	}
	// Type mismatches read "toml: line N (last key "k"): msg".
	msg := err.Error()
	ce := &ConfigError{File: name, Msg: msg}
	if n, _ := fmt.Sscanf(msg, "toml: line %d (last key %q):", &ce.Line, &ce.Key); n == 2 {
		if i := strings.Index(msg, "):"); i >= 0 {
			ce.Msg = strings.TrimSpace(msg[i+2:])
		}
	} else if n == 1 {
		ce.Msg = strings.TrimPrefix(msg, "toml: ")
	}
	return ce
}

// Set sets one key to a TOML value, as a flag does: Set("engine.depth",
// "3"), Set("ga.generations", "5"), Set("method", `"pso"`). The value is
// decoded like the same key in a file (wrong types are errors); call
// Validate afterwards. Errors are *ConfigError naming the key.
func (c *Config) Set(key, value string) error {
	err := c.set(key, value)
	var ce *ConfigError
	if errors.As(err, &ce) && !strings.HasPrefix(value, `"`) {
		// A value that is not TOML ("x" for a depth): say what the key
		// takes, learnt from the type a quoted value is refused for.
		d := DefaultConfig()
		if m := destType.FindStringSubmatch(fmt.Sprint(d.set(key, strconv.Quote(value)))); m != nil {
			if want, ok := typeWords[m[1]]; ok {
				ce.Msg = fmt.Sprintf("must be %s, not %q", want, value)
			}
		}
	}
	return err
}

// destType finds the Go type named by a BurntSushi/toml type mismatch,
// and typeWords says what a value of it is.
var (
	destType  = regexp.MustCompile(`destination has type ([a-z0-9]+)`)
	typeWords = map[string]string{"integer": "an integer", "float": "a number", "bool": "true or false"}
)

func (c *Config) set(key, value string) error {
	parts := strings.Split(key, ".")
	var doc string
	switch len(parts) {
	case 1:
		doc = fmt.Sprintf("%s = %s\n", parts[0], value)
	case 2:
		doc = fmt.Sprintf("[%s]\n%s = %s\n", parts[0], parts[1], value)
	default:
		return &ConfigError{Key: key, Msg: "not a config key"}
	}
	if opts, ok := c.Options[parts[0]]; ok && len(parts) == 2 {
		var raw map[string]toml.Primitive
		md, err := toml.Decode(doc, &raw)
		if err == nil {
			err = md.PrimitiveDecode(raw[parts[0]], opts)
		}
		if err != nil {
			return &ConfigError{Key: key, Msg: tomlError("", err).Msg}
		}
		if und := md.Undecoded(); len(und) > 1 {
			return &ConfigError{Key: key, Msg: "unknown key"}
		}
		return nil
	}
	md, err := toml.Decode(doc, c)
	if err != nil {
		return &ConfigError{Key: key, Msg: tomlError("", err).Msg}
	}
	if len(md.Undecoded()) > 0 {
		return &ConfigError{Key: key, Msg: "unknown key"}
	}
	return c.Validation.foldAliases(func(k string) bool { return key == "validation."+k })
}

// keyLine finds the line where a dotted key ("ga.population") is set in a
// TOML document, or 0. It follows [table] headers and dotted keys; it does
// not need to understand values. The tables of an array ([[param]]) are
// numbered from 1: "param[2].min" is min in the second, "param.min" the
// first one that sets it.
func keyLine(data []byte, key string) int {
	table, plain := "", ""
	arrays := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		if strings.HasPrefix(s, "[") {
			h := s
			if i := strings.Index(h, "#"); i >= 0 {
				h = h[:i]
			}
			table = strings.Trim(strings.TrimSpace(h), "[] ")
			plain = table
			if strings.HasPrefix(s, "[[") {
				arrays[table]++
				table = fmt.Sprintf("%s[%d]", table, arrays[table])
			}
			if table == key || plain == key {
				return line
			}
			continue
		}
		eq := strings.Index(s, "=")
		if eq < 0 {
			continue
		}
		k := strings.Trim(strings.TrimSpace(s[:eq]), `"`)
		full, short := k, k
		if table != "" {
			full, short = table+"."+k, plain+"."+k
		}
		if full == key || short == key {
			return line
		}
	}
	return 0
}

func bad(key, format string, args ...any) error {
	return &ConfigError{Key: key, Msg: fmt.Sprintf(format, args...)}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

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
func (c *Config) MethodOptions() any { return c.Options[c.Method] }

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
	if _, err := engine.ParseSchema(c.Schema); err != nil {
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
	switch c.Bounds.Mode {
	case "off", "clamp", "reflect":
	default:
		return bad("bounds.mode", "must be \"off\", \"clamp\" or \"reflect\", not %q", c.Bounds.Mode)
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
		if o == StartOpponent {
			if c.Start == "" && !c.chained {
				return bad("validation.opponents", "opponent %d: %q is the run's start vector, and the config sets no start", i+1, o)
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
		s := c.engineSettings(c.eloDepth(), c.Engine.Width).Validate()
		var se *engine.SettingsError
		if errors.As(s, &se) && se.Field == "Depth" {
			return bad("validation.elo_depth", "depth %d: %s", v.EloDepth, se.Msg)
		}
		if c.eloOpponent() == "" {
			return bad("validation.elo_every", "needs an opponent other than %q in validation.opponents to measure the Elo against", Halfway)
		}
	}
	return nil
}

// eloDepth is the depth of the Elo measured during the run:
// validation.elo_depth, 0 read as the engine depth.
func (c Config) eloDepth() int {
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

// eloOpponent is the opponent of the Elo measured during the run: the
// first opponent that is not Halfway, or "".
func (c *Config) eloOpponent() string {
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
	for d, n := range names {
		lo[d], hi[d] = r.Lo, r.Hi
		if n == "alert" {
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
	if c.Bounds.Mode == "off" {
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

// problemKeys are the config keys behind the optimize.Problem fields a
// method's OptionError may name (OptionError.Field).
var problemKeys = map[string]string{"Start": "start", "InitLo": "init", "InitHi": "init", "Bounds": "bounds"}

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
	w, err := wf.Weights().As(engine.Schema(c.Schema))
	if err != nil {
		return nil, fmt.Errorf("%s holds a %s vector, the run tunes the %s schema", path, wf.Schema, c.Schema)
	}
	return w.Genes, nil
}

// Encode writes the resolved config as TOML: every common key, then the
// chosen method's table with all its options. Parse reads it back to the
// same Config (other methods' options at their defaults).
func (c *Config) Encode() ([]byte, error) {
	var b bytes.Buffer
	if err := toml.NewEncoder(&b).Encode(c); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "\n[%s]\n", c.Method)
	if err := toml.NewEncoder(&b).Encode(c.MethodOptions()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Flat returns the resolved config as "table.key" → value (JSON text):
// what a checkpoint records to tell a changed config.toml by key.
func (c *Config) Flat() (map[string]string, error) {
	data, err := c.Encode()
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if _, err := toml.Decode(string(data), &m); err != nil {
		return nil, err
	}
	out := map[string]string{}
	var walk func(prefix string, v map[string]any)
	walk = func(prefix string, v map[string]any) {
		for k, x := range v {
			key := k
			if prefix != "" {
				key = prefix + "." + k
			}
			if sub, ok := x.(map[string]any); ok {
				walk(key, sub)
				continue
			}
			j, _ := json.Marshal(x)
			out[key] = string(j)
		}
	}
	walk("", m)
	return out, nil
}

// fingerprint is a SHA-256 of the flat config without the keys that may
// change on resume (concurrency).
func fingerprint(flat map[string]string) string {
	keys := make([]string, 0, len(flat))
	for k := range flat {
		if !resumable[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%s\n", k, flat[k])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// resumable are the keys a resumed run may change: results do not depend
// on them.
var resumable = map[string]bool{"concurrency": true}

// diffFlat lists the keys whose values differ between two flat configs,
// "key: old → new", sorted; keys a resume may change are left out.
func diffFlat(old, cur map[string]string) []string {
	var out []string
	for k, v := range old {
		if resumable[k] {
			continue
		}
		if w, ok := cur[k]; !ok {
			out = append(out, fmt.Sprintf("%s: %s → (missing)", k, v))
		} else if w != v {
			out = append(out, fmt.Sprintf("%s: %s → %s", k, v, w))
		}
	}
	for k, w := range cur {
		if _, ok := old[k]; !ok && !resumable[k] {
			out = append(out, fmt.Sprintf("%s: (missing) → %s", k, w))
		}
	}
	sort.Strings(out)
	return out
}

// distinctOpenings counts the distinct openings of a suite.
func distinctOpenings(suite []tournament.Opening) int {
	seen := map[string]bool{}
	for _, o := range suite {
		seen[o.String()] = true
	}
	return len(seen)
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
	if !c.tunedGenes() {
		s += ", road weights fixed to " + c.Engine.Weights
	}
	return s
}
