package protocol

import (
	"testing"

	"github.com/roadtune/roadtune/engine"
)

func TestParseReply(t *testing.T) {
	t.Parallel()
	jjkk, _ := engine.ParseMove("JJKK")
	jj, _ := engine.ParseMove("JJ")
	cases := []struct {
		line string
		want Reply
	}{
		{"move JJKK", Reply{Kind: MoveReply, Move: jjkk}},
		{"  MOVE jjkk \t", Reply{Kind: MoveReply, Move: jjkk}},
		{"move jj kk", Reply{Kind: MoveReply, Move: jjkk}},
		{"Move JJ", Reply{Kind: MoveReply, Move: jj}},
		{"move", Reply{Kind: Malformed, Text: `want "move XXXX"`}},
		{"move ZZ 9", Reply{Kind: Malformed, Text: `want "move XXXX" or "move XX XX" with letters A-S`}},
		{"move XXXX   - tell the engine", Reply{Kind: FreeText, Text: "move XXXX   - tell the engine"}},
		{"move ordering", Reply{Kind: FreeText, Text: "move ordering"}},
		{"", Reply{Kind: FreeText}},
		{"name Cloudict.Connect6", Reply{Kind: NameReply, Text: "Cloudict.Connect6"}},
		{"NAME my engine 2 ", Reply{Kind: NameReply, Text: "my engine 2"}},
		{"    name   - print the name", Reply{Kind: FreeText, Text: "    name   - print the name"}},
		{"name - print", Reply{Kind: FreeText, Text: "name - print"}},
		{"result black", Reply{Kind: ResultReply, Text: "black"}},
		{"RESULT draw", Reply{Kind: ResultReply, Text: "draw"}},
		{"result pending", Reply{Kind: FreeText, Text: "result pending"}},
		{"error move KK: occupied", Reply{Kind: ErrorReply, Text: "move KK: occupied"}},
		{"error", Reply{Kind: FreeText, Text: "error"}},
		{"optionsok", Reply{Kind: OptionsOK}},
		{"optionsok now", Reply{Kind: FreeText, Text: "optionsok now"}},
		{"option name Width type spin default 15 min 1 max 100", Reply{Kind: OptionLine, Option: Option{Name: "Width", Default: 15, Min: 1, Max: 100}}},
		{"option name M1 type float default 20.5 min -1000000 max 1000000", Reply{Kind: OptionLine, Option: Option{Name: "M1", Float: true, Default: 20.5, Min: -1e6, Max: 1e6}}},
		{"option name Width type combo default 15 min 1 max 100", Reply{Kind: FreeText, Text: "option name Width type combo default 15 min 1 max 100"}},
		{"option name Width type spin default x min 1 max 100", Reply{Kind: FreeText, Text: "option name Width type spin default x min 1 max 100"}},
	}
	for _, c := range cases {
		if got := ParseReply(c.line); got != c.want {
			t.Errorf("ParseReply(%q) = %+v, want %+v", c.line, got, c.want)
		}
	}
	for _, line := range []string{"move ZZ9", "move zz kk", "move J10 K10"} {
		if got := ParseReply(line); got.Kind != Malformed || got.Text == "" {
			t.Errorf("ParseReply(%q) = %+v, want Malformed with a reason", line, got)
		}
	}
}

// TestServerRepliesParse checks that the two sides share the wording: every
// line the server writes for name, a move, options, an error and a finished
// game reads back with ParseReply as the kind it is, and Reply.String
// writes it back unchanged.
func TestServerRepliesParse(t *testing.T) {
	t.Parallel()
	ss := newSession(t)
	check := func(line string, want ReplyKind) Reply {
		t.Helper()
		r := ParseReply(line)
		if r.Kind != want {
			t.Errorf("server line %q parses as kind %d, want %d", line, r.Kind, want)
		}
		if r.String() != line {
			t.Errorf("server line %q writes back as %q", line, r.String())
		}
		return r
	}
	if got := ss.say("name"); len(got) == 1 {
		check(got[0], NameReply)
	} else {
		t.Fatalf("name: replies %q", got)
	}
	if got := ss.say("new black"); len(got) == 1 {
		if r := check(got[0], MoveReply); r.Move.Len() != 1 {
			t.Errorf("first move %v, want one stone", r.Move)
		}
	} else {
		t.Fatalf("new black: replies %q", got)
	}
	got := ss.say("options")
	if len(got) < 2 {
		t.Fatalf("options: replies %q", got)
	}
	for _, l := range got[:len(got)-1] {
		check(l, OptionLine)
	}
	check(got[len(got)-1], OptionsOK)
	if got := ss.say("depth 0"); len(got) == 1 {
		check(got[0], ErrorReply)
	} else {
		t.Fatalf("depth 0: replies %q", got)
	}
	// A finished game: Black's six in a row on the board.
	ss.say("new xxx")
	ss.say("black JJ")
	ss.say("white AAAB")
	ss.say("black KJLJ")
	ss.say("white AQAR")
	ss.say("black MJNJ")
	ss.say("white SASB")
	ss.say("black OJPJ")
	if got := ss.say("next"); len(got) == 1 {
		if r := check(got[0], ResultReply); r.Text != "black" {
			t.Errorf("result %q, want black", r.Text)
		}
	} else {
		t.Fatalf("next after six in a row: replies %q", got)
	}
}
