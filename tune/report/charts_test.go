package report

import (
	"fmt"
	"slices"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
)

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
		if len(s.idx) > MaxGeneSeries {
			t.Errorf("set %s: %d genes", s.slug, len(s.idx))
		}
	}
	if want := []string{"X-1", "X-2", "X-3", "other"}; !slices.Equal(got, want) || n != len(names) {
		t.Errorf("sets %v (%d genes), want %v", got, n, want)
	}
}

// TestProfileChart: a method's profiles become one panel a gene, laid out
// as the genes chart, each with its band and the gene's value at the
// answer; RunCharts adds the chart when the Spec reads profiles from the
// last record, and none without.
func TestProfileChart(t *testing.T) {
	prof := func(g string) optimize.Profile {
		return optimize.Profile{Gene: g, At: 2, X: []float64{0, 2, 4}, Mean: []float64{-10, 30, 5}, Lo: []float64{-40, 10, -30}, Hi: []float64{20, 50, 40}}
	}
	pc, ok := ProfileChart([]optimize.Profile{prof("M1"), prof("M2"), prof("T1")})
	if !ok || len(pc.Rows) != 2 || len(pc.Rows[0]) != 2 || pc.Rows[0][1].Title != "M2 2 (0–4)" || !slices.Equal(pc.Rows[1][0].Hi, []float64{20, 50, 40}) {
		t.Fatalf("profile chart rows %+v", pc.Rows)
	}
	if _, err := pc.SVG(); err != nil {
		t.Fatal(err)
	}
	if _, ok := ProfileChart(nil); ok {
		t.Error("a chart of no profiles")
	}
	spec := optimize.Spec{Name: "m", Unit: "step", Profiles: func(last optimize.Record) []optimize.Profile {
		if last.Step == 1 {
			return []optimize.Profile{prof("M1")}
		}
		return nil
	}}
	recs := []optimize.Record{{Step: 0, Best: []float64{1}}, {Step: 1, Best: []float64{2}}}
	has := func(cs []results.NamedChart) bool {
		return slices.ContainsFunc(cs, func(c results.NamedChart) bool { return c.Name == "profile" })
	}
	if !has(RunCharts(RunData{Spec: spec, Records: recs, Genes: []string{"M1"}})) {
		t.Error("RunCharts drew no profile chart")
	}
	if has(RunCharts(RunData{Spec: spec, Records: recs[:1], Genes: []string{"M1"}})) {
		t.Error("a profile chart from a record without profiles")
	}
}
