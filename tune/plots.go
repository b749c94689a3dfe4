package tune

import (
	"path/filepath"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
)

// plotRef is a chart of the run, for the report: File is relative to the
// run directory, without extension (PNG and SVG both exist).
type plotRef struct {
	Title string
	File  string
}

func savePlot(dir, name string, c interface{ Save(string) error }, title string) (plotRef, error) {
	if err := c.Save(filepath.Join(dir, name)); err != nil {
		return plotRef{}, err
	}
	return plotRef{Title: title, File: filepath.Join(DirPlots, name)}, nil
}

// geneSeries is one series per gene of vectors[i], against x.
func geneSeries(names []string, x []float64, vectors [][]float64) []results.Series {
	out := make([]results.Series, len(names))
	for d, n := range names {
		y := make([]float64, len(vectors))
		for i, v := range vectors {
			y[i] = v[d]
		}
		out[d] = results.Series{Name: n, X: x, Y: y}
	}
	return out
}

// plots draws the best vector's genes by step, the method's own charts
// (Spec.Charts over the records' metrics) and, when it was measured, the
// best vector's Elo by step.
func (j *Job) plots(recs []optimize.Record) ([]plotRef, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	dir := j.dir.Path(DirPlots)
	unit := j.spec.Unit
	x := make([]float64, len(recs))
	best := make([][]float64, len(recs))
	for i, r := range recs {
		x[i] = float64(r.Step)
		best[i] = r.Best
	}
	genes := results.LineChart{
		Title: "The best vector's genes by " + unit, XLabel: unit, YLabel: "road weight",
		Series: geneSeries(j.cfg.GeneNames(), x, best),
	}
	ref, err := savePlot(dir, "genes", genes, "The best vector's genes by "+unit)
	if err != nil {
		return nil, err
	}
	refs := []plotRef{ref}
	for _, c := range j.spec.Charts {
		var series []results.Series
		for _, m := range c.Metrics {
			y := make([]float64, len(recs))
			for i, r := range recs {
				y[i] = r.Metrics[m]
			}
			series = append(series, results.Series{Name: m, X: x, Y: y})
		}
		if c.Prefix != "" {
			for _, g := range j.cfg.GeneNames() {
				y := make([]float64, len(recs))
				for i, r := range recs {
					y[i] = r.Metrics[c.Prefix+g]
				}
				series = append(series, results.Series{Name: g, X: x, Y: y})
			}
		}
		chart := results.LineChart{Title: c.Title, XLabel: unit, YLabel: c.YLabel, Series: series}
		ref, err := savePlot(dir, c.Name, chart, c.Title)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	elo, err := j.eloChart(recs)
	if err != nil {
		return nil, err
	}
	if elo != nil {
		refs = append(refs, *elo)
	}
	return refs, nil
}
