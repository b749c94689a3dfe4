package depstest_test

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/depstest"
)

const mod = depstest.Module

// room is one row of the import rules: the packages it covers (a path and
// its subpackages, or exactly the path), the roadtune packages they may
// link (besides their own room and standard-library-only leaves), and
// packages outside roadtune they must not link.
type room struct {
	path    string
	exact   bool     // only path itself, not its subpackages
	may     []string // roadtune rooms (with their subpackages) it may link; nil = any
	mayNot  []string // roadtune rooms it must not link when may is nil
	never   []string // outside packages it must not link ("x/..." = x and its subpackages)
	stdOnly bool     // links nothing outside the standard library
	leaf    bool     // a leaf every room may link, which the row keeps one (with stdOnly)
	why     string
}

// rooms are the import rules of the room table (the project's style
// guide): data flows one way, config → optimizer → tournament → engine,
// and nothing below reaches back up.
var rooms = []room{
	{path: "engine", may: []string{}, stdOnly: true, why: "the engine imports nothing of ours but a standard-library-only leaf"},
	{path: "tournament/stats", may: []string{}, never: []string{"gonum.org/v1/plot/..."}, why: "match statistics stand alone"},
	{path: "tournament/wdl", exact: true, stdOnly: true, leaf: true, why: "the W/D/L and pentanomial count of a match is a leaf of the standard library, so the optimizers (optimize.Outcome) and the tournament share it"},
	{path: "tournament", exact: true, may: []string{"engine", "tournament/stats"}, never: []string{"gonum.org/v1/plot/..."}, why: "tournament plays games of engines; charts belong to results"},
	{path: "tournament/losses", may: []string{"engine", "tournament"}, never: []string{"gonum.org/v1/plot/..."}, why: "a match's post-mortem reads its games and asks the engine's threat search"},
	{path: "tournament/enginespec", may: []string{"engine", "tournament"}, never: []string{"gonum.org/v1/plot/..."}, why: "a player's option list resolves to a tournament player of the engine"},
	{path: "optimize", exact: true, may: []string{}, why: "optimize is the interfaces every method and referee share"},
	{path: "optimize/", may: []string{"optimize"}, why: "an optimizer sees only optimize, never engine internals"},
	{path: "referee", may: []string{"optimize", "tournament", "engine"}, why: "the referee turns matches into tournament games"},
	{path: "cluster", may: []string{"referee", "optimize", "tournament", "engine"}, why: "the cluster plays the referee's batches elsewhere; tune sits above it"},
	{path: "results", may: []string{}, why: "results is generic output"},
	{path: "configs", may: []string{"engine", "tournament"}, why: "configs embeds files and reads them with their rooms' readers"},
	{path: "cmd/internal/web", exact: true, mayNot: []string{"tune", "cmd/internal/web/tuneweb", "optimize/"}, why: "tuning runs reach the pages through Options.Tune, so arena stays free of them"},
	{path: "cmd/arena", mayNot: []string{"tune", "cmd/internal/web/tuneweb", "optimize/"}, never: []string{"gonum.org/v1/gonum/optimize", "github.com/yuin/goldmark/..."}, why: "arena plays matches: no tuning job, optimizer or report Markdown"},
	{path: "cmd/engine", may: []string{"engine", "configs", "tournament"}, why: "the engine binary is the engine and its baselines"},
	{path: "tune", exact: true, mayNot: []string{"tune/runs", "tune/launch", "tune/chain"}, why: "the tuning job is the core its rooms build on: the readers of runs (tune/runs), the chain runner (tune/chain) and the launch (tune/launch) sit above it"},
	{path: "tune/chain", mayNot: []string{"tune/runs", "tune/launch"}, why: "the chain runner sits above the core and plays its stages through the core's API; the launch (tune/launch) sits above it, and it reads its stages with the core, not with the readers of runs"},
	{path: "tune/report", may: []string{"results", "optimize", "engine"}, why: "the report's room sits below the job: charts and pages from records and files, not from a Job"},
	{path: "tune/positions", may: []string{"optimize"}, never: []string{"gonum.org/v1/plot/..."}, why: "the positions store is a Sampler on disk below the job: no charts, so CI fuzzes it"},
	{path: "tune/param", may: []string{"engine", "optimize", "referee", "tournament"}, never: []string{"gonum.org/v1/plot/..."}, why: "the [[param]] and [external] tables sit below the job: tables, problems and SPSA gains (optimize/spsa), the external engine as the referee describes and the tournament starts it, not configs or a Job"},
	{path: "tune/budget", may: []string{"optimize"}, never: []string{"gonum.org/v1/plot/..."}, why: "the budget by the clock sits below the job: plans, calibrations and clocks in seconds, not configs"},
	{path: "tune/ladder", may: []string{"results", "tournament", "engine", "optimize", "referee", "configs"}, why: "the verification ladder's room sits below the job: rungs, verdicts and matches of a run's players, not of a Job; its vectors become players as the referee makes them, its baselines and suites are configs', its records (optimize.Record) hold the Elo it measured"},
	{path: "tune", mayNot: []string{"cmd/", "internal/cmdline", "internal/fixture", "cluster"}, never: []string{"github.com/nats-io/..."}, why: "tune is a library below the commands, their pages and the cluster: it takes values, not flags, and links no NATS"},
}

func (r room) covers(pkg string) bool {
	p := mod + r.path
	if strings.HasSuffix(r.path, "/") {
		return strings.HasPrefix(pkg, p)
	}
	return pkg == p || !r.exact && strings.HasPrefix(pkg, p+"/")
}

// within reports whether pkg is one of rooms (a trailing slash: only the
// subpackages).
func within(pkg string, rooms []string) bool {
	for _, r := range rooms {
		if strings.HasSuffix(r, "/") && strings.HasPrefix(pkg, mod+r) || depstest.Under(pkg, mod+r) {
			return true
		}
	}
	return false
}

// TestRooms checks every roadtune package's links against the room table.
func TestRooms(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}}|{{.Standard}}|{{join .Deps \" \"}}", mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	std := map[string]bool{}
	deps := map[string][]string{}
	for line := range strings.Lines(string(out)) {
		f := strings.SplitN(strings.TrimSpace(line), "|", 3)
		if len(f) != 3 {
			t.Fatalf("go list line %q", line)
		}
		std[f[0]] = f[1] == "true"
		deps[f[0]] = strings.Fields(f[2])
	}
	// A leaf is a supporting package of ours outside every room (or in a
	// room marked leaf, whose row keeps it one) that links only the
	// standard library and other leaves (atomic files, JSON Lines,
	// command-line wording and its spelling suggestions, a match's W/D/L
	// count): any room may link it. (deps lists every package a package
	// links, so a leaf's own leaves are among them.)
	var leaf func(pkg string) bool
	leaf = func(pkg string) bool {
		inRoom := slices.ContainsFunc(rooms, func(r room) bool { return r.covers(pkg) && !r.leaf })
		return !inRoom && strings.HasPrefix(pkg, mod) && slices.IndexFunc(deps[pkg], func(d string) bool { return !std[d] && !leaf(d) }) < 0
	}
	checked := 0
	for pkg, ds := range deps {
		if !strings.HasPrefix(pkg, mod) {
			continue
		}
		for _, r := range rooms {
			if !r.covers(pkg) {
				continue
			}
			checked++
			for _, d := range ds {
				ours := strings.HasPrefix(d, mod)
				switch {
				case r.stdOnly && !std[d] && !(ours && (r.covers(d) || leaf(d))):
					t.Errorf("%s links %s: %s", pkg, d, r.why)
				case ours && r.may != nil && !r.covers(d) && !within(d, r.may) && !leaf(d):
					t.Errorf("%s links %s: %s", pkg, d, r.why)
				case ours && within(d, r.mayNot):
					t.Errorf("%s links %s: %s", pkg, d, r.why)
				case !ours && within2(d, r.never):
					t.Errorf("%s links %s: %s", pkg, d, r.why)
				}
			}
		}
	}
	if checked < len(rooms) {
		t.Errorf("only %d package-room pairs checked: a room of the table has no package", checked)
	}
}

// within2 reports whether an outside package is one of pats: a path, or
// "x/..." for x and its subpackages.
func within2(pkg string, pats []string) bool {
	return slices.ContainsFunc(pats, func(p string) bool {
		if root, ok := strings.CutSuffix(p, "/..."); ok {
			return depstest.Under(pkg, root)
		}
		return pkg == p
	})
}

// TestEveryPackageHasADocFile: a reader who opens any package finds its
// room and purpose in its doc.go.
func TestEveryPackageHasADocFile(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}", mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) < 20 {
		t.Fatalf("go list found %d packages", len(dirs))
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "doc.go")); err != nil {
			t.Errorf("%s has no doc.go", d)
		}
	}
}

// floor is the group of a roadtune package in the floor plan: its
// top-level directory, except that internal/ is split by floor: the
// ground-floor helpers (internal/fileio, internal/cmdline, …) apart from
// the test fixtures (internal/fixture/…), which sit above tune and the
// cluster. The commands' own pages and cluster session live under
// cmd/internal, inside cmd's group.
func floor(pkg string) string {
	p := strings.TrimPrefix(pkg, mod)
	if depstest.Under(p, "internal/fixture") {
		return "internal/fixture"
	}
	top, _, _ := strings.Cut(p, "/")
	return top
}

// TestFloorsHaveNoCycle: grouped by floor (floor), the packages' imports
// (tests aside: a test may import a fixture built on the package it
// tests) form no cycle, so a reader can take the groups in order, from
// the ground up; a cycle is reported with its path.
func TestFloorsHaveNoCycle(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	edges := map[string]map[string]bool{}
	for line := range strings.Lines(string(out)) {
		f := strings.Fields(line)
		from := floor(f[0])
		for _, d := range f[1:] {
			if to := floor(d); strings.HasPrefix(d, mod) && to != from {
				if edges[from] == nil {
					edges[from] = map[string]bool{}
				}
				edges[from][to] = true
			}
		}
	}
	if len(edges) < 8 {
		t.Fatalf("only %d groups import others: %v", len(edges), edges)
	}
	state := map[string]int{} // 1 on the path, 2 done
	var path []string
	var visit func(g string)
	visit = func(g string) {
		state[g] = 1
		path = append(path, g)
		for _, n := range slices.Sorted(maps.Keys(edges[g])) {
			switch state[n] {
			case 0:
				visit(n)
			case 1:
				i := slices.Index(path, n)
				t.Errorf("the floors import in a cycle: %s → %s", strings.Join(path[i:], " → "), n)
			}
		}
		path = path[:len(path)-1]
		state[g] = 2
	}
	for _, g := range slices.Sorted(maps.Keys(edges)) {
		if state[g] == 0 {
			visit(g)
		}
	}
}
