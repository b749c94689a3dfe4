package results

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Rendering constants shared by the charts.
const (
	chartDPI         = 150 // PNG resolution: a 16 cm chart is 945 px wide
	defaultWidthCm   = 16
	defaultHeightCm  = 10
	minChartSideCm   = 4
	maxChartSideCm   = 100
	markerPointLimit = 40 // series with at most this many points get markers
)

// seriesColors are 12 qualitative colours, dark enough for thin lines on white
// (matplotlib's tab10, then black and a dark gold).
var seriesColors = []color.Color{
	rgb(0x1f, 0x77, 0xb4), // blue
	rgb(0xff, 0x7f, 0x0e), // orange
	rgb(0x2c, 0xa0, 0x2c), // green
	rgb(0xd6, 0x27, 0x28), // red
	rgb(0x94, 0x67, 0xbd), // purple
	rgb(0x8c, 0x56, 0x4b), // brown
	rgb(0xe3, 0x77, 0xc2), // pink
	rgb(0x7f, 0x7f, 0x7f), // grey
	rgb(0xbc, 0xbd, 0x22), // olive
	rgb(0x17, 0xbe, 0xcf), // cyan
	rgb(0x00, 0x00, 0x00), // black
	rgb(0xb8, 0x86, 0x0b), // dark gold
}

// seriesDashes: series i has colour i mod 12 and dash pattern (i / 12), so the
// first 12 series are solid and the next ones dashed, then dotted.
var seriesDashes = [][]vg.Length{
	nil,
	{vg.Points(6), vg.Points(3)},
	{vg.Points(1.5), vg.Points(2)},
	{vg.Points(8), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)},
}

// seriesGlyphs: filled shapes first, then outlines.
var seriesGlyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{},
	draw.CrossGlyph{}, draw.PlusGlyph{},
}

// refLineDashes are the dash patterns of horizontal reference lines, in order.
var refLineDashes = [][]vg.Length{
	{vg.Points(5), vg.Points(3)},
	{vg.Points(1.5), vg.Points(2)},
	{vg.Points(8), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)},
	{vg.Points(10), vg.Points(4)},
}

var (
	gridColor = rgb(0xdd, 0xdd, 0xdd)
	refColor  = rgb(0x44, 0x44, 0x44)
	barColor  = rgb(0x6b, 0x9b, 0xc9)
	barEdge   = rgb(0x2f, 0x5f, 0x8f)
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{R: r, G: g, B: b, A: 255} }

// sans returns Liberation Sans (embedded in gonum/plot) at size points.
func sans(size float64, bold bool) font.Font {
	f := font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(size)}
	if bold {
		f.Weight = xfont.WeightBold
	}
	return f
}

// newPlot returns a plot with the package's fonts, a light grid and the given
// axis labels. It has no title: chartLayout draws the title across the whole
// chart, fitted to its width.
func newPlot(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = sans(11, false)
		ax.Tick.Label.Font = sans(9.5, false)
		ax.Label.Padding = vg.Points(3)
		ax.Tick.Marker = niceTicks{}
	}
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Legend.TextStyle.Font = sans(9.5, false)
	p.Legend.ThumbnailWidth = vg.Points(26)
	p.Legend.Padding = vg.Points(2.5)
	return p
}

// chartSize converts a chart's Width and Height in centimetres (0 = default)
// to lengths, rejecting negative, non-finite or absurd sizes.
func chartSize(kind string, wCm, hCm float64) (vg.Length, vg.Length, error) {
	if wCm == 0 {
		wCm = defaultWidthCm
	}
	if hCm == 0 {
		hCm = defaultHeightCm
	}
	for _, v := range []float64{wCm, hCm} {
		if math.IsNaN(v) || v < minChartSideCm || v > maxChartSideCm {
			return 0, 0, fmt.Errorf("results: %s: size %g x %g cm outside [%d, %d] cm", kind, wCm, hCm, minChartSideCm, maxChartSideCm)
		}
	}
	return vg.Length(wCm) * vg.Centimeter, vg.Length(hCm) * vg.Centimeter, nil
}

// saveChart checks the size (in cm) and the layout of a chart of the
// kind ("line chart") and saves it under base; errors name the kind and
// base.
func saveChart(kind, base string, wCm, hCm float64, layout func() (chartLayout, error)) error {
	w, h, err := chartSize(kind+" "+base, wCm, hCm)
	if err != nil {
		return err
	}
	l, err := layout()
	if err != nil {
		return fmt.Errorf("results: %s %s: %w", kind, base, err)
	}
	return l.save(base, w, h)
}

// chartSVG is saveChart's SVG document in memory; errors name the kind
// and the title.
func chartSVG(kind, title string, wCm, hCm float64, layout func() (chartLayout, error)) ([]byte, error) {
	w, h, err := chartSize(kind, wCm, hCm)
	if err != nil {
		return nil, err
	}
	l, err := layout()
	if err != nil {
		return nil, fmt.Errorf("results: %s %q: %w", kind, title, err)
	}
	return l.svg(w, h)
}

// pngEncoder compresses charts at zlib's fastest level: on the 21-gene
// chart the file is 3.6% larger (197 against 190 kB) and encoding takes
// 40 ms instead of 50 (image/png's row filters, which run at any level
// but none, take most of the rest).
var pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed}

// save renders the chart at w x h as base+".png" (chartDPI) and base+".svg",
// creating the parent directory, each file written atomically. A trailing
// ".png" or ".svg" on base is dropped.
func (l chartLayout) save(base string, w, h vg.Length) error {
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".png"), ".svg")
	if base == "" || strings.HasSuffix(base, string(filepath.Separator)) {
		return fmt.Errorf("results: chart: %q is not a file base name", base)
	}

	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(chartDPI))
	l.draw(draw.New(img))
	var pngBuf bytes.Buffer
	if err := pngEncoder.Encode(&pngBuf, img.Image()); err != nil {
		return fmt.Errorf("results: chart %s.png: %w", base, err)
	}
	svgData, err := l.svg(w, h)
	if err != nil {
		return fmt.Errorf("results: chart %s.svg: %w", base, err)
	}
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return fmt.Errorf("results: chart: %w", err)
	}
	if err := WriteFileAtomic(base+".png", pngBuf.Bytes()); err != nil {
		return err
	}
	return WriteFileAtomic(base+".svg", svgData)
}

// svg renders the chart at w x h as an SVG document.
func (l chartLayout) svg(w, h vg.Length) ([]byte, error) {
	svg := vgsvg.New(w, h)
	l.draw(draw.New(svg))
	var svgBuf bytes.Buffer
	if _, err := svg.WriteTo(&svgBuf); err != nil {
		return nil, err
	}
	// Name metric-compatible fallbacks for viewers without Liberation Sans.
	return bytes.ReplaceAll(svgBuf.Bytes(), []byte("font-family:Liberation Sans;"),
		[]byte("font-family:'Liberation Sans',Arimo,Arial,Helvetica,sans-serif;")), nil
}

// Chart is a chart that can be saved as PNG and SVG files or rendered as
// an SVG document in memory (for a web page or a self-contained report):
// LineChart, BarChart and PanelChart.
type Chart interface {
	Save(base string) error
	SVG() ([]byte, error)
}

// NamedChart is one chart of a run as reports and pages show it: Name is
// its file base (plots/NAME.png and .svg) and its page's name
// (/run/ID/chart/NAME.svg), Title what they call it.
type NamedChart struct {
	Name, Title string
	Chart       Chart
}

// hline is a horizontal reference line across the whole data area. Its
// DataRange widens only the Y axis.
type hline struct {
	y     float64
	style draw.LineStyle
}

func (h hline) Plot(c draw.Canvas, p *plot.Plot) {
	_, trY := p.Transforms(&c)
	y := trY(h.y)
	if y < c.Min.Y-0.01 || y > c.Max.Y+0.01 {
		return
	}
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

func (h hline) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), h.y, h.y
}

func (h hline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(h.style, c.Min.X, y, c.Max.X, y)
}

func refLine(y float64, i int) hline {
	return hline{y: y, style: draw.LineStyle{
		Color:  refColor,
		Width:  vg.Points(1.2),
		Dashes: refLineDashes[i%len(refLineDashes)],
	}}
}

// niceTicks puts labelled ticks at multiples of the 1-2-5 step that gives
// closest to count labels (0: 6), with as many decimals as the step needs;
// integer restricts the step to whole numbers (generations, iterations,
// games).
type niceTicks struct {
	integer bool
	count   int
}

func (t niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'f', -1, 64)}}
	}
	span := hi - lo
	want := float64(t.count)
	if want == 0 {
		want = 6
	}
	mag := math.Pow(10, math.Floor(math.Log10(span/want)))
	step, best := mag, math.Inf(1)
	for _, m := range []float64{1, 2, 5, 10} {
		if d := math.Abs(math.Log(span / (m * mag) / want)); d < best {
			step, best = m*mag, d
		}
	}
	if t.integer {
		step = math.Max(step, 1)
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(lo/step - 1e-9); k*step <= hi+step*1e-9; k++ {
		v := k * step
		if v == 0 {
			v = 0 // no "-0"
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
	}
	return ticks
}

// tickGap is the least space between two tick labels of an axis.
var tickGap = vg.Points(4)

// fitTicks are niceTicks that fit an axis of the given width: fewer
// labels (down to the axis's ends) until no two labels touch, so a small
// panel over 95 generations reads "0 50" rather than "0 20406080".
type fitTicks struct {
	niceTicks
	width vg.Length  // the axis's length on the canvas
	style text.Style // the tick labels' style
}

func (t fitTicks) Ticks(lo, hi float64) []plot.Tick {
	want := t.count
	if want == 0 {
		want = 6
	}
	for ; want > 1; want-- {
		ticks := niceTicks{integer: t.integer, count: want}.Ticks(lo, hi)
		if tickOverlap(ticks, lo, hi, t.width, t.style) == "" {
			return ticks
		}
	}
	ticks := niceTicks{integer: t.integer, count: 1}.Ticks(lo, hi)
	if len(ticks) > 2 {
		ticks = []plot.Tick{ticks[0], ticks[len(ticks)-1]}
	}
	if tickOverlap(ticks, lo, hi, t.width, t.style) != "" {
		ticks = ticks[:1]
	}
	return ticks
}

// tickOverlap names the first two labelled ticks whose labels would
// touch (less than tickGap apart) on an axis of the given width from lo
// to hi, "" when none does.
func tickOverlap(ticks []plot.Tick, lo, hi float64, width vg.Length, sty text.Style) string {
	var prev *plot.Tick
	for i := range ticks {
		t := &ticks[i]
		if t.Label == "" || t.Value < lo || t.Value > hi {
			continue
		}
		if prev != nil {
			dx := width * vg.Length((t.Value-prev.Value)/(hi-lo))
			if dx < (sty.Width(prev.Label)+sty.Width(t.Label))/2+tickGap {
				return fmt.Sprintf("tick labels %q and %q overlap", prev.Label, t.Label)
			}
		}
		prev = t
	}
	return ""
}

// fitXTicks makes p's X axis, when it has niceTicks, label only as many
// ticks as fit its data area on c (fitTicks): called with the canvas a
// plot is drawn on, once its size is known.
func fitXTicks(p *plot.Plot, c draw.Canvas) {
	nt, ok := p.X.Tick.Marker.(niceTicks)
	if !ok {
		return
	}
	da := p.DataCanvas(c)
	p.X.Tick.Marker = fitTicks{niceTicks: nt, width: da.Max.X - da.Min.X, style: p.X.Tick.Label}
}

// TickOverlaps draws c at its size and lists the X tick labels of its
// plots (each panel's, for a PanelChart) that would touch or overlap, as
// "panel \"M1\": tick labels \"20\" and \"40\" overlap"; nil for a chart
// that reads at a glance. Errors: c's layout errors (as Save's), a chart
// of a type this package did not make.
func TickOverlaps(c Chart) ([]string, error) {
	var l chartLayout
	var wCm, hCm float64
	var err error
	switch c := c.(type) {
	case LineChart:
		l, err = c.layout()
		wCm, hCm = c.Width, c.Height
	case BarChart:
		l, err = c.layout()
		wCm, hCm = c.Width, c.Height
	case PanelChart:
		l, err = c.layout()
		wCm, hCm = c.Width, c.height()
	default:
		return nil, fmt.Errorf("results: TickOverlaps of a %T", c)
	}
	if err != nil {
		return nil, err
	}
	w, h, err := chartSize("chart", wCm, hCm)
	if err != nil {
		return nil, err
	}
	var out []string
	l.drawn = func(p *plot.Plot, width vg.Length) {
		if p.X.Tick.Label.Rotation != 0 {
			return // slanted labels (a bar chart's) take no room along the axis
		}
		ticks := p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max)
		if msg := tickOverlap(ticks, p.X.Min, p.X.Max, width, p.X.Tick.Label); msg != "" {
			if p.Title.Text != "" {
				msg = fmt.Sprintf("panel %q: %s", p.Title.Text, msg)
			}
			out = append(out, msg)
		}
	}
	l.draw(draw.New(vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(72))))
	return out, nil
}

// textStyle returns a plain text style in font f.
func textStyle(f font.Font, c color.Color) text.Style {
	return text.Style{Color: c, Font: f, XAlign: draw.XCenter, YAlign: draw.YBottom, Handler: plot.DefaultTextHandler}
}

// checkFinite reports the first NaN or infinite value of xs.
func checkFinite(xs []float64) (int, bool) {
	for i, v := range xs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return i, false
		}
	}
	return 0, true
}

// gridLines returns a light grid at the major ticks (horizontal only when
// vertical is false).
func gridLines(vertical bool) *plotter.Grid {
	g := plotter.NewGrid()
	g.Horizontal.Color = gridColor
	g.Horizontal.Width = vg.Points(0.6)
	if vertical {
		g.Vertical.Color = gridColor
		g.Vertical.Width = vg.Points(0.6)
	} else {
		g.Vertical.Width = 0
	}
	return g
}
