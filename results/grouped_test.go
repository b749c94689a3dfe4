package results

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// TestGroupedBarChart: bars of one Group share one axis label, bars of one
// Series one colour named once in the legend; the run names are not
// repeated under the bars.
func TestGroupedBarChart(t *testing.T) {
	var bars []Bar
	for _, rung := range []string{"zhou2015 d2", "zhou2015 d3", "halfway d2"} {
		for i, run := range []string{"texel-night", "ga-seed-1", "ga-seed-2"} {
			v := float64(10*i) - 5
			bars = append(bars, Bar{Label: run + " vs " + rung, Group: rung, Series: run, Value: v, Lo: v - 20, Hi: v + 20})
		}
	}
	c := BarChart{Title: "Runs compared", YLabel: "Elo", Bars: bars, RefLine: &HLine{Name: "0 Elo"}}
	base := filepath.Join(t.TempDir(), "cmp")
	if err := c.Save(base); err != nil {
		t.Fatal(err)
	}
	line, _ := seriesStyle(1)
	checkChartFiles(t, base, 945, 591, line.Color, "ga-seed-1")
	svg, _ := os.ReadFile(base + ".svg")
	for _, s := range []string{">texel-night<", ">ga-seed-2<", ">zhou2015 d3<", ">halfway d2<"} {
		if n := strings.Count(string(svg), s); n != 1 {
			t.Errorf("svg has %s %d times, want once", s, n)
		}
	}
	pos, ticks, room := barSlots(bars, true)
	if len(ticks) != 3 || math.Abs(pos[3]-pos[2]-1-groupGap) > 1e-9 || pos[1]-pos[0] != 1 || ticks[1].Value != pos[4] || math.Abs(room[0]-3-groupGap) > 1e-9 {
		t.Errorf("positions %v, ticks %v, room %v", pos, ticks, room)
	}
}

// TestBarLabelsFit: labels too long for their slot are broken onto two
// lines, and slanted only when that is not enough; a slanted first label
// is given room on the left rather than cut at the chart's edge.
func TestBarLabelsFit(t *testing.T) {
	sty := newPlot("", "").X.Tick.Label
	slot := sty.Width("zhou2015 d2") * 0.9
	labels, slant := fitBarLabels(sty, []string{"zhou2015 d2", "ab"}, []float64{1, 1}, slot)
	if slant || labels[0] != "zhou2015\nd2" || labels[1] != "ab" {
		t.Errorf("labels %q slant %v, want the first on two lines", labels, slant)
	}
	long := "texel-20261126T0101 vs zhou2015 d2"
	if _, slant := fitBarLabels(sty, []string{long}, []float64{1}, slot); !slant {
		t.Error("a label too long for two lines is not slanted")
	}

	var bars []Bar
	for i := range 12 {
		bars = append(bars, Bar{Label: long + strings.Repeat("x", i), Value: 1, Lo: 0, Hi: 2})
	}
	l, err := BarChart{Bars: bars}.layout()
	if err != nil {
		t.Fatal(err)
	}
	img := vgimg.New(16*vg.Centimeter, 10*vg.Centimeter)
	dc := draw.New(img)
	area := l.prepare(l.plot, dc)
	if l.plot.X.Tick.Label.Rotation == 0 || area.Min.X <= dc.Min.X {
		t.Fatalf("rotation %g, area from %v: want slanted labels and room on the left", l.plot.X.Tick.Label.Rotation, area.Min.X)
	}
	first := l.plot.X.Tick.Marker.Ticks(0, 1)[0]
	reach := l.plot.X.Tick.Label.Width(first.Label) * vg.Length(math.Cos(math.Pi/6))
	data := l.plot.DataCanvas(area)
	if left := data.X(0.5/float64(len(bars))) - reach; left < dc.Min.X {
		t.Errorf("the first label reaches %v, left of the chart's edge %v", left, dc.Min.X)
	}
}

// TestPanelChart: small multiples save with their muted panels grey and
// the legend naming the muted panels and the baseline; a flat panel gets
// a range; bad panels are errors naming them.
func TestPanelChart(t *testing.T) {
	x := []float64{0, 1, 2, 3}
	c := PanelChart{
		Title: "Genes", XLabel: "round", YLabel: "road weight",
		Rows: [][]Panel{
			{{Title: "M1", X: x, Y: []float64{1, 2, 3, 4}, Baseline: 2}, {Title: "M4", X: x, Y: []float64{7, 7, 7, 7}, Baseline: math.NaN(), Muted: true}},
			{{Title: "T1", X: x, Y: []float64{100, 50, 0, -50}, Colour: 2, Baseline: math.NaN()}},
		},
		BaselineName: "zhou2015 (dashed)", MutedName: "not identified: kept its start value",
	}
	base := filepath.Join(t.TempDir(), "genes")
	if err := c.Save(base); err != nil {
		t.Fatal(err)
	}
	checkChartFiles(t, base, 945, int(math.Round((3.6*2+3)/2.54*chartDPI)), mutedGround, "M4 (not identified)")
	svg, _ := os.ReadFile(base + ".svg")
	for _, s := range []string{">zhou2015 (dashed)<", ">not identified: kept its start value<", ">T1<"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("svg lacks %s", s)
		}
	}
	bad := c
	bad.Rows = [][]Panel{{{Title: "M2", X: x, Y: []float64{1, math.NaN(), 3, 4}}}}
	if err := bad.Save(base); err == nil || !strings.Contains(err.Error(), `"M2"`) {
		t.Errorf("NaN: %v", err)
	}
	if _, err := (PanelChart{}).SVG(); err == nil {
		t.Error("no panels: no error")
	}
	// A band: drawn as a filled polygon; one of the wrong length, or with a
	// NaN, is an error naming the panel.
	banded := PanelChart{Title: "profile", Rows: [][]Panel{{{Title: "M3", X: x, Y: []float64{1, 2, 3, 2}, Lo: []float64{0, 1, 2, 1}, Hi: []float64{2, 3, 4, 3}, Baseline: math.NaN()}}}}
	plain := banded
	plain.Rows = [][]Panel{{{Title: "M3", X: x, Y: []float64{1, 2, 3, 2}, Baseline: math.NaN()}}}
	withBand, err := banded.SVG()
	if err != nil {
		t.Fatal(err)
	}
	without, err := plain.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(withBand), "fill-opacity") <= strings.Count(string(without), "fill-opacity") && len(withBand) <= len(without) {
		t.Error("the band drew nothing")
	}
	for _, p := range []Panel{
		{Title: "M5", X: x, Y: x, Lo: x[:2], Hi: x, Baseline: math.NaN()},
		{Title: "M5", X: x, Y: x, Lo: x, Hi: []float64{1, 2, math.Inf(1), 4}, Baseline: math.NaN()},
	} {
		bad := PanelChart{Rows: [][]Panel{{p}}}
		if _, err := bad.SVG(); err == nil || !strings.Contains(err.Error(), `"M5"`) || !strings.Contains(err.Error(), "band") {
			t.Errorf("a bad band: %v", err)
		}
	}
}
