package tune

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune/report"
)

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
	charts := RunCharts(cfg, spec, fakeRecords(cfg, spec, 3), nil)
	for _, base := range []string{"genes", "theta_norm"} {
		var names []string
		seen := map[string]int{}
		for _, c := range charts {
			if !strings.HasPrefix(c.Name, base+"-") {
				continue
			}
			names = append(names, c.Name)
			shown := chartSeries(c.Chart)
			if len(shown) > report.MaxGeneSeries {
				t.Errorf("%s: %d series", c.Name, len(shown))
			}
			for _, name := range shown {
				seen[name]++
			}
			if _, err := c.Chart.SVG(); err != nil {
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
	charts = RunCharts(cfg, spec, fakeRecords(cfg, spec, 3), nil)
	if charts[0].Name != "genes" || !slices.ContainsFunc(charts, func(c results.NamedChart) bool { return c.Name == "theta_norm" }) {
		t.Errorf("symmetric schema's charts start %q", charts[0].Name)
	}
}

// chartSeries names what a chart draws: a line chart's series, a panel
// chart's panels.
func chartSeries(c results.Chart) []string {
	var out []string
	switch c := c.(type) {
	case results.LineChart:
		for _, s := range c.Series {
			out = append(out, s.Name)
		}
	case results.PanelChart:
		for _, row := range c.Rows {
			for _, p := range row {
				out = append(out, p.Title)
			}
		}
	}
	return out
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
		for _, c := range RunCharts(cfg, spec, fakeRecords(cfg, spec, 2), nil) {
			for _, name := range chartSeries(c.Chart) {
				if keys[name] || name == "" {
					t.Errorf("%s chart %s: series %q is a metric key", spec.Name, c.Name, name)
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
		schema    engine.Schema
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
		for _, c := range RunCharts(cfg, spec, fakeRecords(cfg, spec, 2), nil) {
			if !strings.HasPrefix(c.Name, "genes") {
				continue
			}
			pc := c.Chart.(results.PanelChart)
			if pc.BaselineName != tc.want {
				t.Errorf("%s %v: %s marks %q", tc.schema, tc.opponents, c.Name, pc.BaselineName)
			}
			genes := cfg.GeneNames()
			for _, row := range pc.Rows {
				for _, pn := range row {
					switch d := slices.Index(genes, pn.Title); {
					case tc.want == "" && !math.IsNaN(pn.Baseline):
						t.Errorf("%s: %s has baseline %g without a baseline", c.Name, pn.Title, pn.Baseline)
					case tc.want != "" && pn.Baseline != wf.Values[d]:
						t.Errorf("%s: %s baseline %g, want %g", c.Name, pn.Title, pn.Baseline, wf.Values[d])
					}
				}
			}
		}
	}
}

// TestGenesChartMarksUnidentified: the genes chart is small multiples, a
// row per kind of road (M, W, T for the tempo schema); genes the method
// flags as unidentified in every step (Texel's M4 and M5) are muted and
// named in the caption with the method's reason; a gene that never moved
// is muted as unchanged; a run where nothing moved mutes nothing; the
// score chart has its interval band and its 0.5 line.
func TestGenesChartMarksUnidentified(t *testing.T) {
	spec := registry["texel"]
	cfg := tiny(t, "texel")
	cfg.Schema = "tempo"
	genes := cfg.GeneNames()
	recs := fakeRecords(cfg, spec, 3)
	for i := range recs {
		recs[i].Unidentified = []int{3, 4}
		recs[i].Best[3], recs[i].Best[4] = 7, 8
		recs[i].Metrics["score_ci"] = 0.05
	}
	recs[1].Unidentified = []int{3} // M5 flagged in two steps of three, but it did not move
	genesChart := func(recs []optimize.Record) results.PanelChart {
		t.Helper()
		for _, c := range RunCharts(cfg, spec, recs, nil) {
			if c.Name == "genes" {
				if _, err := c.Chart.SVG(); err != nil {
					t.Fatal(err)
				}
				return c.Chart.(results.PanelChart)
			}
		}
		t.Fatal("no genes chart")
		return results.PanelChart{}
	}
	pc := genesChart(recs)
	var rows [][]string
	var muted []string
	for _, row := range pc.Rows {
		var names []string
		for _, p := range row {
			names = append(names, p.Title)
			if p.Muted {
				muted = append(muted, p.Title)
			}
		}
		rows = append(rows, names)
	}
	if len(rows) != 3 || !slices.Equal(rows[0], genes[:5]) || !slices.Equal(rows[1], genes[5:10]) || !slices.Equal(rows[2], genes[10:]) {
		t.Errorf("rows %v: want M, W, T", rows)
	}
	if !slices.Equal(muted, []string{"M4", "M5"}) {
		t.Errorf("muted %v, want M4 and M5", muted)
	}
	if !strings.Contains(pc.Note, "Grey: M4, which texel cannot identify. "+spec.Unidentified) || !strings.Contains(pc.Note, "M5, unchanged over the run") {
		t.Errorf("note %q", pc.Note)
	}
	if !strings.HasPrefix(pc.MutedName, "not identified") {
		t.Errorf("legend %q", pc.MutedName)
	}
	still := fakeRecords(cfg, spec, 3)
	for i := range still {
		still[i].Best = slices.Clone(still[0].Best)
	}
	for _, row := range genesChart(still).Rows {
		for _, p := range row {
			if p.Muted {
				t.Errorf("%s muted in a run where nothing moved", p.Title)
			}
		}
	}
	for _, c := range RunCharts(cfg, spec, recs, nil) {
		if c.Name != "score" {
			continue
		}
		lc := c.Chart.(results.LineChart)
		if len(lc.Bands) != 1 || lc.Bands[0].Hi[0]-lc.Bands[0].Lo[0] != 0.1 || len(lc.HLines) != 1 || lc.HLines[0].Y != 0.5 {
			t.Errorf("score chart: bands %+v, lines %+v", lc.Bands, lc.HLines)
		}
	}
}

// TestChartTicksReadable: every chart of every method roadtune ships,
// over a long run (95 steps) of the tempo and the dual schema, labels
// its X axis with ticks that do not touch (results.TickOverlaps).
func TestChartTicksReadable(t *testing.T) {
	for _, name := range []string{"ga", "pso", "spsa", "texel", "cmaes"} {
		for _, schema := range []string{"tempo", "dual"} {
			spec := registry[name]
			cfg := tiny(t, name)
			if err := cfg.Schema.UnmarshalText([]byte(schema)); err != nil {
				t.Fatal(err)
			}
			for _, c := range RunCharts(cfg, spec, fakeRecords(cfg, spec, 95), nil) {
				over, err := results.TickOverlaps(c.Chart)
				if err != nil || len(over) > 0 {
					t.Errorf("%s %s %s: %v %v", name, schema, c.Name, over, err)
				}
			}
		}
	}
}
