package results

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bar is one bar of a BarChart: Value with its 95% interval [Lo, Hi] in the
// same unit (score %, Elo). Lo = Hi = Value draws no whisker.
//
// Group and Series make a grouped chart (as a grouped bar chart in any
// plotting library): consecutive bars of one Group stand side by side
// under one axis label, the Group (a ladder rung: "zhou2015 d2"), with a
// gap between groups; every bar of one Series has one colour, named once
// in the legend (a run). In a chart where some bar has a Group or a
// Series, a bar without a Group is labelled by its Label.
type Bar struct {
	Label         string
	Value, Lo, Hi float64
	Group, Series string
}

// BarChart compares a few results side by side, each with its interval: the
// score of every engine against the baseline, Elo ± margin per opponent.
// Bars grow from 0; labels sit under the bars (on two lines, or else
// slanted, when they would not fit on one, the chart giving slanted labels
// the room they need on the left) and each bar's value is printed above its
// whisker. Bars with a Group or a Series are grouped and coloured (see
// Bar). RefLine, if set, is drawn dashed across the chart (named in a
// legend when its Name is set). YMin and YMax, if set, fix the Y axis;
// otherwise it fits the bars, the intervals and the reference line. When a
// bar has an interval, the legend names the whiskers "95% interval". The
// title is fitted to the width as LineChart's is, and Note, when set, is a
// caption under the chart. Width and Height are in centimetres; 0 means 16
// x 10 cm.
type BarChart struct {
	Title, YLabel string
	Bars          []Bar
	RefLine       *HLine
	YMin, YMax    *float64
	Note          string
	Width, Height float64
}

// Save writes the chart to base+".png" (150 dpi) and base+".svg", creating the
// parent directory; each file is replaced atomically. It is an error to have no
// bars, a NaN or infinite value, a bar with not Lo <= Value <= Hi, YMin >= YMax,
// or a size outside [4, 100] cm; errors name the bar.
func (c BarChart) Save(base string) error {
	return saveChart("bar chart", base, c.Width, c.Height, c.layout)
}

// SVG renders the chart as an SVG document, with Save's checks and errors.
func (c BarChart) SVG() ([]byte, error) {
	return chartSVG("bar chart", c.Title, c.Width, c.Height, c.layout)
}

// groupGap is the gap between two groups of a grouped bar chart, in bar
// slots.
const groupGap = 0.7

// barSlots places the bars on the X axis, one slot each, with groupGap
// between groups when grouped; and returns the axis labels, one per group
// (per bar when not grouped), at the centre of their bars, with the width
// in slots each may take.
func barSlots(bars []Bar, grouped bool) (pos []float64, ticks []plot.Tick, room []float64) {
	pos = make([]float64, len(bars))
	x := 0.0
	for i, b := range bars {
		newGroup := i == 0 || !grouped || b.Group != bars[i-1].Group || b.Group == ""
		if newGroup && i > 0 && grouped {
			x += groupGap
		}
		pos[i] = x
		if newGroup {
			label := b.Label
			if grouped && b.Group != "" {
				label = b.Group
			}
			ticks = append(ticks, plot.Tick{Value: x, Label: label})
			room = append(room, 0)
		}
		k := len(ticks) - 1
		n := room[k] + 1
		ticks[k].Value = (ticks[k].Value*room[k] + x) / n // mean of the group's positions
		room[k] = n
		x++
	}
	if grouped {
		for k := range room {
			room[k] += groupGap
		}
	}
	return pos, ticks, room
}

// layout validates the chart and builds its plot and legend.
func (c BarChart) layout() (chartLayout, error) {
	if len(c.Bars) == 0 {
		return chartLayout{}, errors.New("no bars")
	}
	n := len(c.Bars)
	grouped := false
	for i, b := range c.Bars {
		if _, ok := checkFinite([]float64{b.Value, b.Lo, b.Hi}); !ok {
			return chartLayout{}, fmt.Errorf("bar %d (%q): value %g [%g, %g] not finite", i, b.Label, b.Value, b.Lo, b.Hi)
		}
		if b.Lo > b.Value || b.Value > b.Hi {
			return chartLayout{}, fmt.Errorf("bar %d (%q): value %g outside its interval [%g, %g]", i, b.Label, b.Value, b.Lo, b.Hi)
		}
		grouped = grouped || b.Group != "" || b.Series != ""
	}
	for _, v := range []*float64{c.YMin, c.YMax} {
		if v != nil {
			if _, ok := checkFinite([]float64{*v}); !ok {
				return chartLayout{}, fmt.Errorf("axis limit %g not finite", *v)
			}
		}
	}
	if c.YMin != nil && c.YMax != nil && *c.YMin >= *c.YMax {
		return chartLayout{}, fmt.Errorf("YMin %g >= YMax %g", *c.YMin, *c.YMax)
	}
	if c.RefLine != nil {
		if _, ok := checkFinite([]float64{c.RefLine.Y}); !ok {
			return chartLayout{}, fmt.Errorf("reference line %q: Y = %g", c.RefLine.Name, c.RefLine.Y)
		}
	}
	pos, ticks, room := barSlots(c.Bars, grouped)
	centres := make(plotter.XYs, n)
	whiskers := make(plotter.YErrors, n)
	for i, b := range c.Bars {
		centres[i] = plotter.XY{X: pos[i], Y: b.Value}
		whiskers[i] = struct{ Low, High float64 }{b.Value - b.Lo, b.Hi - b.Value}
	}

	p := newPlot("", c.YLabel)
	p.Add(gridLines(false))

	// One plotter.BarChart per bar, at its own position, in its series'
	// colour (the one bar colour when the chart has no series).
	var series []string
	colourOf := map[string]int{}
	var legend []legendEntry
	bars := make([]*plotter.BarChart, n)
	for i, b := range c.Bars {
		bc, err := plotter.NewBarChart(plotter.Values{b.Value}, vg.Points(20))
		if err != nil {
			return chartLayout{}, err
		}
		bc.XMin = pos[i]
		bc.Color = barColor
		bc.LineStyle = draw.LineStyle{Color: barEdge, Width: vg.Points(0.8)}
		if b.Series != "" {
			k, ok := colourOf[b.Series]
			if !ok {
				k = len(series)
				colourOf[b.Series] = k
				series = append(series, b.Series)
			}
			line, _ := seriesStyle(k % len(seriesColors))
			bc.Color = line.Color
			bc.LineStyle.Color = line.Color
			if !ok {
				legend = append(legend, legendEntry{name: b.Series, thumbs: []plot.Thumbnailer{bc}})
			}
		}
		bars[i] = bc
		p.Add(bc)
	}

	errs, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{centres, whiskers})
	if err != nil {
		return chartLayout{}, err
	}
	errs.LineStyle = draw.LineStyle{Color: rgb(0x22, 0x22, 0x22), Width: vg.Points(1.2)}
	p.Add(errs)
	for _, b := range c.Bars {
		if b.Lo < b.Hi {
			legend = append(legend, legendEntry{name: IntervalName, thumbs: []plot.Thumbnailer{whisker{errs.LineStyle}}})
			break
		}
	}

	// Value labels just above the whisker of a bar up from 0, just below
	// that of a bar down from 0, skipped where a fixed YMax or YMin would
	// put them outside the chart.
	largest := 0.0
	for _, b := range c.Bars {
		largest = math.Max(largest, math.Abs(b.Value))
	}
	decimals := valueDecimals(largest)
	var above, below plotter.XYLabels
	for i, b := range c.Bars {
		t := strconv.FormatFloat(b.Value, 'f', decimals, 64)
		switch {
		case b.Value >= 0 && (c.YMax == nil || b.Hi <= *c.YMax):
			above.XYs = append(above.XYs, plotter.XY{X: pos[i], Y: b.Hi})
			above.Labels = append(above.Labels, t)
		case b.Value < 0 && (c.YMin == nil || b.Lo >= *c.YMin):
			below.XYs = append(below.XYs, plotter.XY{X: pos[i], Y: b.Lo})
			below.Labels = append(below.Labels, t)
		}
	}
	texts := slices.Concat(above.Labels, below.Labels)
	var valueLabels []*plotter.Labels
	for _, set := range []struct {
		xy plotter.XYLabels
		up bool
	}{{above, true}, {below, false}} {
		if len(set.xy.XYs) == 0 {
			continue
		}
		l, err := plotter.NewLabels(set.xy)
		if err != nil {
			return chartLayout{}, err
		}
		sty := textStyle(sans(8.5, false), rgb(0x22, 0x22, 0x22))
		l.Offset = vg.Point{Y: vg.Points(3)}
		if !set.up {
			sty.YAlign = draw.YTop
			l.Offset = vg.Point{Y: -vg.Points(3)}
		}
		for i := range l.TextStyle {
			l.TextStyle[i] = sty
		}
		p.Add(l)
		valueLabels = append(valueLabels, l)
	}

	if c.RefLine != nil {
		ref := refLine(c.RefLine.Y, 0)
		p.Add(ref)
		if c.RefLine.Name != "" {
			legend = append(legend, legendEntry{name: c.RefLine.Name, thumbs: []plot.Thumbnailer{ref}})
		}
	}

	// Category axis: one tick per group (per bar when not grouped), no
	// tick marks, half a slot of room at each end.
	oneLine := make([]string, len(ticks))
	for i, t := range ticks {
		oneLine[i] = t.Label
	}
	p.X.Tick.Length = 0
	p.X.Min, p.X.Max = -0.5, pos[n-1]+0.5
	p.X.Padding = 0
	if c.YMin != nil {
		p.Y.Min = *c.YMin
	}
	if c.YMax != nil {
		p.Y.Max = *c.YMax
	}

	prepare := func(p *plot.Plot, area draw.Canvas) draw.Canvas {
		// The data area is roughly the plot area less the Y axis; slot is
		// the width one bar owns.
		yAxis := p.Y.Tick.Label.Width("-0000") + p.Y.Label.TextStyle.Height("Ag") + vg.Points(12)
		slot := (area.Max.X - area.Min.X - yAxis) / vg.Length(p.X.Max-p.X.Min)
		share := 0.6
		if grouped {
			share = 0.85
		}
		for _, bc := range bars {
			bc.Width = slot * vg.Length(share)
		}
		errs.CapWidth = slot * vg.Length(share) * 0.35
		// Type small enough for the values to stay over their own bars.
		size := 8.5
		for _, t := range texts {
			for size > 6 && textStyle(sans(size, false), color.Black).Width(t) > slot*0.98 {
				size -= 0.5
			}
		}
		for _, l := range valueLabels {
			for i := range l.TextStyle {
				l.TextStyle[i].Font = sans(size, false)
			}
		}
		labels, slant := fitBarLabels(p.X.Tick.Label, oneLine, room, slot)
		tk := make(plot.ConstantTicks, len(ticks))
		for i, t := range ticks {
			tk[i] = plot.Tick{Value: t.Value, Label: labels[i]}
		}
		p.X.Tick.Marker = tk
		p.X.Tick.Label.YAlign = text.YTop
		if !slant {
			p.X.Tick.Label.Rotation = 0
			p.X.Tick.Label.XAlign = text.XCenter
			return area
		}
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = text.XRight
		// A slanted label reaches left of its tick by its width's
		// projection; the first must not leave the chart. Narrowing the
		// area moves the tick too, hence a second look.
		reach := p.X.Tick.Label.Width(labels[0])*vg.Length(math.Cos(math.Pi/6)) + vg.Points(4)
		edge := area.Min.X
		for range 3 {
			data := p.DataCanvas(area)
			tick := data.X((ticks[0].Value - p.X.Min) / (p.X.Max - p.X.Min))
			if have := tick - edge; reach > have {
				area.Min.X += reach - have
			}
		}
		return area
	}
	return chartLayout{plot: p, title: c.Title, note: c.Note, legend: legend, prepare: prepare}, nil
}

// fitBarLabels sets the axis labels in sty so that each fits in its room
// (in slots of width slot): on one line when all fit, else the long ones
// broken at the space that makes their longer line shortest, else slanted
// on one line (slant true).
func fitBarLabels(sty text.Style, labels []string, room []float64, slot vg.Length) ([]string, bool) {
	fits := func(ls []string) bool {
		for i, l := range ls {
			for _, line := range strings.Split(l, "\n") {
				if sty.Width(line) > slot*vg.Length(room[i])*0.95 {
					return false
				}
			}
		}
		return true
	}
	if fits(labels) {
		return labels, false
	}
	broken := make([]string, len(labels))
	for i, l := range labels {
		broken[i] = l
		if sty.Width(l) > slot*vg.Length(room[i])*0.95 {
			broken[i] = strings.Join(twoLines(sty, l), "\n")
		}
	}
	if fits(broken) {
		return broken, false
	}
	return labels, true
}

// IntervalName is the legend's name of a BarChart's whiskers.
const IntervalName = "95% interval"

// whisker is the legend thumbnail of an interval: a vertical line with caps.
type whisker struct{ style draw.LineStyle }

func (w whisker) Thumbnail(c *draw.Canvas) {
	x := c.Center().X
	lo, hi := c.Min.Y+vg.Points(1), c.Max.Y-vg.Points(1)
	capW := (c.Max.X - c.Min.X) * 0.2
	c.StrokeLine2(w.style, x, lo, x, hi)
	c.StrokeLine2(w.style, x-capW, lo, x+capW, lo)
	c.StrokeLine2(w.style, x-capW, hi, x+capW, hi)
}

// valueDecimals is the number of decimals that shows largest (the largest
// |value| of a chart) with three significant digits, and at most 6: 0 for
// 143, 1 for 62.5, 2 for 1.25, 3 for 0.625.
func valueDecimals(largest float64) int {
	if largest == 0 {
		return 0
	}
	return min(6, max(0, 2-int(math.Floor(math.Log10(largest)))))
}
