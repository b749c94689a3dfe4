package tournament

import (
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
)

// TestRequestWords checks that the driver speaks the server's words: every
// line it sends at the start of a game and after it parses with
// protocol.ParseCommand as the command it means.
func TestRequestWords(t *testing.T) {
	t.Parallel()
	mv := func(s string) engine.Move {
		m, err := engine.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	jj, kjjk, lk := mv("JJ"), mv("KJJK"), mv("LKLL")
	cases := []struct {
		name    string
		opening []engine.Move
		color   engine.Color
		last    engine.Move
		want    []string
	}{
		{"black from the empty board", nil, engine.Black, NoMove, []string{"new black"}},
		{"white from the empty board", nil, engine.White, jj, []string{"new white", "move JJ"}},
		{"after an opening, to move", []engine.Move{jj, kjjk}, engine.Black, NoMove, []string{"new xxx", "black JJ", "white KJJK", "next"}},
		{"after an opening, answering", []engine.Move{jj, kjjk}, engine.White, lk, []string{"new xxx", "black JJ", "white KJJK", "move LKLL"}},
	}
	for _, c := range cases {
		p, err := NewExternalPlayer([]string{"fake"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		p.opening, p.color = Opening{Moves: c.opening}, c.color
		if err := p.request(c.last); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := strings.Split(strings.TrimSuffix(string(p.out), "\n"), "\n")
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s: sent %q, want %q", c.name, got, c.want)
		}
		for _, l := range got {
			cmd, err := protocol.ParseCommand(l)
			if err != nil || cmd.String() != l {
				t.Errorf("%s: line %q parses as %v (%v), not back to itself", c.name, l, cmd, err)
			}
		}
		// The next turn is the opponent's move alone.
		if err := p.request(jj); err != nil || string(p.out) != "move JJ\n" {
			t.Errorf("%s: next turn sent %q (%v), want \"move JJ\\n\"", c.name, p.out, err)
		}
	}
}
