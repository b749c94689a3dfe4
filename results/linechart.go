package results

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Series is one line of a LineChart: the points (X[i], Y[i]), in the order
// given (not sorted), labelled Name in the legend.
type Series struct {
	Name string
	X, Y []float64
	// Points marks every point, however many (small dots beyond
	// markerPointLimit), for a series whose points are events a reader
	// counts (an SPRT's game pairs): a straight run then reads as points,
	// not as a gap.
	Points bool
}

// Band is a shaded area between Lo[i] and Hi[i] at X[i], such as the 95%
// interval of a measured Elo, drawn under the series in a light tint of the
// colour of the series it goes with (Series, an index into the chart's
// Series) and named Name in the legend.
type Band struct {
	Name      string
	Series    int
	X, Lo, Hi []float64
}

// HLine is a horizontal reference line at Y, such as an SPRT bound or the 50%
// score line. A non-empty Name puts it in the legend.
type HLine struct {
	Name string
	Y    float64
}

// LineChart plots series against a common X axis: fitness by generation, each
// gene of the best individual by generation, the LLR of an SPRT by games.
// Width and Height are in centimetres; 0 means 16 x 10 cm.
//
// Series i is drawn in colour i mod 12 with dash pattern i / 12 (solid for the
// first 12), with markers when it has at most 40 points. With more than one
// series, a named HLine or a BaselineName, a legend sits right of the plot, in
// several columns if needed, or under the plot when it would take more than
// 35% of the width. When every X is a whole number the X axis ticks only whole
// numbers. The title is set across the chart, in smaller type or on two
// lines (more if need be) when it is too long for one line.
type LineChart struct {
	Title, XLabel, YLabel string
	Series                []Series
	HLines                []HLine
	Bands                 []Band
	// Baseline, when not empty, holds one reference value per series (NaN
	// for none), e.g. a baseline vector's value of each gene: each is
	// drawn as a thin dashed horizontal line in its series' colour, and
	// BaselineName, when set, names them in the legend with a grey dashed
	// line (e.g. "zhou2015 (dashed)").
	Baseline     []float64
	BaselineName string
	// Note, when set, is a caption in small italic type under the chart,
	// wrapped to its width: what a reader must know to read the chart right.
	Note          string
	Width, Height float64
}

// Save writes the chart to base+".png" (150 dpi) and base+".svg", creating the
// parent directory; each file is replaced atomically. It is an error to have no
// series, a series with no points or with len(X) != len(Y), a NaN or infinite
// coordinate or HLine, a Band whose Series is not a series index or whose
// X, Lo and Hi differ in length or are not finite, a Baseline not of one value per series or with an
// infinite value, or a size outside [4, 100] cm; errors name the series and
// the point index.
func (c LineChart) Save(base string) error {
	return saveChart("line chart", base, c.Width, c.Height, c.layout)
}

// SVG renders the chart as an SVG document, with Save's checks and errors.
func (c LineChart) SVG() ([]byte, error) {
	return chartSVG("line chart", c.Title, c.Width, c.Height, c.layout)
}

// layout validates the chart and builds its plot and legend.
func (c LineChart) layout() (chartLayout, error) {
	if len(c.Series) == 0 {
		return chartLayout{}, errors.New("no series")
	}
	wholeX := true
	for i, s := range c.Series {
		name := fmt.Sprintf("series %d (%q)", i, s.Name)
		if len(s.X) == 0 {
			return chartLayout{}, fmt.Errorf("%s: no points", name)
		}
		if len(s.X) != len(s.Y) {
			return chartLayout{}, fmt.Errorf("%s: %d X values but %d Y values", name, len(s.X), len(s.Y))
		}
		if j, ok := checkFinite(s.X); !ok {
			return chartLayout{}, fmt.Errorf("%s: X[%d] = %g", name, j, s.X[j])
		}
		if j, ok := checkFinite(s.Y); !ok {
			return chartLayout{}, fmt.Errorf("%s: Y[%d] = %g", name, j, s.Y[j])
		}
		for _, x := range s.X {
			wholeX = wholeX && x == math.Trunc(x)
		}
	}
	for i, hl := range c.HLines {
		if _, ok := checkFinite([]float64{hl.Y}); !ok {
			return chartLayout{}, fmt.Errorf("hline %d (%q): Y = %g", i, hl.Name, hl.Y)
		}
	}

	for i, b := range c.Bands {
		name := fmt.Sprintf("band %d (%q)", i, b.Name)
		if b.Series < 0 || b.Series >= len(c.Series) {
			return chartLayout{}, fmt.Errorf("%s: series %d of %d", name, b.Series, len(c.Series))
		}
		if len(b.X) == 0 || len(b.Lo) != len(b.X) || len(b.Hi) != len(b.X) {
			return chartLayout{}, fmt.Errorf("%s: %d X, %d Lo and %d Hi values", name, len(b.X), len(b.Lo), len(b.Hi))
		}
		for _, xs := range [][]float64{b.X, b.Lo, b.Hi} {
			if j, ok := checkFinite(xs); !ok {
				return chartLayout{}, fmt.Errorf("%s: value %d = %g", name, j, xs[j])
			}
		}
	}
	if len(c.Baseline) > 0 && len(c.Baseline) != len(c.Series) {
		return chartLayout{}, fmt.Errorf("%d baseline values for %d series", len(c.Baseline), len(c.Series))
	}
	for i, v := range c.Baseline {
		if math.IsInf(v, 0) {
			return chartLayout{}, fmt.Errorf("baseline of series %d (%q): %g", i, c.Series[i].Name, v)
		}
	}

	p := newPlot(c.XLabel, c.YLabel)
	p.Add(gridLines(true))
	if wholeX {
		p.X.Tick.Marker = niceTicks{integer: true}
	}
	var legend []legendEntry
	for _, b := range c.Bands {
		band, err := bandPolygon(b)
		if err != nil {
			return chartLayout{}, err
		}
		p.Add(band)
		if b.Name != "" {
			legend = append(legend, legendEntry{name: b.Name, thumbs: []plot.Thumbnailer{band}})
		}
	}
	for i, hl := range c.HLines {
		ref := refLine(hl.Y, i)
		p.Add(ref)
		if hl.Name != "" {
			legend = append(legend, legendEntry{name: hl.Name, thumbs: []plot.Thumbnailer{ref}})
		}
	}
	var seriesLegend []legendEntry
	var glyph draw.GlyphStyle
	for i, s := range c.Series {
		xys := make(plotter.XYs, len(s.X))
		for j := range s.X {
			xys[j] = plotter.XY{X: s.X[j], Y: s.Y[j]}
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return chartLayout{}, err
		}
		line.LineStyle, glyph = seriesStyle(i)
		p.Add(line)
		thumbs := []plot.Thumbnailer{line}
		if len(s.X) <= markerPointLimit || s.Points {
			marks, err := plotter.NewScatter(xys)
			if err != nil {
				return chartLayout{}, err
			}
			marks.GlyphStyle = glyph
			if len(s.X) > markerPointLimit {
				marks.GlyphStyle.Radius = vg.Points(1.2)
			}
			p.Add(marks)
			thumbs = append(thumbs, marks)
		}
		name := s.Name
		if name == "" {
			name = fmt.Sprintf("series %d", i+1)
		}
		seriesLegend = append(seriesLegend, legendEntry{name: name, thumbs: thumbs})
		if len(c.Baseline) > 0 && !math.IsNaN(c.Baseline[i]) {
			p.Add(baselineLine(c.Baseline[i], line.LineStyle.Color))
		}
	}
	if len(c.Baseline) > 0 && c.BaselineName != "" {
		seriesLegend = append(seriesLegend, legendEntry{name: c.BaselineName,
			thumbs: []plot.Thumbnailer{baselineLine(0, refColor)}})
	}
	if len(c.Series) > 1 || len(legend) > 0 || len(seriesLegend) > 1 {
		legend = append(seriesLegend, legend...)
	}
	return chartLayout{plot: p, title: c.Title, note: c.Note, legend: legend}, nil
}

// bandPolygon is b's area: along Hi by X, back along Lo, filled with its
// series' colour at 30% opacity.
func bandPolygon(b Band) (*plotter.Polygon, error) {
	ring := make(plotter.XYs, 0, 2*len(b.X))
	for i := range b.X {
		ring = append(ring, plotter.XY{X: b.X[i], Y: b.Hi[i]})
	}
	for i := len(b.X) - 1; i >= 0; i-- {
		ring = append(ring, plotter.XY{X: b.X[i], Y: b.Lo[i]})
	}
	poly, err := plotter.NewPolygon(ring)
	if err != nil {
		return nil, err
	}
	// 30% of the series' colour: over white, a light tint of it; where
	// bands overlap, both show.
	line, _ := seriesStyle(b.Series)
	r, g, bl, _ := line.Color.RGBA()
	poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 77}
	poly.LineStyle.Width = 0
	return poly, nil
}

// baselineLine is a series' baseline value: a thin dashed line in its colour.
func baselineLine(y float64, col color.Color) hline {
	return hline{y: y, style: draw.LineStyle{
		Color:  col,
		Width:  vg.Points(1),
		Dashes: []vg.Length{vg.Points(4), vg.Points(3)},
	}}
}

// seriesStyle is the line and marker style of series i: colour i mod 12, dash
// pattern i / 12 (solid, dashed, dotted, dash-dot), marker shape i mod 8.
func seriesStyle(i int) (draw.LineStyle, draw.GlyphStyle) {
	col := seriesColors[i%len(seriesColors)]
	line := draw.LineStyle{
		Color:  col,
		Width:  vg.Points(1.6),
		Dashes: seriesDashes[(i/len(seriesColors))%len(seriesDashes)],
	}
	glyph := draw.GlyphStyle{
		Color:  col,
		Radius: vg.Points(2.4),
		Shape:  seriesGlyphs[i%len(seriesGlyphs)],
	}
	return line, glyph
}
