package tournament

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

func TestParseTC(t *testing.T) {
	cases := []struct {
		in   string
		want TimeControl
		str  string
	}{
		{"60", TimeControl{Base: time.Minute}, "tc=60"},
		{"60+0.5", TimeControl{Base: time.Minute, Inc: 500 * time.Millisecond}, "tc=60+0.5"},
		{"40/120", TimeControl{Moves: 40, Base: 2 * time.Minute}, "tc=40/120"},
		{"1:30+1", TimeControl{Base: 90 * time.Second, Inc: time.Second}, "tc=90+1"},
		{"inf", TimeControl{}, ""},
	}
	for _, c := range cases {
		got, err := ParseTC(c.in)
		if err != nil || got != c.want || got.String() != c.str {
			t.Errorf("ParseTC(%q) = %+v %q, %v; want %+v %q", c.in, got, got.String(), err, c.want, c.str)
		}
	}
	for _, bad := range []string{"", "0", "x", "0/10", "-1", "1:75", "10+x", "a/10"} {
		if _, err := ParseTC(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseTC(%q): error %v, want one naming the text", bad, err)
		}
	}
	if err := (TimeControl{PerMove: time.Second, Base: time.Second}).Validate(); err == nil {
		t.Error("st= with tc= validated")
	}
	if s := (TimeControl{PerMove: 1500 * time.Millisecond, Margin: 50 * time.Millisecond}).String(); s != "st=1.5 timemargin=50" {
		t.Errorf("String %q", s)
	}
}

// TestParseSeconds: seconds are read exactly, as the protocol reads them
// (protocol.ParseSeconds), in plain decimals or minutes:seconds.
func TestParseSeconds(t *testing.T) {
	for s, want := range map[string]time.Duration{
		"2": 2 * time.Second, ".5": time.Second / 2, "1:30": 90 * time.Second, "0:00.25": time.Second / 4,
		"1.6099999999999999": 1609999999, "10000000": 1e7 * time.Second, "166666:40": 1e7 * time.Second,
	} {
		if got, err := ParseSeconds(s); err != nil || got != want {
			t.Errorf("ParseSeconds(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "1e3", "+1", "-1", "0x10", "Inf", "NaN", "1:60", ":30", "10000000.5", "166666:41", "1 "} {
		if _, err := ParseSeconds(s); err == nil || !strings.Contains(err.Error(), strconv.Quote(s)) {
			t.Errorf("ParseSeconds(%q): error %v, want one naming the text", s, err)
		}
	}
}

// TestGameClock works a 2-moves-per-period clock by hand: 1s base, 0.1s
// increment.
func TestGameClock(t *testing.T) {
	c := newGameClock(TimeControl{Moves: 2, Base: time.Second, Inc: 100 * time.Millisecond, Margin: 10 * time.Millisecond})
	if mc := c.next(); mc.Limit != time.Second || mc.Hard != 1010*time.Millisecond || mc.MovesToGo != 2 {
		t.Fatalf("first move clock %+v", mc)
	}
	if d := c.spend(400 * time.Millisecond); d != "" || c.game.Remaining != 700*time.Millisecond {
		t.Fatalf("after 0.4s: %q, %v left", d, c.game.Remaining)
	}
	// The period ends with the second move: the base is added again.
	if d := c.spend(600 * time.Millisecond); d != "" || c.game.Remaining != 1200*time.Millisecond {
		t.Fatalf("after 0.6s: %q, %v left", d, c.game.Remaining)
	}
	if mc := c.next(); mc.MovesToGo != 2 || mc.Remaining != 1200*time.Millisecond {
		t.Fatalf("new period %+v", mc)
	}
	// Within the margin is no forfeit; past it is.
	if d := c.spend(1205 * time.Millisecond); d != "" || c.game.Remaining != 100*time.Millisecond {
		t.Fatalf("within margin: %q, %v", d, c.game.Remaining)
	}
	if d := c.spend(115 * time.Millisecond); !strings.Contains(d, "clock exhausted") || c.game.Remaining != -15*time.Millisecond {
		t.Fatalf("past margin: %q, %v left (the record shows the overrun)", d, c.game.Remaining)
	}
	st := newGameClock(TimeControl{PerMove: 50 * time.Millisecond})
	if d := st.spend(49 * time.Millisecond); d != "" {
		t.Error(d)
	}
	if d := st.spend(51 * time.Millisecond); !strings.Contains(d, "st=50ms") {
		t.Errorf("st overrun: %q", d)
	}
}

// slowPlayer plays the first legal points after sleeping.
type slowPlayer struct {
	firstLegal
	sleep time.Duration
	clock []MoveClock
}

func (p *slowPlayer) SetClock(c MoveClock) { p.clock = append(p.clock, c) }
func (p *slowPlayer) Play(ctx context.Context, b *engine.Board, last engine.Move) (Reply, error) {
	time.Sleep(p.sleep)
	return p.firstLegal.Play(ctx, b, last)
}

func TestPlayGameTimed(t *testing.T) {
	t.Parallel()
	slow := &slowPlayer{sleep: 30 * time.Millisecond}
	tcs := [2]TimeControl{{PerMove: 10 * time.Millisecond}, {}}
	rec, err := PlayGameTimed(context.Background(), engine.NewBoard(), slow, &firstLegal{}, Opening{}, 0, tcs)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Reason != "forfeit:timeout" || rec.Result != WhiteWins || !strings.Contains(rec.Detail, "st=10ms") {
		t.Errorf("slow Black: %s %s %q", rec.Result, rec.Reason, rec.Detail)
	}
	if len(slow.clock) != 1 || slow.clock[0].Limit != 10*time.Millisecond {
		t.Errorf("clock told %+v", slow.clock)
	}
	if rec.TC != [2]string{"st=0.01", ""} || len(rec.MoveTimes) != 1 || rec.MoveTimes[0] < 30*time.Millisecond {
		t.Errorf("record TC %q move times %v", rec.TC, rec.MoveTimes)
	}

	// In-process engines at depth 12, width 40 (seconds per move without
	// a clock) play by the clock: no move overruns st=40ms by the 1 s
	// margin (kept wide for loaded machines), and the median move stays
	// far below an unbudgeted search.
	w := baseline(t, "zhou2015")
	s := engine.DefaultSettings()
	s.Depth, s.Width = engine.MaxDepth, 40
	e1, _ := NewEnginePlayer(w, s)
	e2, _ := NewEnginePlayer(w, s)
	tcs = [2]TimeControl{{PerMove: 40 * time.Millisecond, Margin: time.Second}, {Base: 2 * time.Second, Inc: 20 * time.Millisecond, Margin: time.Second}}
	rec, err = PlayGameTimed(context.Background(), engine.NewBoard(), e1, e2, mustOpening(t, "JJ KJJK"), 30, tcs)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(rec.Reason, "forfeit") {
		t.Fatalf("engine forfeited: %s %s", rec.Reason, rec.Detail)
	}
	times := slices.Clone(rec.MoveTimes)
	slices.Sort(times)
	if med := times[len(times)/2]; med > 300*time.Millisecond {
		t.Errorf("median move time %v: the engines do not stop on the clock", med)
	}
	if rec.Clock[0] != 0 || rec.Clock[1] <= 0 || len(rec.MoveTimes) != len(rec.Moves)-2 {
		t.Errorf("clocks %v, %d move times for %d moves", rec.Clock, len(rec.MoveTimes), len(rec.Moves))
	}
	if e1.eng.Settings().MoveTime != 0 || e1.timed || e2.timed {
		t.Error("a player kept the move's clock")
	}
	// The record survives its JSON form (with the names a Runner gives).
	rec.Black, rec.White = "black", "white"
	b, err := rec.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back GameRecord
	if err := back.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	if back.TC != rec.TC || len(back.MoveTimes) != len(rec.MoveTimes) || (back.Clock[1]-rec.Clock[1]).Abs() > time.Microsecond {
		t.Errorf("round trip: %+v %v %v", back.TC, back.Clock, len(back.MoveTimes))
	}
}

// TestEngineClock: a move's clock tells the engine's time manager the
// clock as it is, per-move or game clock, and SetClock hands it over.
func TestEngineClock(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		tc          TimeControl
		left        time.Duration // the game clock's time left; < 0: full
		want        engine.Clock
		limit, hard time.Duration
	}{
		{TimeControl{PerMove: 40 * ms, Margin: time.Second}, -1, engine.Clock{Move: 40 * ms}, 40 * ms, 1040 * ms},
		{TimeControl{Base: 2 * time.Second, Inc: 20 * ms, Margin: time.Second}, -1,
			engine.Clock{Remaining: 2 * time.Second, Inc: 20 * ms}, 2 * time.Second, 3 * time.Second},
		{TimeControl{Moves: 7, Base: time.Second}, -1, engine.Clock{Remaining: time.Second, MovesToGo: 7}, time.Second, time.Second},
		{TimeControl{Base: time.Second, Inc: 10 * ms}, 0, engine.Clock{Inc: 10 * ms}, 0, 0}, // out of time, the increment to come
		{TimeControl{Base: time.Second}, 0, engine.Clock{}, 0, 0},                           // out of time: move at once
	} {
		c := newGameClock(tc.tc)
		if tc.left >= 0 {
			c.game.Remaining = tc.left
		}
		if got := c.next(); got.Clock != tc.want || got.Limit != tc.limit || got.Hard != tc.hard {
			t.Errorf("%v with %v left: move clock %+v, want %+v, limit %v, hard %v", tc.tc, tc.left, got, tc.want, tc.limit, tc.hard)
		}
	}
	p, err := NewEnginePlayer(baseline(t, "zhou2015"), engine.DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	p.SetClock(MoveClock{Clock: engine.Clock{Move: 40 * ms}, Limit: 40 * ms})
	if !p.timed || p.clock != (engine.Clock{Move: 40 * ms}) {
		t.Fatalf("SetClock: %+v %t", p.clock, p.timed)
	}
	if err := p.NewGame(context.Background(), Opening{}, engine.Black); err != nil || p.timed {
		t.Fatal("NewGame kept the clock")
	}
}

func TestParseClock(t *testing.T) {
	for s, want := range map[string]TimeControl{
		"st=0.05":                   {PerMove: 50 * time.Millisecond},
		"tc=2+0.02":                 {Base: 2 * time.Second, Inc: 20 * time.Millisecond},
		"tc=40/60":                  {Moves: 40, Base: time.Minute},
		"st=1 timemargin=50":        {PerMove: time.Second, Margin: 50 * time.Millisecond},
		"  tc=1:00+1  timemargin=0": {Base: time.Minute, Inc: time.Second},
	} {
		got, err := ParseClock(s)
		if err != nil || got != want {
			t.Errorf("ParseClock(%q) = %+v, %v; want %+v", s, got, err, want)
		}
		if err == nil {
			if back, err := ParseClock(got.String()); err != nil || back != got {
				t.Errorf("ParseClock(%q) does not read back %q: %+v, %v", s, got.String(), back, err)
			}
		}
	}
	for _, s := range []string{"", "st=0", "st=-1", "st=x", "tc=inf", "tc=0", "depth=3", "timemargin=5", "st=1 tc=2", "st=1 timemargin=-3", "0.05"} {
		if _, err := ParseClock(s); err == nil {
			t.Errorf("ParseClock(%q): no error", s)
		}
	}
}
