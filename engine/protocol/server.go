package protocol

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/crash"
	"github.com/roadtune/roadtune/internal/fileio"
)

// DefaultName is the engine name reported when Config.Name is empty.
const DefaultName = "roadtune"

// MaxWeightFileSize is the largest weight file `weights FILE` reads, in
// bytes (1 MiB, as for every weight file: fileio.Weights).
const MaxWeightFileSize = fileio.MaxWeights

// Config is what a Server starts with.
type Config struct {
	// Name is the reply to `name`: 1..64 printable characters without
	// blanks (ConnectMore keeps only the first word). Empty means DefaultName.
	Name string
	// Weights is the evaluation weight vector (see engine.NewWeights).
	Weights engine.Weights
	// Settings are the search settings; the zero value means
	// engine.DefaultSettings().
	Settings engine.Settings
	// Time is the clock to start with, a parsed `time` command of kind
	// TimeMove, TimeGame or TimeOff; the zero Command (kind Blank) is
	// TimeOff.
	Time Command
}

// Server holds one engine and one board and answers protocol commands. It is
// not safe for concurrent use.
type Server struct {
	name  string
	eng   *engine.Engine
	board *engine.Board
	side  engine.Color // the side named by the last `new`: Black, White or Empty (not fixed)
	// pending holds, per colour, the stones of `black`/`white` lines that
	// are not on board because the counts with them are not reachable yet:
	// the driver's position is board plus pending.
	pending [3][]engine.Point
	clock   clock // the `time` setting
	// settings are the search settings as given (NewServer, then depth,
	// width, vcf and setoption), before the engine fills in the defaults
	// derived from others (Singles from Width): a change is made to these
	// and the engine rederives, so setoption Width 17 plays as an engine
	// made with Width 17 does.
	settings engine.Settings

	out  *bufio.Writer
	diag io.Writer
	werr error // first write error on out
	line int   // input lines read by Run, for diagnostics

	// readFile reads a weight file for `weights FILE`; tests replace it to
	// stay off the file system.
	readFile func(path string) ([]byte, error)
}

// setSettings changes the settings as given by f and hands them to the
// engine; on an error (f's or the engine's) nothing changes.
func (s *Server) setSettings(f func(*engine.Settings) error) error {
	st := s.settings
	if err := f(&st); err != nil {
		return err
	}
	if err := s.eng.SetSettings(st); err != nil {
		return err
	}
	s.settings = st
	return nil
}

// NewServer makes a Server writing replies to out and diagnostics to diag
// (nil: discarded). It fails when the name is not a single printable word or
// when engine.New rejects the weights or settings.
func NewServer(cfg Config, out, diag io.Writer) (*Server, error) {
	name := cfg.Name
	if name == "" {
		name = DefaultName
	}
	if err := checkName(name); err != nil {
		return nil, err
	}
	st := cfg.Settings
	if st == (engine.Settings{}) {
		st = engine.DefaultSettings()
	}
	eng, err := engine.New(cfg.Weights, st)
	if err != nil {
		return nil, fmt.Errorf("protocol: engine: %w", err)
	}
	if diag == nil {
		diag = io.Discard
	}
	var clk clock
	switch cfg.Time.Kind {
	case Blank, TimeOff:
	case TimeMove, TimeGame:
		clk.set(cfg.Time)
	default:
		return nil, fmt.Errorf("protocol: time: %q is not a clock to start with (want time move, time game or time off)", cfg.Time.String())
	}
	return &Server{
		name:     name,
		eng:      eng,
		settings: st,
		board:    engine.NewBoard(),
		clock:    clk,
		out:      bufio.NewWriter(out),
		diag:     diag,
		readFile: readWeightFile,
	}, nil
}

func checkName(name string) error {
	if len(name) > 64 {
		return fmt.Errorf("protocol: engine name %q is longer than 64 bytes", name)
	}
	for _, r := range name {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return fmt.Errorf("protocol: engine name %q must be one word of printable characters", name)
		}
	}
	return nil
}

// Serve answers the commands read from in until `quit`/`exit` or the end of
// in, writing replies to out and diagnostics to diag. It returns nil at quit
// or end of input, the error of a bad Config, or a read or write error.
func Serve(in io.Reader, out io.Writer, diag io.Writer, cfg Config) error {
	s, err := NewServer(cfg, out, diag)
	if err != nil {
		return err
	}
	return s.Run(context.Background(), in)
}

// Run reads lines from in and executes them in order until `quit`/`exit`,
// the end of in, or ctx is done. It reads on while the engine searches (see
// the package doc, "Listening while searching"): a `stop` read during a
// search, with no line waiting before it, ends the search at once and the
// move found so far is answered; a `quit` or `exit` does the same and Run
// then returns nil without carrying out the lines read after the searched
// one. Lines read during a search otherwise wait their turn (at most
// MaxWaiting of them; reading pauses beyond that). The end of in does not
// cut a search short: the lines read before it are all carried out. Lines
// longer than MaxLineLen bytes are answered with an error line and skipped.
// It returns nil at quit or end of input, ctx.Err(), or a read or write
// error. Reading happens on a goroutine of its own, which ends with in (a
// reader that never ends keeps it blocked in Read after Run returns).
func (s *Server) Run(ctx context.Context, in io.Reader) error {
	done := make(chan struct{})
	defer close(done)
	lines := make(chan input)
	go readInput(in, lines, done)
	var waiting []input // read, not yet carried out
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var m input
		if len(waiting) > 0 {
			m, waiting = waiting[0], waiting[1:]
		} else {
			select {
			case m = <-lines:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if m.err == io.EOF {
			return s.werr
		}
		if m.err != nil {
			return fmt.Errorf("protocol: reading line %d: %w", s.line+1, m.err)
		}
		var quit bool
		if m.searches() {
			var read []input
			quit, read = s.listen(ctx, m, lines, len(waiting))
			waiting = append(waiting, read...)
			if len(read) > 0 && read[len(read)-1].err != nil {
				lines = nil // the reader has ended
			}
		} else {
			quit = s.step(ctx, m.line, m.tooLong)
		}
		if s.werr != nil {
			return s.werr
		}
		if quit {
			return nil
		}
	}
}

// MaxWaiting is the most lines Run holds read but not yet carried out while
// the engine searches; past it Run reads no further until the search ends.
const MaxWaiting = 4096

// input is one line read by readInput, or the error (io.EOF at the end)
// that ended the reading.
type input struct {
	line    string
	tooLong bool
	err     error
}

// searches reports whether the line is a command that may start a search:
// `new black`, `move XXXX` or `next`.
func (m input) searches() bool {
	if m.err != nil || m.tooLong {
		return false
	}
	c, err := ParseCommand(m.line)
	return err == nil && (c.Kind == Play || c.Kind == Next || (c.Kind == New && c.Side == engine.Black))
}

// interrupts reports whether the line is `stop`, or `quit`/`exit` (quit).
func (m input) interrupts() (yes, quit bool) {
	if m.err != nil || m.tooLong {
		return false, false
	}
	c, err := ParseCommand(m.line)
	return err == nil && (c.Kind == Stop || c.Kind == Quit), err == nil && c.Kind == Quit
}

// readInput sends the lines of in to lines, then the error that ended them
// (io.EOF at the end), until done is closed.
func readInput(in io.Reader, lines chan<- input, done <-chan struct{}) {
	r := bufio.NewReaderSize(in, MaxLineLen+2)
	for {
		line, tooLong, err := readLine(r)
		select {
		case lines <- input{line, tooLong, err}:
		case <-done:
			return
		}
		if err != nil {
			return
		}
	}
}

// listen carries out the search command m on a goroutine of its own while
// it reads on from lines (nil once the reader has ended): a `stop` or
// `quit` read with no line waiting before it (queued lines read earlier, and
// those read during this search) cancels the search; the others are
// returned in the order read, to be carried out after the queued ones. quit
// reports that the line or an interrupting quit asked to quit.
func (s *Server) listen(ctx context.Context, m input, lines <-chan input, queued int) (quit bool, read []input) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	res := make(chan bool, 1)
	var failed *crash.Panic // the search's panic, forwarded to this goroutine
	go func() {
		quit := false
		failed = crash.Catch(func() { quit = s.step(sctx, m.line, m.tooLong) })
		res <- quit
	}()
	var cut []string // the stop and quit lines that cut the search short
	quitting := false
	for {
		in := lines
		if queued+len(read) >= MaxWaiting {
			in = nil
		}
		select {
		case q := <-res:
			crash.Forward(failed)
			for _, l := range cut { // now that the search's own lines are written
				s.line++
				fmt.Fprintf(s.diag, "line %d: %s read during the search: cut it short\n", s.line, l)
			}
			return q || quitting, read
		case l := <-in:
			if l.err != nil {
				lines = nil
			}
			if yes, q := l.interrupts(); yes && queued+len(read) == 0 {
				cancel()
				cut = append(cut, strings.TrimSpace(l.line))
				quitting = quitting || q
				continue
			}
			read = append(read, l)
		}
	}
}

// readLine reads one line without its LF or CRLF. A line longer than
// MaxLineLen is consumed to its end and reported with tooLong. A last line
// without a newline is returned with a nil error; io.EOF comes after it.
func readLine(r *bufio.Reader) (line string, tooLong bool, err error) {
	var buf []byte
	read := false
	for {
		frag, err := r.ReadSlice('\n')
		read = read || len(frag) > 0
		if len(buf)+len(frag) <= MaxLineLen+2 { // +2: room for the CRLF
			buf = append(buf, frag...)
		} else {
			tooLong = true
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil && (err != io.EOF || !read) {
			return "", false, err
		}
		break
	}
	line = strings.TrimSuffix(strings.TrimSuffix(string(buf), "\n"), "\r")
	if len(line) > MaxLineLen {
		tooLong = true
	}
	return line, tooLong, nil
}

// step handles one line read by Run.
func (s *Server) step(ctx context.Context, line string, tooLong bool) (quit bool) {
	s.line++
	if tooLong {
		s.fail(fmt.Errorf("line is longer than %d bytes", MaxLineLen))
		s.flush()
		return false
	}
	return s.HandleLine(ctx, line)
}

// HandleLine parses and executes one protocol line (see ParseCommand and
// Execute); a line that does not parse gets one error line. It reports
// whether the line asked to quit.
func (s *Server) HandleLine(ctx context.Context, line string) (quit bool) {
	c, err := ParseCommand(line)
	if err != nil {
		s.fail(err)
		s.flush()
		return false
	}
	return s.Execute(ctx, c)
}

// Execute carries out one command, writes its replies (flushed) and reports
// whether it was `quit`/`exit`. Write errors are kept and returned by Run
// (see Err).
func (s *Server) Execute(ctx context.Context, c Command) (quit bool) {
	defer s.flush()
	switch c.Kind {
	case Blank:
	case Name:
		s.reply(Reply{Kind: NameReply, Text: s.name}.String())
	case New:
		s.board.Reset()
		s.pending = [3][]engine.Point{}
		s.eng.NewGame()
		s.clock.newGame()
		s.side = c.Side
		if c.Side == engine.Black {
			s.answer(ctx)
		}
	case Place:
		if s.board.Over() {
			s.fail(fmt.Errorf("%s: the game is over (%s); send new", c, resultWord(s.board)))
			return false
		}
		if err := s.place(c.Side, c.Move); err != nil {
			s.fail(fmt.Errorf("%s: %w", c, err))
		}
	case Play:
		if s.incomplete(c) {
			return false
		}
		if !s.board.Over() {
			if err := s.board.Play(c.Move); err != nil {
				s.fail(fmt.Errorf("%s: %w", c, err))
				return false
			}
		}
		s.answer(ctx)
	case Next:
		if !s.incomplete(c) {
			s.answer(ctx)
		}
	case Depth, Width:
		err := s.setSettings(func(st *engine.Settings) error {
			if c.Kind == Depth {
				st.Depth = c.N
			} else {
				st.Width = c.N
			}
			return nil
		})
		if err != nil {
			s.fail(fmt.Errorf("%s: %w", c, err))
			return false
		}
		s.reply(c.String())
	case VCF, UnVCF:
		err := s.setSettings(func(st *engine.Settings) error {
			st.ThreatSearch = c.Kind == VCF
			return nil
		})
		if err != nil {
			s.fail(fmt.Errorf("%s: %w", c, err))
		}
	case Print:
		s.printBoard()
	case Help:
		for _, l := range helpLines {
			s.reply(l)
		}
	case Quit:
		return true
	case Stop: // no search running (Run handles a stop read during one)
	case Options:
		s.writeOptions()
	case SetOption:
		s.setOption(c)
	case Weights:
		s.loadWeights(c.Path)
	case TimeMove, TimeGame, TimeOff:
		s.clock.set(c)
		s.reply(c.String())
	case TimeLeft:
		if s.clock.kind != TimeGame {
			s.fail(fmt.Errorf("%s: no game clock to set (send time game first)", c))
			return false
		}
		s.clock.Remaining = c.Clock.Remaining
		s.reply(c.String())
	default:
		s.fail(fmt.Errorf("command kind %d not handled", c.Kind))
	}
	return false
}

// Err is the first error met writing replies, or nil.
func (s *Server) Err() error { return s.werr }

// place adds the stones m of colour side, from a `black`/`white` line, to
// the driver's position (see the package doc, "Positions"). When the counts
// with them are reachable the board is set up from all the stones, each
// colour's in the order they came; when they are at most two stones of one
// colour short, the stones wait in pending. Errors, which change nothing: a
// stone on an occupied point, counts further off, or a position
// engine.Board.SetUp refuses (a six of both colours).
func (s *Server) place(side engine.Color, m engine.Move) error {
	var stones [3][]engine.Point
	for _, p := range s.board.History() {
		c := s.board.At(p)
		stones[c] = append(stones[c], p)
	}
	for _, c := range []engine.Color{engine.Black, engine.White} {
		stones[c] = append(stones[c], s.pending[c]...)
	}
	added := []engine.Point{m.A}
	if m.B != engine.NoPoint {
		added = append(added, m.B)
	}
	for _, p := range added {
		if slices.Contains(stones[engine.Black], p) || slices.Contains(stones[engine.White], p) {
			return fmt.Errorf("%s is occupied", p)
		}
		stones[side] = append(stones[side], p)
	}
	nb, nw := len(stones[engine.Black]), len(stones[engine.White])
	if engine.ReachableCounts(nb, nw) {
		if err := s.board.SetUp(stones[engine.Black], stones[engine.White]); err != nil {
			return err
		}
		s.pending = [3][]engine.Point{}
		return nil
	}
	if stonesShort(nb, nw) == "" {
		return fmt.Errorf("%d black and %d white stones: no game reaches these counts, nor with one more move of one colour", nb, nw)
	}
	s.pending[side] = append(s.pending[side], added...)
	return nil
}

// stonesShort names the fewest stones of one colour, at most two, that make
// the counts reachable: "1 black", "2 white", "" when no such number exists
// or none is needed.
func stonesShort(black, white int) string {
	for k := 1; k <= 2; k++ {
		switch {
		case engine.ReachableCounts(black+k, white):
			return fmt.Sprintf("%d black", k)
		case engine.ReachableCounts(black, white+k):
			return fmt.Sprintf("%d white", k)
		}
	}
	return ""
}

// incomplete answers an error line and reports true while `black`/`white`
// stones wait for the other colour's (pending), so there is no position to
// move in.
func (s *Server) incomplete(c Command) bool {
	if !s.waiting() {
		return false
	}
	black, white := len(s.pending[engine.Black]), len(s.pending[engine.White])
	for _, p := range s.board.History() {
		if s.board.At(p) == engine.Black {
			black++
		} else {
			white++
		}
	}
	s.fail(fmt.Errorf("%s: %d black and %d white stones are %s stone(s) short of a position a game reaches; send them with black/white, or new",
		c, black, white, stonesShort(black, white)))
	return true
}

// waiting reports whether stones of `black`/`white` lines wait in pending.
func (s *Server) waiting() bool {
	return len(s.pending[engine.Black])+len(s.pending[engine.White]) > 0
}

// answer searches for the side to move, places the move and replies
// `move XXXX`; on a finished board it replies `result ...` instead.
func (s *Server) answer(ctx context.Context) {
	if s.board.Over() {
		s.reply(Reply{Kind: ResultReply, Text: resultWord(s.board)}.String())
		return
	}
	start := time.Now()
	mover := s.board.ToMove()
	var res engine.Result
	if c, ok := s.clock.next(); ok {
		res = s.eng.SearchClock(ctx, s.board, c)
	} else {
		res = s.eng.Search(ctx, s.board)
	}
	if err := s.board.Play(res.Move); err != nil {
		s.fail(fmt.Errorf("internal: search for %s gave unplayable move %s: %w", mover, res.Move, err))
		return
	}
	took := time.Since(start)
	s.clock.spend(took)
	clk := s.clock.left()
	if clk != "" {
		clk = " clock" + clk
	}
	fmt.Fprintf(s.diag, "info %s %s score %g depth %d nodes %d reason %s time %s%s\n",
		mover, res.Move, res.Score, res.Depth, res.Nodes, res.Reason, took.Round(time.Microsecond), clk)
	s.reply(Reply{Kind: MoveReply, Move: res.Move}.String())
}

// clock is the server's `time` setting and, for `time game`, the game
// clock it keeps (engine.GameClock, started full from the command's base
// time, increment and moves per period).
type clock struct {
	kind             Kind         // TimeMove, TimeGame, or Blank: no clock
	set0             engine.Clock // the command's clock
	engine.GameClock              // TimeGame: time left and the engine's moves since `new` or `time game`
}

// set applies a TimeMove, TimeGame or TimeOff command; a game clock starts
// full.
func (c *clock) set(cmd Command) {
	*c = clock{kind: cmd.Kind, set0: cmd.Clock, GameClock: engine.NewGameClock(cmd.Clock.Remaining, cmd.Clock.Inc, cmd.Clock.MovesToGo)}
	if cmd.Kind == TimeOff {
		c.kind = Blank
	}
}

// newGame refills the game clock.
func (c *clock) newGame() {
	c.GameClock = engine.NewGameClock(c.Base, c.Inc, c.Moves)
}

// next is the engine.Clock of the engine's next move; ok is false without
// a clock.
func (c *clock) next() (engine.Clock, bool) {
	switch c.kind {
	case TimeMove:
		return engine.Clock{Move: c.set0.Move}, true
	case TimeGame:
		return c.Clock(), true
	}
	return engine.Clock{}, false
}

// spend charges a move that took d to the game clock (engine.GameClock.Spend).
func (c *clock) spend(d time.Duration) {
	if c.kind == TimeGame {
		c.Spend(d)
	}
}

// left describes the clock for diagnostics: "" without one.
func (c *clock) left() string {
	switch c.kind {
	case TimeMove:
		return " " + Command{Kind: TimeMove, Clock: c.set0}.String()
	case TimeGame:
		return fmt.Sprintf(" %s, %ss left", Command{Kind: TimeGame, Clock: c.set0}, FormatSeconds(c.Remaining.Round(time.Millisecond)))
	}
	return ""
}

// resultWord is "black" or "white" for the winner of b, "draw" for a full
// board, "none" while the game goes on.
func resultWord(b *engine.Board) string {
	switch w := b.Winner(); {
	case w != engine.Empty:
		return w.String()
	case b.Full():
		return "draw"
	}
	return "none"
}

func (s *Server) loadWeights(path string) {
	data, err := s.readFile(path)
	if err == nil {
		var f *engine.WeightFile
		if f, err = engine.ParseWeightFile(path, data); err == nil {
			if err = s.eng.SetWeights(f.Weights()); err == nil {
				fmt.Fprintf(s.diag, "info weights %q (%s, %d genes) from %s\n", f.Name, f.Schema, len(f.Values), path)
				return
			}
		}
	}
	s.fail(fmt.Errorf("weights %s: %w", path, err))
}

// readWeightFile reads a regular file of at most MaxWeightFileSize bytes, so
// that `weights /dev/zero` cannot hang the engine.
func readWeightFile(path string) ([]byte, error) {
	return fileio.ReadFile(path, fileio.Weights)
}

// printBoard writes the board diagram of engine.Board.String, a line with
// the pending stones when there are any, and one line with the turn count
// and the settings.
func (s *Server) printBoard() {
	for _, l := range strings.Split(strings.TrimRight(s.board.String(), "\n"), "\n") {
		s.reply(strings.TrimRight(l, "\r"))
	}
	if s.waiting() {
		s.reply(fmt.Sprintf("not on the board yet, waiting for the other colour: black %v, white %v",
			s.pending[engine.Black], s.pending[engine.White]))
	}
	st := s.eng.Settings()
	side := "not fixed"
	if s.side != engine.Empty {
		side = s.side.String()
	}
	line := fmt.Sprintf("turn %d; engine side %s, depth %d, width %d, vcf %t", s.board.Turn(), side, st.Depth, st.Width, st.ThreatSearch)
	if clk := s.clock.left(); clk != "" {
		line += ";" + clk
	}
	s.reply(line)
}

var helpLines = []string{
	"commands, one per line (replies: name, move, result, depth, width, time, error lines):",
	"  name          reply `name <engine name>`",
	"  new black     new game; the engine plays Black and moves at once",
	"  new white     new game; the engine plays White and waits for `move`",
	"  new xxx       new game, side not fixed (ConnectMore)",
	"  black XXXX    put Black's stones XXXX (one or two) down, no search; black/white lines in any order",
	"  white XXXX    put White's stones XXXX down, no search; the side to move follows from the counts",
	"  move XXXX     the opponent played XXXX; the engine replies `move YYYY`",
	"  next          the engine moves for the side to move: `move YYYY`",
	"                (once the game is over, move and next answer `result black|white|draw`)",
	fmt.Sprintf("  depth d       search depth in moves, 1..%d; reply `depth d`", MaxDepth),
	fmt.Sprintf("  width n       moves kept per node, 1..%d; reply `width n`", MaxWidth),
	"  vcf / unvcf   threat search on / off",
	"  weights FILE  load a JSON weight file; no reply when it loads",
	"  time move S   think S seconds per move (e.g. 0.5), depth becoming a maximum; reply `time move S`",
	"  time game S [INC [MOVES]]",
	"                a game clock of S seconds, +INC after each move, S again every MOVES moves;",
	"                the engine counts its own time, `new` restarts it; reply `time game ...`",
	"  time left S   the game clock's remaining seconds, as the GUI counts them; reply `time left S`",
	"  time off      no clock: search to depth (the default); reply `time off`",
	"  print         show the board",
	"  help          this list",
	"  stop          end the search in progress at once; it answers its best move so far",
	"  quit / exit   end (at once, also during a search)",
	"  options       list the settable options (`option name N type spin|float default D min A max B`), then `optionsok`",
	"  setoption name N value V",
	"                set option N (a search or time setting, or a weight gene) to V; no reply when it is set",
	"points are two letters A..S, column then row (JJ is the centre); JJJJ is Black's single first stone",
}

func (s *Server) reply(line string) {
	if s.werr != nil {
		return
	}
	if _, err := s.out.WriteString(line + "\n"); err != nil {
		s.werr = fmt.Errorf("protocol: writing reply: %w", err)
	}
}

func (s *Server) flush() {
	if s.werr == nil {
		if err := s.out.Flush(); err != nil {
			s.werr = fmt.Errorf("protocol: writing reply: %w", err)
		}
	}
}

// fail writes one `error ...` line (control characters blanked, cut to 300
// bytes) and the full message, with the input line number, to diag.
func (s *Server) fail(err error) {
	msg := err.Error()
	fmt.Fprintf(s.diag, "line %d: error %s\n", s.line, msg)
	msg = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return ' '
		}
		return r
	}, msg)
	if len(msg) > 300 {
		msg = strings.ToValidUTF8(msg[:300], "") + "..."
	}
	s.reply(Reply{Kind: ErrorReply, Text: msg}.String())
}
