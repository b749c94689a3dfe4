package protocol

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
)

// fuzzFiles stands in for the file system of `weights FILE` in FuzzServe.
var fuzzFiles = map[string]string{
	"good.json": `{"name":"g","schema":"asymmetric","values":[1,15,30,50,50,1,10,15,35,25],"provenance":{"tool":"fuzz"}}`,
	"bad.json":  `{"name":"b","schema":"symmetric","values":[1,2],"provenance":{"tool":"fuzz"}}`,
}

func newFuzzServer(t *testing.T, out io.Writer) *Server {
	t.Helper()
	st := engine.DefaultSettings()
	st.Depth, st.Width, st.MaxNodes = 2, 4, 3000 // `depth 12` in the input stays cheap
	st.TableBits = 10                            // a small table: two Servers are made per input
	s, err := NewServer(Config{Name: "fuzz", Weights: testWeights(t), Settings: st}, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.readFile = func(path string) ([]byte, error) {
		if d, ok := fuzzFiles[path]; ok {
			return []byte(d), nil
		}
		return nil, fs.ErrNotExist
	}
	return s
}

var resultReply = regexp.MustCompile(`^result (black|white|draw)$`)

// FuzzServe feeds arbitrary input to the Serve loop. It must never panic;
// every reply line must be the reply its command allows (see the package
// doc) or one `error ` line that leaves the board as it was; every `move`
// reply must be the engine's stones just placed; and Run over the whole
// input must write exactly what the line-by-line replay wrote (unless a
// `time` command set a clock: timed searches depend on the machine; or a
// stop or quit line follows a search command directly: Run reads it during
// the search, which it may cut short).
func FuzzServe(f *testing.F) {
	for _, s := range []string{
		"name\nnew black\nmove KJJK\nmove AAAS\nprint\nquit\n",
		"new white\nmove JJ\nmove HHGG\nnext\n",
		"new xxx\nblack JJJJ\nwhite KJJK\nblack IJJI\nnext\n",
		"new xxx\r\nblack JJJJ\r\nwhite AAAC\r\nblack KJLJ\r\nwhite AEAG\r\nblack MJJM\r\nwhite ASCS\r\nnext\r\nnext\r\nmove ABAD\r\n",
		"new xxx\nblack JJ\nwhite AAAC\nblack KJLJ\nwhite AEAG\nblack MJJM\nwhite ASCS\nmove NJOJ\nnext\n",
		"depth 3\nwidth 2\nunvcf\nnew black\nvcf\nmove kjjk\nhelp\n",
		"weights good.json\nweights bad.json\nweights nope.json\nnew black\n",
		"foo\nmove\nmove JJK\nmove TTAA\nwhite AAAB\ndepth 0\n\n   \n",
		"new white\nmove KJJK\nmove JJ\nmove JJAA\nmove AA\n",
		"exit\nname\n",
		"new xxx\nwhite KKLL\nblack JJ\nwhite MM\nnext\nprint\nwhite NN\nblack OOPP\nnext\nmove AA\n",
		"new white\nwhite AAAB\nblack JJ\nwhite ACAD\nblack KKLL\nwhite AEAF\nmove MMNN\nblack MMNN\nnext\nmove SS\n",
		"time left 1\ntime move 0.01\nnew black\nmove KJJK\ntime game 0.5 0.01 2\nnext\ntime left 0\nnext\nprint\ntime off\nnext\n",
		"time game 1\ntime move 0\ntime game 1 2 3 4\nnew white\nmove JJ\ntime left .2\nmove AAAB\n",
		"stop\nnew white\nmove JJ\nstop\nnext\nprint\nstop\nstop x\nnext\nquit\n",
		"options\nsetoption name width value 3\nsetoption name S5 value -7.5\nsetoption name DefendShare value 2\nsetoption name x\nsetoption name Width value 1e400\nnew black\noptions x\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		ctx := context.Background()
		var out bytes.Buffer
		s := newFuzzServer(t, &out)
		r := bufio.NewReaderSize(strings.NewReader(script), MaxLineLen+2)
		timed, searched := false, false
		for {
			line, tooLong, err := readLine(r)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			m := input{line: line, tooLong: tooLong}
			if yes, _ := m.interrupts(); yes && searched {
				timed = true
			}
			searched = m.searches()
			start, hash, stones := out.Len(), s.board.Hash(), s.board.Stones()
			quit := s.step(ctx, line, tooLong)
			replies := splitLines(out.String()[start:])
			checkReplies(t, s, line, tooLong, replies, hash, stones)
			timed = timed || s.clock.kind != Blank
			if quit {
				break
			}
		}
		var whole bytes.Buffer
		if err := newFuzzServer(t, &whole).Run(ctx, strings.NewReader(script)); err != nil {
			t.Fatalf("Run: %v", err)
		}
		if !timed && whole.String() != out.String() {
			t.Fatalf("Run wrote\n%s\nthe line-by-line replay wrote\n%s", whole.String(), out.String())
		}
	})
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// checkReplies checks the replies to one input line against its command.
func checkReplies(t *testing.T, s *Server, line string, tooLong bool, replies []string, hash uint64, stones int) {
	t.Helper()
	for _, l := range replies {
		if strings.HasPrefix(l, "error internal") {
			t.Fatalf("%q: %s", line, l)
		}
	}
	isError := len(replies) == 1 && strings.HasPrefix(replies[0], "error ")
	if isError && (s.board.Hash() != hash || s.board.Stones() != stones) {
		t.Fatalf("%q: %s, but the board changed", line, replies[0])
	}
	c, err := ParseCommand(line)
	if tooLong || err != nil {
		if !isError {
			t.Fatalf("%q (parse error %v): replies %q, want one error line", line, err, replies)
		}
		return
	}
	bad := func() { t.Fatalf("%q (%s): replies %q", line, c.Kind, replies) }
	switch c.Kind {
	case Name:
		if len(replies) != 1 || replies[0] != "name fuzz" {
			bad()
		}
	case New:
		if c.Side == engine.Black {
			if len(replies) != 1 || replies[0] != "move JJ" {
				bad()
			}
		} else if len(replies) != 0 {
			bad()
		}
	case Play, Next:
		switch {
		case len(replies) != 1:
			bad()
		case isError:
		case resultReply.MatchString(replies[0]):
			if !s.board.Over() || replies[0] != "result "+resultWord(s.board) {
				t.Fatalf("%q: %s, but the board says %s", line, replies[0], resultWord(s.board))
			}
		case moveReply.MatchString(replies[0]):
			m, err := engine.ParseMove(strings.TrimPrefix(replies[0], "move "))
			if err != nil {
				t.Fatal(err)
			}
			h := s.board.History()
			n := m.Len()
			if len(h) < n || h[len(h)-n] != m.A || (n == 2 && h[len(h)-1] != m.B) {
				t.Fatalf("%q: %s is not the last stones placed (%v)", line, replies[0], h)
			}
			if c := s.board.At(m.A); c == engine.Empty || (n == 2 && s.board.At(m.B) != c) {
				t.Fatalf("%q: %s: stones of mixed colour", line, replies[0])
			}
		default:
			bad()
		}
	case Depth, Width:
		if len(replies) != 1 || (!isError && replies[0] != c.String()) {
			bad()
		}
	case Print:
		if len(replies) < 3 {
			bad()
		}
		for _, l := range replies {
			if strings.HasPrefix(l, "move ") || strings.HasPrefix(l, "error ") {
				bad()
			}
		}
	case Help:
		if strings.Join(replies, "\n") != strings.Join(helpLines, "\n") {
			bad()
		}
	case TimeMove, TimeGame, TimeOff:
		if len(replies) != 1 || replies[0] != c.String() {
			bad()
		}
	case Options:
		if len(replies) < 2 || replies[len(replies)-1] != "optionsok" {
			bad()
		}
		for _, l := range replies[:len(replies)-1] {
			if !optionLine.MatchString(l) {
				bad()
			}
		}
	case TimeLeft: // an error without a game clock
		if len(replies) != 1 || (replies[0] != c.String() && !(isError && s.clock.kind != TimeGame)) {
			bad()
		}
	default: // Blank, Place, VCF, UnVCF, Quit, Weights, SetOption: nothing or one error line
		if len(replies) != 0 && !isError {
			bad()
		}
	}
}

// sameFloat is a == b, NaN equal to NaN.
func sameFloat(a, b float64) bool { return a == b || a != a && b != b }

// FuzzParseReply classifies arbitrary engine output lines: no panic; free
// text carries the line whole; a move writes back to itself; a malformed
// move says why; a result is black, white or draw; an error's text and a
// name are trimmed and not empty (a name does not start with "-"); and
// every reply but free text and a malformed move writes back
// (Reply.String) to a line ParseReply reads as the same reply.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{"move JJ", "move jjkk", " MOVE JJ KK ", "move", "move ZZ9", "move J10 K10", "move ordering done",
		"name roadtune 1.0", "NAME\tx", "    name   - print the name", "name -x", "result black", "result red", "error  no such command ",
		"error", "optionsok", "optionsok x", "option name Width type spin default 8 min 1 max 64",
		"option name K type float default 0.5 min -1e9 max NaN", "option name K type int default 1 min 0 max 2", "", " \t "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		r := ParseReply(line)
		switch r.Kind {
		case FreeText:
			if r.Text != line {
				t.Fatalf("%q: free text %q", line, r.Text)
			}
			return
		case Malformed:
			if r.Text == "" {
				t.Fatalf("%q: malformed without a reason", line)
			}
			return
		case MoveReply:
			if back, err := engine.ParseMove(r.Move.String()); err != nil || back != r.Move {
				t.Fatalf("%q: move %v reads back as %v, %v", line, r.Move, back, err)
			}
		case ResultReply:
			if r.Text != "black" && r.Text != "white" && r.Text != "draw" {
				t.Fatalf("%q: result %q", line, r.Text)
			}
		case ErrorReply, NameReply:
			if r.Text == "" || r.Text != strings.TrimSpace(r.Text) || r.Kind == NameReply && r.Text[0] == '-' {
				t.Fatalf("%q: kind %v with text %q", line, r.Kind, r.Text)
			}
		}
		back := ParseReply(r.String())
		o, p := r.Option, back.Option
		if back.Kind != r.Kind || back.Move != r.Move || back.Text != r.Text || o.Name != p.Name || o.Float != p.Float ||
			!sameFloat(o.Default, p.Default) || !sameFloat(o.Min, p.Min) || !sameFloat(o.Max, p.Max) {
			t.Fatalf("%q reads as %+v, written back as %q: %+v", line, r, r.String(), back)
		}
	})
}
