package cmdline

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/roadtune/roadtune/internal/crash"
)

// TestExitOnPanic: a panic under ExitOnPanic exits with status 3 and one
// line asking for a report; no panic, no exit.
func TestExitOnPanic(t *testing.T) {
	var stderr bytes.Buffer
	code := -1
	exit := func(c int) { code = c }
	func() {
		defer ExitOnPanic("tune", &stderr, exit)
		var recs []int
		_ = recs[:-len("x")+len(recs)] // slice bounds out of range, as a bad records_bytes did
	}()
	if want := "tune: internal error: runtime error: slice bounds out of range [:-1]; please report it with the command line\n"; code != 3 || stderr.String() != want {
		t.Errorf("exit %d, stderr %q; want 3 and %q", code, stderr.String(), want)
	}
	code = -1
	func() { defer ExitOnPanic("tune", &stderr, exit) }()
	if code != -1 {
		t.Errorf("no panic: exit %d", code)
	}
}

// TestInternalErrors: a worker goroutine's panic reaches the command
// either forwarded (crash.Forward, ExitOnPanic) or as an error
// (Internal): both say "internal error" once, ask for a report, and
// exit 3; an ordinary error is not internal.
func TestInternalErrors(t *testing.T) {
	var stderr bytes.Buffer
	code := -1
	func() {
		defer ExitOnPanic("engine", &stderr, func(c int) { code = c })
		crash.Forward(crash.Catch(func() { panic("chunk 3") }))
	}()
	if want := "engine: internal error: chunk 3; please report it with the command line\n"; code != 3 || stderr.String() != want {
		t.Errorf("forwarded: exit %d, stderr %q; want 3 and %q", code, stderr.String(), want)
	}
	stderr.Reset()
	err := fmt.Errorf("game 4 (a vs b): %w", crash.Catch(func() { panic("boom") }))
	if !Internal("arena", err, &stderr) || stderr.String() != "arena: internal error: boom; please report it with the command line\n" {
		t.Errorf("as an error: %q", stderr.String())
	}
	stderr.Reset()
	if Internal("arena", errors.New("no such file"), &stderr) || stderr.Len() > 0 {
		t.Errorf("an ordinary error taken as internal: %q", stderr.String())
	}
}
