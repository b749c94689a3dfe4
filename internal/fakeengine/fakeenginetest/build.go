package fakeenginetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// Package is the import path of the fake engine's program.
const Package = "github.com/roadtune/roadtune/internal/fakeengine"

var (
	once sync.Once
	dir  string // the temporary directory holding the program
	path string
	err  error
)

// Build returns the path of the fake engine program, built with "go build"
// into a temporary directory at the first call of the test binary (later
// calls, from any goroutine, wait for it and return the same path). A
// build that fails fails tb with the go command's output, at that call and
// every later one: a test of external engines never skips for want of its
// engine.
func Build(tb testing.TB) string {
	tb.Helper()
	once.Do(build)
	if err != nil {
		tb.Fatal(err)
	}
	return path
}

// build builds the program into a new temporary directory.
func build() {
	if dir, err = os.MkdirTemp("", "fakeengine-"); err != nil {
		err = fmt.Errorf("fakeenginetest: %w", err)
		return
	}
	path = filepath.Join(dir, "fakeengine")
	out, e := exec.Command("go", "build", "-o", path, Package).CombinedOutput()
	if e != nil {
		err = fmt.Errorf("fakeenginetest: go build %s: %v\n%s", Package, e, out)
	}
}

// Main runs the tests of m and removes the program built by Build, if
// any, before returning m.Run's exit code; a TestMain calls
// os.Exit(fakeenginetest.Main(m)). Without it the program is left in the
// system's temporary directory.
func Main(m *testing.M) int {
	code := m.Run()
	if dir != "" {
		os.RemoveAll(dir)
	}
	return code
}
