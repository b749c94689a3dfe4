package cmdline

import (
	"fmt"
	"io"
)

// ExitInternal is the exit status of a command that panicked: a fault of
// roadtune, told apart from a refused input (2) or a failed run (1).
const ExitInternal = 3

// ExitOnPanic, deferred first in a command's main, turns a panic of the
// main goroutine into one line on stderr, "PROGRAM: internal error: …;
// please report it with the command line", and exit(ExitInternal), so
// that a fault of roadtune does not exit 2 like a clean refusal. A panic
// in another goroutine still ends the process as Go does.
func ExitOnPanic(program string, stderr io.Writer, exit func(int)) {
	if p := recover(); p != nil {
		fmt.Fprintf(stderr, "%s: internal error: %v; please report it with the command line\n", program, p)
		exit(ExitInternal)
	}
}
