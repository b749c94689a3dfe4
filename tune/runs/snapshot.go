package runs

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/ladder"
)

// Snapshot is what a run directory holds after its last checkpoint,
// finished or not: its config, its checkpointed records and best vector
// (tune.ReadRun), and its place in a chain. Reading one writes nothing,
// so it is safe while the run goes on. The readers of this package build
// on it.
type Snapshot struct {
	Dir string
	// Config, Spec, Phase, Status, Records and Best are the run's
	// tune.RunState, as its last checkpoint left it.
	Config  tune.Config
	Spec    optimize.Spec
	Phase   string
	Status  optimize.Status
	Records []optimize.Record
	Best    []float64
	// Stage is the run's stage in its chain (from 1) of Stages; both 0
	// for a run of its own.
	Stage, Stages int
	// Clock is a budgeted run's budget (Config.Budget), nil for a run
	// without one.
	Clock *BudgetStatus
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

// ReadSnapshot reads the run in dir, a run's own directory (a chain's
// stage knows its place in the chain: Stage, Stages). Errors name the
// file and line at fault: a missing or malformed config.toml or
// checkpoint.json, records that do not fit the checkpoint (tune.ReadRun),
// a malformed chain.json of a stage's chain.
func ReadSnapshot(dir string) (*Snapshot, error) {
	r, err := tune.ReadRun(dir)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Dir: dir, Config: r.Config, Spec: r.Spec, Phase: r.Phase, Status: r.Status, Records: r.Records, Best: r.Best}
	if b := r.Budget; b != nil {
		s.Clock = &BudgetStatus{Budget: b.Budget, Seconds: b.Seconds, Elapsed: b.Elapsed, End: b.End, Steps: b.Steps, Stopped: b.StoppedAt != nil}
	}
	if parent := filepath.Dir(filepath.Clean(dir)); tune.IsChain(parent) {
		stages, err := tune.ReadChain(parent)
		if err != nil {
			return nil, err
		}
		for k, c := range stages {
			if filepath.Base(tune.StageDir(parent, k+1, c.Method)) == filepath.Base(filepath.Clean(dir)) {
				s.Stage, s.Stages = k+1, len(stages)
			}
		}
	}
	return s, nil
}

// Name is the run's name: its directory's base name.
func (s *Snapshot) Name() string { return filepath.Base(filepath.Clean(s.Dir)) }

// Sweep is the name of the sweep the run belongs to (the parent
// directory's base name when the run's directory is a sweep's seed-N, see
// tune.SweepDir; for a chain's stage, the chain's directory), "" for a
// run of its own.
func (s *Snapshot) Sweep() string {
	dir := filepath.Clean(s.Dir)
	if s.Chain() != "" {
		dir = filepath.Dir(dir)
	}
	if !strings.HasPrefix(filepath.Base(dir), "seed-") {
		return ""
	}
	return filepath.Base(filepath.Dir(dir))
}

// Chain is the name of the chain the run is a stage of (the parent
// directory's base name when it holds tune.FileChain), "" for a run of
// its own.
func (s *Snapshot) Chain() string {
	parent := filepath.Dir(filepath.Clean(s.Dir))
	if !tune.IsChain(parent) {
		return ""
	}
	return filepath.Base(parent)
}

// Budget is the run's step budget: its method's budget key in the config
// (e.g. spsa.iterations), 0 when it cannot be read.
func (s *Snapshot) Budget() int {
	flat, err := s.Config.Flat()
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(flat[s.Config.Method+"."+s.Spec.BudgetKey])
	return n
}

// WeightFile returns the best vector after step k (k < 0: after the last
// checkpointed step) as an engine weight file with its provenance (the
// run, the step, its fitness; the chain and stage of a chain's run;
// tune.WeightFile). Errors say which steps exist.
func (s *Snapshot) WeightFile(k int) (*engine.WeightFile, error) {
	if len(s.Records) == 0 {
		return nil, fmt.Errorf("%s: no %s has been recorded yet", s.Dir, s.Spec.Unit)
	}
	if k < 0 {
		k = len(s.Records) - 1
	}
	if k >= len(s.Records) {
		return nil, fmt.Errorf("%s: no %s %d (the run has %ss 0..%d)", s.Dir, s.Spec.Unit, k, s.Spec.Unit, len(s.Records)-1)
	}
	rec := s.Records[k]
	var fitness *float64
	if f, ok := rec.Metrics["fitness"]; ok {
		fitness = &f
	}
	wf, err := tune.WeightFile(s.Config, s.Spec, s.Name(), rec.Best, k, fitness)
	if err != nil {
		return nil, err
	}
	wf.Provenance.Chain, wf.Provenance.Stage = s.Chain(), s.Stage
	return wf, nil
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
	out := tune.RunCharts(r.Config, r.Spec, r.Records, rungs)
	if len(rungs) > 0 {
		out = append(out, ladder.Chart(rungs))
		for i, slug := range ladder.Slugs(rungs) {
			if rungs[i].Summary.SPRT == nil {
				continue
			}
			games, err := tournament.ReadGameLog(filepath.Join(r.Dir, tune.DirGames, ladder.LogName(slug, rungs[i])+".jsonl"))
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
