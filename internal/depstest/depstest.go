// Package depstest lets a package's tests check its room in the import
// rules: which packages it links.
package depstest

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// Module is roadtune's import path prefix, with its trailing slash.
const Module = "github.com/roadtune/roadtune/"

// Deps returns the import paths of every package the package in the
// test's working directory links, itself included (`go list -deps .`, so
// not its tests' imports). It skips the test when there is no go command
// and fails it when go list does.
func Deps(t testing.TB) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list -deps: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list -deps: %v", err)
	}
	return strings.Fields(string(out))
}

// Under reports whether pkg is root or one of its subpackages.
func Under(pkg, root string) bool {
	return pkg == root || strings.HasPrefix(pkg, root+"/")
}
