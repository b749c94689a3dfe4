package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

const ms = time.Millisecond

func TestBudget(t *testing.T) {
	var def TimeSettings // the defaults
	cases := []struct {
		name  string
		ts    TimeSettings
		clock Clock
		want  Budget
	}{
		{"no time", def, Clock{}, Budget{}},
		{"st=1: 5% margin", def, Clock{Move: time.Second}, Budget{950 * ms, 950 * ms}},
		{"st=0.02: 2 ms margin", def, Clock{Move: 20 * ms}, Budget{18 * ms, 18 * ms}},
		{"st=0.002: half kept", def, Clock{Move: 2 * ms}, Budget{1 * ms, 1 * ms}},
		{"st ignores the game clock", def, Clock{Move: 100 * ms, Remaining: time.Hour, Inc: time.Second}, Budget{95 * ms, 95 * ms}},
		// 60 s / 20 moves = 3 s soft, 9 s hard.
		{"tc=60", def, Clock{Remaining: time.Minute}, Budget{3 * time.Second, 9 * time.Second}},
		// 2 s / 20 + 0.75 × 20 ms = 115 ms soft, 345 ms hard.
		{"tc=2+0.02", def, Clock{Remaining: 2 * time.Second, Inc: 20 * ms}, Budget{115 * ms, 345 * ms}},
		// 40/60: 60 s / 40 = 1.5 s.
		{"tc=40/60", def, Clock{Remaining: time.Minute, MovesToGo: 40}, Budget{1500 * ms, 4500 * ms}},
		// Hard is at most half the clock: 10 s / 2 moves = 5 s soft.
		{"2 moves to go", def, Clock{Remaining: 10 * time.Second, MovesToGo: 2}, Budget{5 * time.Second, 5 * time.Second}},
		// The period's last move may use all but the margin.
		{"last move of the period", def, Clock{Remaining: 10 * time.Second, MovesToGo: 1}, Budget{9500 * ms, 9500 * ms}},
		// The increment is not there yet: half the clock at most.
		{"big increment", def, Clock{Remaining: 100 * ms, Inc: time.Second}, Budget{50 * ms, 50 * ms}},
		// Low time and no increment: the root ordering's move.
		{"tc=1, 19 ms left", def, Clock{Remaining: 19 * ms}, Budget{}},
		{"tc=1, 20 ms left", def, Clock{Remaining: 20 * ms}, Budget{Soft: ms, Hard: 3 * ms}},
		{"19 ms left, increment 10 ms", def, Clock{Remaining: 19 * ms, Inc: 10 * ms}, Budget{Soft: 8450 * time.Microsecond, Hard: 9500 * time.Microsecond}},
		{"clock ran out", def, Clock{Remaining: -time.Second, Inc: time.Second}, Budget{}},
		{"knobs", TimeSettings{GameMoves: 10, HardFactor: 2, Safety: 10 * ms}, Clock{Remaining: time.Second}, Budget{100 * ms, 200 * ms}},
	}
	for _, tc := range cases {
		if got := tc.ts.Budget(tc.clock); got != tc.want {
			t.Errorf("%s: Budget(%+v) = %+v, want %+v", tc.name, tc.clock, got, tc.want)
		}
	}
}

// TestGameClock works a clock of 1 s per 2 moves plus 0.1 s by hand: each
// move is charged and credited the increment, an overrun stops at 0, and
// the base comes back when a period ends.
func TestGameClock(t *testing.T) {
	g := NewGameClock(time.Second, 100*ms, 2)
	if c := g.Clock(); c != (Clock{Remaining: time.Second, Inc: 100 * ms, MovesToGo: 2}) {
		t.Fatalf("first move %+v", c)
	}
	g.Spend(400 * ms)
	if c := g.Clock(); c != (Clock{Remaining: 700 * ms, Inc: 100 * ms, MovesToGo: 1}) {
		t.Fatalf("after 0.4 s: %+v", c)
	}
	g.Spend(2 * time.Second) // over: 0 left, the increment, the base of the next period
	if g.Remaining != 1100*ms || g.Played != 2 || g.Clock().MovesToGo != 2 {
		t.Fatalf("after an overrun ending the period: %+v", g)
	}
	whole := NewGameClock(time.Second, 0, 0)
	whole.Spend(300 * ms)
	if c := whole.Clock(); c != (Clock{Remaining: 700 * ms}) {
		t.Fatalf("a clock for the whole game: %+v", c)
	}
}

func TestTimeSettingsValidate(t *testing.T) {
	if err := (Settings{Time: DefaultTimeSettings()}).Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, tc := range []struct {
		ts    TimeSettings
		field string
	}{
		{TimeSettings{Safety: -1}, "Time.Safety"},
		{TimeSettings{GameMoves: -2}, "Time.GameMoves"},
		{TimeSettings{SafetyShare: 0.6}, "Time.SafetyShare"},
		{TimeSettings{IncShare: 1.5}, "Time.IncShare"},
		{TimeSettings{MaxShare: -0.5}, "Time.MaxShare"},
		{TimeSettings{HardFactor: 0.5}, "Time.HardFactor"},
		{TimeSettings{Branching: 0.9}, "Time.Branching"},
		{TimeSettings{ThreatFactor: -1}, "Time.ThreatFactor"},
		{TimeSettings{ForcedFactor: 2e9}, "Time.ForcedFactor"},
		{TimeSettings{FailLowFactor: -3}, "Time.FailLowFactor"},
		{TimeSettings{FailLowDrop: -0.1}, "Time.FailLowDrop"},
		{TimeSettings{DefendShare: 0.95}, "Time.DefendShare"},
		{TimeSettings{DefendGrowth: 0.5}, "Time.DefendGrowth"},
		{TimeSettings{DefendMaxNodes: -1}, "Time.DefendMaxNodes"},
	} {
		err := Settings{Time: tc.ts}.Validate()
		var se *SettingsError
		if !errors.As(err, &se) || se.Field != tc.field {
			t.Errorf("%+v: error %v, want one for %s", tc.ts, err, tc.field)
		}
	}
}

// TestSettingsJSONWithoutTime: the time knobs stay out of the JSON of
// settings that do not set them, so settings written before they existed
// read and write the same.
func TestSettingsJSONWithoutTime(t *testing.T) {
	data, err := json.Marshal(DefaultSettings())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"Time"`) {
		t.Fatalf("%s", data)
	}
	s := DefaultSettings()
	s.Time.Branching = 4
	data, _ = json.Marshal(s)
	var back Settings
	if err := json.Unmarshal(data, &back); err != nil || back != s {
		t.Fatalf("round trip %s: %+v, %v", data, back, err)
	}
}

// TestTimerDecisions drives the time manager with made-up iteration times:
// no wall clock is read for the decisions checked.
func TestTimerDecisions(t *testing.T) {
	start := time.Unix(1000, 0)
	newTimer := func(b Budget) *timer {
		tm := &timer{on: true, ts: DefaultTimeSettings(), start: start, soft: b.Soft, hard: b.Hard, abLimit: b.Hard}
		return tm
	}
	// Which iteration may start, from iteration times and the time they
	// ended at.
	for _, tc := range []struct {
		name          string
		iters         []time.Duration // iteration 1, 2, …
		end           time.Duration
		soft, abLimit time.Duration
		want          bool
	}{
		// Ratio 3: the next takes 54 ms, to end at 81 ms.
		{"ratio 3, soft 90 ms", []time.Duration{1 * ms, 2 * ms, 6 * ms, 18 * ms}, 27 * ms, 90 * ms, 200 * ms, true},
		{"ratio 3, soft 60 ms", []time.Duration{1 * ms, 2 * ms, 6 * ms, 18 * ms}, 27 * ms, 60 * ms, 200 * ms, false},
		// Before two alpha-beta iterations Branching (3) is assumed:
		// iteration 3 is expected to end at 2 + 3 × 1 = 5 ms.
		{"assumed ratio, soft 5 ms", []time.Duration{1 * ms, 1 * ms}, 2 * ms, 5 * ms, 10 * ms, true},
		{"assumed ratio, soft 4 ms", []time.Duration{1 * ms, 1 * ms}, 2 * ms, 4 * ms, 10 * ms, false},
		// A measured ratio beyond 2 × Branching is capped: 1 ms then 100
		// ms predicts √(3 × 6) × 100 ms ≈ 424 ms more, not 10 s.
		{"ratio capped", []time.Duration{0, 1 * ms, 100 * ms}, 101 * ms, 600 * ms, 2 * time.Second, true},
		// The defensive check's share: alpha-beta's own limit counts too.
		{"alpha-beta's limit", []time.Duration{0, 1 * ms, 100 * ms}, 101 * ms, 600 * ms, 500 * ms, false},
	} {
		tm := newTimer(Budget{tc.soft, 2 * tc.soft})
		tm.abLimit = tc.abLimit
		copy(tm.iter[1:], tc.iters)
		tm.mark = start.Add(tc.end)
		if got := tm.another(len(tc.iters) + 1); got != tc.want {
			t.Errorf("%s: another = %t", tc.name, got)
		}
	}

	// With Partial an iteration starts on a per-move clock whenever the
	// soft limit has not passed, on a game clock when half of it is
	// expected to fit (54 ms expected from 27 ms: half ends at 54 ms).
	for _, tc := range []struct {
		perMove bool
		soft    time.Duration
		want    bool
	}{{true, 28 * ms, true}, {true, 27 * ms, false}, {false, 54 * ms, true}, {false, 53 * ms, false}} {
		tm := newTimer(Budget{tc.soft, 2 * tc.soft})
		tm.ts.Partial, tm.perMove = true, tc.perMove
		copy(tm.iter[1:], []time.Duration{1 * ms, 2 * ms, 6 * ms, 18 * ms})
		tm.mark = start.Add(27 * ms)
		if got := tm.another(5); got != tc.want {
			t.Errorf("Partial, per-move %t, soft %v: another = %t", tc.perMove, tc.soft, got)
		}
	}

	// Root adjustments.
	for _, tc := range []struct {
		threats, moves int
		want           time.Duration
	}{
		{0, 10, 100 * ms}, {1, 10, 150 * ms}, {2, 4, 50 * ms}, {2, 1, 0}, {0, 1, 0},
	} {
		tm := newTimer(Budget{100 * ms, 120 * ms})
		tm.mark = time.Now()
		tm.rooted(0, tc.threats, tc.moves)
		if min(tc.want, 120*ms) != tm.soft {
			t.Errorf("threats %d, %d moves: soft %v, want %v", tc.threats, tc.moves, tm.soft, min(tc.want, 120*ms))
		}
	}
	// Failing low: a score 300 below the same-parity iteration (unit
	// 1000, drop 0.25) doubles the soft limit once, up to the hard limit.
	tm := newTimer(Budget{100 * ms, 150 * ms})
	tm.mark = time.Now()
	tm.score[1], tm.score[2] = 500, -1000
	tm.done(3, 400, 1000) // −100: not enough
	if tm.soft != 100*ms {
		t.Fatalf("small drop: soft %v", tm.soft)
	}
	tm.done(4, -1300, 1000)
	if tm.soft != 150*ms || !tm.failLow {
		t.Fatalf("fail low: soft %v", tm.soft)
	}
	tm.soft = 100 * ms
	tm.done(5, -2000, 1000)
	if tm.soft != 100*ms {
		t.Fatalf("second fail low extended again: %v", tm.soft)
	}
}

// TestSearchClock: with ample time the clock changes nothing (the depth is
// the maximum); without time the move comes from the root ordering; a
// forced move is played without alpha-beta.
func TestSearchClock(t *testing.T) {
	s := DefaultSettings()
	s.Depth = 3
	e := newEngine(t, zhou(t), s)
	hour := Clock{Move: time.Hour}
	for i, b := range loadSuite(t)[:4] {
		e.NewGame()
		want := e.Search(context.Background(), b)
		e.NewGame()
		if got := e.SearchClock(context.Background(), b, hour); got != want {
			t.Errorf("position %d: an hour per move gives %+v, depth 3 %+v", i, got, want)
		}
		r := e.SearchClock(context.Background(), b, Clock{})
		if r.Depth != 1 || r.Reason != "search" || b.Clone().Play(r.Move) != nil {
			t.Errorf("position %d: no time: %+v", i, r)
		}
	}
	suite := loadSuite(t)
	i := 0
	if allocs := testing.AllocsPerRun(10, func() {
		e.SearchClock(context.Background(), suite[i%len(suite)], Clock{Remaining: time.Second})
		i++
	}); allocs != 0 {
		t.Errorf("SearchClock allocates %v per run", allocs)
	}
	// White has two fives (column A and column S, rows A..E): the only
	// move is AF SF.
	forced := boardOf(t, "JJ AAAB KLCJ SASB PPQR ACAD CPDR SCSD FFNC AESE")
	if forced.Threats(White) != 2 {
		t.Fatalf("white threats %d", forced.Threats(White))
	}
	r := e.SearchClock(context.Background(), forced, hour)
	if r.Depth != 1 || r.Reason != "block" || r.Move.String() != "AFSF" {
		t.Errorf("forced: %+v", r)
	}
	if full := e.Search(context.Background(), forced); full.Move != r.Move || full.Depth != 3 {
		t.Errorf("forced at depth 3: %+v", full)
	}
}

// TestSearchClockDefend: with the defensive check on, a clock leaves it
// the time to replace a losing choice, as at fixed depth (position
// "defend11" of TestFixedDepthGolden: at depth 4 the check plays IGLH).
func TestSearchClockDefend(t *testing.T) {
	s := DefaultSettings()
	s.Depth, s.Width, s.DefendNodes = 4, 20, PlayDefendNodes
	e := newEngine(t, zhou(t), s)
	b := boardOf(t, "JJ JGIH HIII JIHH JHKJ IJKH LGLI HKIL LJGL GJFI EHKN")
	r := e.SearchClock(context.Background(), b, Clock{Move: time.Hour})
	if r.Reason != "defend" || r.Move.String() != "IGLH" || r.Depth != 4 {
		t.Errorf("%+v", r)
	}
}
