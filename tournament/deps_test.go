package tournament

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies: tournament reaches, of roadtune, only engine (and its
// subpackages) and tournament/stats, and never gonum.org/v1/plot
// (style.md's room table: output and charts belong to results, the
// optimizers' referee to tune).
func TestDependencies(t *testing.T) {
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
	const mod = "github.com/roadtune/roadtune/"
	allowed := func(pkg string) bool {
		switch {
		case pkg == mod+"tournament", pkg == mod+"tournament/stats", pkg == mod+"engine":
			return true
		case strings.HasPrefix(pkg, mod+"engine/"):
			return true
		}
		return false
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch {
		case strings.HasPrefix(pkg, mod) && !allowed(pkg):
			t.Errorf("tournament depends on %s; it may import only engine and tournament/stats of roadtune", pkg)
		case pkg == "gonum.org/v1/plot" || strings.HasPrefix(pkg, "gonum.org/v1/plot/"):
			t.Errorf("tournament depends on %s (charts belong to package results)", pkg)
		}
	}
}
