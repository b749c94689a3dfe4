package protocol

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

func pt(t testing.TB, s string) engine.Point {
	t.Helper()
	p, err := engine.ParsePoint(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseCommand(t *testing.T) {
	jj := engine.PointAt(9, 9)
	kl := engine.PointAt(10, 11)
	lk := engine.PointAt(11, 10)
	cases := []struct {
		line string
		want Command
	}{
		{"", Command{Kind: Blank}},
		{"   \t \r", Command{Kind: Blank}},
		{"name", Command{Kind: Name}},
		{"NAME\r", Command{Kind: Name}},
		{"  next  ", Command{Kind: Next}},
		{"vcf", Command{Kind: VCF}},
		{"unvcf", Command{Kind: UnVCF}},
		{"print", Command{Kind: Print}},
		{"help", Command{Kind: Help}},
		{"quit", Command{Kind: Quit}},
		{"exit\r", Command{Kind: Quit}},
		{"new black", Command{Kind: New, Side: engine.Black}},
		{"new   WHITE\r", Command{Kind: New, Side: engine.White}},
		{"new xxx", Command{Kind: New, Side: engine.Empty}},
		{"new", Command{Kind: New, Side: engine.Empty}},
		{"move JJ", Command{Kind: Play, Move: engine.Single(jj)}},
		{"move jjjj", Command{Kind: Play, Move: engine.Single(jj)}},
		{"move KLLK", Command{Kind: Play, Move: engine.Pair(kl, lk)}},
		{"Move kl Lk\r", Command{Kind: Play, Move: engine.Pair(kl, lk)}},
		{"black JJJJ", Command{Kind: Place, Side: engine.Black, Move: engine.Single(jj)}},
		{"white klLK", Command{Kind: Place, Side: engine.White, Move: engine.Pair(kl, lk)}},
		{"depth 3", Command{Kind: Depth, N: 3}},
		{"depth  12 ", Command{Kind: Depth, N: 12}},
		{"width 1", Command{Kind: Width, N: 1}},
		{fmt.Sprintf("width %d", MaxWidth), Command{Kind: Width, N: MaxWidth}},
		{"weights a.json", Command{Kind: Weights, Path: "a.json"}},
		{"  weights   my dir/b c.json \r", Command{Kind: Weights, Path: "my dir/b c.json"}},
		{"time move 0.5", Command{Kind: TimeMove, Clock: engine.Clock{Move: 500 * time.Millisecond}}},
		{"TIME Move 2\r", Command{Kind: TimeMove, Clock: engine.Clock{Move: 2 * time.Second}}},
		{"time move .25", Command{Kind: TimeMove, Clock: engine.Clock{Move: 250 * time.Millisecond}}},
		{"time move 0.0000000019", Command{Kind: TimeMove, Clock: engine.Clock{Move: 1}}},
		{"time move 1000000", Command{Kind: TimeMove, Clock: engine.Clock{Move: MaxSeconds * time.Second}}},
		{"time game 60", Command{Kind: TimeGame, Clock: engine.Clock{Remaining: time.Minute}}},
		{"time game 60 0.5", Command{Kind: TimeGame, Clock: engine.Clock{Remaining: time.Minute, Inc: 500 * time.Millisecond}}},
		{"time game 120 0 40", Command{Kind: TimeGame, Clock: engine.Clock{Remaining: 2 * time.Minute, MovesToGo: 40}}},
		{"time left 0", Command{Kind: TimeLeft}},
		{"time left 12.345", Command{Kind: TimeLeft, Clock: engine.Clock{Remaining: 12345 * time.Millisecond}}},
		{"time off", Command{Kind: TimeOff}},
	}
	for _, tc := range cases {
		got, err := ParseCommand(tc.line)
		if err != nil {
			t.Errorf("ParseCommand(%q): %v", tc.line, err)
			continue
		}
		if got != tc.want {
			t.Errorf("ParseCommand(%q) = %+v, want %+v", tc.line, got, tc.want)
		}
	}
}

func TestParseCommandErrors(t *testing.T) {
	cases := []struct{ line, want string }{
		{"foo", `bad command: "foo" is not a command`},
		{"moves JJ", `"moves" is not a command`},
		{"move", "move needs the stones"},
		{"move J", "want 2 or 4 letters"},
		{"move JJK", "want 2 or 4 letters"},
		{"move KKLLMM", "want 2 or 4 letters"},
		{"move TTAA", `letter "T" is off the board`},
		{"move J1", `letter "1" is off the board`},
		{"black ZZ", `letter "Z" is off the board`},
		{"white", "white needs the stones"},
		{"name me", "name takes no argument"},
		{"next please", "next takes no argument"},
		{"quit now", "quit takes no argument"},
		{"new black now", "new takes one word"},
		{"depth", fmt.Sprintf("depth takes one number 1..%d", MaxDepth)},
		{"depth 0", fmt.Sprintf(`depth "0": want a whole number 1..%d`, MaxDepth)},
		{fmt.Sprintf("depth %d", MaxDepth+1), fmt.Sprintf(`depth "%d": want a whole number 1..%d`, MaxDepth+1, MaxDepth)},
		{"depth -2", `want a whole number`},
		{"depth 2.5", `want a whole number`},
		{"depth 99999999999999999999999", `want a whole number`},
		{"width 0", fmt.Sprintf(`width "0": want a whole number 1..%d`, MaxWidth)},
		{fmt.Sprintf("width %d", MaxWidth+1), "want a whole number"},
		{"width 3 4", "width takes one number"},
		{"weights", "weights needs a file name"},
		{"weights   \t", "weights needs a file name"},
		{"time", "time takes move SECONDS"},
		{"time soon", `time takes move SECONDS, game SECONDS [INC_SECONDS [MOVES]], left SECONDS or off, got "soon"`},
		{"time move", "time takes move SECONDS"},
		{"time move 1 2", "time takes move SECONDS"},
		{"time off now", "time takes move SECONDS"},
		{"time left", "time takes move SECONDS"},
		{"time game", "time takes move SECONDS"},
		{"time game 60 1 40 2", "time takes move SECONDS"},
		{"time move 0", `time move: SECONDS "0": want seconds, 0 < s ≤ 1000000`},
		{"time move -1", `SECONDS "-1": want seconds`},
		{"time move +1", `SECONDS "+1": want seconds`},
		{"time move 1e3", `SECONDS "1e3"`},
		{"time move 1m", `SECONDS "1m"`},
		{"time move 1.2.3", `SECONDS "1.2.3"`},
		{"time move .", `SECONDS "."`},
		{"time move NaN", `SECONDS "NaN"`},
		{"time move 1000000.000000001", `SECONDS "1000000.000000001"`},
		{"time move 99999999", `SECONDS "99999999"`},
		{"time left -0.5", `time left: SECONDS "-0.5": want seconds, 0 ≤ s`},
		{"time game 0", `time game: SECONDS "0"`},
		{"time game 60 -1", `time game: INC_SECONDS "-1": want seconds, 0 ≤ s`},
		{"time game 60 1 0", `time game: MOVES "0": want a whole number 1..1000`},
		{"time game 60 1 1001", `MOVES "1001"`},
		{"time game 60 1 2.5", `MOVES "2.5"`},
		{"move \xff\xfe", "not valid UTF-8"},
		{"bad\x00word", `"bad\x00word" is not a command`},
	}
	for _, tc := range cases {
		_, err := ParseCommand(tc.line)
		if err == nil {
			t.Errorf("ParseCommand(%q): no error, want %q", tc.line, tc.want)
			continue
		}
		if !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseCommand(%q): error %v does not wrap ErrSyntax", tc.line, err)
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCommand(%q) error = %q, want it to contain %q", tc.line, err, tc.want)
		}
	}
}

func TestCommandString(t *testing.T) {
	cases := []struct {
		c    Command
		want string
	}{
		{Command{Kind: Blank}, ""},
		{Command{Kind: Name}, "name"},
		{Command{Kind: Quit}, "quit"},
		{Command{Kind: New, Side: engine.Black}, "new black"},
		{Command{Kind: New, Side: engine.White}, "new white"},
		{Command{Kind: New}, "new xxx"},
		{Command{Kind: Play, Move: engine.Pair(pt(t, "KL"), pt(t, "LK"))}, "move KLLK"},
		{Command{Kind: Place, Side: engine.Black, Move: engine.Single(pt(t, "JJ"))}, "black JJ"},
		{Command{Kind: Depth, N: 4}, "depth 4"},
		{Command{Kind: Width, N: 12}, "width 12"},
		{Command{Kind: Weights, Path: "x y.json"}, "weights x y.json"},
		{Command{Kind: TimeMove, Clock: engine.Clock{Move: 1500 * time.Millisecond}}, "time move 1.5"},
		{Command{Kind: TimeMove, Clock: engine.Clock{Move: 1}}, "time move 0.000000001"},
		{Command{Kind: TimeGame, Clock: engine.Clock{Remaining: time.Minute}}, "time game 60"},
		{Command{Kind: TimeGame, Clock: engine.Clock{Remaining: time.Minute, Inc: time.Second / 2}}, "time game 60 0.5"},
		{Command{Kind: TimeGame, Clock: engine.Clock{Remaining: time.Minute, MovesToGo: 40}}, "time game 60 0 40"},
		{Command{Kind: TimeLeft, Clock: engine.Clock{Remaining: 0}}, "time left 0"},
		{Command{Kind: TimeOff}, "time off"},
		{Command{Kind: SetOption, Option: "Nodes", Value: 1e6}, "setoption name Nodes value 1000000"},
		{Command{Kind: SetOption, Option: "S5", Value: -7.5}, "setoption name S5 value -7.5"},
		{Command{Kind: SetOption, Option: "Share", Value: 1e-7}, "setoption name Share value 1e-07"},
		{Command{Kind: SetOption, Option: "Huge", Value: 1e300}, "setoption name Huge value 1e+300"},
	}
	for _, tc := range cases {
		if got := tc.c.String(); got != tc.want {
			t.Errorf("%+v.String() = %q, want %q", tc.c, got, tc.want)
		}
	}
	if got := Kind(99).String(); got != "kind(99)" {
		t.Errorf("Kind(99).String() = %q", got)
	}
}

// FuzzParseCommand checks that the parser never panics, that every error
// wraps ErrSyntax and is one line, and that a parsed command written back
// with String parses to the same command.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{
		"name", "new black", "new white", "new xxx", "black JJJJ", "white KJJK",
		"move KLLK", "move jj", "next", "depth 3", "width 10", "vcf", "unvcf",
		"print", "help", "quit", "exit", "weights configs/weights/zhou2015.json",
		"  MOVE  kl lk \r", "", "move TTAA", "depth 0", "bogus", "\xff",
		"time move 0.5", "time game 60 0.5 40", "time game 1", "time left 3.25", "time off",
		"time move 0", "time game 60 -1", "TIME LEFT .5",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		c, err := ParseCommand(line)
		if err != nil {
			if !errors.Is(err, ErrSyntax) {
				t.Fatalf("ParseCommand(%q): error %v does not wrap ErrSyntax", line, err)
			}
			if strings.ContainsAny(err.Error(), "\n\r") {
				t.Fatalf("ParseCommand(%q): error %q spans lines", line, err)
			}
			return
		}
		switch c.Kind {
		case Play, Place:
			if c.Move.Len() < 1 || !c.Move.A.OnBoard() || (c.Move.Len() == 2 && (!c.Move.B.OnBoard() || c.Move.A == c.Move.B)) {
				t.Fatalf("ParseCommand(%q) = bad move %+v", line, c.Move)
			}
		case Depth:
			if c.N < 1 || c.N > MaxDepth {
				t.Fatalf("ParseCommand(%q): depth %d out of range", line, c.N)
			}
		case Width:
			if c.N < 1 || c.N > MaxWidth {
				t.Fatalf("ParseCommand(%q): width %d out of range", line, c.N)
			}
		case Weights:
			if c.Path == "" || strings.TrimSpace(c.Path) != c.Path {
				t.Fatalf("ParseCommand(%q): path %q", line, c.Path)
			}
		case TimeMove, TimeGame, TimeLeft, TimeOff:
			k, ok := c.Clock, true
			const most = MaxSeconds * time.Second
			switch c.Kind {
			case TimeMove:
				ok = k.Move > 0 && k.Move <= most && k.Remaining == 0 && k.Inc == 0 && k.MovesToGo == 0
			case TimeGame:
				ok = k.Move == 0 && k.Remaining > 0 && k.Remaining <= most && k.Inc >= 0 && k.Inc <= most && k.MovesToGo >= 0 && k.MovesToGo <= MaxMoves
			case TimeLeft:
				ok = k.Move == 0 && k.Remaining >= 0 && k.Remaining <= most && k.Inc == 0 && k.MovesToGo == 0
			case TimeOff:
				ok = k == engine.Clock{}
			}
			if !ok {
				t.Fatalf("ParseCommand(%q): %s with clock %+v", line, c.Kind, k)
			}
		}
		back, err := ParseCommand(c.String())
		if err != nil {
			t.Fatalf("ParseCommand(%q) = %+v; its String %q does not parse: %v", line, c, c.String(), err)
		}
		if back != c {
			t.Fatalf("ParseCommand(%q) = %+v; String %q parses to %+v", line, c, c.String(), back)
		}
	})
}
