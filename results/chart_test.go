package results

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// checkChartFiles decodes base.png and reads base.svg, and checks that the
// PNG is w x h pixels, has many colours including want, and that the SVG is
// one holding text.
func checkChartFiles(t *testing.T, base string, w, h int, want color.Color, text string) {
	t.Helper()
	f, err := os.Open(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, format, err := image.Decode(f)
	if err != nil {
		t.Fatalf("%s.png: %v", base, err)
	}
	if format != "png" {
		t.Errorf("%s.png decodes as %s", base, format)
	}
	b := img.Bounds()
	if b.Dx() != w || b.Dy() != h {
		t.Errorf("%s.png is %dx%d, want %dx%d", base, b.Dx(), b.Dy(), w, h)
	}
	colours := map[color.RGBA]int{}
	wr, wg, wb, _ := want.RGBA()
	found := false
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, a := img.At(x, y).RGBA()
			colours[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bb >> 8), uint8(a >> 8)}]++
			found = found || (r>>8 == wr>>8 && g>>8 == wg>>8 && bb>>8 == wb>>8)
		}
	}
	if len(colours) < 8 {
		t.Errorf("%s.png has only %d colours", base, len(colours))
	}
	if white := colours[color.RGBA{255, 255, 255, 255}]; white < b.Dx()*b.Dy()/3 || white == b.Dx()*b.Dy() {
		t.Errorf("%s.png: %d of %d pixels white", base, white, b.Dx()*b.Dy())
	}
	if !found {
		t.Errorf("%s.png has no pixel of colour %v", base, want)
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "<svg") || !strings.Contains(string(svg), text) {
		t.Errorf("%s.svg lacks <svg or %q", base, text)
	}
}

func TestLineChartSave(t *testing.T) {
	dir := t.TempDir()
	c := LineChart{
		Title: "Fitness by generation", XLabel: "generation", YLabel: "fitness",
		Series: []Series{
			{Name: "best", X: []float64{0, 1, 2, 3}, Y: []float64{0.4, 0.6, 0.7, 0.72}},
			{Name: "mean", X: []float64{0, 1, 2, 3}, Y: []float64{0.3, 0.4, 0.5, 0.55}},
		},
		HLines: []HLine{{Name: "even", Y: 0.5}},
	}
	base := filepath.Join(dir, "plots", "fitness")
	if err := c.Save(base + ".png"); err != nil { // the suffix is dropped
		t.Fatal(err)
	}
	// 16 x 10 cm at 150 dpi.
	checkChartFiles(t, base, 945, 591, seriesColors[1], "Fitness by generation")
	if names := dirNames(t, filepath.Dir(base)); !reflect.DeepEqual(names, []string{"fitness.png", "fitness.svg"}) {
		t.Errorf("plots/ holds %v", names)
	}

	c.Width, c.Height = 8, 6
	if err := c.Save(base); err != nil {
		t.Fatal(err)
	}
	checkChartFiles(t, base, 472, 354, seriesColors[0], "mean")
}

func TestBarChartSave(t *testing.T) {
	lo, hi := 30.0, 80.0
	c := BarChart{
		Title: "Score against the baseline", YLabel: "score (%)",
		Bars: []Bar{
			{Label: "GA gen 30", Value: 74.8, Lo: 71.4, Hi: 78.2},
			{Label: "PSO gbest", Value: 58, Lo: 53.6, Hi: 62.4},
			{Label: "no interval", Value: 50, Lo: 50, Hi: 50},
		},
		RefLine: &HLine{Name: "50%", Y: 50},
		YMin:    &lo, YMax: &hi,
	}
	base := filepath.Join(t.TempDir(), "score")
	if err := c.Save(base); err != nil {
		t.Fatal(err)
	}
	checkChartFiles(t, base, 945, 591, barColor, "PSO gbest")
	svg, _ := os.ReadFile(base + ".svg")
	for _, s := range []string{">74.8<", ">58.0<", ">50%<"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("svg lacks %s", s)
		}
	}
}

func TestChartLegend(t *testing.T) {
	pts := []float64{1, 2, 3}
	one := Series{Name: "LLR", X: pts, Y: pts}
	cases := []struct {
		name  string
		chart LineChart
		want  []string
	}{
		{"one series", LineChart{Series: []Series{one}}, nil},
		{"unnamed hline", LineChart{Series: []Series{one}, HLines: []HLine{{Y: 0}}}, nil},
		{"named hlines", LineChart{Series: []Series{one}, HLines: []HLine{{Name: "H1", Y: 2.94}, {Y: 0}, {Name: "H0", Y: -2.94}}},
			[]string{"LLR", "H1", "H0"}},
		{"two series", LineChart{Series: []Series{one, {X: pts, Y: pts}}}, []string{"LLR", "series 2"}},
	}
	for _, tc := range cases {
		l, err := tc.chart.layout()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, e := range l.legend {
			got = append(got, e.name)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: legend %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestSeriesStylesDistinct(t *testing.T) {
	seen := map[string]int{}
	for i := range 48 {
		line, glyph := seriesStyle(i)
		key := fmt.Sprint(line.Color, line.Dashes)
		if j, dup := seen[key]; dup {
			t.Errorf("series %d and %d share colour and dashes %s", i, j, key)
		}
		seen[key] = i
		if glyph.Color != line.Color {
			t.Errorf("series %d: marker colour differs from its line", i)
		}
	}
	colours := map[color.Color]bool{}
	for i := range 12 {
		line, _ := seriesStyle(i)
		colours[line.Color] = true
		if len(line.Dashes) != 0 {
			t.Errorf("series %d is not solid", i)
		}
	}
	if len(colours) != 12 {
		t.Errorf("first 12 series use %d colours", len(colours))
	}
}

func TestChartErrors(t *testing.T) {
	ok := []float64{1, 2}
	one, two := 1.0, 2.0
	good := Bar{Label: "a", Value: 1, Lo: 0, Hi: 2}
	cases := []struct {
		name  string
		save  func(base string) error
		where string
	}{
		{"no series", LineChart{}.Save, "no series"},
		{"no points", LineChart{Series: []Series{{Name: "x"}}}.Save, `series 0 ("x"): no points`},
		{"lengths", LineChart{Series: []Series{{X: ok, Y: ok}, {Name: "b", X: ok, Y: ok[:1]}}}.Save, "series 1 (\"b\"): 2 X values but 1 Y values"},
		{"NaN X", LineChart{Series: []Series{{X: []float64{1, math.NaN()}, Y: ok}}}.Save, "X[1] = NaN"},
		{"Inf Y", LineChart{Series: []Series{{X: ok, Y: []float64{math.Inf(1), 1}}}}.Save, "Y[0] = +Inf"},
		{"NaN hline", LineChart{Series: []Series{{X: ok, Y: ok}}, HLines: []HLine{{Name: "h", Y: math.NaN()}}}.Save, "hline 0"},
		{"negative size", LineChart{Series: []Series{{X: ok, Y: ok}}, Width: -1}.Save, "size"},
		{"tiny size", LineChart{Series: []Series{{X: ok, Y: ok}}, Height: 1}.Save, "size"},
		{"no bars", BarChart{}.Save, "no bars"},
		{"NaN bar", BarChart{Bars: []Bar{good, {Label: "b", Value: math.NaN()}}}.Save, `bar 1 ("b")`},
		{"outside interval", BarChart{Bars: []Bar{{Label: "a", Value: 3, Lo: 0, Hi: 2}}}.Save, "outside its interval"},
		{"limits", BarChart{Bars: []Bar{good}, YMin: &two, YMax: &one}.Save, "YMin 2 >= YMax 1"},
		{"NaN ref", BarChart{Bars: []Bar{good}, RefLine: &HLine{Y: math.NaN()}}.Save, "reference line"},
		{"huge size", BarChart{Bars: []Bar{good}, Width: 1000}.Save, "size"},
	}
	for _, tc := range cases {
		dir := t.TempDir()
		base := filepath.Join(dir, "chart")
		err := tc.save(base)
		if err == nil || !strings.Contains(err.Error(), tc.where) || !strings.Contains(err.Error(), base) {
			t.Errorf("%s: error %v, want one naming %s and saying %q", tc.name, err, base, tc.where)
		}
		if names := dirNames(t, dir); len(names) != 0 {
			t.Errorf("%s: files written despite the error: %v", tc.name, names)
		}
	}
}

func TestNiceTicks(t *testing.T) {
	labels := func(tk niceTicks, lo, hi float64) string {
		var s []string
		for _, x := range tk.Ticks(lo, hi) {
			s = append(s, x.Label)
		}
		return strings.Join(s, " ")
	}
	cases := []struct {
		tk     niceTicks
		lo, hi float64
		want   string
	}{
		{niceTicks{integer: true}, 0, 15, "0 2 4 6 8 10 12 14"},
		{niceTicks{integer: true}, 1, 3, "1 2 3"},
		{niceTicks{integer: true}, 1, 400, "50 100 150 200 250 300 350 400"},
		{niceTicks{}, -39.7, 120.6, "-20 0 20 40 60 80 100 120"},
		{niceTicks{}, 48, 50, "48.0 48.5 49.0 49.5 50.0"},
		{niceTicks{}, 0.001, 0.002, "0.0010 0.0012 0.0014 0.0016 0.0018 0.0020"},
		{niceTicks{}, -3.5, 3.5, "-3 -2 -1 0 1 2 3"},
		{niceTicks{}, 0, 7600, "0 1000 2000 3000 4000 5000 6000 7000"},
	}
	for _, tc := range cases {
		if got := labels(tc.tk, tc.lo, tc.hi); got != tc.want {
			t.Errorf("Ticks(%g, %g) = %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestValueDecimals(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want int
	}{{0, 0}, {143, 0}, {99.9, 1}, {62.5, 1}, {1.25, 2}, {0.625, 3}, {0.0004, 6}, {1e-9, 6}} {
		if got := valueDecimals(tc.v); got != tc.want {
			t.Errorf("valueDecimals(%g) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// BenchmarkLineChartSave renders the 21-gene chart (16 generations) to PNG
// and SVG.
func BenchmarkLineChartSave(b *testing.B) {
	lines, _ := sampleCharts()
	c := lines["genes"]
	base := filepath.Join(b.TempDir(), "genes")
	for b.Loop() {
		if err := c.Save(base); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "charts/s")
}

// BenchmarkAppendJSONL appends one game record per iteration, fsync included.
func BenchmarkAppendJSONL(b *testing.B) {
	path := filepath.Join(b.TempDir(), "games.jsonl")
	rec := gameRecord{Pair: 1, Opening: "J10 K11", Result: "1-0"}
	for b.Loop() {
		if err := AppendJSONL(path, rec); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// TestChartSVGMatchesSave: the in-memory SVG is the file Save writes.
func TestChartSVGMatchesSave(t *testing.T) {
	dir := t.TempDir()
	charts := map[string]Chart{
		"line": LineChart{Title: "t", Series: []Series{{Name: "a", X: []float64{0, 1}, Y: []float64{1, 2}}}},
		"bar":  BarChart{Title: "b", Bars: []Bar{{Label: "x", Value: 1, Lo: 0, Hi: 2}}},
	}
	for name, c := range charts {
		svg, err := c.SVG()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		file, err := os.ReadFile(filepath.Join(dir, name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(svg, file) || !bytes.HasPrefix(bytes.TrimSpace(svg), []byte("<?xml")) {
			t.Errorf("%s: SVG() differs from the saved file (%d vs %d bytes)", name, len(svg), len(file))
		}
	}
	if _, err := (LineChart{}).SVG(); err == nil {
		t.Error("a chart without series rendered")
	}
}

// TestTickLabelsFit: the X axis of a small panel over 95 generations
// labels only the ticks that fit ("0 50", not "0 20406080"), and so does
// a line chart's; TickOverlaps finds overlapping labels where they are.
func TestTickLabelsFit(t *testing.T) {
	x := make([]float64, 95)
	y := make([]float64, 95)
	for i := range x {
		x[i], y[i] = float64(i), float64(1000+7*i)
	}
	var row []Panel
	for _, name := range []string{"M1", "M2", "M3", "M4", "M5"} {
		row = append(row, Panel{Title: name, X: x, Y: y, Baseline: math.NaN()})
	}
	pc := PanelChart{Title: "genes", XLabel: "generation", YLabel: "road weight", Rows: [][]Panel{row, row}}
	lc := LineChart{Title: "fitness", XLabel: "generation", YLabel: "fitness", Series: []Series{{Name: "best", X: x, Y: y}}}
	for _, c := range []Chart{pc, lc} {
		over, err := TickOverlaps(c)
		if err != nil || len(over) > 0 {
			t.Errorf("%T: %v, %v", c, over, err)
		}
	}
	// The panels' ticks, as a 16 cm chart of 5 columns gives them,
	// counted without fitting: 0, 20, …, 80 in about 90 points overlap.
	sty := textStyle(sans(8, false), color.Black)
	ticks := niceTicks{integer: true, count: 4}.Ticks(0, 94)
	if msg := tickOverlap(ticks, 0, 94, vg.Points(60), sty); msg == "" {
		t.Errorf("ticks %v in 60 pt: no overlap found", ticks)
	}
	fit := fitTicks{niceTicks: niceTicks{integer: true, count: 4}, width: vg.Points(60), style: sty}.Ticks(0, 94)
	if msg := tickOverlap(fit, 0, 94, vg.Points(60), sty); msg != "" || len(fit) < 2 {
		t.Errorf("fitted ticks %v: %s", fit, msg)
	}
}
