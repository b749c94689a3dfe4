package tournament

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/roadtune/roadtune/engine"
)

// DefaultMoveTime is the per-move limit of an external engine when none is
// given.
const DefaultMoveTime = 10 * time.Second

// stderrTailSize is how many bytes of an external engine's standard error
// are kept for the record.
const stderrTailSize = 2048

// ExternalPlayer drives an engine process that speaks the Cloudict /
// ConnectMore text protocol (connect6.md "Engine text protocol") over its
// standard input and output.
//
// From the empty board it speaks the Cloudict way: "new black" (the engine
// answers its first stone "move JJ"), or "new white" and then "move XXXX"
// with Black's move. After an opening it speaks the ConnectMore way:
// "new xxx", one "black XXXX" / "white XXXX" line per opening move, then
// "next" if the engine is to move, or "move XXXX" with the opponent's move
// otherwise. From then on each "move XXXX" (the opponent's move) is answered
// by the engine's "move XXXX". Only output lines whose first word is "move"
// are moves (one more word, the move, is required); other lines are
// ignored.
//
// A crash, an exit, a hang past the per-move limit or a malformed move line
// is returned as a *Forfeit; the process is then killed and reaped, and a
// fresh one is started by the next NewGame. The process is started with
// exec (no shell). The last 2 KiB of its standard error are kept
// (StderrTail) and attached to forfeits.
type ExternalPlayer struct {
	argv     []string
	moveTime time.Duration
	stderr   *tailBuffer
	proc     *process
	timer    *time.Timer

	opening Opening
	color   engine.Color
	started bool // "new" sent for the current game
	out     []byte
}

// process is one running engine process.
type process struct {
	cmd      *exec.Cmd
	stdin    *os.File
	stdout   *os.File
	in       *bufio.Writer
	lines    chan string   // stdout lines; closed at EOF
	quit     chan struct{} // closed to stop the reader
	waitDone chan struct{} // closed when cmd.Wait returned
	waitErr  error
}

// NewExternalPlayer returns a player for the engine started by argv
// (argv[0] is the program, found by exec.LookPath). moveTime is the
// per-move limit (DefaultMoveTime when ≤ 0); it covers the process start
// for the first move of a process. The process starts at the first NewGame.
func NewExternalPlayer(argv []string, moveTime time.Duration) (*ExternalPlayer, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("external engine: empty command")
	}
	if moveTime <= 0 {
		moveTime = DefaultMoveTime
	}
	t := time.NewTimer(time.Hour)
	t.Stop()
	return &ExternalPlayer{
		argv:     slicesClone(argv),
		moveTime: moveTime,
		stderr:   &tailBuffer{max: stderrTailSize},
		timer:    t,
	}, nil
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }

// StderrTail returns the last bytes (up to 2 KiB) the engine wrote to its
// standard error, across processes.
func (p *ExternalPlayer) StderrTail() string { return p.stderr.String() }

func (p *ExternalPlayer) start() error {
	outR, outW, err := os.Pipe()
	if err != nil {
		return err
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return err
	}
	cmd := exec.Command(p.argv[0], p.argv[1:]...)
	cmd.Stdin = inR
	cmd.Stdout = outW
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		outR.Close()
		outW.Close()
		inR.Close()
		inW.Close()
		return fmt.Errorf("external engine %q: %w", strings.Join(p.argv, " "), err)
	}
	outW.Close()
	inR.Close()
	pr := &process{
		cmd:      cmd,
		stdin:    inW,
		stdout:   outR,
		in:       bufio.NewWriter(inW),
		lines:    make(chan string, 64),
		quit:     make(chan struct{}),
		waitDone: make(chan struct{}),
	}
	go pr.read()
	go func() {
		pr.waitErr = cmd.Wait()
		close(pr.waitDone)
	}()
	p.proc = pr
	return nil
}

func (pr *process) read() {
	defer close(pr.lines)
	sc := bufio.NewScanner(pr.stdout)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		select {
		case pr.lines <- sc.Text():
		case <-pr.quit:
			return
		}
	}
}

// exited reports whether the process has been reaped.
func (pr *process) exited() bool {
	select {
	case <-pr.waitDone:
		return true
	default:
		return false
	}
}

// kill stops and reaps the process and its reader.
func (p *ExternalPlayer) kill() {
	pr := p.proc
	if pr == nil {
		return
	}
	p.proc = nil
	close(pr.quit)
	pr.stdin.Close()
	if !pr.exited() {
		_ = pr.cmd.Process.Kill()
	}
	<-pr.waitDone
	pr.stdout.Close()
	for range pr.lines { // let the reader finish
	}
}

// NewGame starts the engine process if none is running and remembers the
// opening and colour; the protocol's "new" is sent with the first Play.
// Only a failure to start the process is an error (not a forfeit).
func (p *ExternalPlayer) NewGame(_ context.Context, opening Opening, c engine.Color) error {
	if p.proc != nil && p.proc.exited() {
		p.kill()
	}
	if p.proc == nil {
		if err := p.start(); err != nil {
			return err
		}
	}
	// Drop output left over from the previous game.
	for drained := false; !drained; {
		select {
		case _, ok := <-p.proc.lines:
			drained = !ok
		default:
			drained = true
		}
	}
	p.opening = opening
	p.color = c
	p.started = false
	return nil
}

// Play sends the game so far (first call of a game) or the opponent's last
// move, and waits up to the per-move limit for the engine's "move" line.
func (p *ExternalPlayer) Play(ctx context.Context, _ *engine.Board, last engine.Move) (Reply, error) {
	if p.proc == nil {
		return Reply{}, errors.New("external engine: Play without NewGame")
	}
	p.out = p.out[:0]
	if !p.started {
		p.started = true
		switch {
		case len(p.opening.Moves) == 0 && p.color == engine.Black:
			p.out = append(p.out, "new black\n"...)
		case len(p.opening.Moves) == 0:
			if last == NoMove {
				return Reply{}, errors.New("external engine: White's first move without Black's")
			}
			p.out = append(p.out, "new white\nmove "...)
			p.out = append(p.out, last.String()...)
			p.out = append(p.out, '\n')
		default:
			p.out = append(p.out, "new xxx\n"...)
			for i, m := range p.opening.Moves {
				p.out = append(p.out, MoveColor(i).String()...)
				p.out = append(p.out, ' ')
				p.out = append(p.out, m.String()...)
				p.out = append(p.out, '\n')
			}
			if last == NoMove {
				p.out = append(p.out, "next\n"...)
			} else {
				p.out = append(p.out, "move "...)
				p.out = append(p.out, last.String()...)
				p.out = append(p.out, '\n')
			}
		}
	} else {
		if last == NoMove {
			return Reply{}, errors.New("external engine: Play without the opponent's move")
		}
		p.out = append(p.out, "move "...)
		p.out = append(p.out, last.String()...)
		p.out = append(p.out, '\n')
	}
	pr := p.proc
	if _, err := pr.in.Write(p.out); err != nil {
		return Reply{}, p.died(fmt.Sprintf("writing to the engine: %v", err))
	}
	if err := pr.in.Flush(); err != nil {
		return Reply{}, p.died(fmt.Sprintf("writing to the engine: %v", err))
	}
	p.timer.Reset(p.moveTime)
	defer p.timer.Stop()
	for {
		select {
		case line, ok := <-pr.lines:
			if !ok {
				return Reply{}, p.died("the engine closed its output")
			}
			line = strings.TrimSpace(line)
			f := strings.Fields(line)
			if len(f) == 0 || f[0] != "move" {
				continue // free text (search info, VCF nodes, ...)
			}
			if len(f) != 2 {
				return Reply{}, p.forfeit(ForfeitMalformed, fmt.Sprintf("line %q: want \"move XXXX\"", line))
			}
			m, err := engine.ParseMove(f[1])
			if err != nil {
				return Reply{}, p.forfeit(ForfeitMalformed, fmt.Sprintf("line %q: %v", line, err))
			}
			return Reply{Move: m}, nil
		case <-p.timer.C:
			return Reply{}, p.forfeit(ForfeitTimeout, fmt.Sprintf("no move within %v", p.moveTime))
		case <-ctx.Done():
			p.kill()
			return Reply{}, ctx.Err()
		}
	}
}

// died turns the loss of the process into a forfeit: "exit" if it exited
// with status 0, "crash" otherwise (it is given a second to exit).
func (p *ExternalPlayer) died(what string) error {
	pr := p.proc
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-pr.waitDone:
	case <-t.C:
	}
	kind := ForfeitCrash
	status := "still running"
	if pr.exited() {
		if pr.waitErr == nil {
			kind = ForfeitExit
			status = "exit status 0"
		} else {
			status = pr.waitErr.Error()
		}
	}
	return p.forfeit(kind, what+" ("+status+")")
}

// forfeit kills the process and returns the forfeit with the stderr tail.
func (p *ExternalPlayer) forfeit(kind, detail string) error {
	p.kill()
	if tail := strings.TrimSpace(p.stderr.String()); tail != "" {
		detail += "; stderr: " + tail
	}
	return &Forfeit{Kind: kind, Detail: detail}
}

// Close kills the engine process, if any.
func (p *ExternalPlayer) Close() error {
	p.kill()
	return nil
}

// tailBuffer keeps the last max bytes written to it; safe for concurrent
// use (exec copies stderr from its own goroutine).
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

// Write implements io.Writer.
func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	if over := len(t.buf) + len(b) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, b...)
	return n, nil
}

// String returns the kept bytes.
func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}
