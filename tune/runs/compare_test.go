package runs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/ladder"
)

// TestCompareMixedRuns compares what a user has after a night: a chain
// (a Texel stage without a ladder, then an SPSA stage with one) and a GA
// run with a ladder. Nothing aborts: the Texel stage is left out of the
// ladder table with a note, the default metric is one the runs have, a
// metric one run lacks leaves that run out, and the ladder chart groups
// the bars by rung and colours them by run.
func TestCompareMixedRuns(t *testing.T) {
	t.Parallel() // its own directories; a chain and a run to play
	cfg, _ := runfixture.WriteChain(t, runfixture.SPSAStage)
	_, stageDirs := runfixture.StraightChain(t, cfg)
	chain := filepath.Dir(stageDirs[0])
	// Open reads a chain's directory as its last stage.
	if r, err := Open(chain); err != nil || r.Dir != stageDirs[1] || r.Phase != tune.PhaseDone || r.Unfinished() != "" {
		t.Fatalf("Open(chain): %v %+v", err, r)
	}
	gaDir := filepath.Join(t.TempDir(), "garun")
	job, err := tune.Start(runfixture.Tiny(t, "ga"), gaDir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}

	dirs, notes, err := CompareDirs([]string{chain, gaDir})
	if err != nil || len(dirs) != 3 || len(notes) != 0 || dirs[0] != stageDirs[0] || dirs[2] != gaDir {
		t.Fatalf("CompareDirs: %v %v %v", dirs, notes, err)
	}
	base := filepath.Join(t.TempDir(), "cmp")
	out, err := WriteCompare([]string{chain, gaDir}, "", base)
	if err != nil {
		t.Fatal(err)
	}
	c := out.Ladder
	var names []string
	for _, r := range c.Runs {
		names = append(names, r.Name)
	}
	stage2 := filepath.Base(chain) + "/" + filepath.Base(stageDirs[1])
	if !slices.Equal(names, []string{stage2, "garun"}) {
		t.Fatalf("compared runs %v, want the SPSA stage and the GA run", names)
	}
	if len(c.Skipped) == 0 || !strings.Contains(strings.Join(c.Skipped, "\n"), "stage-1-texel: no verification ladder") {
		t.Errorf("skipped %q: want the Texel stage named", c.Skipped)
	}
	md, err := os.ReadFile(base + ".md")
	if err != nil || !strings.Contains(string(md), "Left out:") || !strings.Contains(string(md), "| garun | ga |") {
		t.Errorf("compare.md (%v):\n%s", err, md)
	}
	for _, f := range out.Files {
		if _, err := os.Stat(f); err != nil {
			t.Error(err)
		}
	}
	if out.Metric == "" || !slices.Contains(out.Files, base+"-ladder.png") {
		t.Errorf("metric %q, files %v", out.Metric, out.Files)
	}

	// The chart: one group per rung, one colour (series) per run, every
	// group's label the rung alone.
	groups, series := map[string]bool{}, map[string]bool{}
	for _, b := range c.Chart().Bars {
		groups[b.Group], series[b.Series] = true, true
		if strings.Contains(b.Group, b.Series) {
			t.Errorf("bar %+v: the group label repeats the run", b)
		}
	}
	if len(groups) != len(c.Columns) || len(series) != 2 {
		t.Errorf("%d groups for %d rungs, %d series for 2 runs", len(groups), len(c.Columns), len(series))
	}

	// Runs whose steps differ in kind (rounds, iterations, generations)
	// are drawn by fitness games.
	gene := "gene:" + cfg.GeneNames()[0]
	all, err := Compare(dirs, gene)
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Chart.Series) != 3 || all.Chart.XLabel != "fitness games" || !strings.HasPrefix(string(all.CSV), "run,fitness games,"+gene) {
		t.Errorf("mixed methods: %d series by %q", len(all.Chart.Series), all.Chart.XLabel)
	}
	for _, s := range all.Chart.Series {
		if !slices.IsSorted(s.X) || s.X[0] <= 0 {
			t.Errorf("%s: games %v, want growing from > 0", s.Name, s.X)
		}
	}

	// A metric one run lacks (Texel records no diversity) leaves it out.
	mc, err := Compare(dirs, "diversity")
	if err != nil {
		t.Fatal(err)
	}
	if len(mc.Chart.Series) != 1 || mc.Chart.Series[0].Name != "garun" || len(mc.Notes) != 2 {
		t.Errorf("diversity: series %d, notes %q", len(mc.Chart.Series), mc.Notes)
	}
	// A metric no run has, or a directory that is no run, is bad input.
	var in *tune.InputError
	if _, err := WriteCompare([]string{gaDir}, "nonsense", base); !errors.As(err, &in) {
		t.Errorf("unknown metric: %v", err)
	}
	if _, err := WriteCompare([]string{t.TempDir()}, "", base); !errors.As(err, &in) || !strings.Contains(err.Error(), "neither a run") {
		t.Errorf("not a run: %v", err)
	}
}

// TestCompareGroupsByMethod: the summary averages a method's runs of one
// sweep, or a method's runs of their own, never two methods as one: a GA
// run and a PSO run are two groups of one run each, a sweep's two GA runs
// one group of two, and the table says how it groups.
func TestCompareGroupsByMethod(t *testing.T) {
	k := RungKey{Opponent: "zhou2015", Depth: 3}
	run := func(name, sweep, method string, elo float64) ComparedRun {
		g := ladder.Rung{Opponent: k.Opponent, Depth: k.Depth, Verdict: "stronger",
			Summary: tournament.Summary{Matchups: []tournament.MatchSummary{{Elo: elo, EloCI: 10, N: 100}}}}
		return ComparedRun{Name: name, Sweep: sweep, Method: method, Rungs: map[RungKey]ladder.Rung{k: g}}
	}
	c := &RunComparison{Columns: []RungKey{k}, Runs: []ComparedRun{
		run("garun", "", "ga", 100), run("psorun", "", "pso", 140),
		run("night/seed-1", "night", "ga", 50), run("night/seed-2", "night", "ga", 70),
	}}
	md := c.Markdown()
	for _, want := range []string{
		"runs of different methods are not averaged together",
		"| ga (single runs) | vs zhou2015 d3 | 1 | +100 | 0 |",
		"| pso (single runs) | vs zhou2015 d3 | 1 | +140 | 0 |",
		"| night (ga) | vs zhou2015 d3 | 2 | +60 | 14 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the summary lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "| 2 | +120 |") {
		t.Errorf("the GA and the PSO run are averaged as one method:\n%s", md)
	}
	c.Skipped = []string{"x: no verification ladder"}
	if s := c.Summary(); !strings.HasPrefix(s, md) || !strings.HasSuffix(s, "left out: x: no verification ladder\n") {
		t.Errorf("Summary:\n%s", s)
	}
}
