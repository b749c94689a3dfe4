package engine

import (
	"cmp"
	"context"
	"fmt"
	"time"
	"unsafe"
)

// Settings configures an Engine's search (Qi 2018 §§4.3–4.7). Zero numeric
// fields mean "the default" (see DefaultSettings) except MaxNodes, MoveTime
// and DefendNodes; the zero Settings has ThreatSearch and the defensive
// check off.
type Settings struct {
	// Depth is the alpha-beta depth in moves (stone pairs); default 2.
	Depth int
	// Width is the number of moves kept per node after ordering (Qi's w);
	// default 10. WidthByPly can set it ply by ply.
	Width int
	// ThreatSearch enables the victory-by-continuous-double-threat search
	// before alpha-beta; default true.
	ThreatSearch bool
	// ThreatDepth is the number of attacker moves in the threat search,
	// the last of which must make three or more threats; default 4: up to
	// three double threats and a final triple (8 plies to the six). The
	// search deepens 1, 2, … ThreatDepth within ThreatNodes; in self-play
	// from the suite's openings depth 4 ends games sooner than 3 at a
	// lower cost per game, and 5 adds little within the node budget.
	ThreatDepth int
	// ThreatNodes bounds the threat search (positions visited, counted in
	// Result.Nodes); 0 means the default 8000 (about 1–3 ms). Unlike
	// MoveTime it is deterministic.
	ThreatNodes int64
	// Singles is the number of best single stones combined into pairs at
	// each node; 0 means Width+4, at least 12 and at most MaxSingles.
	Singles int
	// TableBits: the transposition table has 1<<TableBits entries of 24
	// bytes; default 20 (24 MiB, so an Engine stays under 32 MiB).
	TableBits int
	// DefendNodes enables the defensive check at the root (issue 14) and
	// bounds it: after alpha-beta has chosen its move (unless it found a
	// forced win; a forced loss it found is checked too, since its
	// defences are only the Width best), the threat search is
	// run from the opponent's side on the position after it, visiting at
	// most DefendNodes positions (counted in Result.Nodes); if it proves a
	// win by continuous double threats the next root moves are checked the
	// same way, up to DefendMoves in all, and the first one after which no
	// such win is found is played (see defend.go for the moves tried after
	// the root list). 0 (the default) turns the check off, and the threat
	// search then plays exactly as before the check existed (no threat
	// table either), so tuning stays fast and earlier results stand;
	// PlayDefendNodes (20000 per checked move) is what the engine binary
	// plays with. On the tactical suite (engine/testdata/tactics.txt) 2000
	// solves 3 of 27 defence positions, 20000 16, 50000 24; a self-play game
	// at depth 2 / width 10 takes about 3, 5 and 18 times as long as
	// without the check. With the check on, the threat search also keeps a
	// 1 MiB table of its proved wins and failures. Like ThreatNodes it is
	// deterministic.
	DefendNodes int64
	// DefendDepth is the number of opponent moves in the defensive check's
	// threat search (as ThreatDepth for the attacker); 0 means the default 6.
	// The losses the check should prevent are mostly sequences of 5–6
	// double threats (engine/testdata/tactics.txt).
	DefendDepth int
	// DefendMoves is the number of root moves, best first, the defensive
	// check may examine (the search's choice included); 0 means the default
	// 10, at most MaxWidth.
	DefendMoves int
	// DefendWide is the number of further moves the defensive check tries
	// when the root moves and the pairs through the opponent's refutations
	// all lose and the opponent has no threat on the board: the best
	// DefendWide pairs of the root's Singles best stones by leaf score that
	// it has not checked yet, in that order. 0 (the default) leaves them
	// out; PlaySettings tries 60. It exists because a White first move
	// can already lose to a win by continuous double threats where the
	// one pair that holds is a quiet two-stone block ranking far past the
	// root list by the evaluation, unrelated to the opponent's first moves
	// (docs/experiments/12-issue-14-engine-against-cloudict.md, eleventh
	// step).
	DefendWide int `json:",omitzero"`
	// Killers turns on killer moves (search.go): the last two moves that
	// caused a beta cut-off at each ply are searched right after the
	// transposition-table move at the other nodes of that ply, when the
	// node's Width best moves hold them. They only reorder the kept moves,
	// so a fixed-depth search returns the same move and score with fewer
	// nodes: on the midgame suite (engine/testdata/midgame.txt, width 10)
	// 3% fewer at depths 4 and 5, 1% at depth 6, 2% at depth 4 width 20;
	// fixed-depth games are the same game for game. Killers cut off by the
	// width are not promoted into the kept set (measured without gain:
	// docs/experiments/12-issue-14-engine-against-cloudict.md, "Knobs left
	// off"), so fixed-depth results match the search without them. On in
	// PlaySettings. Default false: the order of today's search (evaluation
	// order, table move first).
	Killers bool `json:",omitzero"`
	// History turns on the history heuristic (search.go; Schaeffer 1989)
	// by stone: a move that causes a cut-off at remaining depth d adds d²
	// to the history of each of its two stones for the side that played
	// it, and at every node the kept moves after the table move and the
	// killers are ordered by the sum of their stones' histories, moves
	// without history keeping the evaluation order behind them. Like
	// Killers it only reorders the kept moves. On the midgame suite it
	// saved no nodes against the evaluation order (a history by pair did
	// no better), so PlaySettings leaves it off. Default false.
	History bool `json:",omitzero"`
	// WidthByPly sets the width of the nodes ply moves below the root
	// (WidthByPly[0]: the root) where it is not 0; 0 entries take Width.
	// Each entry is 0..MaxWidth. A wider root keeps more candidate moves
	// for the first move (and for the defensive check, which checks root
	// moves), narrower inner nodes save nodes. The pairs come from the
	// Singles best stones whatever the width (Singles·(Singles−1)/2 pairs
	// at most). The last ply's width changes nothing (its node returns
	// the best of every generated move). A wider root gained at fixed
	// depth but not measurably at equal time, so PlaySettings keeps Width
	// (docs/experiments/12-issue-14-engine-against-cloudict.md, second
	// step and "Knobs left off"). Default all 0: Width at every ply.
	WidthByPly [MaxDepth]int `json:",omitzero"`
	// Blocks is the number of blocking moves move generation may add
	// beyond the width at a node (movegen.go): when the opponent has live
	// roads of 3 stones (a threat to come: its next move can make them
	// fours or fives, and two of them a double threat), pairs through their
	// empty points are scored — the 6 points on most such roads with each
	// other and with the 4 best single stones, or with the blocking stone
	// when the opponent already has one threat (its 4- and 5-stone roads)
	// — and the Blocks best that the Width best moves lack are added.
	// No gain was measured for their nodes (docs/experiments/
	// 12-issue-14-engine-against-cloudict.md, "Knobs left off"), so
	// PlaySettings leaves it at 0. 0..MaxWidth; default 0: none.
	Blocks int `json:",omitzero"`
	// ThreatMixed lets the threat search (the attacker's, and the
	// defensive check's for the opponent) play one single threat in a
	// line of double threats (tsmixed.go): at each attacker node whose
	// double threats fail, its ThreatMixed best single-threat moves are
	// tried, each proved against every place of the defender's free stone
	// through the proof's relevance zone, so a reported win stays forced.
	// It uses the threat table as the defensive check does; with it the
	// threat search runs the double threats alone first and then, with a
	// budget of its own, the mixed lines; each win it finds is confirmed
	// by a brute force over the defender's replies in TestThreatMixed.
	// No gain was measured (docs/experiments/
	// 12-issue-14-engine-against-cloudict.md, sixth step), so PlaySettings
	// leaves it off. 0..48; default 0: double threats only.
	ThreatMixed int `json:",omitzero"`
	// ShallowDefend turns on the defensive check inside the search, at
	// the nodes 1..ShallowDefendPlies moves below the root: the node's
	// ShallowDefend best moves by the evaluation are checked, as the root
	// check checks root moves, by the threat search for the opponent on
	// the position after each (ShallowDefendNodes positions,
	// ShallowDefendDepth opponent moves). Moves after which a win by
	// continuous double threats is proved are not searched; when every
	// checked move loses, the node is worth ShallowLost without a search.
	// Two moves below the root (the root side to move) this sees the
	// opponent's quiet move that leaves two lines the root side cannot
	// both stop; one move below, the root side's own quiet move before a
	// double-threat win (a mixed threat sequence). On the tactical suite
	// it solves defence positions the search alone misses
	// (TestShallowDefend), but in play it did not pay for its nodes
	// (docs/experiments/12-issue-14-engine-against-cloudict.md, fifth
	// step). 0..MaxWidth; default 0 (PlaySettings too): off.
	ShallowDefend int `json:",omitzero"`
	// ShallowDefendPlies is how many moves below the root the in-search
	// check runs; 0 means the default 2, at most MaxDepth.
	ShallowDefendPlies int `json:",omitzero"`
	// ShallowDefendNodes bounds each of the in-search check's threat
	// searches (positions, counted in Result.Nodes); 0 means the default
	// 300.
	ShallowDefendNodes int64 `json:",omitzero"`
	// ShallowDefendDepth is the number of opponent moves in the in-search
	// check's threat searches; 0 means the default 3.
	ShallowDefendDepth int `json:",omitzero"`
	// QuietSafe turns on the quiet-attack check at White's first
	// QuietMoves moves after a three-stone opening (5, 9, ... stones on
	// the board, White to move, no Black threat; quiet.go):
	// after alpha-beta and the defensive check, the choice and then the
	// root's QuietSafe best moves by the move ordering are checked in that
	// order by QuietSafe (8 opponent moves and DefendNodes positions a
	// threat search, the opponent's 40 best replies, the defensive check's
	// DefendMoves and DefendWide defences) and the first quiet-safe one is
	// played; none found within QuietSafeNodes positions keeps the choice.
	// Against Cloudict at depth 4 most White games are lost to a quiet
	// Black move after White's first (docs/experiments/23-depth-four.md).
	// 0..MaxWidth; default 0 (PlaySettings too): off. The engine binary
	// plays PlayQuietSafe.
	QuietSafe int `json:",omitzero"`
	// QuietSafeNodes bounds the quiet-attack check, in positions over all
	// the moves it checks; 0 means the default 4,000,000 (about 2 s).
	QuietSafeNodes int64 `json:",omitzero"`
	// QuietMoves is the number of White moves, from its first after a
	// three-stone opening (5 stones on the board) on, at which the
	// quiet-attack check runs: with k it runs at 5, 9, ..., 4k+1 stones.
	// With the check at the first move only, White's losses against
	// Cloudict moved to its second and third moves; run there too, it
	// turned none of them (docs/experiments/23-depth-four.md), so it is
	// for experiments. 1..MaxQuietMoves; 0 means the default 1. The
	// engine binary plays PlayQuietMoves.
	QuietMoves int `json:",omitzero"`
	// MaxNodes is a node budget for one Search; 0 = no limit.
	MaxNodes int64
	// MoveTime is a clock budget for one Search; 0 = no limit. With a clock
	// budget results may vary from run to run. It is a hard stop; for play
	// by the clock see SearchClock, which also respects it.
	MoveTime time.Duration
	// Time holds the knobs of the time manager that SearchClock uses to
	// turn a Clock into a budget (see TimeSettings); the zero value means
	// DefaultTimeSettings. It plays no part in Search. Left out of JSON when
	// zero.
	Time TimeSettings `json:",omitzero"`
}

// PlayDefendNodes is the defensive check's budget for play against other
// programs (Settings.DefendNodes), at about 5 times the time of a depth-2
// game; what it is worth: docs/experiments/12-issue-14-engine-against-cloudict.md,
// first step.
const PlayDefendNodes = 20000

// DefaultSettings returns depth 2, width 10, threat search on with depth 4
// and 8000 nodes, the defensive check off (DefendNodes 0; depth 6 and 10
// moves when it is turned on), a 2^20-entry table (24 MiB), no budgets.
func DefaultSettings() Settings {
	return Settings{Depth: 2, Width: 10, ThreatSearch: true, ThreatDepth: 4, ThreatNodes: 8000,
		DefendDepth: 6, DefendMoves: 10, TableBits: 20}
}

// PlaySettings returns the settings for play against other programs:
// DefaultSettings with the defensive check at PlayDefendNodes, a deeper
// threat search (PlayThreatDepth, PlayThreatNodes), killer moves, and
// under a clock the use of the unfinished iteration
// (TimeSettings.Partial), 70% of the hard limit kept for the defensive
// check (DefendShare 0.7), the check deepened with the time left over
// (DefendGrowth 2.5: budgets of 20,000, 50,000, 125,000 … positions a
// checked move) and a game clock shared among 8 moves (GameMoves 8: the
// moves that decide a game are mostly the first few after the opening;
// later ones are mostly forced blocks and threat wins, which take
// milliseconds). Depth stays 2: for play by the clock give a larger
// maximum (the engine binary takes MaxDepth). Tuning keeps
// DefaultSettings, whose games earlier results were measured with.
// History, Blocks and WidthByPly stay off: no gain was measured (see
// their docs).
//
// At fixed depth it plays the moves of the old play settings
// (DefaultSettings with DefendNodes = PlayDefendNodes) in about 3% fewer
// nodes (BenchmarkTimeToDepth), except where defend's later rounds of
// refutation pairs find a defence the single round missed.
//
// Width is 15 (DefaultSettings: 10). When every move the check tries
// loses, it tries 60 more pairs (DefendWide), and under a clock each
// deeper pass also adds 2 opponent moves to the check's 6, up to 10
// (TimeSettings.DefendMaxDepth). Each of these choices, and the time
// settings, was kept for what matches measured (docs/experiments/
// 12-issue-14-engine-against-cloudict.md, its second, fourth and
// eleventh steps); BenchmarkSelfPlayGamePlay measures what the wider
// check costs a fixed-depth game.
func PlaySettings() Settings {
	s := DefaultSettings()
	s.Width = 15
	s.DefendNodes = PlayDefendNodes
	s.DefendWide = 60
	s.Time.DefendMaxDepth = 10
	s.Killers = true
	s.Time.Partial = true
	s.Time.DefendShare = 0.7
	s.Time.DefendGrowth = 2.5
	s.Time.GameMoves = 8
	s.ThreatDepth = PlayThreatDepth
	s.ThreatNodes = PlayThreatNodes
	return s
}

// PlayThreatDepth and PlayThreatNodes bound PlaySettings' threat search
// for the side to move (DefaultSettings: 4 moves, 8,000 positions): 6
// attacker moves and 50,000 positions, a few milliseconds a move, find
// the wins by continuous double threats that lost games had passed and
// the default bounds miss (docs/experiments/
// 12-issue-14-engine-against-cloudict.md, seventh step).
const (
	PlayThreatDepth = 6
	PlayThreatNodes = 50000
)

// PlayQuietSafe is the engine binary's Settings.QuietSafe: the quiet-attack
// check of its 60 best root moves at White's first PlayQuietMoves moves
// after the opening. PlaySettings leave the check off: it costs up to
// QuietSafeNodes positions (about 2 s) at each such move, which a
// fixed-depth tuning game of a fraction of a second cannot carry, while the
// binary's clock bounds it.
const PlayQuietSafe = 60

// PlayQuietMoves is the engine binary's Settings.QuietMoves: the check at
// White's first move after the opening only. At its second and third
// moves the check turned no lost game against Cloudict: in those games
// every candidate there was already lost or the engine's own choice passed
// the check (docs/experiments/23-depth-four.md).
const PlayQuietMoves = defaultQuietMoves

// MaxQuietMoves is the largest Settings.QuietMoves.
const MaxQuietMoves = 20

// Limits on settings, checked by Settings.Validate.
const (
	MaxDepth     = 12  // largest Depth, in moves (stone pairs)
	MaxWidth     = 100 // largest Width, in moves kept per node
	MaxSingles   = 64  // largest Singles, in single stones
	MinTableBits = 8   // smallest TableBits (256 entries)
	MaxTableBits = 28  // largest TableBits (2^28 entries, 6 GiB)
	maxThreatPly = 16  // largest ThreatDepth, in attacker moves
)

// SettingsError is a Settings field outside its limits, as returned by
// Settings.Validate and New: Field is the Settings field's Go name (e.g.
// "Width"), so a caller can name its own flag or config key instead, and
// Msg says what is wrong with the value, without the field's name, in the
// words every roadtune command uses for a bad value (e.g. "must be at most
// 100, not 101").
type SettingsError struct {
	Field string
	Msg   string
}

func (e *SettingsError) Error() string { return "engine: settings: " + e.Field + " " + e.Msg }

// ValueMsg returns Msg, for a caller that names the value by its own flag
// or key ("flag -depth: " + ValueMsg()).
func (e *SettingsError) ValueMsg() string { return e.Msg }

// Validate checks s against the limits of every field, zero fields standing
// for their defaults (see Settings and DefaultSettings): Depth 1..MaxDepth,
// Width 1..MaxWidth, ThreatDepth 1..16, ThreatNodes ≥ 0, Singles
// 2..MaxSingles, TableBits MinTableBits..MaxTableBits, each WidthByPly
// entry 0..MaxWidth (named "WidthByPly[i]"), DefendNodes ≥ 0, DefendDepth
// 1..16, DefendMoves 1..MaxWidth, DefendWide 0..MaxWidth, Blocks 0..MaxWidth, ShallowDefend
// 0..MaxWidth, ShallowDefendPlies 1..MaxDepth, ShallowDefendNodes ≥ 0, ShallowDefendDepth 1..16,
// MaxNodes ≥ 0,
// MoveTime ≥ 0 and the Time knobs (see TimeSettings; their fields are
// named "Time.X").
// It returns nil or a *SettingsError naming the first field at fault in
// that order. New and SetSettings apply the same checks.
func (s Settings) Validate() error {
	return s.withDefaults().check()
}

// withDefaults fills the zero fields that stand for a default.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings()
	s.Depth = cmp.Or(s.Depth, d.Depth)
	s.Width = cmp.Or(s.Width, d.Width)
	s.ThreatDepth = cmp.Or(s.ThreatDepth, d.ThreatDepth)
	s.ThreatNodes = cmp.Or(s.ThreatNodes, d.ThreatNodes)
	s.TableBits = cmp.Or(s.TableBits, d.TableBits)
	s.DefendDepth = cmp.Or(s.DefendDepth, d.DefendDepth)
	s.DefendMoves = cmp.Or(s.DefendMoves, d.DefendMoves)
	s.Singles = cmp.Or(s.Singles, min(max(s.Width+4, 12), MaxSingles))
	s.ShallowDefendNodes = cmp.Or(s.ShallowDefendNodes, defaultShallowNodes)
	s.ShallowDefendDepth = cmp.Or(s.ShallowDefendDepth, defaultShallowDepth)
	s.ShallowDefendPlies = cmp.Or(s.ShallowDefendPlies, defaultShallowPlies)
	s.QuietSafeNodes = cmp.Or(s.QuietSafeNodes, defaultQuietNodes)
	s.QuietMoves = cmp.Or(s.QuietMoves, defaultQuietMoves)
	return s
}

// check is the one place the limits are checked (s has its defaults).
func (s Settings) check() error {
	bad := func(field, format string, a ...any) error {
		return &SettingsError{Field: field, Msg: fmt.Sprintf(format, a...)}
	}
	nonNegative := func(field string, v int64) error {
		if v < 0 {
			return bad(field, "must be 0 or more, not %d", v)
		}
		return nil
	}
	var widthByPly error
	if i := s.badWidthByPly(); i >= 0 {
		widthByPly = checkRange(fmt.Sprintf("WidthByPly[%d]", i), s.WidthByPly[i], 0, MaxWidth)
	}
	for _, err := range []error{
		CheckDepth(s.Depth),
		CheckWidth(s.Width),
		checkRange("ThreatDepth", s.ThreatDepth, 1, maxThreatPly),
		nonNegative("ThreatNodes", s.ThreatNodes),
		checkRange("Singles", s.Singles, 2, MaxSingles),
		checkRange("TableBits", s.TableBits, MinTableBits, MaxTableBits),
		widthByPly,
		nonNegative("DefendNodes", s.DefendNodes),
		checkRange("DefendDepth", s.DefendDepth, 1, maxThreatPly),
		checkRange("DefendMoves", s.DefendMoves, 1, MaxWidth),
		checkRange("DefendWide", s.DefendWide, 0, MaxWidth),
		checkRange("Blocks", s.Blocks, 0, MaxWidth),
		checkRange("ThreatMixed", s.ThreatMixed, 0, tsMaxMoves),
		checkRange("ShallowDefend", s.ShallowDefend, 0, MaxWidth),
		checkRange("ShallowDefendPlies", s.ShallowDefendPlies, 1, MaxDepth),
		nonNegative("ShallowDefendNodes", s.ShallowDefendNodes),
		checkRange("ShallowDefendDepth", s.ShallowDefendDepth, 1, maxThreatPly),
		checkRange("QuietSafe", s.QuietSafe, 0, MaxWidth),
		checkRange("QuietMoves", s.QuietMoves, 1, MaxQuietMoves),
		nonNegative("QuietSafeNodes", s.QuietSafeNodes),
		nonNegative("MaxNodes", s.MaxNodes),
	} {
		if err != nil {
			return err
		}
	}
	if s.MoveTime < 0 {
		return bad("MoveTime", "must be 0 or more, not %v", s.MoveTime)
	}
	return s.Time.withDefaults().check()
}

// CheckDepth checks a search depth as a user gives it (a flag, a config
// key), 0 included, against Depth's limits 1..MaxDepth: nil or a
// *SettingsError for "Depth" ("must be at least 1, not 0"). Settings.Validate
// applies the same check after reading 0 as the default.
func CheckDepth(d int) error { return checkRange("Depth", d, 1, MaxDepth) }

// CheckWidth is CheckDepth for a width: Width's limits 1..MaxWidth.
func CheckWidth(w int) error { return checkRange("Width", w, 1, MaxWidth) }

// checkRange is nil when lo ≤ v ≤ hi, else a *SettingsError for field that
// names the bound v passes: "must be at least 1, not -3", "must be at most
// 12, not 13", "must be 0 or more, not -1".
func checkRange(field string, v, lo, hi int) error {
	switch {
	case v < 0 && lo == 0:
		return &SettingsError{Field: field, Msg: fmt.Sprintf("must be 0 or more, not %d", v)}
	case v < lo:
		return &SettingsError{Field: field, Msg: fmt.Sprintf("must be at least %d, not %d", lo, v)}
	case v > hi:
		return &SettingsError{Field: field, Msg: fmt.Sprintf("must be at most %d, not %d", hi, v)}
	}
	return nil
}

// badWidthByPly returns the index of the first WidthByPly entry out of
// range, or -1.
func (s Settings) badWidthByPly() int {
	for i, w := range s.WidthByPly {
		if w < 0 || w > MaxWidth {
			return i
		}
	}
	return -1
}

// width returns the width of the nodes ply moves below the root.
func (s *Settings) width(ply int) int {
	if ply < len(s.WidthByPly) && s.WidthByPly[ply] > 0 {
		return s.WidthByPly[ply]
	}
	return s.Width
}

// normalized returns s with its defaults filled in, checked by Validate's
// rules.
func (s Settings) normalized() (Settings, error) {
	s = s.withDefaults()
	if err := s.check(); err != nil {
		return s, err
	}
	return s, nil
}

// Result is the outcome of one Search.
type Result struct {
	// Move is the chosen move: two stones, or one (Black's first move, a win
	// by one stone, or a search started mid-turn). On a finished board it is
	// Move{NoPoint, NoPoint}.
	Move Move
	// Score is from the side to move's view: road score units, or ±(Mate −
	// plies) for a forced six (see IsMate).
	Score float64
	// Nodes counts alpha-beta nodes, frontier leaves and threat-search
	// positions visited.
	Nodes int64
	// Depth is the deepest completed alpha-beta iteration (0 when no
	// alpha-beta ran).
	Depth int
	// Reason says how the move was chosen: "win" (completes six now),
	// "threat" (the threat search found a forced win), "lost" (the opponent
	// has three or more threats), "block" (alpha-beta among the moves that
	// stop the opponent's one or two threats), "search" (plain alpha-beta),
	// "defend" (the defensive check replaced alpha-beta's choice, after
	// which the opponent wins by continuous double threats, by a later root
	// move; Score is then that move's ordering score, see DefendNodes),
	// "opening" (Black's first stone at JJ), "over" (the game has ended).
	Reason string
}

// Mate is the score of a six completed on the current turn; a six completed
// k turns (moves) from the root scores ±(Mate − k). Heuristic road scores stay
// far below it.
const Mate = 1e9

// IsMate reports whether score announces a forced six (for either side).
func IsMate(score float64) bool { return score > Mate/2 || score < -Mate/2 }

// Engine searches Connect6 positions with one weight vector. It owns its
// transposition table and scratch buffers, allocated once by New; Search
// allocates nothing. An Engine is not safe for concurrent use: give each
// goroutine its own.
type Engine struct {
	w   Weights
	ev  evaluator
	set Settings

	tt     []ttEntry
	ttMask uint64
	salt   uint64
	games  uint64
	seq    uint64

	board Board
	root  Color
	plies []plyBuf
	ts    []threatSet // per ply threat analysis scratch
	tplys []tplyBuf   // threat search scratch
	tsTT  []tsEntry   // threat search table (tss.go)

	// move ordering (search.go): killers[ply] are the last two moves that
	// cut off at that ply, hist[c][p] the history of c's stone at p; both
	// are cleared at the start of every search
	killers [MaxDepth + 2][2]Move
	hist    [3][NumPoints]int64

	// blocking moves scratch (movegen.go): blkOn[p] counts the opponent's
	// 3-stone roads through p, blkPts lists the points with blkOn > 0
	blkOn  [NumPoints]uint8
	blkPts []scoredPoint

	// defensive check scratch (defend.go)
	defRefs     []Point
	defPartners []Point
	defMoves    []scoredMove
	defFirst    []scoredMove // the choice and the root moves (defendDeeper)
	defTried    []scoredMove // defend's extra moves found lost
	defWide     []scoredMove // defendWide's moves
	defNodes    int64        // the running check's budget per checked move
	defDepth    int          // the running check's depth, in opponent moves

	nodes     int64
	nextCheck int64
	stop      bool
	ctx       context.Context
	deadline  time.Time
	maxNodes  int64
	tsNodes   int64
	tsLimit   int64
	// The mixed threat search (tsmixed.go): tsPure forbids single threats
	// below a mixed node; zone[p] == zoneStamp marks the proof's zone;
	// zonePts[k] and zoneTS[k] are scratch of attacker level k.
	tsPure    bool
	zone      [NumPoints]uint32
	zoneStamp uint32
	zonePts   [][]Point
	zoneTS    []threatSet
	tm        timer // the time manager of SearchClock (time.go)
	proving   bool  // ProveWin is running: the threat search keeps its table
}

// New returns an Engine for weights w and settings s, allocating its
// transposition table (24 bytes × 2^TableBits) and buffers once. Errors: an
// invalid weight vector or setting.
func New(w Weights, s Settings) (*Engine, error) {
	e := &Engine{}
	if err := e.SetWeights(w); err != nil {
		return nil, err
	}
	if err := e.SetSettings(s); err != nil {
		return nil, err
	}
	return e, nil
}

// Weights returns the engine's weight vector (a copy).
func (e *Engine) Weights() Weights {
	return Weights{Schema: e.w.Schema, Genes: append([]float64(nil), e.w.Genes...)}
}

// SetWeights replaces the weight vector; w is checked as by NewWeights.
func (e *Engine) SetWeights(w Weights) error {
	v, err := NewWeights(w.Schema, w.Genes)
	if err != nil {
		return err
	}
	e.w = v
	e.ev = v.compile()
	e.NewGame()
	return nil
}

// Settings returns the engine's settings with defaults filled in.
func (e *Engine) Settings() Settings { return e.set }

// SetSettings replaces the settings (zeros mean defaults, see Settings). The
// table is reallocated only when TableBits changes, the per-ply buffers only
// when Depth, Width or Singles grow beyond what they hold.
func (e *Engine) SetSettings(s Settings) error {
	s, err := s.normalized()
	if err != nil {
		return err
	}
	if len(e.tt) != 1<<s.TableBits {
		e.tt = make([]ttEntry, 1<<s.TableBits)
		e.ttMask = uint64(len(e.tt) - 1)
	}
	plies := s.Depth + 2
	pairs := s.Singles*(s.Singles-1)/2 + 2*s.Singles + 8 + s.Blocks
	if len(e.plies) < plies || cap(e.plies[0].moves) < pairs {
		e.plies = make([]plyBuf, plies)
		for i := range e.plies {
			e.plies[i].moves = make([]scoredMove, 0, pairs)
		}
		e.ts = make([]threatSet, plies+1)
	}
	if e.zonePts == nil {
		e.zonePts = make([][]Point, maxThreatPly+2)
		for i := range e.zonePts {
			e.zonePts[i] = make([]Point, 0, NumPoints)
		}
		e.zoneTS = make([]threatSet, maxThreatPly+2)
	}
	if e.tsTT == nil {
		e.tsTT = make([]tsEntry, 1<<tsTableBits)
	}
	if len(e.tplys) == 0 {
		e.tplys = make([]tplyBuf, maxThreatPly+2)
		for i := range e.tplys {
			e.tplys[i].moves = make([]scoredMove, 0, tsMaxMoves)
			e.tplys[i].pts = make([]Point, 0, NumPoints)
		}
	}
	if e.blkPts == nil {
		e.blkPts = make([]scoredPoint, 0, NumPoints)
	}
	if e.defRefs == nil {
		e.defRefs = make([]Point, 0, maxRefutations)
		e.defPartners = make([]Point, 0, maxRefutations+MaxSingles)
		e.defMoves = make([]scoredMove, 0, MaxWidth)
		e.defWide = make([]scoredMove, 0, MaxWidth)
	}
	e.set = s
	e.NewGame()
	return nil
}

// NewGame forgets everything learned from previous searches without
// reallocating: table entries are keyed with a per-game salt, so older ones
// never match again. Since Search also salts per search, a result depends
// only on the position, the weights and the settings (without a clock
// budget).
func (e *Engine) NewGame() {
	e.games++
	e.seq = 0
}

// Footprint returns the bytes held by the engine: the table plus scratch.
func (e *Engine) Footprint() int {
	n := int(unsafe.Sizeof(*e)) + len(e.tt)*int(unsafe.Sizeof(ttEntry{}))
	for i := range e.plies {
		n += int(unsafe.Sizeof(plyBuf{})) + cap(e.plies[i].moves)*int(unsafe.Sizeof(scoredMove{}))
	}
	n += len(e.ts)*int(unsafe.Sizeof(threatSet{})) + len(e.tplys)*int(unsafe.Sizeof(tplyBuf{}))
	n += len(e.tsTT) * int(unsafe.Sizeof(tsEntry{}))
	return n
}

// ttEntry is one transposition-table slot (Wang 2006: exact/lower/upper
// bounds, always replace; Qi 2018 §4.5).
type ttEntry struct {
	key   uint64
	score float64
	a, b  Point
	depth int8
	flag  uint8
}

const (
	ttEmpty uint8 = iota
	ttExact
	ttLower
	ttUpper
)

func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
