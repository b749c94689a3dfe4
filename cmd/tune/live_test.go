package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestClusterRunReportsWorkers: a run through the embedded server reports
// its in-process worker joining on stderr (the roster behind the live
// view of the progress line).
func TestClusterRunReportsWorkers(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	code, _, errs := runTune(t, "-config", writeConfig(t, "ga", 1), "-out", dir, "-listen", "127.0.0.1:0")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "worker local joined") {
		t.Errorf("no line for the in-process worker joining:\n%s", errs)
	}
}
