package report

import (
	"cmp"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
)

// Plot is a chart of the run, for the report: File is relative to the
// run directory, without extension (PNG and SVG both exist).
type Plot struct {
	Title string
	File  string
}

// SavePlot saves chart c as name.png and name.svg in dir (a run's
// plots directory) and returns it as a Plot titled title.
func SavePlot(dir, name string, c interface{ Save(string) error }, title string) (Plot, error) {
	if err := c.Save(filepath.Join(dir, name)); err != nil {
		return Plot{}, err
	}
	return Plot{Title: title, File: filepath.Join(DirPlots, name)}, nil
}

// MaxGeneSeries is the most genes one chart shows: a schema with more
// (the dual schema's 21) gets a chart per gene set.
const MaxGeneSeries = 12

// geneSetNames name the gene sets of a schema too large for one chart, by
// the prefix of their genes' names before the dot ("D.M1") or, for a gene
// without one, by its name: the slug that suffixes the chart's name, the
// words that end its title and its Y axis.
var geneSetNames = map[string]struct{ slug, about, yLabel string }{
	"D":              {"defend", "defensive set (D)", "road weight"},
	"A":              {"attack", "attacking set (A)", "road weight"},
	engine.AlertGene: {"alert", "alert threshold", "alert threshold"},
}

// geneSet is the genes one chart shows: idx indexes the schema's genes;
// slug suffixes the chart's name ("" for all the genes), about ends its
// title ("" for all the genes), yLabel names its Y axis ("" for the
// chart's own).
type geneSet struct {
	slug, about, yLabel string
	idx                 []int
}

// geneSets splits the genes names for charts: all in one set when they are
// at most MaxGeneSeries, else one set per prefix before a dot (genes
// without one in a set of their own when geneSetNames knows them, the
// others together in "other"), each cut into parts of at most
// MaxGeneSeries.
func geneSets(names []string) []geneSet {
	if len(names) <= MaxGeneSeries {
		all := geneSet{}
		for i := range names {
			all.idx = append(all.idx, i)
		}
		return []geneSet{all}
	}
	var sets []geneSet
	at := map[string]int{}
	for i, n := range names {
		key, _, dotted := strings.Cut(n, ".")
		set := geneSet{slug: "other", about: "other genes"}
		if known, ok := geneSetNames[key]; ok {
			set = geneSet{slug: known.slug, about: known.about, yLabel: known.yLabel}
		} else if dotted {
			set = geneSet{slug: key, about: "set " + key}
		}
		k, ok := at[set.slug]
		if !ok {
			k = len(sets)
			at[set.slug] = k
			sets = append(sets, set)
		}
		sets[k].idx = append(sets[k].idx, i)
	}
	var out []geneSet
	for _, s := range sets {
		if len(s.idx) <= MaxGeneSeries {
			out = append(out, s)
			continue
		}
		for part, start := 1, 0; start < len(s.idx); part, start = part+1, start+MaxGeneSeries {
			p := s
			p.slug = fmt.Sprintf("%s-%d", s.slug, part)
			p.about = fmt.Sprintf("%s, part %d", s.about, part)
			p.idx = s.idx[start:min(start+MaxGeneSeries, len(s.idx))]
			out = append(out, p)
		}
	}
	return out
}

// name is a chart's name for the set: base, or base-slug.
func (s geneSet) name(base string) string {
	if s.slug == "" {
		return base
	}
	return base + "-" + s.slug
}

// title is a chart's title for the set: base, or base: about.
func (s geneSet) title(base string) string {
	if s.about == "" {
		return base
	}
	return base + ": " + s.about
}

// geneSetsOf are the charts' sets of a run's vector names (genes): the
// road-weight genes' (geneSets) and, for a run with [[param]] tables, a
// set of the parameters, a panel each, named "params" ("genes-params")
// beside tuned genes.
func geneSetsOf(genes []string, params int) []geneSet {
	n := len(genes) - params
	if params == 0 || n < 0 {
		return geneSets(genes)
	}
	var sets []geneSet
	if n > 0 {
		sets = geneSets(genes[:n])
	}
	ps := geneSet{about: "search settings", yLabel: "setting value"}
	if n > 0 {
		ps.slug = "params"
	}
	for d := n; d < len(genes); d++ {
		ps.idx = append(ps.idx, d)
	}
	return append(sets, ps)
}

// RunData is what the charts of a run's records are drawn from.
type RunData struct {
	Spec    optimize.Spec     // the method: its unit, its charts
	Records []optimize.Record // the steps, step 0 first
	// Genes names the vector's entries: the schema's genes, then
	// Params search settings ([[param]] tables), which get a chart of
	// their own.
	Genes  []string
	Params int
	// BaselineName and BaselineGenes are a baseline of the run's schema
	// drawn as dashed lines on the genes' panels ("" and nil: none).
	BaselineName  string
	BaselineGenes []float64
	// Elo is the chart of the best vector's Elo by step when it was
	// measured, nil when not.
	Elo *results.NamedChart
}

// RunCharts builds the charts of a run's records: the best vector's genes
// by step (one chart per gene set when the schema has more than
// MaxGeneSeries genes, "genes-<set>", else "genes"), with the baseline's
// genes as dashed lines; the method's own charts (Spec.Charts over the
// records' metrics, a chart with a Prefix split by gene set as the genes
// are); and d.Elo. Nil without records.
func RunCharts(d RunData) []results.NamedChart {
	spec, recs, genes := d.Spec, d.Records, d.Genes
	if len(recs) == 0 {
		return nil
	}
	unit := spec.Unit
	x := make([]float64, len(recs))
	for i, r := range recs {
		x[i] = float64(r.Step)
	}
	// series is the figure f(r) of every record, against x.
	series := func(name string, f func(r optimize.Record) float64) results.Series {
		y := make([]float64, len(recs))
		for i, r := range recs {
			y[i] = f(r)
		}
		return results.Series{Name: name, X: x, Y: y}
	}
	sets := geneSetsOf(genes, d.Params)
	baseName, baseGenes := d.BaselineName, d.BaselineGenes

	muted, mutedName := Unidentified(recs, len(genes))
	var out []results.NamedChart
	for _, set := range sets {
		title := set.title("The best vector's genes by " + unit)
		pc := results.PanelChart{Title: title, XLabel: unit, YLabel: cmp.Or(set.yLabel, "road weight"), MutedName: mutedName,
			Note: genesNote(spec, genes, set.idx, muted)}
		for r, row := range geneRows(genes, set.idx) {
			var panels []results.Panel
			for _, d := range row {
				s := series(genes[d], func(r optimize.Record) float64 { return r.Best[d] })
				pn := results.Panel{Title: genes[d], X: s.X, Y: s.Y, Colour: r, Baseline: math.NaN(), Muted: muted[d] != ""}
				if d < len(baseGenes) {
					pn.Baseline = baseGenes[d]
				}
				panels = append(panels, pn)
			}
			pc.Rows = append(pc.Rows, panels)
		}
		if baseGenes != nil {
			pc.BaselineName = baseName + " (dashed)"
		}
		out = append(out, results.NamedChart{Name: set.name("genes"), Title: title, Chart: pc})
	}
	for _, c := range spec.Charts {
		if c.Requires != "" && !slices.ContainsFunc(recs, func(r optimize.Record) bool { _, ok := r.Metrics[c.Requires]; return ok }) {
			continue // a chart of another variant of the method
		}
		lc := results.LineChart{Title: c.Title, XLabel: unit, YLabel: c.YLabel, Note: c.Note}
		for i, m := range c.Metrics {
			if !slices.ContainsFunc(recs, func(r optimize.Record) bool { _, ok := r.Metrics[m]; return ok }) {
				continue // a metric of another variant of the method (ga's chen2010 and robust)
			}
			s := series(c.Label(i), func(r optimize.Record) float64 { return r.Metrics[m] })
			if i < len(c.Intervals) && c.Intervals[i] != "" && !slices.ContainsFunc(recs, func(r optimize.Record) bool {
				_, ok := r.Metrics[c.Intervals[i]]
				return !ok
			}) {
				b := results.Band{Name: "95% interval", Series: len(lc.Series), X: s.X, Lo: make([]float64, len(recs)), Hi: make([]float64, len(recs))}
				for k, r := range recs {
					b.Lo[k], b.Hi[k] = s.Y[k]-r.Metrics[c.Intervals[i]], s.Y[k]+r.Metrics[c.Intervals[i]]
				}
				lc.Bands = append(lc.Bands, b)
			}
			lc.Series = append(lc.Series, s)
		}
		for _, ref := range c.Refs {
			lc.HLines = append(lc.HLines, results.HLine{Name: ref.Name, Y: ref.Y})
		}
		if c.Prefix == "" {
			if len(lc.Series) > 0 {
				out = append(out, results.NamedChart{Name: c.Name, Title: c.Title, Chart: lc})
			}
			continue
		}
		for _, set := range sets {
			part := lc
			part.Title = set.title(c.Title)
			part.Series = slices.Clone(lc.Series)
			for _, d := range set.idx {
				part.Series = append(part.Series, series(genes[d], func(r optimize.Record) float64 { return r.Metrics[c.Prefix+genes[d]] }))
			}
			out = append(out, results.NamedChart{Name: set.name(c.Name), Title: part.Title, Chart: part})
		}
	}
	if spec.Profiles != nil {
		if pc, ok := ProfileChart(spec.Profiles(recs[len(recs)-1])); ok {
			out = append(out, results.NamedChart{Name: "profile", Title: pc.Title, Chart: pc})
		}
	}
	if d.Elo != nil {
		out = append(out, *d.Elo)
	}
	return out
}

// ProfileChart draws a model's profiles (optimize.Spec.Profiles) as small
// multiples, one panel a gene laid out as the genes chart's, each the
// predicted Elo along the gene with its 95% band, the other genes at the
// answer's values; false without profiles.
func ProfileChart(ps []optimize.Profile) (results.PanelChart, bool) {
	if len(ps) == 0 {
		return results.PanelChart{}, false
	}
	names := make([]string, len(ps))
	idx := make([]int, len(ps))
	for i, p := range ps {
		names[i], idx[i] = p.Gene, i
	}
	pc := results.PanelChart{Title: "The model along each gene, the others at its optimum", XLabel: "value", YLabel: "Elo",
		Note: "The model's Elo against the pool (line) and its 95% credible band, one gene varied across the search box with the others held at the answer's values (each title: the gene, its value at the optimum and the range shown): a slice through the optimum, where a flat panel is a gene the results barely depend on."}
	for r, row := range geneRows(names, idx) {
		var panels []results.Panel
		for _, i := range row {
			p := ps[i]
			panels = append(panels, results.Panel{Title: fmt.Sprintf("%s %.4g (%.4g–%.4g)", p.Gene, p.At, p.X[0], p.X[len(p.X)-1]), X: p.X, Y: p.Mean, Lo: p.Lo, Hi: p.Hi, Colour: r, Baseline: math.NaN()})
		}
		pc.Rows = append(pc.Rows, panels)
	}
	return pc, true
}

// familyRowMax is the most panels a row of the genes chart holds.
const familyRowMax = 6

// geneRows lays the genes idx (indices into names) out for small
// multiples: a row per family, the name less its trailing digits (M1..M5,
// W1..W5, D.M1..D.M5), families of a single gene together in a last row,
// rows cut at familyRowMax panels.
func geneRows(names []string, idx []int) [][]int {
	var fams [][]int
	at := map[string]int{}
	for _, d := range idx {
		f := strings.TrimRight(names[d], "0123456789")
		k, ok := at[f]
		if !ok {
			k = len(fams)
			at[f] = k
			fams = append(fams, nil)
		}
		fams[k] = append(fams[k], d)
	}
	var rows [][]int
	var singles []int
	for _, f := range fams {
		if len(f) == 1 {
			singles = append(singles, f[0])
			continue
		}
		for start := 0; start < len(f); start += familyRowMax {
			rows = append(rows, f[start:min(start+familyRowMax, len(f))])
		}
	}
	for start := 0; start < len(singles); start += familyRowMax {
		rows = append(rows, singles[start:min(start+familyRowMax, len(singles))])
	}
	return rows
}

// Unidentified says, per gene of recs' vectors, why the run's best vector
// says nothing of it: "not identified" when the method left it out
// (Record.Unidentified) in every record, "unchanged" when it kept one value
// over two records or more, to a relative 1e-9 (a method that does not
// report what it cannot see; unless no gene changed at all); "" for a
// gene that was tuned. The name is
// what the genes chart's legend calls the marked genes.
func Unidentified(recs []optimize.Record, n int) (why []string, name string) {
	why = make([]string, n)
	if len(recs) == 0 {
		return why, ""
	}
	for d := range n {
		flagged, lo, hi := true, math.Inf(1), math.Inf(-1)
		for _, r := range recs {
			flagged = flagged && slices.Contains(r.Unidentified, d)
			if d < len(r.Best) {
				lo, hi = math.Min(lo, r.Best[d]), math.Max(hi, r.Best[d])
			}
		}
		switch {
		case flagged:
			why[d] = "not identified"
			name = "not identified: kept its random start value"
		case len(recs) > 1 && hi-lo <= 1e-9*math.Max(1, math.Abs(hi)):
			why[d] = "unchanged"
			if name == "" {
				name = "unchanged over the run: its start value"
			}
		}
	}
	if !slices.Contains(why, "") && !slices.Contains(why, "not identified") {
		// Nothing moved at all: the best vector never changed, which the
		// charts show well enough; no gene is singled out.
		return make([]string, n), ""
	}
	return why, name
}

// genesNoteLead is how to read the genes chart's panels, the start of its
// caption.
const genesNoteLead = "One panel per gene, each with its own scale; a row per kind of road."

// Seq is 0, 1, …, n−1.
func Seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// genesNote is the caption of a genes chart of the genes idx: how to read
// the panels and, when some are marked, which and why (MarkedNote).
func genesNote(spec optimize.Spec, names []string, idx []int, why []string) string {
	return genesNoteLead + MarkedNote(spec, names, idx, why, "Grey")
}

// MarkedNote says which of the genes idx are marked (why, see
// Unidentified) and why, each group of sentences led by mark ("Grey",
// "Not tuned"); "" when none is, else with a leading space.
func MarkedNote(spec optimize.Spec, names []string, idx []int, why []string, mark string) string {
	var flagged, same []string
	for _, d := range idx {
		switch why[d] {
		case "not identified":
			flagged = append(flagged, names[d])
		case "unchanged":
			same = append(same, names[d])
		}
	}
	note := ""
	if len(flagged) > 0 {
		note += fmt.Sprintf(" %s: %s, which %s cannot identify. %s", mark, strings.Join(flagged, ", "), spec.Name,
			cmp.Or(spec.Unidentified, "The method's data said nothing of them, so they keep their start values."))
	}
	if len(same) > 0 {
		note += fmt.Sprintf(" %s: %s, unchanged over the run: the value is the start's, not a tuned one.", mark, strings.Join(same, ", "))
	}
	return note
}
