package fileio

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWholeLines: the end of a file's whole lines, for files that end with
// a newline, a torn last line, no newline at all, and a last line longer
// than any record.
func TestWholeLines(t *testing.T) {
	long := strings.Repeat("x", MaxLine+10)
	for _, tc := range []struct {
		text string
		want int64
		bad  bool
	}{
		{"", 0, false},
		{"{}\n", 3, false},
		{"{}\n{\"a\":1}\n", 11, false},
		{"{}\n{\"a\"", 3, false},
		{"{\"a\"", 0, false},
		{"{}\n" + long, 0, true},
	} {
		got, err := WholeLines(strings.NewReader(tc.text), int64(len(tc.text)), "log.jsonl")
		if tc.bad {
			if !IsInput(err) || !strings.Contains(err.Error(), "log.jsonl") {
				t.Errorf("%.20q: %v, want a bad-input error naming the file", tc.text, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%.20q: %d, %v; want %d", tc.text, got, err, tc.want)
		}
	}
}

// TestWriteAtomic: a file written, replaced keeping its mode, no temporary
// file left, and a directory in the way refused with the target unchanged.
func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "best.json")
	if err := WriteAtomic(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o600)
	if err := ReplaceAtomic(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(data) != "two" || fi.Mode().Perm() != 0o600 {
		t.Errorf("after replace: %q, mode %v", data, fi.Mode().Perm())
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteAtomic(filepath.Join(dir, "sub"), []byte("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("writing over a directory: %v", err)
	}
	if n, err := RemoveTemps(dir); n != 0 || err != nil {
		t.Errorf("%d temporary files left, %v", n, err)
	}
}
