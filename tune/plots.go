package tune

import (
	"errors"
	"io/fs"
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

// Chart is one chart of a run: Name is its file base under plots/ (Name
// .png and .svg), Title what the report calls it.
type Chart struct {
	Name, Title string
	Chart       results.Chart
}

// runCharts builds the charts of a run's records: the best vector's genes
// by step, the method's own charts (Spec.Charts over the records' metrics)
// and, when it was measured, the best vector's Elo by step.
func runCharts(cfg Config, spec optimize.Spec, recs []optimize.Record) []Chart {
	if len(recs) == 0 {
		return nil
	}
	unit := spec.Unit
	x := make([]float64, len(recs))
	best := make([][]float64, len(recs))
	for i, r := range recs {
		x[i] = float64(r.Step)
		best[i] = r.Best
	}
	title := "The best vector's genes by " + unit
	out := []Chart{{Name: "genes", Title: title, Chart: results.LineChart{
		Title: title, XLabel: unit, YLabel: "road weight",
		Series: geneSeries(cfg.GeneNames(), x, best),
	}}}
	for _, c := range spec.Charts {
		var series []results.Series
		for _, m := range c.Metrics {
			y := make([]float64, len(recs))
			for i, r := range recs {
				y[i] = r.Metrics[m]
			}
			series = append(series, results.Series{Name: m, X: x, Y: y})
		}
		if c.Prefix != "" {
			for _, g := range cfg.GeneNames() {
				y := make([]float64, len(recs))
				for i, r := range recs {
					y[i] = r.Metrics[c.Prefix+g]
				}
				series = append(series, results.Series{Name: g, X: x, Y: y})
			}
		}
		out = append(out, Chart{Name: c.Name, Title: c.Title,
			Chart: results.LineChart{Title: c.Title, XLabel: unit, YLabel: c.YLabel, Series: series}})
	}
	if elo := eloChart(cfg, unit, recs); elo != nil {
		out = append(out, *elo)
	}
	return out
}

// plots saves the charts of the records under plots/.
func (j *Job) plots(recs []optimize.Record) ([]plotRef, error) {
	dir := j.dir.Path(DirPlots)
	var refs []plotRef
	for _, c := range runCharts(j.cfg, j.spec, recs) {
		ref, err := savePlot(dir, c.Name, c.Chart, c.Title)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

// Charts returns the run's charts from what is on disk now, finished or
// not: those of the checkpointed records (the best vector's genes, the
// method's charts, the best vector's Elo when measured) and, once the run
// has its verification ladder, the ladder's chart. They are the charts
// the run writes under plots/, for a page or a report to render (SVG).
// Errors are those of reading ladder.json.
func (r *RunResults) Charts() ([]Chart, error) {
	out := runCharts(r.Config, r.Spec, r.Records)
	var rungs []Rung
	err := results.ReadJSON(filepath.Join(r.Dir, FileLadder), &rungs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	case len(rungs) > 0:
		out = append(out, ladderChart(rungs))
	}
	return out, nil
}
