package tournament

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
)

// Defaults and bounds of the external-engine driver.
const (
	// DefaultMoveTime is the per-move limit of an external engine when
	// none is given.
	DefaultMoveTime = 10 * time.Second
	// DefaultHandshake bounds the wait for an engine's reply to "name".
	DefaultHandshake = 10 * time.Second
	// DefaultQuitGrace is how long an engine may take to exit after
	// "quit" before its process group is killed.
	DefaultQuitGrace = time.Second
	// MaxLineBytes is the longest output line an engine may write; a
	// longer line (or endless output without a newline) loses the game
	// (forfeit:malformed, "line too long").
	MaxLineBytes = 64 << 10
)

const (
	stderrTailSize = 2048 // bytes of standard error kept (StderrTail)
	quoteMax       = 200  // bytes of an engine line quoted in a forfeit detail
	detailMax      = 2048 // bytes of a forfeit detail, stderr tail included
	nameMax        = 100  // bytes of an engine name kept
	exitDrain      = 100 * time.Millisecond
)

// ExternalOptions are the run-time options of an external engine's
// driver beyond its description (Entrant.External, NewExternal): what a
// running match decides, not the engine. The zero value is the defaults
// without a transcript.
type ExternalOptions struct {
	// QuitGrace is how long the process may take to exit after "quit"
	// (Close, restart after a forfeit) before its process group is
	// killed (DefaultQuitGrace when ≤ 0).
	QuitGrace time.Duration
	// Transcript, when not nil, records every line sent and received and
	// the driver's events, labelled with the engine's Name (the base name
	// of its program when Name is "").
	Transcript *Transcript

	onStart func(pid int) // test hook: the pid (= process group id) of each process started
}

// ExternalPlayer drives an engine process that speaks the Cloudict /
// ConnectMore text protocol (connect6.md "Engine text protocol") over its
// standard input and output.
//
// Process start. The program is started with exec (no shell) in
// Engine.Dir, in a process group of its own. The driver sends
// "name" and reads lines until the reply "name X": a line that begins,
// without leading blanks, with "name", a blank and a text X that does not
// start with "-" (so help lines such as "    name   - print the name" are
// not taken for it). Everything before it (banners, help text) is only
// transcribed. Without a reply within the handshake time the driver goes
// on without an engine name (EngineName is "") and notes it in the
// transcript: an engine that does not know "name" can still play, and one
// that does not start at all loses its first move on time. Then each init
// string is sent.
//
// Setup lines. An entrant's Setup lines (Entrant.Setup) are sent at
// every NewGame, after the handshake and init strings of a fresh process,
// before the game's "new".
//
// Games. From the empty board the driver speaks the Cloudict way: "new
// black" (the engine answers its first stone "move JJ"), or "new white"
// and then "move XXXX" with Black's move. After an opening it speaks the
// ConnectMore way: "new xxx", one "black XXXX" / "white XXXX" line per
// opening move, then "next" if the engine is to move, or "move XXXX" with
// the opponent's move otherwise. From then on each "move XXXX" (the
// opponent's move) is answered by the engine's "move XXXX".
//
// Move lines (protocol.ParseReply reads them). Surrounding blanks aside, a line is a move when it is
// "move" (any case) and one word of two or four letters A–S (any case),
// or two words of two letters each ("move JJ KK"). A line whose first word
// is "move" and which has no more words, or one or two more words of at
// most six bytes that do not make a move ("move ZZ9", "move J10 K10"), is
// a malformed move (forfeit:malformed). Any other line, such as
// "move XXXX   - tell the engine ..." or "move ordering done", is free text
// and only transcribed.
//
// Forfeits. A crash, an exit, a hang past the time limit, a malformed move
// line, a line over MaxLineBytes or input the engine does not read is
// returned as a *Forfeit whose detail says what happened ("exited with
// status N", "killed by signal N (name)", "output closed", "no move within
// T", "line too long (over N bytes)"), quotes at most 200 bytes of an
// offending line, names the transcript line when there is a transcript and
// ends with the engine's standard error tail, 2 KiB in all at most. The
// process is then ended (see Close) and a fresh one is started by the next
// NewGame. The exit of the engine is noticed at once, even when a child
// of it still holds its output.
//
// Time. Without a clock each move may take the per-move limit. Under a
// time control (SetClock, from PlayGameTimed) the next move may take until
// the clock's Hard limit, counted from SetClock.
//
// Processes. When the engine exits, or is ended, its whole process group
// is killed, so that children it left behind do not outlive it; on Linux
// the engine also dies with the arena (parent-death signal SIGKILL).
type ExternalPlayer struct {
	eng    Engine // Args copied, MoveTime and Handshake with their defaults
	label  string // the transcript's name of the engine
	opts   ExternalOptions
	stderr *tailBuffer
	proc   *process
	name   string // reply to "name" of the last handshake

	clock   MoveClock // the next move's clock, when clockAt is set
	clockAt time.Time // when SetClock was called; zero: per-move limit

	opening Opening
	color   engine.Color
	started bool // "new" sent for the current game
	out     []byte

	setup   []string // lines sent at every NewGame (Entrant.Setup; setSetup)
	dirty   bool     // setup lines were sent to the current process
	poolKey string   // the process's identity in a ProcessPool ("" when not pooled)
	// parse reads the engine's output lines (nil: outputEvent; probes
	// take every line).
	parse func(text string) (outEvent, bool)
}

// lineKind classifies an output line of an engine.
type lineKind uint8

const (
	lineText      lineKind = iota // free text
	lineMove                      // a move
	lineMalformed                 // a malformed move
	lineName                      // the reply to "name"
	lineTooLong                   // a line over MaxLineBytes (the start of it)
)

// outEvent is an output line that matters to the driver.
type outEvent struct {
	kind lineKind
	move engine.Move
	text string // the line, or the name (lineName)
	why  string // what is wrong with a malformed move
}

// NewExternalPlayer is NewExternal of the engine argv with per-move
// limit moveTime and zero options.
func NewExternalPlayer(argv []string, moveTime time.Duration) (*ExternalPlayer, error) {
	e := Engine{MoveTime: moveTime}
	if len(argv) > 0 {
		e.Program, e.Args = argv[0], argv[1:]
	}
	return NewExternal(e, ExternalOptions{})
}

// NewExternal returns a player for the external engine e: its program
// e.Program (found by exec.LookPath unless it holds a path separator)
// started with e.Args in e.Dir, e.MoveTime the per-move
// limit without a clock (DefaultMoveTime when ≤ 0). Its weights, settings
// and time control are not read (the referee sets the clock: SetClock).
// The process starts, with its handshake, at the first NewGame. The only
// error is an empty command.
func NewExternal(e Engine, o ExternalOptions) (*ExternalPlayer, error) {
	if e.Program == "" {
		return nil, errors.New("external engine: empty command")
	}
	e, o = withDefaults(e, o)
	label := e.Name
	if label == "" {
		label = filepath.Base(e.Program)
	}
	e.Args = append([]string(nil), e.Args...)
	e.InitStrings = append([]string(nil), e.InitStrings...)
	return &ExternalPlayer{
		eng:    e,
		label:  label,
		opts:   o,
		stderr: &tailBuffer{max: stderrTailSize},
	}, nil
}

// withDefaults gives an external engine's per-move limit, handshake and
// quit grace their defaults where they are ≤ 0: DefaultMoveTime,
// DefaultHandshake, DefaultQuitGrace.
func withDefaults(e Engine, o ExternalOptions) (Engine, ExternalOptions) {
	if e.MoveTime <= 0 {
		e.MoveTime = DefaultMoveTime
	}
	if e.Handshake <= 0 {
		e.Handshake = DefaultHandshake
	}
	if o.QuitGrace <= 0 {
		o.QuitGrace = DefaultQuitGrace
	}
	return e, o
}

// ProbeName starts the external engine e with options o (its init
// strings are not sent), reads its reply to "name" within e.Handshake
// and ends it (quit, then its process group is killed). The error says
// why there is no name: the program did not start, it ended (a *Forfeit
// inside), it gave no reply in time, or ctx ended.
func ProbeName(ctx context.Context, e Engine, o ExternalOptions) (string, error) {
	p, err := NewExternal(e, o)
	if err != nil {
		return "", err
	}
	defer p.Close()
	if err := p.spawn(); err != nil {
		return "", err
	}
	if err := p.handshake(ctx, false); err != nil {
		return "", fmt.Errorf("external engine %q: %w", p.commandLine(), err)
	}
	if p.name == "" {
		return "", fmt.Errorf("external engine %q: no reply to \"name\" within %v", p.commandLine(), p.eng.Handshake)
	}
	return p.name, nil
}

// commandLine is the engine's command, words joined by blanks, for
// errors.
func (p *ExternalPlayer) commandLine() string { return strings.Join(p.eng.Argv(), " ") }

// EngineName returns the engine's reply to "name" at the start of its
// current (or last) process; "" before the first start or when the
// engine did not reply in time.
func (p *ExternalPlayer) EngineName() string { return p.name }

// StderrTail returns the last bytes (up to 2 KiB) the engine wrote to its
// standard error, across processes.
func (p *ExternalPlayer) StderrTail() string { return p.stderr.String() }

// parseLine classifies an engine output line for the driver with the
// protocol's own reading of replies (protocol.ParseReply; the rules are in
// ExternalPlayer's documentation). It returns the move of a lineMove,
// what is wrong with a lineMalformed and the name of a lineName (cut to
// 100 bytes). Result, error and option lines are free text to the driver:
// it waits for a move or the time limit.
func parseLine(line string) (lineKind, engine.Move, string) {
	r := protocol.ParseReply(line)
	switch r.Kind {
	case protocol.MoveReply:
		return lineMove, r.Move, ""
	case protocol.Malformed:
		return lineMalformed, NoMove, r.Text
	case protocol.NameReply:
		return lineName, NoMove, cutHead(r.Text, nameMax)
	}
	return lineText, NoMove, ""
}

// spawn starts the engine process (startProcess) with the protocol's
// reading of its output lines (outputEvent). The error (not a forfeit)
// names the command.
func (p *ExternalPlayer) spawn() error {
	parse := p.parse
	if parse == nil {
		parse = outputEvent
	}
	pr, err := startProcess(p.eng.Argv(), p.eng.Dir, p.label, p.opts.Transcript, p.stderr, parse)
	if err != nil {
		return fmt.Errorf("external engine %q: %w", p.commandLine(), err)
	}
	if p.opts.onStart != nil {
		p.opts.onStart(pr.pid)
	}
	p.proc, p.dirty = pr, false
	return nil
}

// outputEvent is the event of an engine output line that matters to the
// driver (parseLine), or false for free text.
func outputEvent(text string) (outEvent, bool) {
	kind, m, s := parseLine(text)
	if kind == lineText {
		return outEvent{}, false
	}
	ev := outEvent{kind: kind, move: m, text: text, why: s}
	if kind == lineName {
		ev.text = s
	}
	return ev, true
}

// handshake sends "name" and waits for the reply (see ExternalPlayer),
// then the init strings when init is set. A dead engine is a *Forfeit.
func (p *ExternalPlayer) handshake(ctx context.Context, init bool) error {
	pr := p.proc
	p.name = ""
	deadline := time.Now().Add(p.eng.Handshake)
	if err := pr.write(cmdLine(protocol.Command{Kind: protocol.Name}), deadline); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return p.writeFailed(err, "name")
		}
		// An engine that dies at start-up may be gone before "name" is
		// written (a broken pipe) or after: the same death either way.
		return p.died("before the reply to name", false)
	}
	timer := time.NewTimer(p.eng.Handshake)
	defer timer.Stop()
wait:
	for {
		ev, res := pr.next(ctx, timer.C)
		switch res {
		case gotClosed:
			return p.died("before the reply to name", true)
		case gotExited:
			return p.died("before the reply to name", false)
		case gotTimeout:
			pr.t.logf(pr.label, "no reply to name within %v; going on without a name", p.eng.Handshake)
			break wait
		case gotCancel:
			p.stop(false)
			return ctx.Err()
		}
		switch ev.kind {
		case lineName:
			p.name = ev.text
			break wait
		case lineTooLong:
			return p.forfeit(ForfeitMalformed, tooLong(ev))
		} // moves before a game are ignored
	}
	if !init {
		return nil
	}
	return p.sendLines(p.eng.InitStrings, "the init strings")
}

// sendLines sends lines, one per line, within the handshake time; what
// names them in a forfeit.
func (p *ExternalPlayer) sendLines(lines []string, what string) error {
	if len(lines) == 0 {
		return nil
	}
	p.out = p.out[:0]
	for _, s := range lines {
		p.out = append(p.out, s...)
		p.out = append(p.out, '\n')
	}
	if err := p.proc.write(p.out, time.Now().Add(p.eng.Handshake)); err != nil {
		return p.writeFailed(err, what)
	}
	return nil
}

// setSetup sets the lines sent at every NewGame (Entrant.Setup); lines is
// read, never changed.
func (p *ExternalPlayer) setSetup(lines []string) { p.setup = lines }

func tooLong(ev outEvent) string {
	return fmt.Sprintf("line too long (over %d bytes), starts %s", MaxLineBytes, quoteLine(ev.text))
}

// NewGame starts the engine process with its handshake and init strings
// if none is running, sends the setup lines, if any, and remembers the
// opening and colour; the protocol's "new" is sent with the first Play. A
// failure to start the program is an error (it aborts a run); an engine
// that dies during the handshake or does not read the setup lines is a
// *Forfeit; ctx ending returns ctx.Err().
func (p *ExternalPlayer) NewGame(ctx context.Context, opening Opening, c engine.Color) error {
	p.opening, p.color, p.started = opening, c, false
	p.clockAt = time.Time{}
	if p.proc != nil && p.proc.exited() {
		p.stop(false)
	}
	if p.proc == nil {
		if err := p.spawn(); err != nil {
			return err
		}
		if err := p.handshake(ctx, true); err != nil {
			return err
		}
	} else {
		// Drop what matters of the output left over from the previous game.
		for drained := false; !drained; {
			select {
			case _, ok := <-p.proc.events:
				drained = !ok
			default:
				drained = true
			}
		}
	}
	if len(p.setup) == 0 {
		return nil
	}
	p.dirty = true
	return p.sendLines(p.setup, "the setup lines")
}

// SetClock implements Timed: the next Play waits for the engine's move
// until c.Hard after this call (instead of the per-move limit) before
// forfeiting on time.
func (p *ExternalPlayer) SetClock(c MoveClock) {
	p.clock, p.clockAt = c, time.Now()
}

// Play sends the game so far (first call of a game) or the opponent's last
// move, and waits for the engine's move line until the time limit (the
// per-move limit or the clock given by SetClock). The engine's failures
// are *Forfeit errors; ctx ending kills the engine and returns ctx.Err();
// a call out of turn (no NewGame, no opponent's move) is another error.
func (p *ExternalPlayer) Play(ctx context.Context, _ *engine.Board, last engine.Move) (Reply, error) {
	if p.proc == nil {
		return Reply{}, errors.New("external engine: Play without NewGame")
	}
	if err := p.request(last); err != nil {
		return Reply{}, err
	}
	limit := p.eng.MoveTime
	within := limit.String()
	if !p.clockAt.IsZero() {
		c := p.clock
		limit = time.Until(p.clockAt.Add(c.Hard))
		if c.Remaining == 0 && c.Inc == 0 {
			within = fmt.Sprintf("%v (st=%v, margin %v)", c.Hard, c.Limit, c.Hard-c.Limit)
		} else {
			within = fmt.Sprintf("%v (clock %v, margin %v)", c.Hard, c.Remaining, c.Hard-c.Limit)
		}
		p.clockAt = time.Time{}
	}
	pr := p.proc
	// The write may block only when the engine leaves its input unread
	// (a full pipe); it gets the move's time, but at least 100 ms.
	if err := pr.write(p.out, time.Now().Add(max(limit, 100*time.Millisecond))); err != nil {
		return Reply{}, p.writeFailed(err, "the move")
	}
	timer := time.NewTimer(max(limit, 0))
	defer timer.Stop()
	for {
		ev, res := pr.next(ctx, timer.C)
		switch res {
		case gotClosed:
			return Reply{}, p.died("", true)
		case gotExited:
			return Reply{}, p.died("", false)
		case gotTimeout:
			return Reply{}, p.forfeit(ForfeitTimeout, "no move within "+within)
		case gotCancel:
			p.stop(false)
			return Reply{}, ctx.Err()
		}
		switch ev.kind {
		case lineMove:
			return Reply{Move: ev.move}, nil
		case lineMalformed:
			return Reply{}, p.forfeit(ForfeitMalformed, fmt.Sprintf("line %s: %s", quoteLine(ev.text), ev.why))
		case lineTooLong:
			return Reply{}, p.forfeit(ForfeitMalformed, tooLong(ev))
		} // a late reply to name
	}
}

// request puts the protocol lines of this turn into p.out, in the
// protocol's words (protocol.Command.String).
func (p *ExternalPlayer) request(last engine.Move) error {
	p.out = p.out[:0]
	say := func(c protocol.Command) {
		p.out = append(p.out, c.String()...)
		p.out = append(p.out, '\n')
	}
	if p.started {
		if last == NoMove {
			return errors.New("external engine: Play without the opponent's move")
		}
		say(protocol.Command{Kind: protocol.Play, Move: last})
		return nil
	}
	p.started = true
	switch {
	case len(p.opening.Moves) == 0 && p.color == engine.Black:
		say(protocol.Command{Kind: protocol.New, Side: engine.Black})
	case len(p.opening.Moves) == 0:
		if last == NoMove {
			return errors.New("external engine: White's first move without Black's")
		}
		say(protocol.Command{Kind: protocol.New, Side: engine.White})
		say(protocol.Command{Kind: protocol.Play, Move: last})
	default:
		say(protocol.Command{Kind: protocol.New, Side: engine.Empty})
		for i, m := range p.opening.Moves {
			say(protocol.Command{Kind: protocol.Place, Side: MoveColor(i), Move: m})
		}
		if last == NoMove {
			say(protocol.Command{Kind: protocol.Next})
		} else {
			say(protocol.Command{Kind: protocol.Play, Move: last})
		}
	}
	return nil
}

// cmdLine is c's protocol line with its newline.
func cmdLine(c protocol.Command) []byte { return []byte(c.String() + "\n") }

// writeFailed turns a failed write of what into a forfeit: on time when
// the engine does not read its input, else the engine's death.
func (p *ExternalPlayer) writeFailed(err error, what string) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return p.forfeit(ForfeitTimeout, "the engine does not read its input (sending "+what+")")
	}
	return p.died(fmt.Sprintf("writing %s: %v", what, err), false)
}

// died turns the loss of the process into a forfeit: "exit" if it exited
// with status 0, "crash" otherwise. It gives the process a second to exit;
// closed says the engine's output ended, which the detail names only when
// the process is still running. what, if not empty, comes first.
func (p *ExternalPlayer) died(what string, closed bool) error {
	pr := p.proc
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-pr.waitDone:
	case <-t.C:
	}
	kind := ForfeitCrash
	var status string
	switch {
	case pr.exited():
		status = pr.status()
		if pr.state != nil && pr.state.Success() {
			kind = ForfeitExit
		}
	case closed:
		status = "output closed; still running"
	default:
		status = "still running"
	}
	if what != "" {
		status = what + "; " + status
	}
	return p.forfeit(kind, status)
}

// forfeit records the forfeit in the transcript, ends the process (Close)
// and returns the forfeit with the transcript line and the stderr tail.
func (p *ExternalPlayer) forfeit(kind, detail string) error {
	pr := p.proc
	if n := pr.t.logf(pr.label, "forfeit:%s: %s", kind, detail); n > 0 {
		detail += fmt.Sprintf(" (transcript: %s, line %d)", pr.label, n)
	}
	p.stop(true)
	return &Forfeit{Kind: kind, Detail: boundDetail(detail, strings.TrimSpace(p.stderr.String()))}
}

// boundDetail joins a forfeit detail and the stderr tail within detailMax
// bytes: the detail keeps at most half, the tail the end that fits.
func boundDetail(detail, stderr string) string {
	if len(detail) > detailMax/2 {
		detail = cutHead(detail, detailMax/2-3) + "…"
	}
	if stderr == "" {
		return detail
	}
	const sep = "; stderr: "
	if room := detailMax - len(detail) - len(sep); len(stderr) > room {
		stderr = "…" + cutTail(stderr, room-3)
	}
	return detail + sep + stderr
}

// quoteLine quotes an engine line, cut to quoteMax bytes.
func quoteLine(s string) string {
	if len(s) > quoteMax {
		return fmt.Sprintf("%q…", cutHead(s, quoteMax))
	}
	return fmt.Sprintf("%q", s)
}

// cutHead returns the first n bytes of s at most, without a broken
// UTF-8 sequence at the end.
func cutHead(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

// cutTail returns the last n bytes of s at most, without a broken UTF-8
// sequence at the start.
func cutTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[len(s)-n:], "")
}

// stop ends the process (process.end). graceful: "quit" is sent first
// and the process given QuitGrace to exit. Nothing is left running when
// stop returns, except processes that left the group themselves.
func (p *ExternalPlayer) stop(graceful bool) {
	pr := p.proc
	if pr == nil {
		return
	}
	p.proc = nil
	var quit []byte
	if graceful {
		quit = cmdLine(protocol.Command{Kind: protocol.Quit})
	}
	pr.end(quit, p.opts.QuitGrace)
}

// Close ends the engine process, if any: "quit", QuitGrace for it to exit,
// then SIGKILL to its process group. It returns nil.
func (p *ExternalPlayer) Close() error {
	p.stop(true)
	return nil
}
