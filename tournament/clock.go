package tournament

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
)

// TimeControl is the time a player has to think, in cutechess-cli's terms:
// a fixed time per move (st=) or a game clock of Base per period of Moves
// moves (0: the whole game) plus Inc after every move (tc=). A move is one
// turn (one or two stones). A player that takes longer than its time plus
// Margin loses the game on time (forfeit:timeout). The zero value is no
// time control: in-process engines search to their depth, external engines
// get a generous per-move limit (Engine.MoveTime).
//
// It is roadtune's one time control, the setting of a whole game; during
// a game each colour's tc= runs as an engine.GameClock, and before each
// move a player is told its MoveClock (the engine.Clock of that move and
// the referee's limits).
type TimeControl struct {
	PerMove time.Duration // st=: the time of each move; exclusive with Base
	Moves   int           // tc=: moves per period (0 = the whole game)
	Base    time.Duration // tc=: the clock at the start of each period
	Inc     time.Duration // tc=: added to the clock after each move
	Margin  time.Duration // timemargin=: tolerated overrun before a time forfeit
}

// IsZero reports whether tc sets no time (Margin alone does not count).
func (tc TimeControl) IsZero() bool { return tc.PerMove == 0 && tc.Base == 0 && tc.Inc == 0 }

// String returns cutechess-cli's notation: "st=1.5", "tc=40/60+0.5",
// "tc=60", with " timemargin=50" (milliseconds) when set; "" for none.
func (tc TimeControl) String() string {
	var s string
	switch {
	case tc.PerMove > 0:
		s = "st=" + protocol.FormatSeconds(tc.PerMove)
	case tc.Base > 0 || tc.Inc > 0:
		s = "tc="
		if tc.Moves > 0 {
			s += strconv.Itoa(tc.Moves) + "/"
		}
		s += protocol.FormatSeconds(tc.Base)
		if tc.Inc > 0 {
			s += "+" + protocol.FormatSeconds(tc.Inc)
		}
	}
	if tc.Margin > 0 {
		if s != "" {
			s += " "
		}
		s += "timemargin=" + strconv.FormatInt(tc.Margin.Milliseconds(), 10)
	}
	return s
}

// Validate checks the combination: durations ≥ 0, Moves ≥ 0, st= and tc=
// not both, Moves only with a Base.
func (tc TimeControl) Validate() error {
	switch {
	case tc.PerMove < 0 || tc.Base < 0 || tc.Inc < 0 || tc.Margin < 0:
		return errors.New("time control: negative time")
	case tc.Moves < 0:
		return fmt.Errorf("time control: %d moves per period", tc.Moves)
	case tc.PerMove > 0 && (tc.Base > 0 || tc.Inc > 0):
		return errors.New("time control: st= and tc= exclude each other")
	case tc.Moves > 0 && tc.Base == 0:
		return errors.New("time control: moves per period without a base time")
	}
	return nil
}

// ParseSeconds reads a time in cutechess-cli's notation: seconds ("2",
// "0.25", exact to the nanosecond as protocol.ParseSeconds reads them) or
// minutes:seconds ("1:30"), at most 1e7 seconds in all. Errors name the
// text.
func ParseSeconds(s string) (time.Duration, error) {
	min, sec, colon := strings.Cut(s, ":")
	if !colon {
		min, sec = "0", s
	}
	m, err := strconv.ParseUint(min, 10, 32)
	x, ok := protocol.ParseSeconds(sec)
	// At most 1e7 seconds (about 116 days) in either form, so that
	// minutes cannot overflow a Duration.
	if err != nil || !ok || (colon && x >= time.Minute) || float64(m)*60+x.Seconds() > 1e7 {
		return 0, fmt.Errorf("time %q: want seconds (2, 0.25) or minutes:seconds (1:30)", s)
	}
	return time.Duration(m)*time.Minute + x, nil
}

// ParseTC reads a game clock in cutechess-cli's tc= notation:
// [moves/]time[+increment], times as for ParseSeconds, e.g. "60+0.5",
// "40/120", "1:00+1". "inf" is no time control.
func ParseTC(s string) (TimeControl, error) {
	if s == "inf" {
		return TimeControl{}, nil
	}
	var tc TimeControl
	rest := s
	if m, r, ok := strings.Cut(rest, "/"); ok {
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 {
			return tc, fmt.Errorf("tc %q: moves per period %q: want a positive integer", s, m)
		}
		tc.Moves, rest = n, r
	}
	base, inc, hasInc := strings.Cut(rest, "+")
	var err error
	if tc.Base, err = ParseSeconds(base); err != nil {
		return tc, fmt.Errorf("tc %q: %w", s, err)
	}
	if hasInc {
		if tc.Inc, err = ParseSeconds(inc); err != nil {
			return tc, fmt.Errorf("tc %q: increment: %w", s, err)
		}
	}
	if tc.Base == 0 {
		return tc, fmt.Errorf("tc %q: zero base time", s)
	}
	return tc, nil
}

// MoveClock is what a player is told before each move under a time
// control (see Timed): the engine's Clock of the move (engine.Clock: the
// per-move time Move with st=; the game clock's Remaining, Inc and
// MovesToGo with tc=) and the referee's limits.
type MoveClock struct {
	engine.Clock
	// Limit is the time this move may take: the per-move time (st=) or
	// the clock's remaining time (tc=).
	Limit time.Duration
	// Hard is Limit plus the margin: past it the referee forfeits the
	// player on time, so a driver waiting on an engine can stop there.
	Hard time.Duration
}

// Timed is implemented by players that adapt to the clock: PlayGame calls
// SetClock before each Play of a game with a time control.
type Timed interface {
	SetClock(MoveClock)
}

// gameClock is one colour's clock during a game: its time control, and
// under tc= the running game clock.
type gameClock struct {
	tc   TimeControl
	game engine.GameClock // tc=
}

func newGameClock(tc TimeControl) gameClock {
	return gameClock{tc: tc, game: engine.NewGameClock(tc.Base, tc.Inc, tc.Moves)}
}

// next returns the MoveClock of the colour's next move.
func (c *gameClock) next() MoveClock {
	if c.tc.PerMove > 0 {
		return MoveClock{Clock: engine.Clock{Move: c.tc.PerMove}, Limit: c.tc.PerMove, Hard: c.tc.PerMove + c.tc.Margin}
	}
	ec := c.game.Clock()
	return MoveClock{Clock: ec, Limit: ec.Remaining, Hard: ec.Remaining + c.tc.Margin}
}

// spend charges a move that took d and reports a time forfeit's detail
// ("" when in time).
func (c *gameClock) spend(d time.Duration) string {
	if c.tc.PerMove > 0 {
		if d > c.tc.PerMove+c.tc.Margin {
			return fmt.Sprintf("move took %v, st=%v, margin %v", d.Round(time.Millisecond), c.tc.PerMove, c.tc.Margin)
		}
		return ""
	}
	if left := c.game.Remaining; left-d < -c.tc.Margin {
		c.game.Remaining -= d // the game's record shows the overrun
		return fmt.Sprintf("clock exhausted: move took %v with %v left, margin %v", d.Round(time.Millisecond), left.Round(time.Millisecond), c.tc.Margin)
	}
	c.game.Spend(d)
	return ""
}

// ClockOptions reads a time control from cutechess-cli's engine options
// st=SECONDS (a fixed time per move, > 0), tc=[moves/]time[+increment]
// (ParseTC) and timemargin=MILLISECONDS, as get returns each option's
// value (ok false: not given); none given is no clock. Errors name the
// option.
func ClockOptions(get func(key string) (value string, ok bool)) (TimeControl, error) {
	var tc TimeControl
	if st, ok := get("st"); ok {
		d, err := ParseSeconds(st)
		if err != nil || d <= 0 {
			return tc, fmt.Errorf("st=%s: want a positive time in seconds", st)
		}
		tc.PerMove = d
	}
	if v, ok := get("tc"); ok {
		t, err := ParseTC(v)
		if err != nil {
			return tc, err
		}
		if tc.PerMove > 0 && !t.IsZero() {
			return tc, errors.New("st= and tc= exclude each other")
		}
		t.PerMove = tc.PerMove
		tc = t
	}
	if m, ok := get("timemargin"); ok {
		ms, err := strconv.Atoi(m)
		if err != nil || ms < 0 {
			return tc, fmt.Errorf("timemargin=%s: want milliseconds ≥ 0", m)
		}
		tc.Margin = time.Duration(ms) * time.Millisecond
	}
	return tc, nil
}

// ParseClock reads one time control as arena's engine options and
// cutechess-cli write it: "st=SECONDS" or "tc=[moves/]time[+increment]"
// (ClockOptions; tc=inf, no clock, is refused), optionally followed by
// " timemargin=MILLISECONDS". Errors name the text.
func ParseClock(s string) (TimeControl, error) {
	fields := strings.Fields(s)
	opts := map[string]string{}
	for i, f := range fields {
		key, val, _ := strings.Cut(f, "=")
		if !(i == 0 && (key == "st" || key == "tc") || i == 1 && key == "timemargin") {
			return TimeControl{}, fmt.Errorf("clock %q: want st=SECONDS or tc=[MOVES/]TIME[+INC], then optionally timemargin=MS", s)
		}
		opts[key] = val
	}
	tc, err := ClockOptions(func(k string) (string, bool) { v, ok := opts[k]; return v, ok })
	switch {
	case err != nil:
		return tc, fmt.Errorf("clock %q: %w", s, err)
	case tc.IsZero():
		return tc, fmt.Errorf("clock %q: want st=SECONDS or tc=[MOVES/]TIME[+INC] (tc=inf is no clock)", s)
	}
	return tc, tc.Validate()
}
