package tune

import (
	"slices"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
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

// RunCharts builds the charts of a run's records (report.RunCharts: the
// charts a run saves under plots/, but the ladder's) from its config and
// method: the genes and [[param]] settings it tunes, the first validation
// opponent that is a baseline of its schema (baselineGenes), the method's
// charts, and the Elo measured during the run (ladder.EloChart, with the
// ladder's Elo as a reference from rungs; nil without one).
func RunCharts(cfg Config, spec optimize.Spec, recs []optimize.Record, rungs []ladder.Rung) []results.NamedChart {
	name, genes := baselineGenes(cfg)
	return report.RunCharts(report.RunData{Spec: spec, Records: recs, Genes: cfg.GeneNames(), Params: len(cfg.Params),
		BaselineName: name, BaselineGenes: genes, Elo: ladder.EloChart(cfg.elo(), spec.Unit, recs, rungs)})
}

// plots saves the charts of the records under plots/.
func (j *Job) plots(recs []optimize.Record, rungs []ladder.Rung) ([]report.Plot, error) {
	dir := j.dir.Path(DirPlots)
	var refs []report.Plot
	for _, c := range RunCharts(j.cfg, j.spec, recs, rungs) {
		ref, err := report.SavePlot(dir, c.Name, c.Chart, c.Title)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}
