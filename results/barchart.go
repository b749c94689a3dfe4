package results

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bar is one bar of a BarChart: Value with its 95% interval [Lo, Hi] in the
// same unit (score %, Elo). Lo = Hi = Value draws no whisker.
type Bar struct {
	Label         string
	Value, Lo, Hi float64
}

// BarChart compares a few results side by side, each with its interval: the
// score of every engine against the baseline, Elo ± margin per opponent.
// Bars grow from 0; labels sit under the bars (slanted when they would not
// fit) and each bar's value is printed above its whisker. RefLine, if set, is
// drawn dashed across the chart (named in a legend when its Name is set).
// YMin and YMax, if set, fix the Y axis; otherwise it fits the bars, the
// intervals and the reference line. When a bar has an interval, the legend
// names the whiskers "95% interval". The title is fitted to the width as
// LineChart's is, and Note, when set, is a caption under the chart. Width and
// Height are in centimetres; 0 means 16 x 10 cm.
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
	w, h, err := chartSize("bar chart "+base, c.Width, c.Height)
	if err != nil {
		return err
	}
	layout, err := c.layout()
	if err != nil {
		return fmt.Errorf("results: bar chart %s: %w", base, err)
	}
	return layout.save(base, w, h)
}

// SVG renders the chart as an SVG document, with Save's checks and errors.
func (c BarChart) SVG() ([]byte, error) {
	w, h, err := chartSize("bar chart", c.Width, c.Height)
	if err != nil {
		return nil, err
	}
	layout, err := c.layout()
	if err != nil {
		return nil, fmt.Errorf("results: bar chart %q: %w", c.Title, err)
	}
	return layout.svg(w, h)
}

// layout validates the chart and builds its plot and legend.
func (c BarChart) layout() (chartLayout, error) {
	if len(c.Bars) == 0 {
		return chartLayout{}, errors.New("no bars")
	}
	n := len(c.Bars)
	values := make(plotter.Values, n)
	centres := make(plotter.XYs, n)
	whiskers := make(plotter.YErrors, n)
	labels := make([]string, n)
	for i, b := range c.Bars {
		if _, ok := checkFinite([]float64{b.Value, b.Lo, b.Hi}); !ok {
			return chartLayout{}, fmt.Errorf("bar %d (%q): value %g [%g, %g] not finite", i, b.Label, b.Value, b.Lo, b.Hi)
		}
		if b.Lo > b.Value || b.Value > b.Hi {
			return chartLayout{}, fmt.Errorf("bar %d (%q): value %g outside its interval [%g, %g]", i, b.Label, b.Value, b.Lo, b.Hi)
		}
		values[i] = b.Value
		centres[i] = plotter.XY{X: float64(i), Y: b.Value}
		whiskers[i] = struct{ Low, High float64 }{b.Value - b.Lo, b.Hi - b.Value}
		labels[i] = b.Label
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

	p := newPlot("", c.YLabel)
	p.Add(gridLines(false))

	bars, err := plotter.NewBarChart(values, vg.Points(20))
	if err != nil {
		return chartLayout{}, err
	}
	bars.Color = barColor
	bars.LineStyle = draw.LineStyle{Color: barEdge, Width: vg.Points(0.8)}
	p.Add(bars)

	errs, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{centres, whiskers})
	if err != nil {
		return chartLayout{}, err
	}
	errs.LineStyle = draw.LineStyle{Color: rgb(0x22, 0x22, 0x22), Width: vg.Points(1.2)}
	p.Add(errs)
	var legend []legendEntry
	for _, b := range c.Bars {
		if b.Lo < b.Hi {
			legend = append(legend, legendEntry{name: IntervalName, thumbs: []plot.Thumbnailer{whisker{errs.LineStyle}}})
			break
		}
	}

	// Value labels just above each whisker, skipped where a fixed YMax
	// would put them outside the chart.
	var tops plotter.XYs
	var texts []string
	largest := 0.0
	for _, b := range c.Bars {
		largest = math.Max(largest, math.Abs(b.Value))
	}
	decimals := valueDecimals(largest)
	for i, b := range c.Bars {
		if c.YMax != nil && b.Hi > *c.YMax {
			continue
		}
		tops = append(tops, plotter.XY{X: float64(i), Y: b.Hi})
		texts = append(texts, strconv.FormatFloat(b.Value, 'f', decimals, 64))
	}
	if len(tops) > 0 {
		valueLabels, err := plotter.NewLabels(plotter.XYLabels{XYs: tops, Labels: texts})
		if err != nil {
			return chartLayout{}, err
		}
		sty := textStyle(sans(8.5, false), rgb(0x22, 0x22, 0x22))
		for i := range valueLabels.TextStyle {
			valueLabels.TextStyle[i] = sty
		}
		valueLabels.Offset = vg.Point{Y: vg.Points(3)}
		p.Add(valueLabels)
	}

	if c.RefLine != nil {
		ref := refLine(c.RefLine.Y, 0)
		p.Add(ref)
		if c.RefLine.Name != "" {
			legend = append(legend, legendEntry{name: c.RefLine.Name, thumbs: []plot.Thumbnailer{ref}})
		}
	}

	// Category axis: one tick per bar, no tick marks, half a slot of room at
	// each end.
	ticks := make(plot.ConstantTicks, n)
	for i, l := range labels {
		ticks[i] = plot.Tick{Value: float64(i), Label: l}
	}
	p.X.Tick.Marker = ticks
	p.X.Tick.Length = 0
	p.X.Min, p.X.Max = -0.5, float64(n)-0.5
	p.X.Padding = 0
	if c.YMin != nil {
		p.Y.Min = *c.YMin
	}
	if c.YMax != nil {
		p.Y.Max = *c.YMax
	}

	prepare := func(p *plot.Plot, area draw.Canvas) {
		// The data area is roughly the plot area less the Y axis; slot is
		// the width one bar owns.
		yAxis := p.Y.Tick.Label.Width("-0000") + p.Y.Label.TextStyle.Height("Ag") + vg.Points(12)
		slot := (area.Max.X - area.Min.X - yAxis) / vg.Length(n)
		bars.Width = slot * 0.6
		errs.CapWidth = bars.Width * 0.35
		widest := vg.Length(0)
		for _, l := range labels {
			widest = max(widest, p.X.Tick.Label.Width(l))
		}
		if widest > slot*0.95 {
			p.X.Tick.Label.Rotation = math.Pi / 6
			p.X.Tick.Label.XAlign = text.XRight
			p.X.Tick.Label.YAlign = text.YTop
		} else {
			p.X.Tick.Label.Rotation = 0
			p.X.Tick.Label.XAlign = text.XCenter
			p.X.Tick.Label.YAlign = text.YTop
		}
	}
	return chartLayout{plot: p, title: c.Title, note: c.Note, legend: legend, prepare: prepare}, nil
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
