package runs

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune"
)

// RunResults is a run opened for reading, finished or not (Open): its
// snapshot (Snapshot: config, checkpointed records, best vector)
// and whether it was opened through its chain's directory.
type RunResults struct {
	*Snapshot
	// viaChain: opened through the chain's directory (the chain, not
	// just this stage, is what was asked for).
	viaChain bool
}

// Open reads the run in dir; for a chain's directory (tune.IsChain), its
// last stage that has started. Errors name the file and line at fault.
func Open(dir string) (*RunResults, error) {
	viaChain := tune.IsChain(dir)
	if viaChain {
		stages, err := tune.ReadChain(dir)
		if err != nil {
			return nil, err
		}
		k := len(stages)
		for k > 1 && !fileExists(filepath.Join(tune.StageDir(dir, k, stages[k-1].Method), tune.FileCheckpoint)) {
			k--
		}
		dir = tune.StageDir(dir, k, stages[k-1].Method)
	}
	s, err := ReadSnapshot(dir)
	if err != nil {
		return nil, err
	}
	return &RunResults{Snapshot: s, viaChain: viaChain}, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Unfinished says what was done of what when the run has not ended, ""
// when it has: "220 of 16000 iterations" (stopped while optimising), "all
// 40 generations; the verification ladder not played" (stopped after
// the optimisation). A chain opened through its directory (Open) is
// unfinished while a stage is left; its stage is named first: "stage 2 of
// 3 (spsa): 220 of 16000 iterations", "stage 1 of 2 (texel) done; stage 2
// not started".
func (r *RunResults) Unfinished() string {
	var what string
	switch r.Phase {
	case tune.PhaseOptimize:
		what = fmt.Sprintf("%d of %d %ss", r.Status.Steps, r.Budget(), r.Spec.Unit)
	case tune.PhaseVerify:
		what = fmt.Sprintf("%s over after %d %ss; the verification ladder not played", r.Config.Method, r.Status.Steps, r.Spec.Unit)
	}
	if r.Stage == 0 {
		return what
	}
	stage := fmt.Sprintf("stage %d of %d (%s)", r.Stage, r.Stages, r.Config.Method)
	switch {
	case what != "":
		return stage + ": " + what
	case r.viaChain && r.Stage < r.Stages:
		return fmt.Sprintf("%s done; stage %d not started", stage, r.Stage+1)
	}
	return ""
}

// WeightFile returns the best vector after step k (k < 0: after the last
// checkpointed step) as an engine weight file with its provenance
// (Snapshot.WeightFile) and, when the run has not ended, what was
// done of what (Unfinished). Errors say which steps exist.
func (r *RunResults) WeightFile(k int) (*engine.WeightFile, error) {
	wf, err := r.Snapshot.WeightFile(k)
	if err != nil {
		return nil, err
	}
	wf.Provenance.Unfinished = r.Unfinished()
	return wf, nil
}

// Series returns a metric by step: "diversity" (mean pairwise distance of
// the population or swarm, gene units), "gene-std" (mean per-gene standard
// deviation), "gene:NAME" (that gene of the best vector, e.g. "gene:S3"), or
// any other key of the records' Metrics. Steps whose record lacks the
// metric are left out (the Elo of validation.elo_every is measured every
// K steps only); it is an error when no step has it, listing what is
// there.
func (r *RunResults) Series(metric string) (x, y []float64, err error) {
	names := r.Config.GeneNames()
	gene := -1
	if name, ok := strings.CutPrefix(metric, "gene:"); ok {
		if gene = slices.Index(names, name); gene < 0 {
			return nil, nil, fmt.Errorf("%s: the %s schema has no gene %q (genes %s)", r.Dir, r.Config.Schema, name, strings.Join(names, ", "))
		}
	}
	key := metric
	if metric == "gene-std" {
		key = "gene_std"
	}
	if len(r.Records) == 0 {
		return nil, nil, fmt.Errorf("%s: no %ss recorded", r.Dir, r.Spec.Unit)
	}
	have := map[string]bool{}
	for _, rec := range r.Records {
		v, ok := rec.Metrics[key]
		if gene >= 0 {
			v, ok = rec.Best[gene], true
		}
		for k := range rec.Metrics {
			have[k] = true
		}
		if !ok {
			continue
		}
		x = append(x, float64(rec.Step))
		y = append(y, v)
	}
	if len(x) == 0 {
		keys := make([]string, 0, len(have))
		for k := range have {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return nil, nil, fmt.Errorf("%s: no %s has the metric %q (they have %s, and gene:NAME)", r.Dir, r.Spec.Unit, metric, strings.Join(keys, ", "))
	}
	return x, y, nil
}

// compareMetrics are the metrics `tune compare` draws by default, in
// order of preference: the measured Elo (validation.elo_every), the
// fitness, Texel's held-out log-loss, the population's diversity.
var compareMetrics = []string{tune.MetricElo, "fitness", "logloss", "diversity"}

// DefaultMetric picks the metric Compare draws when none is asked for:
// of compareMetrics, the one the most runs have (the first in order on
// a tie); "" when none has any.
func DefaultMetric(runs []*RunResults) string {
	best, most := "", 0
	for _, m := range compareMetrics {
		n := 0
		for _, r := range runs {
			if _, _, err := r.Series(m); err == nil {
				n++
			}
		}
		if n > most {
			best, most = m, n
		}
	}
	return best
}

// Compare reads a metric (as Series) of several runs (run directories, see
// CompareDirs) and returns one line chart of it by step, one line per run
// named by RunLabel (by fitness games spent when the runs' steps differ
// in kind: a Texel round, an SPSA iteration), and the same figures as CSV
// ("run,<unit>,<metric>" rows): e.g. the diversity of an original-form and an improved-form GA
// run from one initial population (Chen 2010 §4.5). metric "" picks
// DefaultMetric. A run without the metric, or without a step yet, is left
// out with a note ("NAME: why"). Errors: a run that cannot be read; no run
// with the metric (an *InputError listing what the runs have).
func Compare(dirs []string, metric string) (*MetricComparison, error) {
	var runs []*RunResults
	var notes []string
	for _, dir := range dirs {
		r, note, err := openCompared(dir)
		if err != nil {
			return nil, err
		}
		if r == nil {
			notes = append(notes, note)
			continue
		}
		runs = append(runs, r)
	}
	if metric == "" {
		if metric = DefaultMetric(runs); metric == "" {
			have := "no run has a step recorded"
			if len(runs) > 0 {
				_, _, err := runs[0].Series(compareMetrics[0])
				have = err.Error()
			}
			return nil, tune.InputErrorf("no run has any of %s to compare (%s); name one with -metric", strings.Join(compareMetrics, ", "), have)
		}
	}
	type found struct {
		name     string
		r        *RunResults
		x, y, ci []float64
	}
	var have []found
	units := map[string]bool{}
	var firstErr error
	for _, r := range runs {
		name := RunLabel(r)
		x, y, err := r.Series(metric)
		if err != nil {
			notes = append(notes, fmt.Sprintf("%s: no %s has %q", name, r.Spec.Unit, metric))
			firstErr = cmp.Or(firstErr, err)
			continue
		}
		f := found{name: name, r: r, x: x, y: y}
		if metric == tune.MetricElo {
			if _, ci, err := r.Series(tune.MetricEloCI); err == nil && len(ci) == len(y) {
				f.ci = ci
			}
		}
		units[r.Spec.Unit] = true
		have = append(have, f)
	}
	if len(have) == 0 {
		if firstErr == nil {
			firstErr = errors.New("no run has a step recorded")
		}
		return nil, &tune.InputError{Err: firstErr}
	}
	// Steps of different methods (a round, an iteration) are not alike:
	// then the X axis is the fitness games spent up to and including the
	// step.
	unit := have[0].r.Spec.Unit
	byGames := len(units) > 1
	if byGames {
		unit = "fitness games"
	}
	var series []results.Series
	var bands []results.Band
	var csv strings.Builder
	for _, f := range have {
		x := f.x
		if byGames {
			games := map[int]int{}
			total := 0
			for _, rec := range f.r.Records {
				total += rec.Games
				games[rec.Step] = total
			}
			x = make([]float64, len(f.x))
			for i, step := range f.x {
				x[i] = float64(games[int(step)])
			}
		}
		if f.ci != nil {
			b := results.Band{Series: len(series), X: x, Lo: make([]float64, len(f.y)), Hi: make([]float64, len(f.y))}
			for i := range f.y {
				b.Lo[i], b.Hi[i] = f.y[i]-f.ci[i], f.y[i]+f.ci[i]
			}
			bands = append(bands, b)
		}
		series = append(series, results.Series{Name: f.name, X: x, Y: f.y})
		for i := range x {
			fmt.Fprintf(&csv, "%s,%g,%s\n", f.name, x[i], strconv.FormatFloat(f.y[i], 'g', 10, 64))
		}
	}
	for i := range bands {
		bands[i].Name = "95% interval"
		if len(bands) > 1 {
			bands[i].Name = series[bands[i].Series].Name + ": 95% interval"
		}
	}
	title, ylabel := metric+" by "+unit, metric
	note := ""
	switch {
	case metric == "diversity":
		title, ylabel = "Population diversity: mean pairwise distance", "mean pairwise distance (gene units)"
	case metric == "gene-std":
		title, ylabel = "Population diversity: mean per-gene standard deviation", "mean per-gene standard deviation (gene units)"
	case metric == tune.MetricElo:
		cfgs := make([]tune.Config, len(have))
		for i, f := range have {
			cfgs[i] = f.r.Config
		}
		title, ylabel = "Elo of the best vector by "+unit, eloLabel(cfgs)
		note = "Each point is a quick measurement during the run (validation.elo_pairs game pairs): a rough guide, with its 95% interval shaded; the verification ladder is the verdict."
	case metric == "fitness":
		note = "A step's fitness is relative to what that step played against: compare the trend, not the level, across methods."
	case strings.HasPrefix(metric, "gene:"):
		name := strings.TrimPrefix(metric, "gene:")
		title, ylabel = "Best vector's "+name, name+" (road weight)"
	}
	return &MetricComparison{
		Metric: metric,
		Chart:  results.LineChart{Title: title, XLabel: unit, YLabel: ylabel, Series: series, Bands: bands, Note: note},
		CSV:    []byte("run," + unit + "," + metric + "\n" + csv.String()),
		Notes:  notes,
	}, nil
}

// MetricComparison is Compare's result: the metric drawn, its chart by
// step, the same figures as CSV, and what was left out ("NAME: why").
type MetricComparison struct {
	Metric string
	Chart  results.LineChart
	CSV    []byte
	Notes  []string
}

// Group says whether dir holds runs played as one and lists them: "chain"
// (it holds FileChain) with its stages' directories in order, started or
// not (StageDir); "sweep" (subdirectories seed-N that are runs or chains)
// with the seeds' directories by seed. kind is "" for any other
// directory. Errors: a FileChain that cannot be read.
func Group(dir string) (kind string, members []string, err error) {
	if tune.IsChain(dir) {
		stages, err := tune.ReadChain(dir)
		if err != nil {
			return "", nil, err
		}
		for k, c := range stages {
			members = append(members, tune.StageDir(dir, k+1, c.Method))
		}
		return "chain", members, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", nil, nil
	}
	seeds := map[string]int64{}
	for _, e := range ents {
		n, ok := strings.CutPrefix(e.Name(), "seed-")
		seed, err := strconv.ParseInt(n, 10, 64)
		if !ok || err != nil || !e.IsDir() || filepath.Base(tune.SweepDir(dir, seed)) != e.Name() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(sub, tune.FileConfig)); err == nil || tune.IsChain(sub) {
			members = append(members, sub)
			seeds[sub] = seed
		}
	}
	if len(members) == 0 {
		return "", nil, nil
	}
	slices.SortFunc(members, func(a, b string) int { return cmp.Compare(seeds[a], seeds[b]) })
	return "sweep", members, nil
}
