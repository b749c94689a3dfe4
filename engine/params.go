package engine

import (
	"fmt"
	"math"
	"strings"
)

// Param is a numeric search or time setting that can be read and set by
// name: what a tuner varies and what a protocol's options command lists
// (UCI's `option name NAME type spin default D min MIN max MAX`). Name is
// the Go field name in Settings or Settings.Time ("Width", "DefendWide",
// "DefendShare"); an integer Param takes whole numbers only. Min and Max
// are the values Set accepts: the limits Settings.Validate checks, and for
// a setting Validate bounds on one side only (node budgets, factors) a
// documented practical bound on the other.
//
// Its JSON holds the name, kind and range alone (an external engine's
// option as a tuning run describes it; Doc is left out).
type Param struct {
	Name  string  `json:"name"`
	Float bool    `json:"float,omitempty"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	// Doc says what the setting is, in a few words, with its unit.
	Doc string `json:"-"`

	get func(*Settings) float64
	set func(*Settings, float64)
}

// maxNodeBudget bounds the node-budget Params (ThreatNodes, DefendNodes,
// ShallowDefendNodes, DefendMaxNodes), in positions: far above any budget
// that fits a move's time (PlaySettings' threat search visits 50,000).
const maxNodeBudget = 100_000_000

// maxFactor bounds the time manager's multiplying factors as Params.
const maxFactor = 100

// minShare is the smallest share a share Param takes: Validate refuses 0.
const minShare = 0.01

// params is the table of Params, in the order Params returns them.
var params = []Param{
	intParam("Width", 1, MaxWidth, "moves kept per node after ordering", func(s *Settings) *int { return &s.Width }),
	intParam("Singles", 2, MaxSingles, "best single stones combined into pairs at each node", func(s *Settings) *int { return &s.Singles }),
	intParam("Blocks", 0, MaxWidth, "blocking pairs added at nodes where the opponent threatens", func(s *Settings) *int { return &s.Blocks }),
	intParam("ThreatDepth", 1, maxThreatPly, "attacker moves in the threat search", func(s *Settings) *int { return &s.ThreatDepth }),
	int64Param("ThreatNodes", 1, maxNodeBudget, "positions the threat search may visit", func(s *Settings) *int64 { return &s.ThreatNodes }),
	intParam("ThreatMixed", 0, tsMaxMoves, "moves of the mixed threat search", func(s *Settings) *int { return &s.ThreatMixed }),
	int64Param("DefendNodes", 0, maxNodeBudget, "positions of the defensive check per checked move (0: off)", func(s *Settings) *int64 { return &s.DefendNodes }),
	intParam("DefendDepth", 1, maxThreatPly, "opponent moves in the defensive check", func(s *Settings) *int { return &s.DefendDepth }),
	intParam("DefendMoves", 1, MaxWidth, "root moves the defensive check may examine", func(s *Settings) *int { return &s.DefendMoves }),
	intParam("DefendWide", 0, MaxWidth, "further pairs the check tries when every checked move loses", func(s *Settings) *int { return &s.DefendWide }),
	intParam("ShallowDefend", 0, MaxWidth, "moves checked by the shallow defensive check below the root", func(s *Settings) *int { return &s.ShallowDefend }),
	intParam("ShallowDefendPlies", 1, MaxDepth, "plies below the root the shallow check runs at", func(s *Settings) *int { return &s.ShallowDefendPlies }),
	int64Param("ShallowDefendNodes", 1, maxNodeBudget, "positions of the shallow check per move", func(s *Settings) *int64 { return &s.ShallowDefendNodes }),
	intParam("ShallowDefendDepth", 1, maxThreatPly, "opponent moves in the shallow check", func(s *Settings) *int { return &s.ShallowDefendDepth }),
	intParam("QuietSafe", 0, MaxWidth, "root moves checked against a quiet attack at White's first QuietMoves moves (0: off)", func(s *Settings) *int { return &s.QuietSafe }),
	intParam("QuietMoves", 1, MaxQuietMoves, "White's moves after the opening at which the quiet-attack check runs", func(s *Settings) *int { return &s.QuietMoves }),
	int64Param("QuietSafeNodes", 1, maxNodeBudget, "positions of the quiet-attack check", func(s *Settings) *int64 { return &s.QuietSafeNodes }),
	intParam("GameMoves", 1, 1000, "moves a game clock is shared among", func(s *Settings) *int { return &s.Time.GameMoves }),
	floatParam("SafetyShare", minShare, 0.5, "share of the clock kept off it", func(s *Settings) *float64 { return &s.Time.SafetyShare }),
	floatParam("IncShare", minShare, 1, "share of the increment added to a move's soft limit", func(s *Settings) *float64 { return &s.Time.IncShare }),
	floatParam("MaxShare", minShare, 1, "largest share of the remaining time one move may take", func(s *Settings) *float64 { return &s.Time.MaxShare }),
	floatParam("HardFactor", 1, maxFactor, "hard limit as a multiple of the soft limit", func(s *Settings) *float64 { return &s.Time.HardFactor }),
	floatParam("Branching", 1, maxFactor, "assumed ratio of an iteration's time to the previous one's", func(s *Settings) *float64 { return &s.Time.Branching }),
	floatParam("ThreatFactor", minShare, maxFactor, "soft limit factor when the opponent has one threat", func(s *Settings) *float64 { return &s.Time.ThreatFactor }),
	floatParam("ForcedFactor", minShare, maxFactor, "soft limit factor when every move is a forced block", func(s *Settings) *float64 { return &s.Time.ForcedFactor }),
	floatParam("FailLowFactor", minShare, maxFactor, "soft limit factor once an iteration fails low", func(s *Settings) *float64 { return &s.Time.FailLowFactor }),
	floatParam("FailLowDrop", minShare, maxFactor, "score fall that counts as failing low, in largest weights", func(s *Settings) *float64 { return &s.Time.FailLowDrop }),
	floatParam("DefendShare", minShare, 0.9, "share of the hard limit kept for the defensive check", func(s *Settings) *float64 { return &s.Time.DefendShare }),
	floatParam("DefendGrowth", 1, 1000, "budget factor of each deeper defensive check pass (1: off)", func(s *Settings) *float64 { return &s.Time.DefendGrowth }),
	int64Param("DefendMaxNodes", 0, maxNodeBudget, "largest deepened check budget per move (0: 64 × DefendNodes)", func(s *Settings) *int64 { return &s.Time.DefendMaxNodes }),
	intParam("DefendMaxDepth", 0, maxThreatPly, "deepest opponent moves of a deepened check (0: DefendDepth)", func(s *Settings) *int { return &s.Time.DefendMaxDepth }),
}

func intParam(name string, lo, hi float64, doc string, f func(*Settings) *int) Param {
	return Param{Name: name, Min: lo, Max: hi, Doc: doc,
		get: func(s *Settings) float64 { return float64(*f(s)) },
		set: func(s *Settings, v float64) { *f(s) = int(v) }}
}

func int64Param(name string, lo, hi float64, doc string, f func(*Settings) *int64) Param {
	return Param{Name: name, Min: lo, Max: hi, Doc: doc,
		get: func(s *Settings) float64 { return float64(*f(s)) },
		set: func(s *Settings, v float64) { *f(s) = int64(v) }}
}

func floatParam(name string, lo, hi float64, doc string, f func(*Settings) *float64) Param {
	return Param{Name: name, Float: true, Min: lo, Max: hi, Doc: doc,
		get: func(s *Settings) float64 { return *f(s) },
		set: func(s *Settings, v float64) { *f(s) = v }}
}

// Params returns the settable search and time settings, in a fixed order:
// search width and threat search, the defensive checks, then the time
// manager's (TimeSettings) knobs.
func Params() []Param { return append([]Param(nil), params...) }

// ParamByName returns the Param called name, compared without regard to
// case (UCI's option names are case-insensitive); ok is false for an
// unknown name.
func ParamByName(name string) (p Param, ok bool) {
	for _, p := range params {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Param{}, false
}

// ParamNames returns every Param's name, in Params' order.
func ParamNames() []string {
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = p.Name
	}
	return names
}

// Get returns p's value in s, a zero field standing for its default (as
// Validate reads it; DefendGrowth's 0, off, reads as 1).
func (p Param) Get(s Settings) float64 {
	s = s.withDefaults()
	s.Time = s.Time.withDefaults()
	v := p.get(&s)
	if p.Name == "DefendGrowth" && v == 0 {
		return 1
	}
	return v
}

// Set sets p in s to v. Errors: v not a number, outside [Min, Max], or not
// a whole number for an integer Param, as a *SettingsError naming the
// Settings field ("Width", "Time.DefendShare").
func (p Param) Set(s *Settings, v float64) error {
	bad := func(format string, a ...any) error {
		field := p.Name
		if p.isTime() {
			field = "Time." + p.Name
		}
		return &SettingsError{Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	switch {
	case math.IsNaN(v):
		return bad("must be a number in %v..%v, not %v", p.Min, p.Max, v)
	case v < p.Min:
		return bad("must be at least %v, not %v", p.Min, v)
	case v > p.Max:
		return bad("must be at most %v, not %v", p.Max, v)
	case !p.Float && v != math.Trunc(v):
		return bad("must be a whole number, not %v", v)
	}
	p.set(s, v)
	return nil
}

// isTime reports whether p is a TimeSettings field.
func (p Param) isTime() bool {
	var s Settings
	p.set(&s, p.Max)
	return s.Time != TimeSettings{}
}
