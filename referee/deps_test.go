package referee

import (
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/depstest"
)

// TestDependencies: the referee reaches, of roadtune, only optimize,
// tournament, tournament/stats and engine (and engine's subpackages): no
// optimizer, no tune, no cluster, no results (the room table in package
// doc).
func TestDependencies(t *testing.T) {
	const mod = depstest.Module
	allowed := func(pkg string) bool {
		switch pkg {
		case mod + "referee", mod + "optimize", mod + "tournament", mod + "tournament/stats":
			return true
		}
		return depstest.Under(pkg, mod+"engine")
	}
	for _, pkg := range depstest.Deps(t) {
		if strings.HasPrefix(pkg, mod) && !allowed(pkg) {
			t.Errorf("referee depends on %s; it may import only optimize, tournament, tournament/stats and engine of roadtune", pkg)
		}
	}
}
