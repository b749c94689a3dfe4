package cli

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/roadtune/roadtune/internal/crash"
)

// TestInternalErrorExit: a panic of a game worker, carried up as an
// error, exits 3 with one line asking for a report, not 1 like a failed
// match or 2 like bad input.
func TestInternalErrorExit(t *testing.T) {
	var stderr bytes.Buffer
	err := fmt.Errorf("tournament: game 7 (a vs b): %w", crash.Catch(func() { panic("boom") }))
	if code := exitCode(&stderr, "arena:", err); code != 3 || stderr.String() != "arena: internal error: boom; please report it with the command line\n" {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
