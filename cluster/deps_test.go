package cluster

import (
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/depstest"
)

// TestDependencies: the cluster reaches, of roadtune, only the referee,
// optimize, tournament and engine (and their subpackages), never tune:
// the tuning job sits above the cluster (its launch hooks are tune's
// ClusterHooks), and arena links the cluster without any optimizer.
func TestDependencies(t *testing.T) {
	const mod = depstest.Module
	allowed := func(pkg string) bool {
		for _, room := range []string{"cluster", "referee", "optimize", "tournament", "engine"} {
			if pkg == mod+room || room != "optimize" && depstest.Under(pkg, mod+room) {
				return true
			}
		}
		return false
	}
	for _, pkg := range depstest.Deps(t) {
		if strings.HasPrefix(pkg, mod) && !allowed(pkg) {
			t.Errorf("cluster depends on %s; it may import only referee, optimize, tournament and engine of roadtune", pkg)
		}
	}
}
