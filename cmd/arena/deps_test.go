package main

import (
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/depstest"
)

// TestDependencies: arena plays matches, so it links neither the tuning
// job (tune, its web pages) nor an optimizer (optimize's subpackages,
// gonum's optimize) nor the report's Markdown (goldmark); its games go
// through the referee, the cluster and tournament.
func TestDependencies(t *testing.T) {
	const mod = depstest.Module
	for _, pkg := range depstest.Deps(t) {
		switch {
		case depstest.Under(pkg, mod+"tune"), depstest.Under(pkg, mod+"internal/web/tuneweb"):
			t.Errorf("arena links %s (the tuning job belongs to cmd/tune)", pkg)
		case strings.HasPrefix(pkg, mod+"optimize/"):
			t.Errorf("arena links the optimizer %s", pkg)
		case pkg == "gonum.org/v1/gonum/optimize":
			t.Errorf("arena links %s (the Texel fit's optimizer)", pkg)
		case depstest.Under(pkg, "github.com/yuin/goldmark"):
			t.Errorf("arena links %s (the report's Markdown)", pkg)
		}
	}
}
