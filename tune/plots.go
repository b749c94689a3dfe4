package tune

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/report"
)

// baselineGenes returns the first validation opponent that is a baseline
// (configs.WeightNames) of the run's schema, and its genes; "" and nil when
// there is none.
func baselineGenes(cfg Config) (string, []float64) {
	for _, o := range cfg.Validation.Opponents {
		if !slices.Contains(configs.WeightNames(), o) {
			continue
		}
		wf, err := configs.LoadWeights(o)
		if err != nil || wf.Schema != cfg.Schema || len(wf.Values) != len(cfg.SchemaGenes()) || !cfg.tunedGenes() {
			continue
		}
		return o, wf.Values
	}
	return "", nil
}

// runCharts builds the charts of a run's records (report.RunCharts)
// from its config: the genes and [[param]] settings it tunes, the first
// validation opponent that is a baseline of its schema (baselineGenes),
// and the Elo measured during the run (ladder.EloChart).
func runCharts(cfg Config, spec optimize.Spec, recs []optimize.Record, rungs []ladder.Rung) []results.NamedChart {
	name, genes := baselineGenes(cfg)
	return report.RunCharts(report.RunData{Spec: spec, Records: recs, Genes: cfg.GeneNames(), Params: len(cfg.Params),
		BaselineName: name, BaselineGenes: genes, Elo: ladder.EloChart(cfg.elo(), spec.Unit, recs, rungs)})
}

// plots saves the charts of the records under plots/.
func (j *Job) plots(recs []optimize.Record, rungs []ladder.Rung) ([]report.Plot, error) {
	dir := j.dir.Path(DirPlots)
	var refs []report.Plot
	for _, c := range runCharts(j.cfg, j.spec, recs, rungs) {
		ref, err := report.SavePlot(dir, c.Name, c.Chart, c.Title)
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
// has its verification ladder, the ladder's chart and the LLR chart of
// each rung that played an SPRT (from its games log). They are the charts
// the run writes under plots/, for a page or a report to render (SVG).
// Errors are those of reading ladder.json and the rungs' games logs.
func (r *Snapshot) Charts() ([]results.NamedChart, error) {
	var rungs []ladder.Rung
	err := results.ReadJSON(filepath.Join(r.Dir, ladder.File), &rungs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	}
	out := runCharts(r.Config, r.Spec, r.Records, rungs)
	if len(rungs) > 0 {
		out = append(out, ladder.Chart(rungs))
		for i, slug := range ladder.Slugs(rungs) {
			if rungs[i].Summary.SPRT == nil {
				continue
			}
			games, err := tournament.ReadGameLog(filepath.Join(r.Dir, DirGames, ladder.LogName(slug, rungs[i])+".jsonl"))
			if err != nil {
				return nil, err
			}
			c, err := ladder.LLRChart(slug, rungs[i], games)
			if err != nil {
				return nil, err
			}
			if c != nil {
				out = append(out, *c)
			}
		}
	}
	return out, nil
}
