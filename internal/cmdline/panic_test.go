package cmdline

import (
	"bytes"
	"testing"
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
