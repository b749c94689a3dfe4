package tune

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
)

// TestRunChartsAreThePlots: RunResults.Charts of a finished run renders
// the charts the run saved under plots/, byte for byte, and while a run is
// unfinished it renders the charts of the steps so far.
func TestRunChartsAreThePlots(t *testing.T) {
	t.Parallel()
	cfg := tiny(t, "pso")
	dir := filepath.Join(t.TempDir(), "run")
	job, err := Start(cfg, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Steps(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	r, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	charts, err := r.Charts()
	if err != nil || len(charts) == 0 || charts[0].Name != "genes" {
		t.Fatalf("charts of a running job: %v, %v", len(charts), err)
	}
	if err := job.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	if charts, err = r.Charts(); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range charts {
		names[c.Name] = true
		svg, err := c.Chart.SVG()
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		file, err := os.ReadFile(filepath.Join(dir, DirPlots, c.Name+".svg"))
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if !bytes.Equal(svg, file) {
			t.Errorf("%s: the rendered chart differs from plots/%s.svg", c.Name, c.Name)
		}
	}
	if !names["ladder"] || !names["genes"] {
		t.Errorf("charts %v: want genes and ladder", names)
	}
}

// fakeRecords are n records of spec's run on cfg's genes with every metric
// spec's charts plot, for building the charts without playing.
func fakeRecords(cfg Config, spec optimize.Spec, n int) []optimize.Record {
	genes := cfg.GeneNames()
	recs := make([]optimize.Record, n)
	for i := range recs {
		best := make([]float64, len(genes))
		for d := range best {
			best[d] = float64(100*d + i)
		}
		m := map[string]float64{}
		for _, c := range spec.Charts {
			for _, k := range c.Metrics {
				m[k] = float64(i)
			}
			if c.Prefix != "" {
				for _, g := range genes {
					m[c.Prefix+g] = float64(i)
				}
			}
		}
		recs[i] = optimize.Record{Step: i, Best: best, Metrics: m}
	}
	return recs
}

// TestDualGenesChartsSplit: the dual schema's 21 genes, and SPSA's
// per-gene θ, are charted one gene set a chart, each of at most 12 series,
// every gene once; the symmetric schema keeps its one "genes" chart.
func TestDualGenesChartsSplit(t *testing.T) {
	spec := registry["spsa"]
	cfg := tiny(t, "spsa")
	cfg.Schema = "dual"
	charts := runCharts(cfg, spec, fakeRecords(cfg, spec, 3))
	for _, base := range []string{"genes", "theta_norm"} {
		var names []string
		seen := map[string]int{}
		for _, c := range charts {
			if !strings.HasPrefix(c.Name, base+"-") {
				continue
			}
			names = append(names, c.Name)
			lc := c.Chart.(results.LineChart)
			if len(lc.Series) > maxGeneSeries {
				t.Errorf("%s: %d series", c.Name, len(lc.Series))
			}
			for _, s := range lc.Series {
				seen[s.Name]++
			}
			if _, err := lc.SVG(); err != nil {
				t.Errorf("%s: %v", c.Name, err)
			}
		}
		want := []string{base + "-defend", base + "-attack", base + "-alert"}
		if !slices.Equal(names, want) {
			t.Errorf("%s charts %v, want %v", base, names, want)
		}
		for _, g := range cfg.GeneNames() {
			if seen[g] != 1 {
				t.Errorf("%s: gene %s in %d charts", base, g, seen[g])
			}
		}
	}

	cfg.Schema = "symmetric"
	charts = runCharts(cfg, spec, fakeRecords(cfg, spec, 3))
	if charts[0].Name != "genes" || !slices.ContainsFunc(charts, func(c Chart) bool { return c.Name == "theta_norm" }) {
		t.Errorf("symmetric schema's charts start %q", charts[0].Name)
	}
}

// TestGeneSetsCut: a set of more genes than a chart holds is cut in parts.
func TestGeneSetsCut(t *testing.T) {
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("X.g%d", i))
	}
	names = append(names, "lone")
	var got []string
	n := 0
	for _, s := range geneSets(names) {
		got = append(got, s.slug)
		n += len(s.idx)
		if len(s.idx) > maxGeneSeries {
			t.Errorf("set %s: %d genes", s.slug, len(s.idx))
		}
	}
	if want := []string{"X-1", "X-2", "X-3", "other"}; !slices.Equal(got, want) || n != len(names) {
		t.Errorf("sets %v (%d genes), want %v", got, n, want)
	}
}

// TestMethodChartLabelsAreWords: every chart of the methods roadtune ships
// labels its series in words, never by a raw metric key.
func TestMethodChartLabelsAreWords(t *testing.T) {
	for _, name := range []string{"ga", "pso", "spsa", "texel"} {
		spec := registry[name]
		cfg := tiny(t, spec.Name)
		keys := map[string]bool{}
		for _, c := range spec.Charts {
			if len(c.Labels) != len(c.Metrics) {
				t.Errorf("%s chart %s: %d labels for %d metrics", spec.Name, c.Name, len(c.Labels), len(c.Metrics))
			}
			for _, k := range c.Metrics {
				keys[k] = true
			}
		}
		for _, c := range runCharts(cfg, spec, fakeRecords(cfg, spec, 2)) {
			for _, s := range c.Chart.(results.LineChart).Series {
				if keys[s.Name] || s.Name == "" {
					t.Errorf("%s chart %s: series %q is a metric key", spec.Name, c.Name, s.Name)
				}
			}
		}
		for _, c := range spec.Charts {
			for i := range c.Metrics {
				if l := c.Label(i); !strings.Contains(l, " ") {
					t.Errorf("%s chart %s: label %q is not words", spec.Name, c.Name, l)
				}
			}
		}
	}
}

// TestGenesChartBaseline: the genes charts mark the first baseline
// opponent of the run's schema, and none when no baseline has it.
func TestGenesChartBaseline(t *testing.T) {
	spec := registry["ga"]
	cases := []struct {
		schema    string
		opponents []string
		want      string
	}{
		{"symmetric", []string{Halfway, "zhou2015"}, "zhou2015 (dashed)"},
		{"dual", []string{"zhou2015", "qi2018-dual"}, "qi2018-dual (dashed)"},
		{"dual", []string{"zhou2015", Halfway}, ""},
	}
	for _, tc := range cases {
		cfg := tiny(t, "ga")
		cfg.Schema, cfg.Validation.Opponents = tc.schema, tc.opponents
		wf, _ := configs.LoadWeights(strings.TrimSuffix(tc.want, " (dashed)"))
		for _, c := range runCharts(cfg, spec, fakeRecords(cfg, spec, 2)) {
			if !strings.HasPrefix(c.Name, "genes") {
				continue
			}
			lc := c.Chart.(results.LineChart)
			if lc.BaselineName != tc.want {
				t.Errorf("%s %v: %s marks %q", tc.schema, tc.opponents, c.Name, lc.BaselineName)
			}
			if tc.want == "" {
				if lc.Baseline != nil {
					t.Errorf("%s: baseline values %v without a baseline", c.Name, lc.Baseline)
				}
				continue
			}
			genes := cfg.GeneNames()
			for i, s := range lc.Series {
				if d := slices.Index(genes, s.Name); lc.Baseline[i] != wf.Values[d] {
					t.Errorf("%s: %s baseline %g, want %g", c.Name, s.Name, lc.Baseline[i], wf.Values[d])
				}
			}
		}
	}
}
