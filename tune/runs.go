package tune

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
)

// RunResults is a run directory opened for reading, finished or not: its
// config, its checkpointed records and best vector. Opening writes
// nothing, so it is safe while the run goes on.
type RunResults struct {
	Dir    string
	Config Config
	Spec   optimize.Spec
	// Phase is "optimize", "verify" or "done" (a run not done that no
	// process plays, Running, was interrupted).
	Phase  string
	Status optimize.Status
	// Records are the checkpointed steps' records, step 0 first; Detail
	// holds each method record as a json.RawMessage.
	Records []optimize.Record
	// Best is the best vector after the last checkpointed step.
	Best []float64
	// Stage is the run's stage in its chain (from 1) of Stages; both 0
	// for a run of its own.
	Stage, Stages int
	// Clock is a budgeted run's budget (Config.Budget), nil for a run
	// without one.
	Clock *BudgetStatus
	// viaChain: opened through the chain's directory (the chain, not
	// just this stage, is what was asked for).
	viaChain bool
}

// BudgetStatus is a budgeted run's budget as its checkpoint holds it.
type BudgetStatus struct {
	Budget  string    // as given ("2h"; a chain's stage: its share)
	Seconds float64   // the budget in seconds
	Elapsed float64   // the run's own elapsed seconds (checkpointed)
	End     time.Time // the planned end (of the latest session)
	Steps   int       // the step count the budget resolved to
	// Stopped reports that the clock's safety valve ended the
	// optimisation.
	Stopped bool
}

// Open reads the run in dir; for a chain's directory (IsChain), its last
// stage that has started. Errors name the file and line at fault.
func Open(dir string) (*RunResults, error) {
	viaChain := IsChain(dir)
	if viaChain {
		stages, err := readChain(dir)
		if err != nil {
			return nil, err
		}
		k := len(stages)
		for k > 1 && !fileExists(filepath.Join(StageDir(dir, k, stages[k-1].Method), FileCheckpoint)) {
			k--
		}
		dir = StageDir(dir, k, stages[k-1].Method)
	}
	r, err := openRun(dir)
	if err != nil {
		return nil, err
	}
	r.viaChain = viaChain
	if parent := filepath.Dir(filepath.Clean(dir)); IsChain(parent) {
		stages, err := readChain(parent)
		if err != nil {
			return nil, err
		}
		for k, c := range stages {
			if filepath.Base(StageDir(parent, k+1, c.Method)) == filepath.Base(filepath.Clean(dir)) {
				r.Stage, r.Stages = k+1, len(stages)
			}
		}
	}
	return r, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// openRun reads the run in dir, a run's own directory.
func openRun(dir string) (*RunResults, error) {
	path := filepath.Join(dir, FileConfig)
	data, err := fileio.ReadFile(path, fileio.Config)
	if err != nil {
		return nil, err
	}
	cfg, err := decode(path, data)
	if err != nil {
		return nil, err
	}
	spec, err := cfg.Spec()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var cp checkpoint
	cpPath := filepath.Join(dir, FileCheckpoint)
	if err := results.ReadJSON(cpPath, &cp); err != nil {
		return nil, err
	}
	if err := cp.checkHead(cpPath, cfg.Method); err != nil {
		return nil, err
	}
	_, recs, err := cfg.checkRun(dir, spec, &cp, false)
	if err != nil {
		return nil, err
	}
	r := &RunResults{Dir: dir, Config: cfg, Spec: spec, Phase: cp.Phase, Status: cp.Status, Records: recs, Best: cp.Best}
	if b := cp.Budget; b != nil {
		r.Clock = &BudgetStatus{Budget: b.Budget, Seconds: b.Seconds, Elapsed: b.Elapsed, End: b.End, Steps: b.Steps, Stopped: b.StoppedAt != nil}
	}
	return r, nil
}

// Name is the run's name: its directory's base name.
func (r *RunResults) Name() string { return filepath.Base(filepath.Clean(r.Dir)) }

// Sweep is the name of the sweep the run belongs to (the parent
// directory's base name when the run's directory is a sweep's seed-N, see
// SweepDir; for a chain's stage, the chain's directory), "" for a run of
// its own.
func (r *RunResults) Sweep() string {
	dir := filepath.Clean(r.Dir)
	if r.Chain() != "" {
		dir = filepath.Dir(dir)
	}
	if !strings.HasPrefix(filepath.Base(dir), "seed-") {
		return ""
	}
	return filepath.Base(filepath.Dir(dir))
}

// Chain is the name of the chain the run is a stage of (the parent
// directory's base name when it holds FileChain), "" for a run of its
// own.
func (r *RunResults) Chain() string {
	parent := filepath.Dir(filepath.Clean(r.Dir))
	if !IsChain(parent) {
		return ""
	}
	return filepath.Base(parent)
}

// Budget is the run's step budget: its method's budget key in the config
// (e.g. spsa.iterations), 0 when it cannot be read.
func (r *RunResults) Budget() int {
	flat, err := r.Config.Flat()
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(flat[r.Config.Method+"."+r.Spec.BudgetKey])
	return n
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
	case phaseOptimize:
		what = fmt.Sprintf("%d of %d %ss", r.Status.Steps, r.Budget(), r.Spec.Unit)
	case phaseVerify:
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
// checkpointed step) as an engine weight file with its provenance: the
// chain and stage of a chain's run, and Unfinished when the run has not
// ended. Errors say which steps exist.
func (r *RunResults) WeightFile(k int) (*engine.WeightFile, error) {
	if len(r.Records) == 0 {
		return nil, fmt.Errorf("%s: no %s has been recorded yet", r.Dir, r.Spec.Unit)
	}
	if k < 0 {
		k = len(r.Records) - 1
	}
	if k >= len(r.Records) {
		return nil, fmt.Errorf("%s: no %s %d (the run has %ss 0..%d)", r.Dir, r.Spec.Unit, k, r.Spec.Unit, len(r.Records)-1)
	}
	rec := r.Records[k]
	var fitness *float64
	if f, ok := rec.Metrics["fitness"]; ok {
		fitness = &f
	}
	wf, err := weightFile(r.Config, r.Spec, r.Name(), rec.Best, k, fitness)
	if err != nil {
		return nil, err
	}
	wf.Provenance.Chain, wf.Provenance.Stage = r.Chain(), r.Stage
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
var compareMetrics = []string{MetricElo, "fitness", "logloss", "diversity"}

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
			return nil, inputErr("no run has any of %s to compare (%s); name one with -metric", strings.Join(compareMetrics, ", "), have)
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
		if metric == MetricElo {
			if _, ci, err := r.Series(MetricEloCI); err == nil && len(ci) == len(y) {
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
		return nil, &InputError{firstErr}
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
	if len(bands) == 1 {
		bands[0].Name = "95% interval"
	} else if len(bands) > 1 {
		bands[0].Name = "95% intervals (each run's colour)"
	}
	title, ylabel := metric+" by "+unit, metric
	note := ""
	switch {
	case metric == "diversity":
		title, ylabel = "Population diversity: mean pairwise distance", "mean pairwise distance (gene units)"
	case metric == "gene-std":
		title, ylabel = "Population diversity: mean per-gene standard deviation", "mean per-gene standard deviation (gene units)"
	case metric == MetricElo:
		title, ylabel = "Elo of the best vector by "+unit, "Elo against the run's measuring opponent"
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
	if IsChain(dir) {
		stages, err := readChain(dir)
		if err != nil {
			return "", nil, err
		}
		for k, c := range stages {
			members = append(members, StageDir(dir, k+1, c.Method))
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
		if !ok || err != nil || !e.IsDir() || filepath.Base(SweepDir(dir, seed)) != e.Name() {
			continue
		}
		sub := filepath.Join(dir, e.Name())
		if _, err := os.Stat(filepath.Join(sub, FileConfig)); err == nil || IsChain(sub) {
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
