package results

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Panel is one small plot of a PanelChart, with a Y scale of its own: one
// line (X, Y) in the chart's colour Colour (an index into its palette of
// 12), a title (the gene's name), and Baseline, unless NaN, as a thin
// dashed line in the same colour (a baseline vector's value). A Muted
// panel is drawn in grey on a grey ground, its title followed by the
// chart's MutedName: something the reader must not take for a result (a
// gene the method could not move).
type Panel struct {
	Title    string
	X, Y     []float64
	Colour   int
	Baseline float64
	Muted    bool
	// Lo and Hi, when set (one per X), are a shaded band around the line,
	// such as a model's 95% interval, in the line's colour.
	Lo, Hi []float64
}

// PanelChart is small multiples (Tufte): one small line plot per
// quantity, each with its own Y scale, so that a quantity of small values
// is not flattened by one of large values, laid out in rows (e.g. one row
// per family of genes: the same colour, the same kind of road). The X
// axis is labelled XLabel on the bottom panel of each column, the Y axis
// YLabel on the first panel of each row. The legend under the panels names
// the dashed baselines (BaselineName, when set and some panel has one) and
// the muted panels (MutedName, when some panel is muted). Title and Note
// are set as LineChart's. Width and Height are in centimetres; 0 means 16
// cm wide and 3.6 cm a row plus 3 cm.
type PanelChart struct {
	Title, XLabel, YLabel string
	Rows                  [][]Panel
	BaselineName          string
	MutedName             string
	Note                  string
	Width, Height         float64
}

// mutedColor and mutedGround are a muted panel's line and ground.
var (
	mutedColor  = rgb(0x99, 0x99, 0x99)
	mutedGround = rgb(0xf0, 0xf0, 0xf0)
)

// height is the chart's height, by default from its rows.
func (c PanelChart) height() float64 {
	if c.Height == 0 {
		return min(maxChartSideCm, 3.6*float64(len(c.Rows))+3)
	}
	return c.Height
}

// Save writes the chart to base+".png" (150 dpi) and base+".svg", creating
// the parent directory; each file is replaced atomically. It is an error
// to have no panel, a panel with no points, len(X) != len(Y), a NaN or
// infinite coordinate or an infinite baseline, or a size outside [4, 100]
// cm; errors name the panel.
func (c PanelChart) Save(base string) error {
	return saveChart("panel chart", base, c.Width, c.height(), c.layout)
}

// SVG renders the chart as an SVG document, with Save's checks and errors.
func (c PanelChart) SVG() ([]byte, error) {
	return chartSVG("panel chart", c.Title, c.Width, c.height(), c.layout)
}

// layout validates the chart and builds its panels' plots and legend.
func (c PanelChart) layout() (chartLayout, error) {
	cols := 0
	for _, row := range c.Rows {
		cols = max(cols, len(row))
	}
	if cols == 0 {
		return chartLayout{}, errors.New("no panels")
	}
	grid := make([][]*plot.Plot, len(c.Rows))
	baselines, muted := false, false
	for r, row := range c.Rows {
		grid[r] = make([]*plot.Plot, cols)
		for k, pn := range row {
			name := fmt.Sprintf("panel %d of row %d (%q)", k, r, pn.Title)
			if len(pn.X) == 0 || len(pn.X) != len(pn.Y) {
				return chartLayout{}, fmt.Errorf("%s: %d X values and %d Y values", name, len(pn.X), len(pn.Y))
			}
			for _, xs := range [][]float64{pn.X, pn.Y} {
				if j, ok := checkFinite(xs); !ok {
					return chartLayout{}, fmt.Errorf("%s: value %d = %g", name, j, xs[j])
				}
			}
			if math.IsInf(pn.Baseline, 0) {
				return chartLayout{}, fmt.Errorf("%s: baseline %g", name, pn.Baseline)
			}
			if pn.Lo != nil || pn.Hi != nil {
				if len(pn.Lo) != len(pn.X) || len(pn.Hi) != len(pn.X) {
					return chartLayout{}, fmt.Errorf("%s: a band of %d and %d values for %d X values", name, len(pn.Lo), len(pn.Hi), len(pn.X))
				}
				for _, xs := range [][]float64{pn.Lo, pn.Hi} {
					if j, ok := checkFinite(xs); !ok {
						return chartLayout{}, fmt.Errorf("%s: band value %d = %g", name, j, xs[j])
					}
				}
			}
			p, err := c.panelPlot(pn, r == len(c.Rows)-1 || k >= len(c.Rows[r+1]), k == 0)
			if err != nil {
				return chartLayout{}, err
			}
			grid[r][k] = p
			baselines = baselines || !math.IsNaN(pn.Baseline)
			muted = muted || pn.Muted
		}
	}
	var legend []legendEntry
	if baselines && c.BaselineName != "" {
		legend = append(legend, legendEntry{name: c.BaselineName, thumbs: []plot.Thumbnailer{baselineLine(0, refColor)}})
	}
	if muted && c.MutedName != "" {
		line, _ := seriesStyle(0)
		line.Color = mutedColor
		legend = append(legend, legendEntry{name: c.MutedName, thumbs: []plot.Thumbnailer{mutedThumb{line}}})
	}
	return chartLayout{title: c.Title, note: c.Note, legend: legend, panels: grid}, nil
}

// panelPlot is one panel's plot: its line (with markers when it has at
// most markerPointLimit points), its baseline, its title, the X label when
// it is at the bottom of its column and the Y label when first in its row.
func (c PanelChart) panelPlot(pn Panel, bottom, first bool) (*plot.Plot, error) {
	xl, yl := "", ""
	if bottom {
		xl = c.XLabel
	}
	if first {
		yl = c.YLabel
	}
	p := newPlot(xl, yl)
	p.X.Label.TextStyle.Font = sans(9, false)
	p.Y.Label.TextStyle.Font = sans(9, false)
	p.X.Tick.Label.Font = sans(8, false)
	p.Y.Tick.Label.Font = sans(8, false)
	whole := true
	for _, x := range pn.X {
		whole = whole && x == math.Trunc(x)
	}
	p.X.Tick.Marker = niceTicks{integer: whole, count: 4}
	p.Y.Tick.Marker = niceTicks{count: 4}
	p.Add(gridLines(true))
	line, glyph := seriesStyle(pn.Colour % len(seriesColors))
	title := pn.Title
	titleColour := color.Color(color.Black)
	if pn.Muted {
		line.Color, glyph.Color = mutedColor, mutedColor
		titleColour = rgb(0x66, 0x66, 0x66)
		if c.MutedName != "" {
			title += " (" + shortMuted(c.MutedName) + ")"
		}
		p.BackgroundColor = mutedGround
	}
	p.Title.Text = title
	p.Title.TextStyle = textStyle(sans(9.5, true), titleColour)
	p.Title.TextStyle.YAlign = text.YBottom
	p.Title.Padding = vg.Points(3)
	if pn.Lo != nil {
		band, err := bandPolygon(Band{X: pn.X, Lo: pn.Lo, Hi: pn.Hi, Series: pn.Colour % len(seriesColors)})
		if err != nil {
			return nil, err
		}
		p.Add(band)
	}
	xys := make(plotter.XYs, len(pn.X))
	for i := range pn.X {
		xys[i] = plotter.XY{X: pn.X[i], Y: pn.Y[i]}
	}
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.LineStyle = line
	p.Add(l)
	if len(xys) <= markerPointLimit {
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		glyph.Radius = vg.Points(1.8)
		s.GlyphStyle = glyph
		p.Add(s)
	}
	if !math.IsNaN(pn.Baseline) {
		p.Add(baselineLine(pn.Baseline, line.Color))
	}
	// A flat line gets a range around it rather than none.
	if lo, hi := minMax(append(append(slices.Clone(pn.Y), pn.Lo...), pn.Hi...), pn.Baseline); hi-lo < 1e-9*max(1, math.Abs(hi)) {
		pad := max(1, math.Abs(hi)*0.05)
		p.Y.Min, p.Y.Max = lo-pad, hi+pad
	}
	return p, nil
}

// shortMuted is the words of MutedName up to its first colon: what the
// title of a muted panel says.
func shortMuted(s string) string {
	for i, r := range s {
		if r == ':' {
			return s[:i]
		}
	}
	return s
}

// minMax is the smallest and largest of ys and extra (unless NaN).
func minMax(ys []float64, extra float64) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, y := range append(ys, extra) {
		if !math.IsNaN(y) {
			lo, hi = math.Min(lo, y), math.Max(hi, y)
		}
	}
	return lo, hi
}

// mutedThumb is the legend thumbnail of a muted panel: its grey line on
// its grey ground.
type mutedThumb struct{ line draw.LineStyle }

func (m mutedThumb) Thumbnail(c *draw.Canvas) {
	c.SetColor(mutedGround)
	c.Fill(c.Rectangle.Path())
	y := c.Center().Y
	c.StrokeLine2(m.line, c.Min.X, y, c.Max.X, y)
}

// drawPanels draws the grid of panels on dc, with the legend, if any,
// centred under them.
func (l chartLayout) drawPanels(dc draw.Canvas) {
	if len(l.legend) > 0 {
		sty := plot.New().Legend.TextStyle
		sty.Font = sans(9, false)
		gap := vg.Points(10)
		cols, widths, h := legendGrid(l.legend, sty, vg.Points(2.5), vg.Points(26), dc.Max.X-dc.Min.X, gap)
		if cols != nil {
			drawLegendBelow(dc, cols, widths, h, gap)
			dc.Min.Y += h + gap
		}
	}
	tiles := draw.Tiles{Rows: len(l.panels), Cols: len(l.panels[0]), PadX: vg.Points(8), PadY: vg.Points(8), PadTop: vg.Points(4)}
	canvases := plot.Align(l.panels, tiles, dc)
	for r, row := range l.panels {
		for k, p := range row {
			if p != nil {
				l.drawOne(p, canvases[r][k])
			}
		}
	}
}
