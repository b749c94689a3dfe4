package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzArenaFiles reads arbitrary bytes as an arena match directory's
// summary.json, plan.json and command.json, as the status pages do
// (readSummary, arenaPlan and, for a match without plan.json, commandPlan
// from the saved command line): no panic; an error names the file it
// comes from; a summary is read only from a file and never both read and
// refused; and a plan that is missing or fails to read is the command
// line's.
func FuzzArenaFiles(f *testing.F) {
	f.Add([]byte(`{"schedule":"head-to-head","games":4,"pairs":2}`), []byte(`{"schedule":"head-to-head","pairs":2,"games":4}`), []byte(`{"args":["-pairs","2","zhou2015","chen2010-pso15"]}`))
	f.Add([]byte(`{"games":-5}`), []byte(`{"games":"x"}`), []byte(`{"args":["-pairs","-3","a"]}`))
	f.Add([]byte(``), []byte(`null`), []byte(`{"args":["-sprt","0,20","-rounds","2","a","b","c"]}`))
	f.Add([]byte(`[`), []byte(`{}`), []byte(`{"args":[]}`))
	f.Fuzz(func(t *testing.T, summary, planJSON, command []byte) {
		dir := t.TempDir()
		for name, data := range map[string][]byte{summaryFile: summary, planFile: planJSON, commandFile: command} {
			if len(data) == 0 {
				continue // the file is not there yet
			}
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer root.Close()
		_, ok, err := readSummary(root)
		if err != nil && !strings.Contains(err.Error(), summaryFile) {
			t.Fatalf("a summary error that does not name %s: %v", summaryFile, err)
		}
		if ok && err != nil {
			t.Fatalf("a summary both read and refused: %v", err)
		}
		if ok && len(summary) == 0 {
			t.Fatal("a summary read from no file")
		}
		p := arenaPlan(root)
		if p.err != nil && !strings.Contains(p.err.Error(), planFile) {
			t.Fatalf("a plan error that does not name %s: %v", planFile, p.err)
		}
		if p.err != nil || len(planJSON) == 0 {
			// The command line's plan stands in (or the plan is missing).
			c := commandPlan(p.args)
			if c.schedule != p.schedule || c.total != p.total || c.pairs != p.pairs {
				t.Fatalf("a plan that did not read: %+v, want the command line's %+v", p, c)
			}
		}
	})
}
