package protocol

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

// zhou2015 is the symmetric baseline S1..S5 of Zhou 2015 §3.
var zhou2015 = []float64{20, 80, 150, 800, 1000}

func testWeights(t testing.TB) engine.Weights {
	t.Helper()
	w, err := engine.NewWeights(engine.Symmetric, zhou2015)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// testSettings keeps searches short: depth 2, width 6, a 2^14-entry table.
func testSettings() engine.Settings {
	st := engine.DefaultSettings()
	st.Depth, st.Width, st.TableBits = 2, 6, 14
	return st
}

// session is a Server under test with its output and diagnostics captured.
type session struct {
	t          *testing.T
	s          *Server
	out, diag  bytes.Buffer
	lastOffset int
}

func newSession(t *testing.T) *session {
	t.Helper()
	ss := &session{t: t}
	s, err := NewServer(Config{Weights: testWeights(t), Settings: testSettings()}, &ss.out, &ss.diag)
	if err != nil {
		t.Fatal(err)
	}
	ss.s = s
	return ss
}

// say sends one line and returns the reply lines it produced.
func (ss *session) say(line string) []string {
	ss.t.Helper()
	if quit := ss.s.HandleLine(context.Background(), line); quit {
		ss.t.Fatalf("%q asked to quit", line)
	}
	if err := ss.s.Err(); err != nil {
		ss.t.Fatal(err)
	}
	got := ss.out.String()[ss.lastOffset:]
	ss.lastOffset = ss.out.Len()
	if got == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(got, "\n"), "\n")
}

// silent sends a line that must produce no reply.
func (ss *session) silent(line string) {
	ss.t.Helper()
	if r := ss.say(line); len(r) != 0 {
		ss.t.Fatalf("%q: replies %q, want none\n%s", line, r, ss.s.board)
	}
}

// errorLine sends a line that must produce exactly one error line containing
// want, and leave the board as it was.
func (ss *session) errorLine(line, want string) {
	ss.t.Helper()
	before := ss.s.board.Hash()
	stones := ss.s.board.Stones()
	r := ss.say(line)
	if len(r) != 1 || !strings.HasPrefix(r[0], "error ") || !strings.Contains(r[0], want) {
		ss.t.Fatalf("%q: replies %q, want one `error ` line containing %q", line, r, want)
	}
	if ss.s.board.Hash() != before || ss.s.board.Stones() != stones {
		ss.t.Fatalf("%q: the board changed after an error", line)
	}
}

var moveReply = regexp.MustCompile(`^move ([A-S]{2}){1,2}$`)

// engineMove sends a line that must be answered by one `move` line; it checks
// the stones are on the board in the colour of the side that was to move
// after the line's own stones, and returns the move.
func (ss *session) engineMove(line string, mover engine.Color) engine.Move {
	ss.t.Helper()
	r := ss.say(line)
	if len(r) != 1 || !moveReply.MatchString(r[0]) {
		ss.t.Fatalf("%q: replies %q, want one `move XXXX` line\n%s", line, r, ss.s.board)
	}
	m, err := engine.ParseMove(strings.TrimPrefix(r[0], "move "))
	if err != nil {
		ss.t.Fatal(err)
	}
	for _, p := range []engine.Point{m.A, m.B} {
		if p != engine.NoPoint && ss.s.board.At(p) != mover {
			ss.t.Fatalf("%q: reply %s: %s is %s on the board, want %s", line, r[0], p, ss.s.board.At(p), mover)
		}
	}
	return m
}

func TestCloudictEngineBlack(t *testing.T) {
	ss := newSession(t)
	if r := ss.say("name"); len(r) != 1 || r[0] != "name roadtune" {
		t.Fatalf("name: %q", r)
	}
	first := ss.engineMove("new black", engine.Black)
	if first != engine.Single(pt(t, "JJ")) {
		t.Fatalf("new black: first move %s, want JJ", first)
	}
	// White answers next to the centre; the engine (Black) replies with two stones.
	m := ss.engineMove("move KJJK", engine.Black)
	if m.Len() != 2 {
		t.Fatalf("reply %s: want two stones", m)
	}
	if ss.s.board.At(pt(t, "KJ")) != engine.White || ss.s.board.At(pt(t, "JK")) != engine.White {
		t.Fatal("the opponent's stones KJ JK are not White")
	}
	if got := ss.s.board.Stones(); got != 5 {
		t.Fatalf("%d stones after three moves, want 5", got)
	}
	// A second White move far away: the engine keeps answering legally.
	ss.engineMove("move AAAS", engine.Black)
	if ss.s.board.ToMove() != engine.White || ss.s.board.Stones() != 9 {
		t.Fatalf("after four moves: %s to move, %d stones; want white, 9", ss.s.board.ToMove(), ss.s.board.Stones())
	}
	if !strings.Contains(ss.diag.String(), "info black JJ") {
		t.Errorf("diagnostics lack the search line for the first move:\n%s", ss.diag.String())
	}
}

func TestCloudictEngineWhite(t *testing.T) {
	ss := newSession(t)
	ss.silent("new white")
	if ss.s.side != engine.White {
		t.Fatalf("side %s after new white", ss.s.side)
	}
	m := ss.engineMove("move JJ", engine.White)
	if m.Len() != 2 {
		t.Fatalf("reply %s to JJ: want two stones", m)
	}
	if ss.s.board.At(pt(t, "JJ")) != engine.Black {
		t.Fatal("JJ is not Black")
	}
	ss.engineMove("move HHGG", engine.White)

	// A new game forgets the old one; ConnectMore's doubled first stone works.
	ss.silent("new white")
	if ss.s.board.Stones() != 0 {
		t.Fatalf("%d stones after new white", ss.s.board.Stones())
	}
	ss.engineMove("move jjjj", engine.White)
	if ss.s.board.Stones() != 3 {
		t.Fatalf("%d stones after JJJJ and the reply, want 3", ss.s.board.Stones())
	}
}

func TestConnectMoreReplay(t *testing.T) {
	ss := newSession(t)
	replay := []string{"new xxx", "black JJJJ", "white KJJK", "black IJJI", "white KKLL"}
	for _, l := range replay {
		ss.silent(l)
	}
	if ss.s.side != engine.Empty || ss.s.board.Stones() != 7 || ss.s.board.ToMove() != engine.Black {
		t.Fatalf("after the replay: side %s, %d stones, %s to move", ss.s.side, ss.s.board.Stones(), ss.s.board.ToMove())
	}
	m := ss.engineMove("next", engine.Black)
	if m.Len() != 2 {
		t.Fatalf("next: %s, want two stones", m)
	}
	// ConnectMore replays the whole game before each engine move: the same
	// replay must give the same move (deterministic at fixed depth).
	for _, l := range replay {
		ss.silent(l)
	}
	if again := ss.engineMove("next", engine.Black); again != m {
		t.Fatalf("replayed position: %s, first time %s", again, m)
	}
	// With the engine's move added to the replay, next moves for White.
	for _, l := range append(replay, "black "+m.String()) {
		ss.silent(l)
	}
	ss.engineMove("next", engine.White)
}

func TestErrorsKeepGoing(t *testing.T) {
	ss := newSession(t)
	ss.silent("new white")
	ss.errorLine("foo", `"foo" is not a command`)
	ss.errorLine("move", "move needs the stones")
	ss.errorLine("move JJK", "want 2 or 4 letters")
	ss.errorLine("move TTAA", "off the board")
	ss.errorLine("move KJJK", "one stone") // two stones for Black's first move
	ss.engineMove("move JJ", engine.White)
	ss.errorLine("move JJAA", "JJ is occupied")
	ss.errorLine("move AA", "two stones")   // one stone where two are due
	ss.errorLine("move ABAB", "two stones") // a doubled point is one stone
	ss.errorLine("move AAAAAB", "want 2 or 4 letters")
	ss.errorLine("white JJAA", "JJ is occupied")
	ss.errorLine("depth 0", fmt.Sprintf("want a whole number 1..%d", MaxDepth))
	ss.errorLine("width x", fmt.Sprintf("want a whole number 1..%d", MaxWidth))
	ss.errorLine("new black now", "new takes one word")
	ss.errorLine(strings.Repeat("x", 100), "is not a command")
	// Still alive and still playing legally.
	if r := ss.say("name"); len(r) != 1 || r[0] != "name roadtune" {
		t.Fatalf("name after errors: %q", r)
	}
	ss.engineMove("move AAAB", engine.White)
	if ss.s.board.Stones() != 7 {
		t.Fatalf("%d stones, want 7", ss.s.board.Stones())
	}
	if !strings.Contains(ss.diag.String(), `error move JJAA`) {
		t.Errorf("diagnostics lack the error detail:\n%s", ss.diag.String())
	}
}

func TestSettingsCommands(t *testing.T) {
	ss := newSession(t)
	if r := ss.say("depth 3"); len(r) != 1 || r[0] != "depth 3" {
		t.Fatalf("depth 3: %q", r)
	}
	if r := ss.say("width 7"); len(r) != 1 || r[0] != "width 7" {
		t.Fatalf("width 7: %q", r)
	}
	if st := ss.s.eng.Settings(); st.Depth != 3 || st.Width != 7 {
		t.Fatalf("settings depth %d width %d, want 3, 7", st.Depth, st.Width)
	}
	ss.silent("unvcf")
	if ss.s.eng.Settings().ThreatSearch {
		t.Fatal("unvcf left the threat search on")
	}
	ss.silent("vcf")
	if !ss.s.eng.Settings().ThreatSearch {
		t.Fatal("vcf left the threat search off")
	}
	if r := ss.say("depth 1"); len(r) != 1 || r[0] != "depth 1" {
		t.Fatalf("depth 1: %q", r)
	}
	ss.engineMove("new black", engine.Black)
}

func TestWeightsCommand(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "attack weights.json")
	values := []float64{1, 15, 30, 50, 50, 1, 10, 15, 35, 25}
	if err := engine.WriteWeightFile(good, &engine.WeightFile{
		Name: "attack", Schema: engine.Asymmetric, Values: values,
		Provenance: engine.Provenance{Tool: "protocol test"},
	}); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"name":"bad","schema":"symmetric","values":[1,2,3],"provenance":{"tool":"t"}}`), 0o644); err != nil {
		t.Fatal(err)
	}

	ss := newSession(t)
	ss.silent("weights " + good)
	w := ss.s.eng.Weights()
	if w.Schema != engine.Asymmetric || len(w.Genes) != len(values) || w.Genes[1] != 15 || w.Genes[8] != 35 {
		t.Fatalf("weights after loading %s: %+v", good, w)
	}
	ss.errorLine("weights "+bad, "bad.json")
	ss.errorLine("weights "+filepath.Join(dir, "missing.json"), "missing.json")
	ss.errorLine("weights "+dir, "not a regular file")
	ss.errorLine("weights /dev/zero", "not a regular file")
	// A file that is not a weight file: the error gives the line, not the
	// file's first byte.
	secret := filepath.Join(dir, "shadow")
	os.WriteFile(secret, []byte("root:$6$salt$hash:19000:0:99999:7:::\n"), 0o600)
	ss.errorLine("weights "+secret, "shadow:1: malformed JSON: unexpected character looking for beginning of value")
	if got := ss.s.eng.Weights(); got.Schema != engine.Asymmetric || got.Genes[1] != 15 {
		t.Fatalf("a bad weights command changed the weights: %+v", got)
	}
	ss.engineMove("new black", engine.Black)
}

// fourForBlack builds, by replay, a position where Black has J..M in row J
// (four in a row, open at both ends) and it is Black's turn.
var fourForBlack = []string{"new xxx", "black JJJJ", "white AAAC", "black KJLJ", "white AEAG", "black MJJM", "white ASCS"}

func TestWinInOne(t *testing.T) {
	ss := newSession(t)
	for _, l := range fourForBlack {
		ss.silent(l)
	}
	m := ss.engineMove("next", engine.Black)
	if ss.s.board.Winner() != engine.Black {
		t.Fatalf("with four in a row the engine played %s and did not win\n%s", m, ss.s.board)
	}
	// The game is over: next and move repeat the result, placing nothing;
	// black and white lines are refused.
	stones := ss.s.board.Stones()
	for _, l := range []string{"next", "move ABAD"} {
		if r := ss.say(l); len(r) != 1 || r[0] != "result black" || ss.s.board.Stones() != stones {
			t.Fatalf("%s after the win: %q, %d stones (want %d)", l, r, ss.s.board.Stones(), stones)
		}
	}
	ss.errorLine("white ABAD", "the game is over (black)")
	ss.silent("new xxx")
	if ss.s.board.Stones() != 0 || ss.s.board.Over() {
		t.Fatal("new xxx did not clear the finished game")
	}
}

func TestOpponentWins(t *testing.T) {
	ss := newSession(t)
	for _, l := range fourForBlack {
		ss.silent(l)
	}
	// Black, the opponent, completes six; the engine has nothing to play.
	if r := ss.say("move NJOJ"); len(r) != 1 || r[0] != "result black" {
		t.Fatalf("move NJOJ (a win for Black): %q", r)
	}
	if ss.s.board.Winner() != engine.Black {
		t.Fatal("NJOJ did not win for Black")
	}
}

func TestPrintHelp(t *testing.T) {
	ss := newSession(t)
	ss.silent("new white")
	ss.engineMove("move JJ", engine.White)
	r := ss.say("print")
	board := strings.Split(strings.TrimRight(ss.s.board.String(), "\n"), "\n")
	if len(r) != len(board)+1 || strings.Join(r[:len(board)], "\n") != strings.Join(board, "\n") {
		t.Fatalf("print: %d lines, want the board's %d and a status line:\n%s", len(r), len(board), strings.Join(r, "\n"))
	}
	if want := "turn 2; engine side white, depth 2, width 6, vcf true"; r[len(r)-1] != want {
		t.Errorf("print status %q, want %q", r[len(r)-1], want)
	}
	h := ss.say("help")
	if strings.Join(h, "\n") != strings.Join(helpLines, "\n") {
		t.Fatalf("help: %q", h)
	}
	for _, l := range append(r, h...) {
		if strings.HasPrefix(l, "move ") || strings.HasPrefix(l, "error ") || strings.HasPrefix(l, "name ") {
			t.Errorf("free text line %q looks like a reply", l)
		}
	}
}

func TestRunConversation(t *testing.T) {
	in := strings.Join([]string{
		"name", "", "  NEW   black  ", "Move kj JK", "depth 1",
		"x" + strings.Repeat("y", MaxLineLen+10), // too long: one error line
		"vcf", "quit", "name",
	}, "\r\n") + "\r\n"
	var out, diag bytes.Buffer
	err := Serve(strings.NewReader(in), &out, &diag, Config{Name: "tester", Weights: testWeights(t), Settings: testSettings()})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("replies %q, want 5 lines", lines)
	}
	if lines[0] != "name tester" || lines[1] != "move JJ" || !moveReply.MatchString(lines[2]) || len(lines[2]) != 9 ||
		lines[3] != "depth 1" || !strings.HasPrefix(lines[4], "error line is longer than 4096 bytes") {
		t.Fatalf("replies %q", lines)
	}
	if strings.Contains(out.String(), "\r") {
		t.Error("a reply carries a CR")
	}

	// exit works like quit; a last line without a newline is still read.
	out.Reset()
	if err := Serve(strings.NewReader("exit\nname"), &out, nil, Config{Weights: testWeights(t)}); err != nil || out.Len() != 0 {
		t.Fatalf("exit: err %v, output %q", err, out.String())
	}
	if err := Serve(strings.NewReader("name"), &out, nil, Config{Weights: testWeights(t)}); err != nil || out.String() != "name roadtune\n" {
		t.Fatalf("last line without newline: err %v, output %q", err, out.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("pipe closed") }

func TestRunErrors(t *testing.T) {
	if err := Serve(strings.NewReader("name\n"), failWriter{}, nil, Config{Weights: testWeights(t)}); err == nil || !strings.Contains(err.Error(), "pipe closed") {
		t.Fatalf("write error: %v", err)
	}
	for _, name := range []string{"two words", "tab\tname", strings.Repeat("n", 65), "bell\a"} {
		if _, err := NewServer(Config{Name: name, Weights: testWeights(t)}, &bytes.Buffer{}, nil); err == nil {
			t.Errorf("name %q accepted", name)
		}
	}
	if _, err := NewServer(Config{Weights: engine.Weights{}}, &bytes.Buffer{}, nil); err == nil {
		t.Error("zero weights accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s, err := NewServer(Config{Weights: testWeights(t)}, &bytes.Buffer{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Run(ctx, strings.NewReader("name\n")); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled context: %v", err)
	}
}

func TestTimeCommands(t *testing.T) {
	ss := newSession(t)
	say1 := func(line, want string) {
		t.Helper()
		if r := ss.say(line); len(r) != 1 || r[0] != want {
			t.Fatalf("%q: replies %q, want %q", line, r, want)
		}
	}
	// No clock by default; `time left` needs a game clock.
	if _, ok := ss.s.clock.next(); ok {
		t.Fatal("a clock without a time command")
	}
	ss.errorLine("time left 5", "no game clock")
	ss.errorLine("time move 0", "want seconds")
	ss.errorLine("time game 60 1 0", "MOVES")
	if _, ok := ss.s.clock.next(); ok {
		t.Fatal("a malformed time command set a clock")
	}

	// A fixed time per move: replies in canonical form; ample time does
	// not change the engine's move at its depth (2 here).
	say1("time move 100.50", "time move 100.5")
	if c, ok := ss.s.clock.next(); !ok || c != (engine.Clock{Move: 100500 * time.Millisecond}) {
		t.Fatalf("clock %+v %t", c, ok)
	}
	ss.errorLine("time left 5", "no game clock")
	ss.silent("new white")
	timed := ss.engineMove("move JJ", engine.White)
	say1("time off", "time off")
	ss.silent("new white")
	if depth := ss.engineMove("move JJ", engine.White); depth != timed {
		t.Fatalf("an ample clock played %s, depth 2 %s", timed, depth)
	}

	// A game clock of 1000 s + 2 s, 3 moves per period, kept by the
	// server: each move is charged (far less than a second here) and
	// credited the increment; after the third the base comes back.
	say1("time game 1000 2 3", "time game 1000 2 3")
	ss.engineMove("new black", engine.Black)
	c := ss.s.clock
	if c.Played != 1 || c.Remaining <= 1001*time.Second || c.Remaining > 1002*time.Second {
		t.Fatalf("after one move: %d played, %v left", c.Played, c.Remaining)
	}
	if next, _ := ss.s.clock.next(); next.MovesToGo != 2 || next.Inc != 2*time.Second || next.Remaining != c.Remaining {
		t.Fatalf("next clock %+v", next)
	}
	say1("time left 500.25", "time left 500.25")
	if ss.s.clock.Remaining != 500250*time.Millisecond {
		t.Fatalf("time left: %v", ss.s.clock.Remaining)
	}
	ss.engineMove("move KJJK", engine.Black)
	ss.engineMove("move AAAB", engine.Black)
	c = ss.s.clock
	if c.Played != 3 || c.Remaining <= 1503*time.Second || c.Remaining > 1504250*time.Millisecond {
		t.Fatalf("after a period: %d played, %v left", c.Played, c.Remaining)
	}
	if next, _ := ss.s.clock.next(); next.MovesToGo != 3 {
		t.Fatalf("moves to go in the new period: %+v", next)
	}
	if r := ss.say("print"); !strings.HasSuffix(r[len(r)-1], "; time game 1000 2 3, "+FormatSeconds(c.Remaining.Round(time.Millisecond))+"s left") {
		t.Fatalf("print: %q", r[len(r)-1])
	}
	// `new` refills the clock; depth still works and bounds the search.
	ss.silent("new xxx")
	if ss.s.clock.Remaining != 1000*time.Second || ss.s.clock.Played != 0 {
		t.Fatalf("new: %+v", ss.s.clock)
	}
	say1("depth 1", "depth 1")
	ss.silent("black JJ")
	if ss.engineMove("next", engine.White); !strings.Contains(ss.diag.String(), "depth 1 nodes") {
		t.Fatalf("diagnostics: %s", ss.diag.String())
	}
	// A clock with no time left still gives a legal move at once.
	say1("time left 0", "time left 0")
	ss.engineMove("next", engine.Black)
}

func TestConfigTime(t *testing.T) {
	for _, line := range []string{"time move 0.25", "time game 60 1", "time off"} {
		c, err := ParseCommand(line)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewServer(Config{Weights: testWeights(t), Settings: testSettings(), Time: c}, &bytes.Buffer{}, nil)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if got, ok := s.clock.next(); ok != (c.Kind != TimeOff) || (ok && got.Move+got.Remaining != c.Clock.Move+c.Clock.Remaining) {
			t.Errorf("%s: clock %+v %t", line, got, ok)
		}
	}
	if _, err := NewServer(Config{Weights: testWeights(t), Time: Command{Kind: TimeLeft}}, &bytes.Buffer{}, nil); err == nil {
		t.Error("Config.Time `time left 0` accepted")
	}
}
