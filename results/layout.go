package results

import (
	"image/color"
	"strings"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Layout of the parts around the plot: the title across the top, the note
// under everything, the legend right of the plot or under it.
const (
	// titleMaxPt is the title's size when it fits on one line; titleMinPt
	// the smallest it is set in before it is wrapped to more than two
	// lines (and shrunk further only if one word is wider than the chart).
	titleMaxPt = 13.0
	titleMinPt = 10.0
	// notePt is the size of the note under the plot.
	notePt = 8.5
	// legendRightShare is the largest share of the chart's width a legend
	// right of the plot may take before it goes under the plot;
	// legendBelowShare the largest share of the height it may take there.
	legendRightShare = 0.35
	legendBelowShare = 0.30
)

var noteColor = rgb(0x44, 0x44, 0x44)

// legendEntry is one line of a chart legend.
type legendEntry struct {
	name   string
	thumbs []plot.Thumbnailer
}

// chartLayout is what a chart needs to draw itself: the plot (without a
// title), the title, drawn across the whole chart and fitted to its width,
// a note set in small type under the chart, the legend entries to place
// outside the data area (right of the plot in as many columns as the
// height requires, or under it when that would leave the plot too narrow),
// and an optional hook run once the area left for the plot is known (bar
// widths, label rotation), which returns the area to draw the plot in
// (narrowed when slanted labels need room on the left).
type chartLayout struct {
	plot    *plot.Plot
	title   string
	note    string
	legend  []legendEntry
	prepare func(p *plot.Plot, plotArea draw.Canvas) draw.Canvas
	// panels, when set, replace plot: a grid of small plots (nil for an
	// empty cell), drawn by drawPanels.
	panels [][]*plot.Plot
	// drawn, when set, is told of every plot drawn with the width of its
	// data area (TickOverlaps).
	drawn func(p *plot.Plot, width vg.Length)
}

// drawOne draws the plot p on c, its X axis labelled with only as many
// ticks as fit (fitXTicks).
func (l chartLayout) drawOne(p *plot.Plot, c draw.Canvas) {
	fitXTicks(p, c)
	if l.drawn != nil {
		da := p.DataCanvas(c)
		l.drawn(p, da.Max.X-da.Min.X)
	}
	p.Draw(c)
}

// draw renders the chart on dc: white background, the title at the top,
// the note at the bottom, the plot and its legend in between.
func (l chartLayout) draw(dc draw.Canvas) {
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	margin := vg.Points(6)
	dc = draw.Crop(dc, margin, -margin, margin, -margin)
	width := dc.Max.X - dc.Min.X
	if l.title != "" {
		sty, lines := fitTitle(l.title, width)
		h := drawLines(dc, sty, lines, dc.Max.Y, draw.XCenter)
		dc.Max.Y -= h + vg.Points(8)
	}
	if l.note != "" {
		sty, lines := fitNote(l.note, width)
		h := linesHeight(sty, len(lines))
		drawLines(dc, sty, lines, dc.Min.Y+h, draw.XLeft)
		dc.Min.Y += h + vg.Points(6)
	}
	if l.panels != nil {
		l.drawPanels(dc)
		return
	}
	l.drawPlot(dc)
}

// drawPlot draws the plot and its legend on dc.
func (l chartLayout) drawPlot(dc draw.Canvas) {
	p := l.plot
	if len(l.legend) == 0 {
		if l.prepare != nil {
			dc = l.prepare(p, dc)
		}
		l.drawOne(p, dc)
		return
	}
	width, height := dc.Max.X-dc.Min.X, dc.Max.Y-dc.Min.Y
	gap := vg.Points(10)
	thumbW := p.Legend.ThumbnailWidth
	style := func(size float64) (text.Style, vg.Length) {
		sty := p.Legend.TextStyle
		sty.Font.Size = vg.Points(size)
		return sty, vg.Points(size / 4)
	}

	// Right of the plot when the legend takes at most legendRightShare of
	// the width, in 9.5 or 8.5 pt type; else under the plot when it fits in
	// legendBelowShare of the height; else right of the plot, in type as
	// small as 6.5 pt, and cut at half the width.
	avail := p.DataCanvas(dc).Max.Y - dc.Min.Y
	for _, size := range []float64{9.5, 8.5} {
		sty, pad := style(size)
		cols, widths, total := legendColumns(l.legend, sty, pad, thumbW, avail, gap)
		if total <= width*legendRightShare {
			l.drawRight(dc, cols, widths, total, gap)
			return
		}
	}
	for _, size := range []float64{9.5, 8.5, 7.5} {
		sty, pad := style(size)
		cols, widths, h := legendGrid(l.legend, sty, pad, thumbW, width, gap)
		if cols != nil && h <= height*legendBelowShare {
			l.drawBelow(dc, cols, widths, h, gap)
			return
		}
	}
	var cols []plot.Legend
	var widths []vg.Length
	var total vg.Length
	for _, size := range []float64{9.5, 8.5, 7.5, 6.5} {
		sty, pad := style(size)
		cols, widths, total = legendColumns(l.legend, sty, pad, thumbW, avail, gap)
		if total <= width/2 {
			break
		}
	}
	l.drawRight(dc, cols, widths, min(total, width/2), gap)
}

// drawRight draws the plot in dc less total on the right, and the legend
// columns there, aligned with the top of the data area.
func (l chartLayout) drawRight(dc draw.Canvas, cols []plot.Legend, widths []vg.Length, total, gap vg.Length) {
	p := l.plot
	plotArea := draw.Crop(dc, 0, -total, 0, 0)
	if l.prepare != nil {
		plotArea = l.prepare(p, plotArea)
	}
	l.drawOne(p, plotArea)

	data := p.DataCanvas(plotArea)
	x := plotArea.Max.X + gap
	for i := range cols {
		c := dc
		c.Rectangle = vg.Rectangle{
			Min: vg.Point{X: x, Y: dc.Min.Y},
			Max: vg.Point{X: x + widths[i], Y: data.Max.Y},
		}
		cols[i].Draw(c)
		x += widths[i] + gap
	}
}

// drawBelow draws the legend columns, height h, centred at the bottom of
// dc and the plot above them.
func (l chartLayout) drawBelow(dc draw.Canvas, cols []plot.Legend, widths []vg.Length, h, gap vg.Length) {
	p := l.plot
	plotArea := draw.Crop(dc, 0, 0, h+gap, 0)
	if l.prepare != nil {
		plotArea = l.prepare(p, plotArea)
	}
	l.drawOne(p, plotArea)
	drawLegendBelow(dc, cols, widths, h, gap)
}

// drawLegendBelow draws the legend columns, height h, gap apart, centred
// at the bottom of dc.
func drawLegendBelow(dc draw.Canvas, cols []plot.Legend, widths []vg.Length, h, gap vg.Length) {
	total := gap * vg.Length(len(cols)-1)
	for _, w := range widths {
		total += w
	}
	x := dc.Min.X + (dc.Max.X-dc.Min.X-total)/2
	for i := range cols {
		c := dc
		c.Rectangle = vg.Rectangle{
			Min: vg.Point{X: x, Y: dc.Min.Y},
			Max: vg.Point{X: x + widths[i], Y: dc.Min.Y + h},
		}
		cols[i].Draw(c)
		x += widths[i] + gap
	}
}

// newLegend returns an empty top-left-aligned legend in sty.
func newLegend(sty text.Style, pad, thumbW vg.Length) plot.Legend {
	leg := plot.NewLegend()
	leg.TextStyle = sty
	leg.Padding = pad
	leg.ThumbnailWidth = thumbW
	leg.Top, leg.Left = true, true
	return leg
}

// legendColumns splits entries into as few top-aligned legend columns as fit
// in height avail, and returns them with their widths and the total width
// including a gap before each column and after the last.
func legendColumns(entries []legendEntry, sty text.Style, pad, thumbW, avail, gap vg.Length) ([]plot.Legend, []vg.Length, vg.Length) {
	var entryH vg.Length
	for _, e := range entries {
		entryH = max(entryH, sty.Rectangle(e.name).Max.Y)
	}
	rows := max(1, int((avail+pad)/(entryH+pad)))
	ncol := (len(entries) + rows - 1) / rows
	perCol := (len(entries) + ncol - 1) / ncol

	var cols []plot.Legend
	var widths []vg.Length
	total := gap
	for start := 0; start < len(entries); start += perCol {
		leg := newLegend(sty, pad, thumbW)
		for _, e := range entries[start:min(start+perCol, len(entries))] {
			leg.Add(e.name, e.thumbs...)
		}
		w := leg.Rectangle(draw.Canvas{}).Size().X
		cols = append(cols, leg)
		widths = append(widths, w)
		total += w + gap
	}
	return cols, widths, total
}

// legendGrid sets entries in rows under the plot, in reading order, in as
// many columns as fit in width (columns gap apart), and returns the
// columns with their widths and the height of the tallest; nil columns
// when even one column is wider than width.
func legendGrid(entries []legendEntry, sty text.Style, pad, thumbW, width, gap vg.Length) ([]plot.Legend, []vg.Length, vg.Length) {
	entryW := make([]vg.Length, len(entries))
	for i, e := range entries {
		entryW[i] = thumbW + sty.Rectangle(" "+e.name).Max.X
	}
	for k := len(entries); k >= 1; k-- {
		widths := make([]vg.Length, k)
		for i, w := range entryW {
			widths[i%k] = max(widths[i%k], w)
		}
		total := gap * vg.Length(k-1)
		for _, w := range widths {
			total += w
		}
		if total > width {
			continue
		}
		cols := make([]plot.Legend, k)
		for j := range cols {
			cols[j] = newLegend(sty, pad, thumbW)
		}
		for i, e := range entries {
			cols[i%k].Add(e.name, e.thumbs...)
		}
		var h vg.Length
		for j := range cols {
			h = max(h, cols[j].Rectangle(draw.Canvas{}).Size().Y)
		}
		return cols, widths, h
	}
	return nil, nil, 0
}

// fitTitle sets title so that it fits in width: on one line at the largest
// size from titleMaxPt down to 11 pt that fits, else on two lines from
// titleMaxPt down to titleMinPt, else wrapped to as many lines as needed at
// titleMinPt, smaller still if a single word is wider than width.
func fitTitle(title string, width vg.Length) (text.Style, []string) {
	title = strings.Join(strings.Fields(title), " ")
	style := func(size float64) text.Style {
		return textStyle(sans(size, true), color.Black)
	}
	for size := titleMaxPt; size >= 11; size-- {
		if sty := style(size); sty.Width(title) <= width {
			return sty, []string{title}
		}
	}
	for size := titleMaxPt; size >= titleMinPt; size-- {
		sty := style(size)
		if lines := twoLines(sty, title); sty.Width(lines[0]) <= width && sty.Width(lines[len(lines)-1]) <= width {
			return sty, lines
		}
	}
	return wrapShrink(style, titleMinPt, title, width)
}

// fitNote wraps note to width in notePt italic type (smaller if a single
// word is wider than width).
func fitNote(note string, width vg.Length) (text.Style, []string) {
	style := func(size float64) text.Style {
		f := sans(size, false)
		f.Style = xfont.StyleItalic
		return textStyle(f, noteColor)
	}
	return wrapShrink(style, notePt, note, width)
}

// twoLines splits s at the space that makes the longer of its two lines
// shortest in sty; s alone when it is one word.
func twoLines(sty text.Style, s string) []string {
	words := strings.Fields(s)
	if len(words) < 2 {
		return []string{s}
	}
	var best []string
	var bestW vg.Length
	for i := 1; i < len(words); i++ {
		a, b := strings.Join(words[:i], " "), strings.Join(words[i:], " ")
		if w := max(sty.Width(a), sty.Width(b)); best == nil || w < bestW {
			best, bestW = []string{a, b}, w
		}
	}
	return best
}

// wrapShrink wraps s greedily to width in style(size), after shrinking the
// size so that its widest word fits.
func wrapShrink(style func(float64) text.Style, size float64, s string, width vg.Length) (text.Style, []string) {
	sty := style(size)
	var widest vg.Length
	for _, w := range strings.Fields(s) {
		widest = max(widest, sty.Width(w))
	}
	if widest > width {
		// Width scales with the size; the 0.98 absorbs rounding.
		sty = style(size * float64(width/widest) * 0.98)
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		switch {
		case line == "":
			line = w
		case sty.Width(line+" "+w) <= width:
			line += " " + w
		default:
			lines = append(lines, line)
			line = w
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return sty, lines
}

// linesHeight is the height of n lines of text in sty.
func linesHeight(sty text.Style, n int) vg.Length {
	e := sty.FontExtents()
	return vg.Length(n)*e.Height - (e.Height - e.Ascent - e.Descent)
}

// drawLines draws lines in sty from top down, each centred on dc
// (align draw.XCenter) or starting at its left edge (draw.XLeft), and
// returns their height.
func drawLines(dc draw.Canvas, sty text.Style, lines []string, top vg.Length, align text.XAlignment) vg.Length {
	sty.XAlign, sty.YAlign = align, draw.YTop
	x := dc.Min.X
	if align == draw.XCenter {
		x = dc.Center().X
	}
	e := sty.FontExtents()
	for i, line := range lines {
		dc.FillText(sty, vg.Point{X: x, Y: top + e.Descent - vg.Length(i)*e.Height}, line)
	}
	return linesHeight(sty, len(lines))
}
