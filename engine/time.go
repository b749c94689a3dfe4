package engine

import (
	"fmt"
	"math"
	"time"
)

// Time management (issue 14, "play by time"). Given a clock, the engine
// decides two limits per move, after the usual scheme of game engines
// (Hyatt 1984 on Cray Blitz; Stockfish's optimum and maximum time): a soft
// limit, past which no new alpha-beta iteration is started, and a hard
// limit, at which the search stops inside an iteration and returns the
// last completed one. A new iteration is started only if it is expected to
// end before the soft limit: its cost is estimated as the last iteration's
// time times the growth of the iteration times seen so far. The soft limit
// grows on critical positions (the opponent has a threat; the score fails
// low) and shrinks when the move is forced; the hard limit never does.

// Clock is the time the engine has for one move: a fixed time per move
// (Move, cutechess-cli's st=), or a game clock (Remaining, Inc, MovesToGo,
// cutechess-cli's tc=). A Clock with Move > 0 is a per-move clock and its
// other fields are ignored. Passed to Engine.SearchClock; see TimeSettings
// for how it becomes a budget. It is the limits of one move, not a time
// control: a GameClock tells the Clock of each move under tc=, and the
// protocol's `time` commands carry their settings in one.
type Clock struct {
	// Move is the fixed time of each move; 0: a game clock.
	Move time.Duration
	// Remaining is the game clock's time left for this move and the rest
	// of the game or period (negative counts as 0).
	Remaining time.Duration
	// Inc is added to the clock after each move.
	Inc time.Duration
	// MovesToGo is the number of moves until the clock is refilled, this
	// one included; 0: the clock must last the rest of the game.
	MovesToGo int
}

// GameClock is one side's running game clock under a time control of Base
// per period of Moves moves (0: the whole game) plus Inc after every move
// (cutechess-cli's tc=, the protocol's `time game`): the time Remaining and
// the moves Played so far. The protocol server keeps one for its engine,
// package tournament one per colour of a timed game; both charge it the
// same way (Spend) and tell the engine its Clock.
type GameClock struct {
	Base, Inc time.Duration // the time control
	Moves     int           // moves per period; 0: the whole game
	Remaining time.Duration // time left; Spend never takes it below 0
	Played    int           // moves charged since the clock started
}

// NewGameClock returns a full clock of base per period of moves moves
// plus inc after every move.
func NewGameClock(base, inc time.Duration, moves int) GameClock {
	return GameClock{Base: base, Inc: inc, Moves: moves, Remaining: base}
}

// Clock is the Clock of the next move: the time remaining, the increment
// and, with periods, the moves left in the period including this one.
func (g *GameClock) Clock() Clock {
	c := Clock{Remaining: g.Remaining, Inc: g.Inc}
	if g.Moves > 0 {
		c.MovesToGo = g.Moves - g.Played%g.Moves
	}
	return c
}

// Spend charges a move that took d: the clock loses d (never going below
// 0), then gains the increment, and the base time again when the move
// ends a period.
func (g *GameClock) Spend(d time.Duration) {
	g.Remaining = max(g.Remaining-d, 0) + g.Inc
	g.Played++
	if g.Moves > 0 && g.Played%g.Moves == 0 {
		g.Remaining += g.Base
	}
}

// Budget is the time one search may take, counted from the start of
// Engine.SearchClock: no alpha-beta iteration starts that is expected to
// end past Soft (before the position's adjustments, see TimeSettings), and
// the search stops at Hard. 0 ≤ Soft ≤ Hard.
type Budget struct {
	Soft, Hard time.Duration
}

// TimeSettings are the time manager's knobs (Settings.Time). Zero fields
// mean the defaults of DefaultTimeSettings, so the zero value is the
// default time manager.
//
// The limits of a move (TimeSettings.Budget): the margin is
// max(Safety, SafetyShare × the clock's time), at most half of it, where
// the clock's time is Clock.Move or Clock.Remaining.
//   - Per-move clock: Soft = Hard = Move − margin (time left over is lost,
//     so the soft limit only keeps the search from starting an iteration it
//     cannot finish).
//   - Game clock: Soft = Remaining / MovesToGo (GameMoves when 0) + IncShare
//     × Inc; Hard = HardFactor × Soft, at most MaxShare × Remaining (unless
//     this is the period's last move), and always at most Remaining −
//     margin; Soft is then cut to Hard. With no increment and less than
//     10 × Safety left, both are 0: the move comes from the root ordering,
//     so the clock lasts the game.
//
// During the search (Engine.SearchClock) the soft limit is multiplied by
// ThreatFactor when the opponent has one threat (the move must block it
// and has one stone free), by ForcedFactor when it has two (the move is one
// of at most four blocking pairs), and by FailLowFactor, once, when an
// iteration's score is below the score of the previous iteration of the same
// parity (two moves shallower; iterations of odd and even depth differ
// systematically) by more than FailLowDrop; it never exceeds Hard. With a
// single root move (one legal blocking pair) no alpha-beta iteration is
// run. With the defensive check on (Settings.DefendNodes > 0) alpha-beta
// stops at (1 − DefendShare) × Hard at the latest, so the check has the
// rest; the check itself stops at Hard.
type TimeSettings struct {
	// Safety is the least time kept off the clock for the stop latency of
	// the search and the driver's overhead; default 2 ms.
	Safety time.Duration
	// SafetyShare is the share of the clock's time kept off it when that
	// is more than Safety; default 0.05.
	SafetyShare float64
	// GameMoves is the number of moves a game clock without MovesToGo is
	// shared among (each move takes 1/GameMoves of what is left); default 20.
	GameMoves int
	// IncShare is the share of the increment added to a game-clock move's
	// soft limit; default 0.75.
	IncShare float64
	// MaxShare is the largest share of a game clock's remaining time one
	// move may take (its hard limit), except on the last move of a period;
	// default 0.5.
	MaxShare float64
	// HardFactor is a game-clock move's hard limit as a multiple of its
	// soft limit; default 3.
	HardFactor float64
	// Branching is the assumed ratio of an alpha-beta iteration's time to
	// the previous one's. Once two iterations of depth 2 or more have been
	// timed, the geometric mean of Branching and their measured ratio (kept
	// within [Branching/2, 2 × Branching]) is used instead: single ratios
	// are noisy (from under 1 to over 20 between depths 3 and 7 at width 10
	// on the midgame suite, about 3 to 4 on the average), and replaying
	// those searches' iteration times, this estimate reached within 0.1 of
	// the depth an oracle would at 20 to 200 ms per move, where the measured
	// ratio alone fell 0.3 short. Default 3. Iteration 1 is the root's move
	// ordering.
	Branching float64
	// ThreatFactor multiplies the soft limit when the opponent has one
	// threat at the root; default 1.5.
	ThreatFactor float64
	// ForcedFactor multiplies the soft limit when the opponent has two
	// threats (every move is one of its blocking pairs); default 0.5.
	ForcedFactor float64
	// FailLowFactor multiplies the soft limit, once, when an iteration's
	// score fails low (see FailLowDrop); default 2.
	FailLowFactor float64
	// FailLowDrop is the fall of the score, against the iteration two
	// moves shallower, that counts as failing low, in units of the weight
	// vector's largest absolute weight (S5 = 1000 for Zhou 2015's vector;
	// the dual schema's alert gene excluded); default 0.25.
	FailLowDrop float64
	// DefendShare is the share of the hard limit kept for the defensive
	// check (Settings.DefendNodes > 0): alpha-beta stops at (1 −
	// DefendShare) × Hard; default 0.2.
	DefendShare float64
	// Partial makes use of an iteration that the hard limit stops: the
	// previous iteration's best move is searched first in each iteration,
	// and a root move searched to the end in the unfinished iteration that
	// scores better is played instead (the usual "best move so far" rule of
	// game engines; Result.Depth stays the last completed iteration, Score
	// is the new move's score at the unfinished depth). Since an unfinished
	// iteration is no longer lost, iterations start more readily: on a
	// per-move clock (whose time left over is lost) whenever the soft
	// limit has not passed, on a game clock when half of the iteration is
	// expected to end before it. Alpha-beta then runs to its own limit
	// on most moves, leaving the defensive check only DefendShare of the
	// move (PlaySettings raises it to 0.5). Default false: the manager before
	// Partial, which starts no iteration it does not expect to finish and
	// uses about 40% of a per-move clock (BenchmarkTimeBudget); see
	// PlaySettings for the measured effect. The search then runs to the
	// hard limit on most moves, so the margin (Safety, SafetyShare) is all
	// that keeps it from a time forfeit: in arena matches at 0.05 s a move
	// with no tolerated overrun on a loaded 2-core machine, where the
	// driver's moves took up to 8 ms past the hard limit, 13 of 40 and 22
	// of 80 games between Partial engines (DefendShare 0.2) were lost on
	// time, 0 to 2 of 320 against the manager without Partial in quieter
	// hours; give such a driver a time margin or raise SafetyShare.
	// Search (no clock) ignores it.
	Partial bool `json:",omitzero"`
	// DefendGrowth deepens the defensive check with the clock's time left
	// over: once the check at Settings.DefendNodes has chosen the move, it
	// is run again on that move (and, if the move is then found lost, on
	// the others) at DefendGrowth times the previous budget, for as long as
	// the previous pass's time times DefendGrowth still fits before the
	// hard limit, up to DefendMaxNodes a checked move. A deeper check
	// proves the longer opponent sequences a 20,000-position one misses (on
	// the tactical suite 20,000 solves 16 of 27 defence positions, 50,000
	// 24). A pass stopped by the clock changes nothing; a deeper pass that
	// finds every move lost keeps the previous choice. 0 (the default) or
	// 1: off, the check runs once. Search (no clock) ignores it, so fixed
	// depth stays deterministic.
	DefendGrowth float64 `json:",omitzero"`
	// DefendMaxNodes bounds DefendGrowth's budget per checked move; 0 means
	// 64 × Settings.DefendNodes.
	DefendMaxNodes int64 `json:",omitzero"`
	// DefendMaxDepth lets DefendGrowth deepen the check in opponent moves
	// too: each pass adds 2 to the previous pass's depth (starting from
	// Settings.DefendDepth), up to DefendMaxDepth (at most 16). 0, or a
	// value ≤ DefendDepth, keeps the depth (the check's budget alone
	// grows): many of the wins a 6-move check misses take more double
	// threats (docs/experiments/12-issue-14-engine-against-cloudict.md,
	// eleventh step).
	DefendMaxDepth int `json:",omitzero"`
}

// DefaultTimeSettings returns the time manager's defaults: Safety 2 ms,
// SafetyShare 0.05, GameMoves 20, IncShare 0.75, MaxShare 0.5, HardFactor
// 3, Branching 3, ThreatFactor 1.5, ForcedFactor 0.5, FailLowFactor 2,
// FailLowDrop 0.25, DefendShare 0.2.
func DefaultTimeSettings() TimeSettings {
	return TimeSettings{Safety: 2 * time.Millisecond, SafetyShare: 0.05, GameMoves: 20, IncShare: 0.75,
		MaxShare: 0.5, HardFactor: 3, Branching: 3, ThreatFactor: 1.5, ForcedFactor: 0.5,
		FailLowFactor: 2, FailLowDrop: 0.25, DefendShare: 0.2}
}

// withDefaults fills the zero fields.
func (ts TimeSettings) withDefaults() TimeSettings {
	d := DefaultTimeSettings()
	fill := func(v *float64, def float64) {
		if *v == 0 {
			*v = def
		}
	}
	if ts.Safety == 0 {
		ts.Safety = d.Safety
	}
	if ts.GameMoves == 0 {
		ts.GameMoves = d.GameMoves
	}
	fill(&ts.SafetyShare, d.SafetyShare)
	fill(&ts.IncShare, d.IncShare)
	fill(&ts.MaxShare, d.MaxShare)
	fill(&ts.HardFactor, d.HardFactor)
	fill(&ts.Branching, d.Branching)
	fill(&ts.ThreatFactor, d.ThreatFactor)
	fill(&ts.ForcedFactor, d.ForcedFactor)
	fill(&ts.FailLowFactor, d.FailLowFactor)
	fill(&ts.FailLowDrop, d.FailLowDrop)
	fill(&ts.DefendShare, d.DefendShare)
	return ts
}

// check is the one place the time knobs' limits are checked (ts has its
// defaults): Safety ≥ 0, GameMoves ≥ 1, SafetyShare in (0, 0.5], IncShare
// and MaxShare in (0, 1], DefendShare in (0, 0.9], HardFactor and
// Branching in [1, 1e9], the other factors and FailLowDrop in (0, 1e9].
// Field names are "Time." + the knob's name.
func (ts TimeSettings) check() error {
	bad := func(field, msg string, v any) error {
		return &SettingsError{Field: "Time." + field, Msg: fmt.Sprintf("%s, not %v", msg, v)}
	}
	in := func(v, lo, hi float64) bool { return v >= lo && v <= hi } // NaN fails
	const huge = 1e9
	switch {
	case ts.Safety < 0:
		return bad("Safety", "must be 0 or more", ts.Safety)
	case ts.GameMoves < 1:
		return bad("GameMoves", "must be at least 1", ts.GameMoves)
	case !in(ts.SafetyShare, 0, 0.5) || ts.SafetyShare <= 0:
		return bad("SafetyShare", "must be in (0, 0.5]", ts.SafetyShare)
	case !in(ts.IncShare, 0, 1) || ts.IncShare <= 0:
		return bad("IncShare", "must be in (0, 1]", ts.IncShare)
	case !in(ts.MaxShare, 0, 1) || ts.MaxShare <= 0:
		return bad("MaxShare", "must be in (0, 1]", ts.MaxShare)
	case !in(ts.HardFactor, 1, huge):
		return bad("HardFactor", "must be in 1..1e9", ts.HardFactor)
	case !in(ts.Branching, 1, huge):
		return bad("Branching", "must be in 1..1e9", ts.Branching)
	case !in(ts.ThreatFactor, 0, huge) || ts.ThreatFactor <= 0:
		return bad("ThreatFactor", "must be in (0, 1e9]", ts.ThreatFactor)
	case !in(ts.ForcedFactor, 0, huge) || ts.ForcedFactor <= 0:
		return bad("ForcedFactor", "must be in (0, 1e9]", ts.ForcedFactor)
	case !in(ts.FailLowFactor, 0, huge) || ts.FailLowFactor <= 0:
		return bad("FailLowFactor", "must be in (0, 1e9]", ts.FailLowFactor)
	case !in(ts.FailLowDrop, 0, huge) || ts.FailLowDrop <= 0:
		return bad("FailLowDrop", "must be in (0, 1e9]", ts.FailLowDrop)
	case !in(ts.DefendShare, 0, 0.9) || ts.DefendShare <= 0:
		return bad("DefendShare", "must be in (0, 0.9]", ts.DefendShare)
	case ts.DefendGrowth != 0 && !in(ts.DefendGrowth, 1, 1000):
		return bad("DefendGrowth", "must be in 1..1000 (0: off)", ts.DefendGrowth)
	case ts.DefendMaxNodes < 0:
		return bad("DefendMaxNodes", "must be 0 or more", ts.DefendMaxNodes)
	case ts.DefendMaxDepth < 0 || ts.DefendMaxDepth > maxThreatPly:
		return bad("DefendMaxDepth", "must be in 0..16", ts.DefendMaxDepth)
	}
	return nil
}

// Budget returns the limits of a move under clock c before the position's
// adjustments (see TimeSettings), zero fields of ts standing for their
// defaults. A clock with no time left gives a zero budget: the search then
// returns the root ordering's best move (Result.Depth 1).
func (ts TimeSettings) Budget(c Clock) Budget {
	ts = ts.withDefaults()
	avail := c.Move
	if avail <= 0 {
		avail = max(c.Remaining, 0)
	}
	margin := min(max(ts.Safety, scale(avail, ts.SafetyShare)), avail/2)
	limit := avail - margin
	if c.Move > 0 {
		return Budget{Soft: limit, Hard: limit}
	}
	if c.Inc <= 0 && avail < lowTimeMoves*ts.Safety {
		// Low on a clock that nothing refills: play from the root
		// ordering (a fraction of a millisecond) so the moves left to
		// the end of the game or period do not run the clock out.
		return Budget{}
	}
	togo := c.MovesToGo
	if togo <= 0 {
		togo = ts.GameMoves
	}
	soft := avail/time.Duration(togo) + scale(max(c.Inc, 0), ts.IncShare)
	hard := scale(soft, ts.HardFactor)
	if togo > 1 {
		hard = min(hard, scale(avail, ts.MaxShare))
	}
	hard = min(hard, limit)
	return Budget{Soft: min(soft, hard), Hard: hard}
}

// lowTimeMoves × Safety is the game-clock time without increment below
// which a move is played from the root ordering (TimeSettings.Budget). A
// search that runs to the hard limit on most moves spends 3/8 of what is
// left each move (GameMoves 8, HardFactor 3), so a long game under a
// clock without increment reaches the last milliseconds; there a move
// played at the hard limit with the driver's overhead on top ran the
// clock out (1 of 200 games between PlaySettings engines at tc=1, an
// 86-move game).
const lowTimeMoves = 10

// scale returns d × f, saturating instead of overflowing.
func scale(d time.Duration, f float64) time.Duration {
	x := float64(d) * f
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(x)
}

// timer is the time manager of one SearchClock (off in Search).
type timer struct {
	on      bool
	ts      TimeSettings  // with defaults
	start   time.Time     // when the search started
	soft    time.Duration // the soft limit, adjusted to the position
	abLimit time.Duration // alpha-beta's own hard limit (Hard less the defensive check's share)
	hard    time.Duration
	// moveTime is the deadline of Settings.MoveTime (zero: none).
	moveTime time.Time
	mark     time.Time                   // the start of the running iteration
	iter     [MaxDepth + 1]time.Duration // iter[d]: time of alpha-beta iteration d (1: the root ordering)
	score    [MaxDepth + 1]float64       // score[d]: its score
	failLow  bool
	perMove  bool // a per-move clock (Clock.Move > 0)
}

// begin starts the clock of a search with budget b; defend reports
// whether the defensive check is on, perMove whether the clock is a
// per-move one. It returns alpha-beta's deadline.
func (tm *timer) begin(ts TimeSettings, b Budget, defend, perMove bool) time.Time {
	*tm = timer{on: true, ts: ts.withDefaults(), start: time.Now(), soft: b.Soft, hard: b.Hard, abLimit: b.Hard, perMove: perMove}
	if defend {
		tm.abLimit = scale(b.Hard, 1-tm.ts.DefendShare)
	}
	tm.mark = tm.start
	return tm.start.Add(tm.abLimit)
}

// rooted records the root ordering (iteration 1, started at tm.mark) with
// score s, and adjusts the soft limit to the root: t is the opponent's
// threat count, n the number of root moves.
func (tm *timer) rooted(s float64, t, n int) {
	tm.done(1, s, 0)
	switch {
	case n <= 1:
		tm.soft = 0
	case t == 1:
		tm.soft = scale(tm.soft, tm.ts.ThreatFactor)
	case t == 2:
		tm.soft = scale(tm.soft, tm.ts.ForcedFactor)
	}
	tm.soft = min(tm.soft, tm.hard)
}

// done records alpha-beta iteration d with score s and extends the soft
// limit once if s fails low against iteration d−2 (unit: the weights'
// largest absolute value).
func (tm *timer) done(d int, s, unit float64) {
	now := time.Now()
	tm.iter[d] = now.Sub(tm.mark)
	tm.score[d] = s
	tm.mark = now
	if d >= 3 && !tm.failLow && s < tm.score[d-2]-tm.ts.FailLowDrop*unit {
		tm.failLow = true
		tm.soft = min(scale(tm.soft, tm.ts.FailLowFactor), tm.hard)
	}
}

// another reports whether iteration d may start: whether it is expected
// to end before the soft limit and alpha-beta's hard limit (with Partial:
// see TimeSettings.Partial).
func (tm *timer) another(d int) bool {
	b := tm.ts.Branching
	g := b
	if d >= 4 && tm.iter[d-2] > 0 {
		r := float64(tm.iter[d-1]) / float64(tm.iter[d-2])
		g = math.Sqrt(b * min(max(r, b/2), 2*b))
	}
	now := tm.mark.Sub(tm.start)
	limit := min(tm.soft, tm.abLimit)
	switch {
	case tm.ts.Partial && tm.perMove:
		return now < limit
	case tm.ts.Partial:
		return now+scale(tm.iter[d-1], g/2) <= limit
	}
	return now+scale(tm.iter[d-1], g) <= limit
}

// unit is the evaluator's largest absolute weight (the dual schema's alert
// threshold excluded, the tempo schema's threat genes and the cross schema's
// cross-point genes included), the scale of FailLowDrop.
func (e *evaluator) unit() float64 {
	u := 0.0
	for _, set := range [...]*[5]float64{&e.my0, &e.en0, &e.my1, &e.en1} {
		for _, w := range set {
			u = max(u, math.Abs(w))
		}
	}
	for _, w := range e.thr {
		u = max(u, math.Abs(w))
	}
	return max(u, math.Abs(e.xm), math.Abs(e.xw))
}
