package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is a tuning job: what to tune, how to play the games, how to
// optimise, and how to validate the result. configs/reference.toml documents
// every key; configs/default.toml is the job `go run ./cmd/tune` runs.
type Config struct {
	Method      string `toml:"method"`      // "ga" or "pso"
	Schema      string `toml:"schema"`      // "symmetric", "asymmetric" or "dual"
	Seed        uint64 `toml:"seed"`        // seeds every random choice of the run
	Concurrency int    `toml:"concurrency"` // games played at once; 0 = all cores
	Name        string `toml:"name"`        // a label for the run, written into provenance

	Engine     EngineConfig     `toml:"engine"`
	Match      MatchConfig      `toml:"match"`
	Init       RangeConfig      `toml:"init"`
	Bounds     BoundsConfig     `toml:"bounds"`
	GA         GAConfig         `toml:"ga"`
	PSO        PSOConfig        `toml:"pso"`
	Validation ValidationConfig `toml:"validation"`
	Output     OutputConfig     `toml:"output"`
}

// EngineConfig is the search every fitness game uses.
type EngineConfig struct {
	Depth        int  `toml:"depth"`         // alpha-beta depth in moves (stone pairs)
	Width        int  `toml:"width"`         // moves kept per node
	ThreatSearch bool `toml:"threat_search"` // continuous-double-threat search before alpha-beta
	MaxMoves     int  `toml:"max_moves"`     // adjudicate a draw after this many moves; 0 = only a full board
}

// MatchConfig says how long a match between two vectors is.
type MatchConfig struct {
	Pairs int `toml:"pairs"` // game pairs (colours swapped) per match; Chen plays 1
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

// GAConfig is the adaptive GA (Chen 2010 §4, Table 4.8).
type GAConfig struct {
	Population  int     `toml:"population"`
	Groups      int     `toml:"groups"`
	Generations int     `toml:"generations"`
	Fitness     string  `toml:"fitness"` // "improved" or "original"
	Pc1         float64 `toml:"pc1"`
	Pc2         float64 `toml:"pc2"`
	PmMode      string  `toml:"pm_mode"` // "fixed" or "adaptive"
	Pm          float64 `toml:"pm"`
	Pm1         float64 `toml:"pm1"`
	Pm2         float64 `toml:"pm2"`
	Stall       int     `toml:"stall"`
}

// PSOConfig is the focus-distance PSO (Chen 2010 §5, Table 5.1).
type PSOConfig struct {
	Particles    int     `toml:"particles"`
	Iterations   int     `toml:"iterations"`
	VelLo        float64 `toml:"vel_lo"`
	VelHi        float64 `toml:"vel_hi"`
	C1           float64 `toml:"c1"`
	C2           float64 `toml:"c2"`
	Alpha1       float64 `toml:"alpha1"`
	Alpha2       float64 `toml:"alpha2"`
	VMaxFraction float64 `toml:"vmax_fraction"` // velocity limit as a fraction of the bound width; 0 = off
	Stall        int     `toml:"stall"`
}

// ValidationConfig is the match of the tuned vector against a baseline
// played when the optimiser stops.
type ValidationConfig struct {
	Opponent string `toml:"opponent"` // a baseline name (configs/weights) or a weight-file path; "" = no validation
	Pairs    int    `toml:"pairs"`    // game pairs over generated openings
	SPRT     string `toml:"sprt"`     // "elo0,elo1[,alpha,beta]" to stop early; "" = fixed length
	Depth    int    `toml:"depth"`    // 0 = the engine depth
	Width    int    `toml:"width"`    // 0 = the engine width
}

// OutputConfig says what a run directory keeps besides the essentials.
type OutputConfig struct {
	Games bool `toml:"games"` // keep every fitness game (games/*.jsonl); validation games are always kept
}

// DefaultConfig is what a key left out of a config file takes: Chen 2010's
// settings for both methods, bounds on, a short validation match.
func DefaultConfig() Config {
	return Config{
		Method: "ga",
		Schema: "symmetric",
		Seed:   1,
		Engine: EngineConfig{Depth: 2, Width: 10, ThreatSearch: true},
		Match:  MatchConfig{Pairs: 1},
		Init:   RangeConfig{Lo: 0, Hi: 4000, AlertLo: -2000, AlertHi: 2000},
		Bounds: BoundsConfig{Mode: "clamp", RangeConfig: RangeConfig{Lo: 0, Hi: 4000, AlertLo: -4000, AlertHi: 4000}},
		GA: GAConfig{
			Population: 49, Groups: 7, Generations: 30, Fitness: "improved",
			Pc1: 0.9, Pc2: 0.6, PmMode: "fixed", Pm: 0.15, Pm1: 0.1, Pm2: 0.001,
		},
		PSO: PSOConfig{
			Particles: 49, Iterations: 15, VelLo: -200, VelHi: 200,
			C1: 2.05, C2: 2.05, Alpha1: 0.3, Alpha2: 0.2, VMaxFraction: 0.2,
		},
		Validation: ValidationConfig{Opponent: "zhou2015", Pairs: 20},
	}
}

// ConfigError is a bad config: the file, the key and the line it stands on
// (Line 0 when unknown).
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
	if e.Key != "" {
		fmt.Fprintf(&b, ": key %q", e.Key)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// LoadConfig reads a TOML config file over DefaultConfig and validates it.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	return ParseConfig(path, data)
}

// ParseConfig decodes data (named name in errors) over DefaultConfig.
// Unknown keys, wrong types and out-of-range values are *ConfigError with the
// key and its line.
func ParseConfig(name string, data []byte) (Config, error) {
	c := DefaultConfig()
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&c)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return Config{}, &ConfigError{File: name, Line: pe.Position.Line, Key: pe.LastKey, Msg: pe.Message}
		}
		// Type mismatches read "toml: line N (last key "k"): msg".
		msg := err.Error()
		ce := &ConfigError{File: name, Msg: msg}
		var rest string
		if n, _ := fmt.Sscanf(msg, "toml: line %d (last key %q):", &ce.Line, &ce.Key); n == 2 {
			if i := strings.Index(msg, "):"); i >= 0 {
				rest = strings.TrimSpace(msg[i+2:])
			}
			ce.Msg = rest
		}
		return Config{}, ce
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0].String()
		return Config{}, &ConfigError{File: name, Line: keyLine(data, k), Key: k, Msg: "unknown key"}
	}
	if err := c.Validate(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			ce.File = name
			ce.Line = keyLine(data, ce.Key)
		}
		return Config{}, err
	}
	return c, nil
}

// keyLine finds the line where a dotted key ("ga.population") is set in a
// TOML document, or 0. It follows [table] headers and dotted keys; it does
// not need to understand values.
func keyLine(data []byte, key string) int {
	table := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' {
			continue
		}
		if strings.HasPrefix(s, "[") {
			h := strings.Trim(s, "[] ")
			if i := strings.Index(h, "#"); i >= 0 {
				h = strings.Trim(h[:i], "[] ")
			}
			table = h
			if table == key {
				return line
			}
			continue
		}
		eq := strings.Index(s, "=")
		if eq < 0 {
			continue
		}
		k := strings.Trim(strings.TrimSpace(s[:eq]), `"`)
		full := k
		if table != "" {
			full = table + "." + k
		}
		if full == key {
			return line
		}
	}
	return 0
}

func bad(key, format string, args ...any) error {
	return &ConfigError{Key: key, Msg: fmt.Sprintf(format, args...)}
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Validate checks every value's range; the error is a *ConfigError naming the
// key (the file and line are filled in by ParseConfig).
func (c *Config) Validate() error {
	switch c.Method {
	case "ga", "pso":
	default:
		return bad("method", "must be \"ga\" or \"pso\", not %q", c.Method)
	}
	switch c.Schema {
	case "symmetric", "asymmetric", "dual":
	default:
		return bad("schema", "must be \"symmetric\", \"asymmetric\" or \"dual\", not %q", c.Schema)
	}
	if c.Concurrency < 0 {
		return bad("concurrency", "must be 0 (all cores) or more, not %d", c.Concurrency)
	}
	if c.Engine.Depth < 1 || c.Engine.Depth > 8 {
		return bad("engine.depth", "must be 1..8 moves, not %d", c.Engine.Depth)
	}
	if c.Engine.Width < 1 || c.Engine.Width > 200 {
		return bad("engine.width", "must be 1..200, not %d", c.Engine.Width)
	}
	if c.Engine.MaxMoves < 0 {
		return bad("engine.max_moves", "must be 0 (no limit) or more, not %d", c.Engine.MaxMoves)
	}
	if c.Match.Pairs < 1 {
		return bad("match.pairs", "must be at least 1, not %d", c.Match.Pairs)
	}
	if !finite(c.Init.Lo, c.Init.Hi, c.Init.AlertLo, c.Init.AlertHi) || c.Init.Lo > c.Init.Hi {
		return bad("init.lo", "init range [%g, %g] must be finite with lo ≤ hi", c.Init.Lo, c.Init.Hi)
	}
	if c.Init.AlertLo > c.Init.AlertHi {
		return bad("init.alert_lo", "alert range [%g, %g] must have alert_lo ≤ alert_hi", c.Init.AlertLo, c.Init.AlertHi)
	}
	switch c.Bounds.Mode {
	case "off", "clamp", "reflect":
	default:
		return bad("bounds.mode", "must be \"off\", \"clamp\" or \"reflect\", not %q", c.Bounds.Mode)
	}
	b := c.Bounds.RangeConfig
	if !finite(b.Lo, b.Hi, b.AlertLo, b.AlertHi) || b.Lo > b.Hi {
		return bad("bounds.lo", "bounds [%g, %g] must be finite with lo ≤ hi", b.Lo, b.Hi)
	}
	if b.AlertLo > b.AlertHi {
		return bad("bounds.alert_lo", "alert bounds [%g, %g] must have alert_lo ≤ alert_hi", b.AlertLo, b.AlertHi)
	}
	g := c.GA
	if g.Population < 2 {
		return bad("ga.population", "must be at least 2, not %d", g.Population)
	}
	if g.Groups < 1 || g.Groups > g.Population {
		return bad("ga.groups", "must be 1..population (%d), not %d", g.Population, g.Groups)
	}
	if g.Population%g.Groups != 0 {
		return bad("ga.groups", "%d groups do not divide a population of %d", g.Groups, g.Population)
	}
	if g.Population/g.Groups < 2 {
		return bad("ga.groups", "groups of %d cannot play a round robin: need at least 2 individuals a group", g.Population/g.Groups)
	}
	if g.Generations < 1 {
		return bad("ga.generations", "must be at least 1, not %d", g.Generations)
	}
	if g.Fitness != "improved" && g.Fitness != "original" {
		return bad("ga.fitness", "must be \"improved\" or \"original\", not %q", g.Fitness)
	}
	for _, p := range []struct {
		key string
		v   float64
	}{{"ga.pc1", g.Pc1}, {"ga.pc2", g.Pc2}, {"ga.pm", g.Pm}, {"ga.pm1", g.Pm1}, {"ga.pm2", g.Pm2}} {
		if !finite(p.v) || p.v < 0 || p.v > 1 {
			return bad(p.key, "a probability must be in [0, 1], not %g", p.v)
		}
	}
	if g.PmMode != "fixed" && g.PmMode != "adaptive" {
		return bad("ga.pm_mode", "must be \"fixed\" or \"adaptive\", not %q", g.PmMode)
	}
	if g.Stall < 0 {
		return bad("ga.stall", "must be 0 (off) or more, not %d", g.Stall)
	}
	p := c.PSO
	if p.Particles < 2 {
		return bad("pso.particles", "must be at least 2, not %d", p.Particles)
	}
	if p.Iterations < 1 {
		return bad("pso.iterations", "must be at least 1, not %d", p.Iterations)
	}
	if !finite(p.VelLo, p.VelHi) || p.VelLo > p.VelHi {
		return bad("pso.vel_lo", "velocity range [%g, %g] must be finite with vel_lo ≤ vel_hi", p.VelLo, p.VelHi)
	}
	for _, q := range []struct {
		key string
		v   float64
	}{{"pso.c1", p.C1}, {"pso.c2", p.C2}, {"pso.alpha1", p.Alpha1}, {"pso.alpha2", p.Alpha2}, {"pso.vmax_fraction", p.VMaxFraction}} {
		if !finite(q.v) || q.v < 0 {
			return bad(q.key, "must be a finite number ≥ 0, not %g", q.v)
		}
	}
	if p.Stall < 0 {
		return bad("pso.stall", "must be 0 (off) or more, not %d", p.Stall)
	}
	v := c.Validation
	if v.Opponent != "" && v.Pairs < 1 {
		return bad("validation.pairs", "must be at least 1 when an opponent is set, not %d", v.Pairs)
	}
	if v.Depth < 0 || v.Depth > 8 {
		return bad("validation.depth", "must be 0 (the engine depth) or 1..8, not %d", v.Depth)
	}
	if v.Width < 0 || v.Width > 200 {
		return bad("validation.width", "must be 0 (the engine width) or 1..200, not %d", v.Width)
	}
	return nil
}
