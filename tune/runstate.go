package tune

import (
	"fmt"
	"path/filepath"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune/budget"
)

// RunState is what a run directory holds after its last checkpoint,
// finished or not (ReadRun): its config, its checkpointed records and
// best vector. Package tune/runs builds its readers of runs on it.
type RunState struct {
	Config Config
	Spec   optimize.Spec
	// Phase is PhaseOptimize, PhaseVerify or PhaseDone (a run not done
	// that no process plays, FileRunning, was interrupted).
	Phase  string
	Status optimize.Status
	// Records are the checkpointed steps' records, step 0 first; Detail
	// holds each method record as a json.RawMessage.
	Records []optimize.Record
	// Best is the best vector after the last checkpointed step.
	Best []float64
	// Budget is a budgeted run's budget (Config.Budget), its calibration
	// and clock as checkpointed (seconds), nil for a run without one.
	Budget *budget.State
}

// ReadRun reads the run in dir, a run's own directory, as its last
// checkpoint left it. Reading writes nothing, so it is safe while the run
// goes on. Errors name the file and line at fault: a missing or
// malformed config.toml or checkpoint.json, records that do not fit the
// checkpoint.
func ReadRun(dir string) (*RunState, error) {
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
	return &RunState{Config: cfg, Spec: spec, Phase: cp.Phase, Status: cp.Status, Records: recs, Best: cp.Best, Budget: cp.Budget}, nil
}
