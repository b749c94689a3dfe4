package web

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/roadtune/roadtune/results"
)

// TestKilledArenaMatchIsInterrupted: an arena match that is not done shows
// as interrupted, with no estimated end, when its running.json names a
// process that is gone (a killed arena) or when it has none (stopped, or
// written before arena marked its matches); one whose marker names a live
// process shows as playing (issue 43, item 10).
func TestKilledArenaMatchIsInterrupted(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "match")
	arenaDir(t, dir, 2) // marked by this process
	_, ts := serve(t, []string{dir}, Options{})
	status := func() Status {
		t.Helper()
		var st Status
		if err := json.Unmarshal([]byte(mustGet(t, ts.URL+"/run/match/status.json", "application/json")), &st); err != nil {
			t.Fatal(err)
		}
		return st
	}
	if st := status(); st.Phase != "playing" || st.ETASeconds <= 0 {
		t.Fatalf("a match played by a live process: phase %q, ETA %g", st.Phase, st.ETASeconds)
	}
	// A killed arena: its marker names a process that has exited.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	data, _ := json.Marshal(map[string]any{"pid": cmd.Process.Pid, "host": host})
	if err := os.WriteFile(filepath.Join(dir, results.FileRunning), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if st := status(); st.Phase != "interrupted" || st.ETASeconds != 0 {
		t.Errorf("a match whose process is gone: phase %q, ETA %g", st.Phase, st.ETASeconds)
	}
	// No marker at all (a clean stop removes it; a summary then says done
	// or interrupted, but a stop before any summary leaves none).
	os.Remove(filepath.Join(dir, results.FileRunning))
	if st := status(); st.Phase != "interrupted" {
		t.Errorf("a match without a marker: phase %q", st.Phase)
	}
}
