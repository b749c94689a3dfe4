package protocol

import (
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
)

// sayAll sends lines that must produce no reply.
func (ss *session) sayAll(lines []string) {
	ss.t.Helper()
	for _, l := range lines {
		ss.silent(l)
	}
}

// stonesOf returns the points of colour c on the board, in index order.
func stonesOf(b *engine.Board, c engine.Color) []engine.Point {
	var ps []engine.Point
	for p := engine.Point(0); p < engine.NumPoints; p++ {
		if b.At(p) == c {
			ps = append(ps, p)
		}
	}
	return ps
}

// points parses blank-separated points, sorted by index.
func points(t *testing.T, s string) []engine.Point {
	t.Helper()
	var ps []engine.Point
	for _, f := range strings.Fields(s) {
		ps = append(ps, pt(t, f))
	}
	slices.Sort(ps)
	return ps
}

func TestPlaceAnyOrder(t *testing.T) {
	cases := []struct {
		name         string
		lines        []string // after `new xxx`
		black, white string   // the stones on the board afterwards
		toMove       engine.Color
		left         int // stones the side to move places
	}{
		{"turn order", []string{"black JJ", "white KKLL"}, "JJ", "KK LL", engine.Black, 2},
		{"white before black", []string{"white KKLL", "black JJ"}, "JJ", "KK LL", engine.Black, 2},
		{"single stones", []string{"black JJ", "white KK", "white LL"}, "JJ", "KK LL", engine.Black, 2},
		{"single white first", []string{"white KK", "black JJJJ", "white LL"}, "JJ", "KK LL", engine.Black, 2},
		{"both whites first", []string{"white KK", "white LL", "black jj"}, "JJ", "KK LL", engine.Black, 2},
		{"half a pair", []string{"black JJ", "white KK"}, "JJ", "KK", engine.White, 1},
		{"each move white first", []string{"white KKLL", "black JJ", "white MMNN", "black HHII"},
			"JJ HH II", "KK LL MM NN", engine.Black, 2},
		{"black ahead", []string{"black JJ", "black HHII", "white KKLL"}, "JJ HH II", "KK LL", engine.White, 2},
		{"black half a pair", []string{"white KKLL", "black JJ", "black HH"}, "JJ HH", "KK LL", engine.Black, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ss := newSession(t)
			ss.sayAll(append([]string{"new xxx"}, c.lines...))
			b := ss.s.board
			if got, want := stonesOf(b, engine.Black), points(t, c.black); !slices.Equal(got, want) {
				t.Fatalf("black stones %v, want %v", got, want)
			}
			if got, want := stonesOf(b, engine.White), points(t, c.white); !slices.Equal(got, want) {
				t.Fatalf("white stones %v, want %v", got, want)
			}
			if ss.s.waiting() || b.ToMove() != c.toMove || b.StonesLeft() != c.left {
				t.Fatalf("waiting %t, %s to move with %d stones; want %s with %d\n%s",
					ss.s.waiting(), b.ToMove(), b.StonesLeft(), c.toMove, c.left, b)
			}
			m := ss.engineMove("next", c.toMove)
			if m.Len() != c.left {
				t.Fatalf("next: %s, want %d stone(s)", m, c.left)
			}
		})
	}
}

// TestConnectMoreReplayAnyOrder replays a game as ConnectMore does (new xxx,
// one line per move, next), once in turn order and once with each pair of
// moves sent White first: the positions and the engine's moves agree.
func TestConnectMoreReplayAnyOrder(t *testing.T) {
	inOrder := []string{"new xxx", "black JJ", "white KJJK", "black IJJI", "white KKLL", "black HHGG", "white IIKI"}
	swapped := []string{"new xxx", "white KJJK", "black JJ", "white KKLL", "black IJJI", "white IIKI", "black HHGG"}
	var moves []engine.Move
	var hashes []uint64
	for _, replay := range [][]string{inOrder, swapped} {
		ss := newSession(t)
		ss.sayAll(replay)
		hashes = append(hashes, ss.s.board.Hash())
		moves = append(moves, ss.engineMove("next", engine.Black))
		if moves[len(moves)-1].Len() != 2 {
			t.Fatalf("next after %q: %s, want two stones", replay, moves[len(moves)-1])
		}
	}
	if hashes[0] != hashes[1] || moves[0] != moves[1] {
		t.Fatalf("in turn order: hash %x, move %s; swapped: hash %x, move %s", hashes[0], moves[0], hashes[1], moves[1])
	}
}

// snapshot is what an error line must leave as it was.
type snapshot struct {
	hash    uint64
	history []engine.Point
	pending [3][]engine.Point
}

func (ss *session) snapshot() snapshot {
	p := ss.s.pending
	for c := range p {
		p[c] = slices.Clone(p[c])
	}
	return snapshot{ss.s.board.Hash(), slices.Clone(ss.s.board.History()), p}
}

func (a snapshot) equal(b snapshot) bool {
	return a.hash == b.hash && slices.Equal(a.history, b.history) &&
		slices.Equal(a.pending[engine.Black], b.pending[engine.Black]) && slices.Equal(a.pending[engine.White], b.pending[engine.White])
}

func TestPlaceErrorsChangeNothing(t *testing.T) {
	cases := []struct {
		name  string
		lines []string // after `new xxx`
		bad   string
		want  string
		// next is the reply to `next` afterwards: "move" for a move of
		// mover, else the start of an error line.
		next  string
		mover engine.Color
	}{
		{"occupied", []string{"black JJ", "white KKLL"}, "white MMKK", "KK is occupied", "move", engine.Black},
		{"occupied by a waiting stone", []string{"white KKLL"}, "black LL", "LL is occupied", "error next: 0 black and 2 white stones are 1 black stone(s) short", 0},
		{"twice in one line", []string{"black JJ"}, "white KKJJ", "JJ is occupied", "move", engine.White},
		{"three white, no black", []string{"white KKLL"}, "white MM", "0 black and 3 white stones: no game reaches", "error next: 0 black and 2 white", 0},
		{"five white, one black", []string{"black JJ", "white KKLL", "white MMNN"}, "white OO", "1 black and 5 white stones: no game reaches", "error next: 1 black and 4 white stones are 2 black", 0},
		{"black far ahead", []string{"black JJ", "black KKLL"}, "black MM", "4 black and 0 white stones", "error next: 3 black and 0 white", 0},
		{"after the win", []string{"black JJ", "white AAAB", "black KJLJ", "white ACAD", "black MJNJ", "white AEAF"}, "black SS", "the game is over (white)", "result white", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ss := newSession(t)
			ss.sayAll(append([]string{"new xxx"}, c.lines...))
			before := ss.snapshot()
			r := ss.say(c.bad)
			if len(r) != 1 || !strings.HasPrefix(r[0], "error "+c.bad+": ") || !strings.Contains(r[0], c.want) {
				t.Fatalf("%q: replies %q, want one error line with %q", c.bad, r, c.want)
			}
			if !ss.snapshot().equal(before) {
				t.Fatalf("%q changed the position", c.bad)
			}
			if c.next == "move" {
				ss.engineMove("next", c.mover)
				return
			}
			if r := ss.say("next"); len(r) != 1 || !strings.HasPrefix(r[0], c.next) {
				t.Fatalf("next after the error: %q, want %q...", r, c.next)
			}
			if !ss.snapshot().equal(before) {
				t.Fatal("next changed the position")
			}
		})
	}
}

// TestImpossiblePositionWaits: three white stones and one black are not a
// position, but one black move would make them one, so the lines are kept;
// `move` and `next` refuse to play until the rest comes, then play for the
// side the counts give.
func TestImpossiblePositionWaits(t *testing.T) {
	ss := newSession(t)
	ss.sayAll([]string{"new xxx", "black JJ", "white KKLL"})
	onBoard := ss.s.board.Hash()
	ss.silent("white MM")
	if ss.s.board.Hash() != onBoard || !slices.Equal(ss.s.pending[engine.White], []engine.Point{pt(t, "MM")}) {
		t.Fatalf("white MM: board changed or pending %v", ss.s.pending)
	}
	want := "1 black and 3 white stones are 2 black stone(s) short of a position"
	for _, l := range []string{"next", "move HHII"} {
		if r := ss.say(l); len(r) != 1 || !strings.HasPrefix(r[0], "error "+l+": "+want) {
			t.Fatalf("%s while waiting: %q", l, r)
		}
	}
	p := ss.say("print")
	if !slices.Contains(p, "not on the board yet, waiting for the other colour: black [], white [MM]") {
		t.Errorf("print while waiting:\n%s", strings.Join(p, "\n"))
	}
	ss.silent("black NNOO")
	if ss.s.waiting() || ss.s.board.Stones() != 6 || ss.s.board.At(pt(t, "MM")) != engine.White {
		t.Fatalf("black NNOO: waiting %t, %d stones\n%s", ss.s.waiting(), ss.s.board.Stones(), ss.s.board)
	}
	// White has placed one stone of its second pair: the engine adds one.
	if m := ss.engineMove("next", engine.White); m.Len() != 1 {
		t.Fatalf("next: %s, want one stone", m)
	}
	ss.engineMove("next", engine.Black)
	ss.silent("new xxx")
	if ss.s.waiting() || ss.s.board.Stones() != 0 {
		t.Fatal("new xxx kept stones")
	}
}

func TestFinishedPositionSetUp(t *testing.T) {
	cases := []struct {
		name  string
		lines []string // after `new xxx`
		want  string
	}{
		{"black six in turn order", append(fourForBlack[1:], "black NJOJ"), "result black"},
		{"black six, white first", []string{"white AAAC", "black JJ", "white AEAG", "black KJLJ", "white ASCS", "black MJNJ", "black OJ"},
			"result black"},
		{"white six set up mid-pair", []string{"black JJ", "white AAAB", "black KKLL", "white ACAD", "black MMNN", "white AE", "white AF"},
			"result white"},
		{"white six, each move white first", []string{"white AAAB", "black JJ", "white ACAD", "black KKLL", "white AEAF", "black MMNN"},
			"result white"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ss := newSession(t)
			ss.sayAll(append([]string{"new xxx"}, c.lines...))
			stones := ss.s.board.Stones()
			for _, l := range []string{"next", "move SSSR", "next"} {
				if r := ss.say(l); len(r) != 1 || r[0] != c.want {
					t.Fatalf("%s: %q, want %q\n%s", l, r, c.want, ss.s.board)
				}
			}
			if ss.s.board.Stones() != stones {
				t.Fatal("a stone was placed after the end")
			}
			ss.errorLine("white SS", "the game is over ("+strings.TrimPrefix(c.want, "result ")+"); send new")
		})
	}
}
