package main

import (
	"path/filepath"

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
	return plotRef{Title: title, File: filepath.Join(dirPlots, name)}, nil
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

func (m *gaMethod) plots(dir string, names []string) ([]plotRef, error) {
	if len(m.recs) == 0 {
		return nil, nil
	}
	n := len(m.recs)
	x := make([]float64, n)
	best, mean, lo, div := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	vecs := make([][]float64, n)
	for i, r := range m.recs {
		x[i] = float64(r.Index)
		l, mu, _ := fitnessStats(r)
		best[i], mean[i], lo[i] = r.Best.Fitness, mu, l
		div[i] = r.Diversity.MeanDistance
		vecs[i] = r.Best.Genes
	}
	var refs []plotRef
	for _, p := range []struct {
		name, title string
		chart       results.LineChart
	}{
		{"fitness", "Fitness by generation", results.LineChart{
			Title: "Normalised fitness by generation (Chen 2010 eq. 4.5)", XLabel: "generation", YLabel: "fitness",
			Series: []results.Series{{Name: "best", X: x, Y: best}, {Name: "mean", X: x, Y: mean}, {Name: "min", X: x, Y: lo}},
		}},
		{"genes", "The best individual's genes by generation", results.LineChart{
			Title: "Best individual's genes by generation (cf. Chen 2010 Fig. 4.11)", XLabel: "generation", YLabel: "road weight",
			Series: geneSeries(names, x, vecs),
		}},
		{"diversity", "Population diversity by generation", results.LineChart{
			Title: "Population diversity: mean pairwise distance", XLabel: "generation", YLabel: "distance (gene units)",
			Series: []results.Series{{Name: "mean pairwise distance", X: x, Y: div}},
		}},
	} {
		ref, err := savePlot(dir, p.name, p.chart, p.title)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

func (m *psoMethod) plots(dir string, names []string) ([]plotRef, error) {
	if len(m.recs) == 0 {
		return nil, nil
	}
	n := len(m.recs)
	x := make([]float64, n)
	w, k, meanD, maxD, pb, gb := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	vecs := make([][]float64, n)
	for i, r := range m.recs {
		x[i] = float64(r.Index)
		w[i], k[i], meanD[i], maxD[i] = r.W, r.K, r.MeanDist, r.MaxDist
		p, g := improvements(r)
		pb[i], gb[i] = float64(p), float64(g)
		vecs[i] = r.GlobalBest
	}
	var refs []plotRef
	for _, p := range []struct {
		name, title string
		chart       results.LineChart
	}{
		{"genes", "The global best's genes by iteration", results.LineChart{
			Title: "Global best's genes by iteration", XLabel: "iteration", YLabel: "road weight",
			Series: geneSeries(names, x, vecs),
		}},
		{"inertia", "Inertia weight and focus-distance change rate", results.LineChart{
			Title: "Inertia weight w and change rate k (Chen 2010 eq. 5-5, 5-6)", XLabel: "iteration", YLabel: "value",
			Series: []results.Series{{Name: "w", X: x, Y: w}, {Name: "k", X: x, Y: k}},
		}},
		{"focus", "Focus distances", results.LineChart{
			Title: "Focus distances (Chen 2010 eq. 5-3, 5-4)", XLabel: "iteration", YLabel: "distance (gene units)",
			Series: []results.Series{{Name: "MeanDist", X: x, Y: meanD}, {Name: "MaxDist", X: x, Y: maxD}},
		}},
		{"improvements", "Personal and global bests replaced", results.LineChart{
			Title: "Bests replaced by iteration", XLabel: "iteration", YLabel: "particles",
			Series: []results.Series{{Name: "new personal bests", X: x, Y: pb}, {Name: "global-best challenges won", X: x, Y: gb}},
		}},
	} {
		ref, err := savePlot(dir, p.name, p.chart, p.title)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}
