package web

import (
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/depstest"
)

// TestDependencies: the pages link no tuning code (tune, tuneweb, the
// optimizers): tuning runs come through Options.Tune, so arena, which
// serves its matches with these pages, stays free of them.
func TestDependencies(t *testing.T) {
	const mod = depstest.Module
	for _, pkg := range depstest.Deps(t) {
		if depstest.Under(pkg, mod+"tune") || depstest.Under(pkg, mod+"internal/web/tuneweb") || strings.HasPrefix(pkg, mod+"optimize/") {
			t.Errorf("internal/web links %s; tuning runs come through Options.Tune (internal/web/tuneweb)", pkg)
		}
	}
}
