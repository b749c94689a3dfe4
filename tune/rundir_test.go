package tune

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCheckNewDirSaysWhatItHolds: a new run's -out is refused with words
// for what the directory holds, whatever its files sort before: a finished
// run (nothing to resume: export it or choose another -out), a stopped run
// or a chain (resume it), something else (no run); the leftovers of a run
// stopped before its first checkpoint are taken.
func TestCheckNewDirSaysWhatItHolds(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string   // in the error; "" = accepted
		not   []string // not in the error
		left  []string // leftovers when accepted
	}{
		{name: "finished run", files: map[string]string{FileBest: "{}", FileCheckpoint: `{"phase": "done"}`, FileConfig: "", FileReport: ""},
			want: "holds a finished run: nothing to resume", not: []string{"holds no run", "tune -resume"}},
		{name: "stopped run", files: map[string]string{FileBest: "{}", FileCheckpoint: `{"phase": "optimize"}`, FileConfig: ""},
			want: "holds a run (checkpoint.json): resume it with `tune -resume"},
		{name: "chain", files: map[string]string{"a.txt": "", FileChain: "{}"}, want: "holds a chain"},
		{name: "something else", files: map[string]string{"notes.txt": ""}, want: `is not empty (holds "notes.txt") and holds no run`},
		{name: "leftovers", files: map[string]string{FileConfig: "", FileRunning: ""}, left: []string{FileConfig, FileRunning}},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, text := range c.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		left, exists, err := checkNewDir(dir)
		if c.want == "" {
			slices.Sort(left)
			if err != nil || !exists || !slices.Equal(left, c.left) {
				t.Errorf("%s: leftovers %v, exists %v, %v; want %v", c.name, left, exists, err, c.left)
			}
			continue
		}
		var in *InputError
		if !errors.As(err, &in) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: %v; want an input error naming %s and saying %q", c.name, err, dir, c.want)
			continue
		}
		for _, n := range c.not {
			if strings.Contains(err.Error(), n) {
				t.Errorf("%s: %v says %q", c.name, err, n)
			}
		}
	}
}
