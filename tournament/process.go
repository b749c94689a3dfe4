package tournament

// Process supervision of an external engine: start in a process group of
// its own, bounded line reading of its output, writes with a deadline,
// reaping, and killing the group (proc_*.go hold the system calls). The
// protocol it speaks is ExternalPlayer's (external.go).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// process is one running engine process.
type process struct {
	cmd        *exec.Cmd
	pid        int
	label      string // "Name[pid]" in the transcript
	t          *Transcript
	stdin      *os.File
	stdout     *os.File
	errOut     *os.File      // read end of standard error
	events     chan outEvent // lines that matter; closed when the reader stops
	quit       chan struct{} // closed to stop the reader
	stderrDone chan struct{} // closed when standard error reached its end
	waitDone   chan struct{} // closed when the process was reaped and its group killed
	state      *os.ProcessState
	// parse classifies an output line: the event to pass on, or false
	// for free text (only transcribed).
	parse func(text string) (outEvent, bool)
}

// startProcess starts argv in dir, in a process group of its own (its pid
// is the group id; on Linux it also dies with us), with pipes for its
// standard input, output and error, and the goroutines that read its
// output lines (read, with parse), copy its standard error to stderr and
// reap it (wait). name labels it in the transcript t ("name[pid]"). The
// error is the pipe's or exec's.
func startProcess(argv []string, dir, name string, t *Transcript, stderr io.Writer, parse func(string) (outEvent, bool)) (*process, error) {
	var f [6]*os.File // stdin r/w, stdout r/w, stderr r/w
	closeAll := func() {
		for _, x := range f {
			if x != nil {
				x.Close()
			}
		}
	}
	for i := 0; i < len(f); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, err
		}
		f[i], f[i+1] = r, w
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f[0], f[3], f[5]
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, err
	}
	f[0].Close()
	f[3].Close()
	f[5].Close()
	pr := &process{
		cmd:        cmd,
		pid:        cmd.Process.Pid,
		t:          t,
		stdin:      f[1],
		stdout:     f[2],
		errOut:     f[4],
		events:     make(chan outEvent, 16),
		quit:       make(chan struct{}),
		stderrDone: make(chan struct{}),
		waitDone:   make(chan struct{}),
		parse:      parse,
	}
	pr.label = fmt.Sprintf("%s[%d]", name, pr.pid)
	pr.t.logf(pr.label, "start %q in %q (process group %d)", argv, dir, pr.pid)
	go pr.read()
	go func() {
		_, _ = io.Copy(stderr, pr.errOut)
		close(pr.stderrDone)
	}()
	go pr.wait()
	return pr, nil
}

// wait reaps the process and kills its group: on Linux before reaping it
// (the group id cannot be reused while the leader is a zombie), elsewhere
// just after.
func (pr *process) wait() {
	early := waitExited(pr.pid)
	if early {
		killGroup(pr.pid)
	}
	_ = pr.cmd.Wait()
	if !early {
		killGroup(pr.pid)
	}
	pr.state = pr.cmd.ProcessState
	pr.t.logf(pr.label, "%s; process group killed", pr.status())
	close(pr.waitDone)
}

// status says how the process ended; only after waitDone.
func (pr *process) status() string {
	if pr.state == nil {
		return "lost (wait failed)"
	}
	return exitText(pr.state)
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

// read splits the engine's output into lines of at most MaxLineBytes,
// transcribes them and passes on those that matter (parse). A longer
// line is passed on as lineTooLong as soon as it passes the bound and its
// rest is discarded, so memory stays bounded whatever the engine writes.
func (pr *process) read() {
	defer close(pr.events)
	r := bufio.NewReaderSize(pr.stdout, 4096)
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxLineBytes+1 { // +1: the newline
			line = append(line, chunk[:min(len(chunk), quoteMax)]...)
			head := string(line[:min(len(line), quoteMax)])
			pr.t.logf(pr.label, "line too long (over %d bytes), starts %q; rest discarded", MaxLineBytes, head)
			if !pr.send(outEvent{kind: lineTooLong, text: head}) {
				return
			}
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			if err != nil {
				return
			}
			line = line[:0]
			continue
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if len(line) > 0 {
			text := strings.TrimRight(string(line), "\r\n")
			pr.t.log(pr.label, '<', text)
			if ev, ok := pr.parse(text); ok && !pr.send(ev) {
				return
			}
		}
		if err != nil {
			return
		}
		line = line[:0]
	}
}

// send passes ev to the driver; false when the reader is to stop.
func (pr *process) send(ev outEvent) bool {
	select {
	case pr.events <- ev:
		return true
	case <-pr.quit:
		return false
	}
}

// write sends b to the engine, transcribing it line by line; the write
// gives up at deadline (an engine that does not read its input).
func (pr *process) write(b []byte, deadline time.Time) error {
	if pr.t != nil {
		for _, l := range strings.SplitAfter(string(b), "\n") {
			if l != "" {
				pr.t.log(pr.label, '>', strings.TrimSuffix(l, "\n"))
			}
		}
	}
	if err := pr.stdin.SetWriteDeadline(deadline); err != nil {
		return err
	}
	_, err := pr.stdin.Write(b)
	return err
}

// waitResult says what process.next found.
type waitResult uint8

const (
	gotEvent   waitResult = iota
	gotClosed             // the engine's output reached its end
	gotExited             // the engine exited and no more events came
	gotTimeout            // the timer fired
	gotCancel             // ctx ended
)

// next waits for the next event of the engine's output, its end, the
// engine's exit, the timer or ctx. After the exit the lines it wrote just
// before are still taken (for up to 100 ms, the pipe may be held by a
// child that escaped the process group).
func (pr *process) next(ctx context.Context, timer <-chan time.Time) (outEvent, waitResult) {
	select {
	case ev, ok := <-pr.events:
		if !ok {
			return ev, gotClosed
		}
		return ev, gotEvent
	case <-pr.waitDone:
		t := time.NewTimer(exitDrain)
		defer t.Stop()
		select {
		case ev, ok := <-pr.events:
			if ok {
				return ev, gotEvent
			}
		case <-t.C:
		}
		return outEvent{}, gotExited
	case <-timer:
		return outEvent{}, gotTimeout
	case <-ctx.Done():
		return outEvent{}, gotCancel
	}
}

// end ends the process. With a quit line, it is sent (unless the process
// has exited), the input closed and the process given grace to exit. Then
// its process group is killed, the process reaped and the pipes closed.
// Nothing is left running when end returns, except processes that left
// the group themselves.
func (pr *process) end(quit []byte, grace time.Duration) {
	if quit != nil && !pr.exited() {
		if pr.write(quit, time.Now().Add(grace)) == nil {
			pr.stdin.Close()
			t := time.NewTimer(grace)
			select {
			case <-pr.waitDone:
			case <-t.C:
				pr.t.logf(pr.label, "no exit within %v of quit", grace)
			}
			t.Stop()
		}
	}
	pr.stdin.Close()
	if !pr.exited() {
		pr.t.logf(pr.label, "killing process group %d", pr.pid)
		killGroup(pr.pid)
		_ = pr.cmd.Process.Kill() // in case it left its group
	}
	<-pr.waitDone
	t := time.NewTimer(exitDrain) // let the stderr tail complete
	select {
	case <-pr.stderrDone:
	case <-t.C:
	}
	t.Stop()
	close(pr.quit)
	pr.stdout.Close()
	pr.errOut.Close()
	for range pr.events { // let the reader finish
	}
}

// CheckProgram checks that the program of an external engine's argv can
// be started from dir (the engine's working directory, "" for the current
// one) as NewExternal's player starts it: a name without a path separator
// is looked up in $PATH, a relative path is taken from dir, and the file
// must exist, be a regular file and be executable. It starts nothing, so a
// command line can be refused before a match writes anything. The error
// names the program and what is wrong.
func CheckProgram(argv []string, dir string) error {
	if len(argv) == 0 {
		return errors.New("empty command")
	}
	_, err := ProgramPath(argv[0], dir)
	return err
}

// ProgramPath is the file an external engine's program prog runs from
// dir (the engine's working directory, "" for the current one), found as
// NewExternal's player starts it: a name without a path separator in
// $PATH, a relative path from dir; the path is absolute when it can be
// made so. Errors: as CheckProgram's (an empty name, no such file, a
// directory, a file that is not executable).
func ProgramPath(prog, dir string) (string, error) {
	if prog == "" {
		return "", errors.New("empty command")
	}
	path := prog
	if !strings.ContainsRune(prog, filepath.Separator) && !strings.ContainsRune(prog, '/') {
		found, err := exec.LookPath(prog)
		if err != nil {
			return "", fmt.Errorf("program %q: not found in $PATH", prog)
		}
		path = found
	} else if !filepath.IsAbs(path) && dir != "" {
		path = filepath.Join(dir, path)
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("program %q: no such file", path)
	case err != nil:
		return "", fmt.Errorf("program %q: %w", path, err)
	case st.IsDir():
		return "", fmt.Errorf("program %q: a directory, not a program", path)
	case st.Mode()&0o111 == 0:
		return "", fmt.Errorf("program %q: not executable (chmod +x)", path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return path, nil
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
