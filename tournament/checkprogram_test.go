package tournament

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckProgram: a program that could not be started is refused with
// the reason, one that could is not, with a relative path taken from the
// engine's directory as the player starts it.
func TestCheckProgram(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "engine")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "notes")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		argv []string
		dir  string
		want string // "" for no error
	}{
		{[]string{exe, "-x"}, "", ""},
		{[]string{"./engine"}, dir, ""},
		{[]string{"sh", "-c", "true"}, "", ""},
		{[]string{"./engine"}, "", `program "./engine": no such file`},
		{[]string{filepath.Join(dir, "none")}, "", "no such file"},
		{[]string{plain}, "", "not executable"},
		{[]string{dir}, "", "a directory, not a program"},
		{[]string{"no-such-engine-anywhere"}, "", `program "no-such-engine-anywhere": not found in $PATH`},
		{nil, "", "empty command"},
	} {
		err := CheckProgram(c.argv, c.dir)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("CheckProgram(%q, %q) = %v, want %q", c.argv, c.dir, err, c.want)
		}
	}
}

// TestProgramPath: the file a program runs from, as the player finds it:
// a relative path from the engine's directory, a bare name from $PATH,
// absolute either way.
func TestProgramPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "engine")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, c := range []struct{ prog, dir string }{{"./engine", dir}, {"engine", ""}, {exe, ""}} {
		got, err := ProgramPath(c.prog, c.dir)
		if err != nil || got != exe {
			t.Errorf("ProgramPath(%q, %q) = %q, %v, want %q", c.prog, c.dir, got, err, exe)
		}
	}
	if _, err := ProgramPath("./engine", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a relative path from another directory: %v", err)
	}
}
