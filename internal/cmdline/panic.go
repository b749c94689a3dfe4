package cmdline

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/roadtune/roadtune/internal/crash"
)

// ExitInternal is the exit status of a command that panicked: a fault of
// roadtune, told apart from a refused input (2) or a failed run (1).
const ExitInternal = 3

// ExitOnPanic, deferred first in a command's main, turns a panic of the
// main goroutine (or one a worker goroutine forwarded to it,
// crash.Forward) into one line on stderr, "PROGRAM: internal error: …;
// please report it with the command line", and exit(ExitInternal), so
// that a fault of roadtune does not exit 2 like a clean refusal. The
// goroutines roadtune starts carry their panics to their waiters
// (package crash); a panic in a goroutine that does not still ends the
// process as Go does.
func ExitOnPanic(program string, stderr io.Writer, exit func(int)) {
	if p := recover(); p != nil {
		internal(program, crash.Of(p), stderr)
		exit(ExitInternal)
	}
}

// Internal reports whether err carries a panic of one of roadtune's
// goroutines (a *crash.Panic, e.g. from a game worker): then it writes
// ExitOnPanic's line for program on stderr and the caller exits with
// ExitInternal.
func Internal(program string, err error, stderr io.Writer) bool {
	p, ok := crash.As(err)
	if ok {
		internal(program, p, stderr)
	}
	return ok
}

func internal(program string, p *crash.Panic, stderr io.Writer) {
	fmt.Fprintf(stderr, "%s: internal error: %v; please report it with the command line\n", program, p.Value)
}

// Main is a command's main: it runs run with the command line's
// arguments, standard output and error, and a context that Ctrl-C or
// SIGTERM cancels, then exits with run's code; a panic becomes
// ExitOnPanic's line and ExitInternal.
func Main(program string, run func(ctx context.Context, args []string, stdout, stderr io.Writer) int) {
	defer ExitOnPanic(program, os.Stderr, os.Exit)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
