package results

import (
	"math"
	"strings"
	"testing"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// drawnText is one string a chart drew, with its box measured in the font
// it was drawn in (the metrics the layout uses).
type drawnText struct {
	s          string
	font       font.Font
	x, y, w, h vg.Length // left, baseline, width, height
}

// recordText draws l on a w x h cm canvas and returns the strings drawn
// without rotation (everything but the Y axis label).
func recordText(t *testing.T, l chartLayout, wCm, hCm float64) ([]drawnText, vg.Length, vg.Length) {
	t.Helper()
	w, h := vg.Length(wCm)*vg.Centimeter, vg.Length(hCm)*vg.Centimeter
	var rec recorder.Canvas
	l.draw(draw.NewCanvas(&rec, w, h))
	var out []drawnText
	rotated := 0
	for _, a := range rec.Actions {
		switch a := a.(type) {
		case *recorder.Push:
			if rotated > 0 {
				rotated++
			}
		case *recorder.Pop:
			if rotated > 0 {
				rotated--
			}
		case *recorder.Rotate:
			rotated = 1
		case *recorder.FillString:
			if rotated > 0 {
				continue
			}
			f := a.Font
			f.Size = a.Size
			sty := text.Style{Font: f, Handler: plot.DefaultTextHandler}
			out = append(out, drawnText{s: a.String, font: f, x: a.Point.X, y: a.Point.Y, w: sty.Width(a.String), h: sty.Height(a.String)})
		}
	}
	return out, w, h
}

// inside fails t for a string that reaches outside the w x h canvas.
func inside(t *testing.T, name string, texts []drawnText, w, h vg.Length) {
	t.Helper()
	const eps = 0.01
	for _, d := range texts {
		if d.x < -eps || d.x+d.w > w+eps || d.y < -eps || d.y+d.h > h+eps {
			t.Errorf("%s: %q at (%.1f, %.1f), %.1f wide, outside the %.1f x %.1f canvas", name, d.s, d.x, d.y, d.w, w, h)
		}
	}
}

// bold returns the bold strings of texts (the title's lines), joined by a
// space, and the smallest size among them.
func bold(texts []drawnText) (string, vg.Length) {
	var lines []string
	size := vg.Length(1e9)
	for _, d := range texts {
		if d.font.Weight == xfont.WeightBold {
			lines = append(lines, d.s)
			size = min(size, d.font.Size)
		}
	}
	return strings.Join(lines, " "), size
}

func TestTitleFits(t *testing.T) {
	pts := []float64{0, 1, 2}
	series := []Series{{Name: "a", X: pts, Y: pts}, {Name: "b", X: pts, Y: pts}}
	long := "The best vector's genes by generation against qi2018-table3-1 at depth 3, the dual schema's attacking set"
	huge := strings.Repeat("a very long title that goes on and on ", 12)
	word := strings.Repeat("W", 120)
	cases := []struct {
		name, title string
		wCm         float64
		lines       int     // lines wanted, 0 for any
		minPt       float64 // smallest size wanted
	}{
		{"short", "Fitness", 16, 1, 13},
		{"long", long, 16, 2, 10},
		{"long, narrow", long, 8, 0, 9.9},
		{"huge", huge, 16, 0, 9.9},
		{"one long word", word, 16, 1, 0},
	}
	for _, tc := range cases {
		l, err := LineChart{Title: tc.title, XLabel: "generation", Series: series, Width: tc.wCm}.layout()
		if err != nil {
			t.Fatal(err)
		}
		texts, w, h := recordText(t, l, tc.wCm, 10)
		inside(t, tc.name, texts, w, h)
		got, size := bold(texts)
		if got != strings.Join(strings.Fields(tc.title), " ") {
			t.Errorf("%s: title drawn as %q", tc.name, got)
		}
		if float64(size) < vg.Points(tc.minPt).Points() {
			t.Errorf("%s: title set in %.1f pt, want at least %g", tc.name, size.Points(), tc.minPt)
		}
		if n := strings.Count(got, " ") + 1 - (strings.Count(strings.Join(strings.Fields(tc.title), " "), " ") + 1); n != 0 {
			t.Errorf("%s: words lost", tc.name)
		}
		var lines int
		for _, d := range texts {
			if d.font.Weight == xfont.WeightBold {
				lines++
			}
		}
		if tc.lines != 0 && lines != tc.lines {
			t.Errorf("%s: %d title lines, want %d", tc.name, lines, tc.lines)
		}
	}
}

// TestBarChartTitleFits: a bar chart's title is fitted the same way.
func TestBarChartTitleFits(t *testing.T) {
	title := "Verification ladder: Elo of the tuned vector against qi2018-table3-1, chen2010-pso15 and halfway at depths 2 and 3"
	l, err := BarChart{Title: title, Bars: []Bar{{Label: "x", Value: 1, Lo: 0, Hi: 2}}}.layout()
	if err != nil {
		t.Fatal(err)
	}
	texts, w, h := recordText(t, l, 16, 10)
	inside(t, "bar", texts, w, h)
	if got, _ := bold(texts); got != title {
		t.Errorf("title drawn as %q", got)
	}
}

func TestNoteCaption(t *testing.T) {
	pts := []float64{0, 1, 2}
	note := "Fitness is measured against each generation's own population, so its values are not comparable across generations."
	l, err := LineChart{Title: "Fitness", XLabel: "generation", Series: []Series{{Name: "best", X: pts, Y: pts}}, Note: note}.layout()
	if err != nil {
		t.Fatal(err)
	}
	texts, w, h := recordText(t, l, 12, 8)
	inside(t, "note", texts, w, h)
	var lines []string
	var xLabel, lowestNote vg.Length = -1, h
	for _, d := range texts {
		if d.font.Style == xfont.StyleItalic {
			lines = append(lines, d.s)
			lowestNote = min(lowestNote, d.y)
			if d.font.Size > vg.Points(notePt) {
				t.Errorf("note in %v, want at most %g pt", d.font.Size, notePt)
			}
		}
		if d.s == "generation" {
			xLabel = d.y
		}
	}
	if strings.Join(lines, " ") != note {
		t.Errorf("note drawn as %q", lines)
	}
	if len(lines) < 2 {
		t.Errorf("a note longer than a 12 cm chart on %d line(s)", len(lines))
	}
	if !(lowestNote < xLabel) || xLabel < 0 {
		t.Errorf("note at y %v not under the X axis label at %v", lowestNote, xLabel)
	}

	// A BarChart's note too.
	bl, err := BarChart{Title: "t", Bars: []Bar{{Label: "x", Value: 1, Lo: 1, Hi: 1}}, Note: "one note"}.layout()
	if err != nil {
		t.Fatal(err)
	}
	texts, _, _ = recordText(t, bl, 16, 10)
	found := false
	for _, d := range texts {
		found = found || d.s == "one note" && d.font.Style == xfont.StyleItalic
	}
	if !found {
		t.Error("the bar chart's note is not drawn")
	}
}

func TestLegendPlacement(t *testing.T) {
	pts := []float64{0, 1, 2, 3}
	cases := []struct {
		name  string
		names []string
		below bool
	}{
		{"short names: right", []string{"personal bests", "global best"}, false},
		{"long names: below", []string{"personal bests replaced (particles whose own best improved)", "global best replaced (the swarm's best improved)"}, true},
		{"many short names: right", strings.Fields("D.M1 D.M2 D.M3 D.M4 D.M5 D.E1 D.E2 D.E3 D.E4 D.E5"), false},
	}
	for _, tc := range cases {
		var series []Series
		for _, n := range tc.names {
			series = append(series, Series{Name: n, X: pts, Y: pts})
		}
		l, err := LineChart{Title: "Bests replaced", XLabel: "iteration", Series: series}.layout()
		if err != nil {
			t.Fatal(err)
		}
		texts, w, h := recordText(t, l, 16, 10)
		inside(t, tc.name, texts, w, h)
		var xLabel drawnText
		var lastTick vg.Length
		for _, d := range texts {
			if d.s == "iteration" {
				xLabel = d
			}
			if d.s == "3" {
				lastTick = max(lastTick, d.x+d.w)
			}
		}
		for _, d := range texts {
			for _, n := range tc.names {
				if d.s != n {
					continue
				}
				if below := d.y < xLabel.y; below != tc.below {
					t.Errorf("%s: %q at (%.0f, %.0f), X label at y %.0f: below = %v", tc.name, n, d.x, d.y, xLabel.y, below)
				}
				if !tc.below && d.x < lastTick {
					t.Errorf("%s: %q at x %.0f overlaps the plot (last tick ends at %.0f)", tc.name, n, d.x, lastTick)
				}
			}
		}
		// The plot keeps at least 60% of the width: its last X tick is
		// that far right.
		if lastTick < 0.6*w {
			t.Errorf("%s: the plot ends at %.0f of %.0f", tc.name, lastTick, w)
		}
	}
}

func TestBarChartIntervalLegend(t *testing.T) {
	with, err := BarChart{Bars: []Bar{{Label: "x", Value: 1, Lo: 0, Hi: 2}}, RefLine: &HLine{Name: "0 Elo"}}.layout()
	if err != nil {
		t.Fatal(err)
	}
	without, err := BarChart{Bars: []Bar{{Label: "x", Value: 1, Lo: 1, Hi: 1}}}.layout()
	if err != nil {
		t.Fatal(err)
	}
	if len(with.legend) != 2 || with.legend[0].name != IntervalName || with.legend[1].name != "0 Elo" {
		t.Errorf("legend of bars with intervals: %v", with.legend)
	}
	if len(without.legend) != 0 {
		t.Errorf("legend of bars without intervals: %v", without.legend)
	}
}

func TestLineChartBaseline(t *testing.T) {
	pts := []float64{0, 1}
	two := []Series{{Name: "S1", X: pts, Y: pts}, {Name: "S2", X: pts, Y: pts}}
	l, err := LineChart{Series: two, Baseline: []float64{5, 7}, BaselineName: "zhou2015 (dashed)"}.layout()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range l.legend {
		names = append(names, e.name)
	}
	if strings.Join(names, ",") != "S1,S2,zhou2015 (dashed)" {
		t.Errorf("legend %v", names)
	}
	// The baseline values, 5 and 7, widen the Y axis of series in [0, 1].
	if l.plot.Y.Max != 7 {
		t.Errorf("Y axis up to %g, want 7 (the baseline)", l.plot.Y.Max)
	}
	nan, err := LineChart{Series: two, Baseline: []float64{math.NaN(), 0.5}}.layout()
	if err != nil || nan.plot.Y.Max != 1 || len(nan.legend) != 2 {
		t.Errorf("NaN baseline: Y max %g, legend %v, %v", nan.plot.Y.Max, nan.legend, err)
	}
	if _, err := (LineChart{Series: two, Baseline: []float64{1}}).layout(); err == nil {
		t.Error("one baseline value for two series: no error")
	}
}

func TestLineChartBand(t *testing.T) {
	x := []float64{0, 1, 2}
	c := LineChart{Series: []Series{{Name: "Elo", X: x, Y: []float64{0, 10, 5}}},
		Bands: []Band{{Name: IntervalName, X: x, Lo: []float64{-20, -5, -15}, Hi: []float64{20, 25, 25}}}}
	l, err := c.layout()
	if err != nil {
		t.Fatal(err)
	}
	if len(l.legend) != 2 || l.legend[0].name != "Elo" || l.legend[1].name != IntervalName {
		t.Errorf("legend %v", l.legend)
	}
	if l.plot.Y.Min != -20 || l.plot.Y.Max != 25 {
		t.Errorf("Y axis [%g, %g], want the band's [-20, 25]", l.plot.Y.Min, l.plot.Y.Max)
	}
	for _, bad := range []Band{
		{X: x, Lo: x, Hi: x, Series: 1},
		{X: x, Lo: x[:2], Hi: x},
		{X: x, Lo: x, Hi: []float64{0, math.Inf(1), 0}},
	} {
		c.Bands = []Band{bad}
		if _, err := c.layout(); err == nil {
			t.Errorf("band %+v: no error", bad)
		}
	}
}
