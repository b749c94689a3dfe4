package tune

import (
	"fmt"
	"sort"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/bayes"
	"github.com/roadtune/roadtune/optimize/cmaes"
	"github.com/roadtune/roadtune/optimize/ga"
	"github.com/roadtune/roadtune/optimize/pso"
	"github.com/roadtune/roadtune/optimize/spsa"
	"github.com/roadtune/roadtune/optimize/texel"
)

// registry holds the methods a config may name, by name.
var registry = map[string]optimize.Spec{}

// The methods roadtune ships. A new method is one package exporting an
// optimize.Spec plus one line here.
func init() {
	Register(ga.Spec)
	Register(pso.Spec)
	Register(spsa.Spec)
	Register(texel.Spec)
	Register(cmaes.Spec)
	Register(bayes.Spec)
}

// Register makes a method available to configs under spec.Name (its options
// are the config's [name] table). It panics on an incomplete Spec or a name
// registered twice, as a programming error: call it from an init function
// or before loading configs.
func Register(spec optimize.Spec) {
	switch {
	case spec.Name == "" || spec.Unit == "" || spec.BudgetKey == "":
		panic("tune: Register: a Spec needs Name, Unit and BudgetKey")
	case spec.Options == nil || spec.Options() == nil:
		panic(fmt.Sprintf("tune: Register %q: a Spec needs Options", spec.Name))
	}
	if _, dup := registry[spec.Name]; dup {
		panic(fmt.Sprintf("tune: Register: method %q registered twice", spec.Name))
	}
	switch spec.Name {
	case "method", "schema", "seed", "concurrency", "name", "stall", "budget", "engine", "match", "init", "bounds", "validation", "output":
		panic(fmt.Sprintf("tune: Register: method name %q is a config key", spec.Name))
	}
	registry[spec.Name] = spec
}

// Methods returns the registered methods, by name.
func Methods() []optimize.Spec {
	out := make([]optimize.Spec, 0, len(registry))
	for _, n := range MethodNames() {
		out = append(out, registry[n])
	}
	return out
}

// MethodNames returns the registered methods' names, sorted.
func MethodNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Method returns the registered method called name.
func Method(name string) (optimize.Spec, bool) {
	s, ok := registry[name]
	return s, ok
}
