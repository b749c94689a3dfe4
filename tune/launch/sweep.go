package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/chain"
)

// Sweep runs cfg once per seed (tune.Config.Seed replaced), one run after the
// other, in tune.SweepDir(dir, seed), and returns the run directories in seed
// order. It continues a sweep stopped earlier: a finished run is kept as
// it is, a stopped one resumed; a run directory whose config differs from
// cfg with that seed (concurrency aside) is an *InputError naming the key,
// so a sweep never mixes two settings. The same config over several seeds
// shows how much of a tuned vector's strength is the method and how much
// luck (game noise decides much of it; Diaz & Handl 2015); compare the runs
// with runs.CompareRuns. A config with `then` runs a chain per seed (chain.Run) in
// tune.SweepDir, and its last stage's directory stands for the seed. Errors: a bad config or seed list (ConfigError,
// InputError), a run's error, an *InterruptedError when ctx is cancelled.
func Sweep(ctx context.Context, cfg tune.Config, seeds []int64, dir string, opts tune.Options) ([]string, error) {
	if len(seeds) == 0 {
		return nil, tune.InputErrorf("sweep: no seeds")
	}
	if err := CheckSeeds(seeds); err != nil {
		return nil, err
	}
	if cfg.Budget != "" {
		return nil, ErrBudgetSweep
	}
	var dirs []string
	for _, seed := range seeds {
		c := cfg
		c.Seed = seed
		if err := c.Validate(); err != nil {
			return dirs, err
		}
		rd := tune.SweepDir(dir, seed)
		if c.Then != "" {
			// A chain per seed; the sweep compares their last stages.
			stages, err := tune.Stages(c)
			if err != nil {
				return dirs, err
			}
			last := stages[len(stages)-1]
			dirs = append(dirs, tune.StageDir(rd, len(stages), last.Method))
			if _, err := chain.Run(ctx, stages, rd, opts); err != nil {
				return dirs, err
			}
			continue
		}
		dirs = append(dirs, rd)
		var job *tune.Job
		if _, err := os.Stat(filepath.Join(rd, tune.FileCheckpoint)); err == nil {
			old, err := tune.ReadRun(rd)
			if err != nil {
				return dirs, &tune.InputError{Err: err}
			}
			if err := tune.SameSetting(c, old.Config); err != nil {
				return dirs, tune.InputErrorf("sweep: %s was started with another config: %v", rd, err)
			}
			if old.Phase == tune.PhaseDone {
				if opts.Log != nil {
					fmt.Fprintf(opts.Log, "sweep: seed %d is done (%s)\n", seed, rd)
				}
				continue
			}
			if job, err = tune.Resume(rd, opts); err != nil {
				return dirs, err
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return dirs, &tune.InputError{Err: err}
		} else {
			if opts.Log != nil {
				fmt.Fprintf(opts.Log, "sweep: seed %d → %s\n", seed, rd)
			}
			if job, err = tune.Start(c, rd, opts); err != nil {
				return dirs, err
			}
		}
		if opts.Bind != nil {
			if err := opts.Bind(job); err != nil {
				return dirs, err
			}
		}
		if err := job.Run(ctx); err != nil {
			return dirs, err
		}
	}
	return dirs, nil
}

// CheckSeeds refuses a negative or repeated seed (*InputError).
func CheckSeeds(seeds []int64) error {
	seen := map[int64]bool{}
	for _, s := range seeds {
		if s < 0 {
			return tune.InputErrorf("sweep: seed %d: seeds must be ≥ 0", s)
		}
		if seen[s] {
			return tune.InputErrorf("sweep: seed %d is listed twice", s)
		}
		seen[s] = true
	}
	return nil
}

// ErrBudgetSweep refuses a budget by the clock for a sweep (*InputError).
var ErrBudgetSweep = tune.InputErrorf("a budget by the clock (budget, -hours) cannot be combined with -seeds: give the sweep a step budget, or run each seed with -seed and its own -hours")
