package main

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/roadtune/roadtune/internal/crash"
	"github.com/roadtune/roadtune/tune"
)

// TestExitCodes: a run's error exits 1, bad input 2, an interrupted run
// 130, and a panic of a game worker or another goroutine of roadtune,
// however wrapped, 3 with one line asking for a report.
func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
		line string
	}{
		{nil, 0, ""},
		{fmt.Errorf("referee: engine died"), 1, "tune: referee: engine died\n"},
		{&tune.InputError{Err: fmt.Errorf("no run directory")}, 2, "tune: no run directory\n"},
		{&tune.InterruptedError{Dir: "d", Unit: "generation"}, 130, ""},
		{fmt.Errorf("step 4: game 12 (a vs b): %w", crash.Catch(func() { panic("boom") })), 3,
			"tune: internal error: boom; please report it with the command line\n"},
	} {
		var stderr bytes.Buffer
		if got := exitCode(tc.err, &stderr); got != tc.code || tc.line != "" && stderr.String() != tc.line {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", tc.err, got, stderr.String(), tc.code, tc.line)
		}
	}
}
