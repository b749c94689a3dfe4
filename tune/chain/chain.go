package chain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/budget"
)

// Run runs the stages (tune.Stages' result) in dir, one after the other,
// and returns the stage directories. A new chain's dir (created if
// missing) must not hold a run; tune.FileChain is written first; a dir
// holding a chain continues it: a finished stage is kept, a stopped one
// resumed, and stages that differ from the chain's (concurrency aside)
// are a *tune.InputError naming the key. Stage k > 1 starts from stage
// k−1's best vector (its config's start is that stage's directory,
// absolute). opts.Bind, when set, is called with each stage's job.
// Errors: *tune.InputError, *tune.ConfigError, a stage's error; a
// *tune.InterruptedError when ctx is cancelled, naming the chain's
// directory to resume.
//
// A budget (the first stage's Config.Budget) covers the whole chain: a
// new chain calibrates every stage before anything is written (a budget
// too short for a stage's share is a *tune.ConfigError), and each stage,
// when it starts, takes a share of the budget left in proportion to its
// weight among the stages left (budget.Chain.Weights: its forecast time at
// its configured step budget).
func Run(ctx context.Context, stages []tune.Config, dir string, opts tune.Options) ([]string, error) {
	if len(stages) == 0 {
		return nil, tune.InputErrorf("chain: no stages")
	}
	var cb *budget.Chain
	if stages[0].Budget != "" {
		var err error
		if cb, err = newBudget(stages, opts); err != nil {
			return nil, err
		}
	}
	cf, err := tune.NewChainFile(dir, stages, cb)
	if err != nil {
		return nil, err
	}
	var cals []*budget.Calibration
	if tune.IsChain(dir) {
		oldFile, old, err := tune.ReadChainFile(dir)
		if err != nil {
			return nil, err
		}
		if len(old) != len(stages) {
			return nil, tune.InputErrorf("chain: %s holds a chain of %d stages, the config gives %d", dir, len(old), len(stages))
		}
		for k := range stages {
			// `then` is where the next stage's config was read, which the
			// stage's own config (compared next) stands for.
			a, b := old[k], stages[k]
			a.Then, b.Then, b.Budget = "", "", ""
			if err := tune.SameSetting(a, b); err != nil {
				return nil, tune.InputErrorf("chain: stage %d in %s was started with another config: %v", k+1, dir, err)
			}
		}
		if was, now := oldFile.Budget.Text(), cb.Text(); was != now {
			return nil, tune.InputErrorf("chain: %s was started with %s, the config gives %s", dir, was, now)
		}
		cb = oldFile.Budget
	} else {
		// Like a sweep's, a chain's directory may exist (a cluster session
		// keeps its server's storage there); it must not hold a run.
		if _, err := os.Stat(filepath.Join(dir, tune.FileCheckpoint)); err == nil {
			return nil, tune.InputErrorf("%s holds a run (checkpoint.json), not a chain: resume it with `tune -resume %s`, or choose another -out", dir, dir)
		}
		if cb != nil {
			var err error
			if cals, err = calibrate(ctx, cb, stages, opts); err != nil {
				return nil, err
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, tune.InputErrorf("chain directory: %v", err)
		}
		if err := tune.CheckWritable(dir); err != nil {
			return nil, err
		}
		if err := results.WriteJSONAtomic(filepath.Join(dir, tune.FileChain), cf); err != nil {
			return nil, err
		}
	}
	return run(ctx, stages, dir, opts, cb, cals)
}

// Resume continues the chain in dir with the stages its tune.FileChain
// holds (only concurrency may change, through opts), and its budget.
// Errors: Run's, and tune.ReadChainFile's.
func Resume(ctx context.Context, dir string, opts tune.Options) ([]string, error) {
	cf, stages, err := tune.ReadChainFile(dir)
	if err != nil {
		return nil, err
	}
	return run(ctx, stages, dir, opts, cf.Budget, nil)
}

// run plays the stages in dir's stage directories; cb is a budgeted
// chain's budget, cals the stages' calibrations at its start (nil when
// it resumes: a stage that starts then calibrates itself).
func run(ctx context.Context, stages []tune.Config, dir string, opts tune.Options, cb *budget.Chain, cals []*budget.Calibration) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &tune.InputError{Err: err}
	}
	var dirs []string
	for k, c := range stages {
		sd := tune.StageDir(dir, k+1, c.Method)
		dirs = append(dirs, sd)
		if k > 0 {
			c = c.StartFrom(tune.StageDir(abs, k, stages[k-1].Method))
		}
		c = c.WithBudget("", "")
		var cal *budget.Calibration
		if cb != nil && !started(sd) {
			if c, err = stageShare(cb, c, dir, stages, k, opts); err != nil {
				return dirs, err
			}
			if cals != nil {
				cal = cals[k]
			}
		}
		job, err := stageJob(ctx, c, sd, k+1, len(stages), opts, cb != nil, cal)
		if err != nil {
			return dirs, err
		}
		if job == nil {
			continue
		}
		if opts.Bind != nil {
			if err := opts.Bind(job); err != nil {
				return dirs, err
			}
		}
		if err := job.Run(ctx); err != nil {
			var ie *tune.InterruptedError
			if errors.As(err, &ie) {
				ie.Resume = dir
			}
			return dirs, err
		}
	}
	return dirs, nil
}

// stageJob starts or resumes stage k's run in sd; nil when it is done. In
// a budgeted chain (budgeted) a started stage's steps are those its
// budget share resolved to; cal is its calibration at the chain's start.
func stageJob(ctx context.Context, c tune.Config, sd string, k, n int, opts tune.Options, budgeted bool, cal *budget.Calibration) (*tune.Job, error) {
	if _, err := os.Stat(filepath.Join(sd, tune.FileCheckpoint)); err == nil {
		old, err := tune.ReadRun(sd)
		if err != nil {
			return nil, &tune.InputError{Err: err}
		}
		if budgeted {
			if c, err = c.WithSteps(old.Config.Steps()); err != nil {
				return nil, err
			}
		}
		if err := tune.SameSetting(c, old.Config); err != nil {
			return nil, tune.InputErrorf("chain: %s was started with another config: %v", sd, err)
		}
		if old.Phase == tune.PhaseDone {
			logf(opts.Log, "chain: stage %d of %d (%s) is done (%s)\n", k, n, c.Method, sd)
			return nil, nil
		}
		logf(opts.Log, "chain: stage %d of %d (%s) continues in %s\n", k, n, c.Method, sd)
		return tune.Resume(sd, opts)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, &tune.InputError{Err: err}
	}
	logf(opts.Log, "chain: stage %d of %d (%s) → %s\n", k, n, c.Method, sd)
	return tune.StartCalibrated(ctx, c, sd, opts, cal)
}

// started reports whether the stage directory sd holds a checkpoint.
func started(sd string) bool {
	_, err := os.Stat(filepath.Join(sd, tune.FileCheckpoint))
	return err == nil
}

// logf writes a line of the chain's log to w (opts.Log), when there is one.
func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format, args...)
	}
}
