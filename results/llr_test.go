package results

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// TestLLRChart: the LLR by games with both stopping bounds and the 0 line
// as horizontal lines, the bounds named in the legend and the test in the
// caption; it renders.
func TestLLRChart(t *testing.T) {
	c := LLRChart("SPRT: a vs b", "elo0=0 elo1=5 alpha=0.05 beta=0.05 logistic", []float64{2, 4, 6}, []float64{0.3, -0.2, 0.9}, -2.944, 2.944)
	if len(c.Series) != 1 || len(c.Series[0].X) != 3 || c.XLabel != "games" {
		t.Errorf("series %+v, x label %q", c.Series, c.XLabel)
	}
	ys := map[float64]string{}
	for _, h := range c.HLines {
		ys[h.Y] = h.Name
	}
	if len(ys) != 3 || !strings.Contains(ys[2.944], "H1") || !strings.Contains(ys[-2.944], "H0") || ys[0] != "" {
		t.Errorf("reference lines %v, want the bounds (named H1, H0) and an unnamed 0", ys)
	}
	if !strings.Contains(c.Note, "elo0=0 elo1=5") || !strings.Contains(c.Note, "[-2.94, 2.94]") {
		t.Errorf("caption %q", c.Note)
	}
	svg, err := c.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "accept H1") {
		t.Error("the SVG names no bound")
	}
}

// TestLLRChartMarksEveryPair: an SPRT of 79 pairs marks each pair's
// point (a straight run of pairs that ended alike reads as points, not a
// gap), says so in its legend and caption, and its ticks read.
func TestLLRChartMarksEveryPair(t *testing.T) {
	var games, llr []float64
	for k := 1; k <= 79; k++ {
		games, llr = append(games, float64(2*k)), append(llr, 0.056*float64(min(k, 10))-0.04*float64(max(k-10, 0)))
	}
	c := LLRChart("SPRT: a vs b", "", games, llr, -2.944, 2.944)
	l, err := c.layout()
	if err != nil {
		t.Fatal(err)
	}
	marked := 0
	for _, e := range l.legend {
		for _, th := range e.thumbs {
			if s, ok := th.(*plotter.Scatter); ok {
				marked += len(s.XYs)
			}
		}
	}
	if marked != 79 || !strings.Contains(c.Series[0].Name, "game pair") || !strings.Contains(c.Note, "One point per completed game pair") {
		t.Errorf("%d points marked of 79; legend %q; caption %q", marked, c.Series[0].Name, c.Note)
	}
	if over, err := TickOverlaps(c); err != nil || len(over) > 0 {
		t.Errorf("ticks: %v %v", over, err)
	}
}
