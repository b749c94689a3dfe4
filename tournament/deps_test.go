package tournament

import (
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/depstest"
)

// TestDependencies: tournament reaches, of roadtune, only engine (and its
// subpackages) and tournament/stats, and never gonum.org/v1/plot
// (the project's room table: output and charts belong to results, the
// optimizers' referee to package referee).
func TestDependencies(t *testing.T) {
	const mod = depstest.Module
	allowed := func(pkg string) bool {
		return pkg == mod+"tournament" || pkg == mod+"tournament/stats" || depstest.Under(pkg, mod+"engine")
	}
	for _, pkg := range depstest.Deps(t) {
		switch {
		case strings.HasPrefix(pkg, mod) && !allowed(pkg):
			t.Errorf("tournament depends on %s; it may import only engine and tournament/stats of roadtune", pkg)
		case depstest.Under(pkg, "gonum.org/v1/plot"):
			t.Errorf("tournament depends on %s (charts belong to package results)", pkg)
		}
	}
}
