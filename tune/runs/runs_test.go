package runs

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/ladder"
)

// TestSeries reads a finished PSO run's metrics by step: the population's
// diversity, a gene of the best vector, a method metric; unknown genes
// and metrics are refused naming what there is.
func TestSeries(t *testing.T) {
	r, err := Open(runfixture.Straight(t, runfixture.Tiny(t, "pso")))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"diversity", "gene-std", "gene:S3", "w"} {
		x, y, err := r.Series(m)
		if err != nil || len(x) != 3 || len(y) != 3 {
			t.Fatalf("series %s: %v %v %v", m, x, y, err)
		}
	}
	if _, _, err := r.Series("gene:Q9"); err == nil || !strings.Contains(err.Error(), "S1") {
		t.Fatalf("unknown gene: %v", err)
	}
	if _, _, err := r.Series("nonsense"); err == nil || !strings.Contains(err.Error(), "diversity") {
		t.Fatalf("unknown metric: %v", err)
	}
}

// TestSeriesAndCompareOfTheMeasuredElo: a GA measuring its Elo every 2
// of 5 generations has the Elo series of those steps, and Compare draws
// it, with its intervals, for each run given.
func TestSeriesAndCompareOfTheMeasuredElo(t *testing.T) {
	cfg := runfixture.TinyWith(t, "ga", "ga.generations", "5", "validation.opponents", `["halfway", "zhou2015"]`,
		"validation.depths", "[1]", "validation.pairs", "1", "validation.elo_every", "2", "validation.elo_pairs", "2")
	dir := runfixture.Straight(t, cfg)
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	x, y, err := r.Series(tune.MetricElo)
	if err != nil || !slices.Equal(x, []float64{1, 3, 4}) || len(y) != 3 {
		t.Fatalf("Series(elo): %v %v %v", x, y, err)
	}
	if _, _, err := r.Series("nonsense"); err == nil || !strings.Contains(err.Error(), "elo_ci") {
		t.Fatalf("unknown metric: %v", err)
	}
	mc, err := Compare([]string{dir, dir}, tune.MetricElo)
	if err != nil || len(mc.Chart.Series) != 2 || bytes.Count(mc.CSV, []byte("\n")) != 1+6 || len(mc.Chart.Bands) != 2 {
		t.Fatalf("Compare elo: %v\n%+v", err, mc)
	}
	// The Y axis names the opponent and depth; each run's band is its own
	// legend entry; the ticks read.
	if mc.Chart.YLabel != "Elo against zhou2015 at depth 1" {
		t.Errorf("y label %q", mc.Chart.YLabel)
	}
	for i, b := range mc.Chart.Bands {
		if b.Name != mc.Chart.Series[b.Series].Name+": 95% interval" {
			t.Errorf("band %d named %q", i, b.Name)
		}
	}
	if over, err := results.TickOverlaps(mc.Chart); err != nil || len(over) > 0 {
		t.Errorf("ticks: %v %v", over, err)
	}
}

// TestCompareSweep compares a sweep's runs: a row per seed, a column per
// rung, the sweep's mean per rung; a run without a ladder is left out
// with a note.
func TestCompareSweep(t *testing.T) {
	cfg := runfixture.Tiny(t, "ga")
	dir := filepath.Join(t.TempDir(), "sweep")
	dirs := runfixture.Sweep(t, cfg, []int64{3, 4}, dir)
	// The ladder comparison: a row per seed, a column per rung.
	cmp, err := CompareRuns(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Runs) != 2 || len(cmp.Columns) != 2 || cmp.Columns[0] != (RungKey{Opponent: "zhou2015", Depth: 1}) || cmp.Columns[1] != (RungKey{Opponent: "zhou2015", Depth: 2}) {
		t.Fatalf("comparison columns %v of %d runs", cmp.Columns, len(cmp.Runs))
	}
	for _, r := range cmp.Runs {
		g := r.Rungs[RungKey{Opponent: "zhou2015", Depth: 1}]
		if g.Match().N != 4 || g.Verdict != ladder.Verdict(g.Match().Elo, g.Match().EloCI) {
			t.Errorf("%s: rung %+v", r.Name, g.Match())
		}
	}
	if md := cmp.Markdown(); !strings.Contains(md, "| sweep/seed-3 | ga | 3 |") || !strings.Contains(md, "| sweep (ga) | vs zhou2015 d2 | 2 |") {
		t.Errorf("markdown:\n%s", md)
	}
	if bars := cmp.Chart().Bars; len(bars) != 4 || bars[0].Label != "sweep/seed-3 vs zhou2015 d1" {
		t.Errorf("chart bars %+v", bars)
	}
	// A run without a ladder is left out of the Elo comparison, with a note.
	none := cfg
	none.Validation.Opponents = []string{}
	job, err := tune.Start(none, filepath.Join(t.TempDir(), "noladder"), tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c, err := CompareRuns([]string{job.Dir()}); err != nil || len(c.Runs) != 0 || len(c.Skipped) != 1 || !strings.Contains(c.Skipped[0], "no verification ladder") {
		t.Errorf("a run without a ladder: %v %+v", err, c)
	}
}

// fuzzRun is a tiny GA run of two steps, played once per fuzzing process,
// whose files the run-directory targets copy and corrupt.
func fuzzRun(f *testing.F) (files map[string][]byte) {
	f.Helper()
	cfg, err := tune.Parse("ga.toml", []byte(tunetest.Tiny("ga")))
	if err != nil {
		f.Fatal(err)
	}
	dir := filepath.Join(f.TempDir(), "run")
	j, err := tune.Start(cfg, dir, tune.Options{})
	if err != nil {
		f.Fatal(err)
	}
	if err := j.Steps(context.Background(), 2); err != nil {
		f.Fatal(err)
	}
	files = map[string][]byte{}
	for _, name := range []string{tune.FileConfig, tune.FileCheckpoint, tune.FileRecords} {
		if files[name], err = os.ReadFile(filepath.Join(dir, name)); err != nil {
			f.Fatal(err)
		}
	}
	return files
}

// writeRun writes files into a new run directory and returns it.
func writeRun(t *testing.T, files map[string][]byte) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// FuzzLadderCompare reads arbitrary data as the ladder.json of a good run,
// as tune compare does (CompareRuns, then its table and summary): no
// panic; an error names the ladder or the run; a run compared has one
// matchup per rung, and the comparison's columns are its rungs' keys,
// each once.
func FuzzLadderCompare(f *testing.F) {
	files := fuzzRun(f)
	rung := ladder.Rung{Opponent: "zhou2015", Depth: 2, Width: 4, Verdict: "inconclusive",
		Summary: tournament.Summary{Matchups: []tournament.MatchSummary{{A: "tuned", B: "zhou2015", N: 4}}}}
	for _, rs := range [][]ladder.Rung{{rung}, {rung, rung}, {}, {{Opponent: "x"}}} {
		data, err := json.Marshal(rs)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("null"))
	f.Add([]byte(`[{"opponent":"a","depth":-1,"summary":{"matchups":[{"n":-3,"elo":1e308}]}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := writeRun(t, map[string][]byte{tune.FileConfig: files[tune.FileConfig], tune.FileRecords: files[tune.FileRecords],
			tune.FileCheckpoint: files[tune.FileCheckpoint], ladder.File: data})
		c, err := CompareRuns([]string{dir})
		if err != nil {
			if !strings.Contains(err.Error(), dir) {
				t.Fatalf("error without the run: %v", err)
			}
			return
		}
		seen := map[RungKey]bool{}
		for _, k := range c.Columns {
			if seen[k] {
				t.Fatalf("column %v twice", k)
			}
			seen[k] = true
		}
		for _, r := range c.Runs {
			for k, g := range r.Rungs {
				if !seen[k] || len(g.Summary.Matchups) != 1 {
					t.Fatalf("rung %v: %d matchups, a column: %v", k, len(g.Summary.Matchups), seen[k])
				}
			}
		}
		_ = c.Markdown()
		_ = c.Summary()
	})
}

// FuzzParseCurveGroups reads arbitrary `tune compare -curve` arguments
// (one per line) in a directory holding a run r and a sweep s of seeds 2
// and 10: no panic; an error quotes an argument; each argument is one
// line of the chart, labelled, with runs that hold a config (a sweep's by
// seed).
func FuzzParseCurveGroups(f *testing.F) {
	root := f.TempDir()
	for _, d := range []string{"r", "s/seed-10", "s/seed-2", "s/seed-x", "empty"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			f.Fatal(err)
		}
		if d != "empty" && d != "s/seed-x" {
			if err := os.WriteFile(filepath.Join(root, d, tune.FileConfig), []byte("method = \"ga\"\n"), 0o644); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Chdir(root)
	for _, s := range []string{"r", "s", "ga=r,s", "=r", "x=", "x=r,,s", "empty", "s/seed-x", "a=b=c", "r\ns\nlabel=s/seed-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\n")
		groups, err := ParseCurveGroups(args)
		if err != nil {
			if !slices.ContainsFunc(args, func(a string) bool { return strings.Contains(err.Error(), strconv.Quote(a)) }) {
				t.Fatalf("error quotes no argument: %v", err)
			}
			return
		}
		if len(groups) != len(args) {
			t.Fatalf("%q: %d groups", args, len(groups))
		}
		for _, g := range groups {
			if g.Label == "" || len(g.Dirs) == 0 {
				t.Fatalf("%q: group %+v", args, g)
			}
			for _, d := range g.Dirs {
				if _, err := os.Stat(filepath.Join(d, tune.FileConfig)); err != nil {
					t.Fatalf("%q: run %s without a config", args, d)
				}
			}
		}
	})
}
