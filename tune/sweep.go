package tune

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// SweepDir is the run directory of one seed of a sweep in dir.
func SweepDir(dir string, seed int64) string {
	return filepath.Join(dir, fmt.Sprintf("seed-%d", seed))
}

// DefaultRunDir is where a run (or, with sweep, a sweep) of cfg started
// at now goes when no directory is given:
// runs/<UTC yyyymmdd-hhmmss>-<method>[-sweep], a chain's methods joined
// by "-" (texel-spsa).
func DefaultRunDir(cfg Config, sweep bool, now time.Time) string {
	method := cfg.Method
	if stages, err := Stages(cfg); err == nil && len(stages) > 1 {
		var ms []string
		for _, c := range stages {
			ms = append(ms, c.Method)
		}
		method = strings.Join(ms, "-")
	}
	name := now.UTC().Format("20060102-150405") + "-" + method
	if sweep {
		name += "-sweep"
	}
	return filepath.Join("runs", name)
}

// Sweep runs cfg once per seed (Config.Seed replaced), one run after the
// other, in SweepDir(dir, seed), and returns the run directories in seed
// order. It continues a sweep stopped earlier: a finished run is kept as
// it is, a stopped one resumed; a run directory whose config differs from
// cfg with that seed (concurrency aside) is an *InputError naming the key,
// so a sweep never mixes two settings. The same config over several seeds
// shows how much of a tuned vector's strength is the method and how much
// luck (game noise decides much of it; Diaz & Handl 2015); compare the runs
// with CompareRuns. A config with `then` runs a chain per seed (Chain) in
// SweepDir, and its last stage's directory stands for the seed. Errors: a bad config or seed list (ConfigError,
// InputError), a run's error, an *InterruptedError when ctx is cancelled.
func Sweep(ctx context.Context, cfg Config, seeds []int64, dir string, opts Options) ([]string, error) {
	if len(seeds) == 0 {
		return nil, InputErrorf("sweep: no seeds")
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
		rd := SweepDir(dir, seed)
		if c.Then != "" {
			// A chain per seed; the sweep compares their last stages.
			stages, err := Stages(c)
			if err != nil {
				return dirs, err
			}
			last := stages[len(stages)-1]
			dirs = append(dirs, StageDir(rd, len(stages), last.Method))
			if _, err := Chain(ctx, stages, rd, opts); err != nil {
				return dirs, err
			}
			continue
		}
		dirs = append(dirs, rd)
		var job *Job
		if _, err := os.Stat(filepath.Join(rd, FileCheckpoint)); err == nil {
			old, err := ReadSnapshot(rd)
			if err != nil {
				return dirs, &InputError{err}
			}
			if err := sameSetting(c, old.Config); err != nil {
				return dirs, InputErrorf("sweep: %s was started with another config: %v", rd, err)
			}
			if old.Phase == PhaseDone {
				if opts.Log != nil {
					fmt.Fprintf(opts.Log, "sweep: seed %d is done (%s)\n", seed, rd)
				}
				continue
			}
			if job, err = Resume(rd, opts); err != nil {
				return dirs, err
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			return dirs, &InputError{err}
		} else {
			if opts.Log != nil {
				fmt.Fprintf(opts.Log, "sweep: seed %d → %s\n", seed, rd)
			}
			if job, err = Start(c, rd, opts); err != nil {
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

// sameSetting compares two resolved configs key by key, concurrency aside.
func sameSetting(a, b Config) error {
	fa, err := a.Flat()
	if err != nil {
		return err
	}
	fb, err := b.Flat()
	if err != nil {
		return err
	}
	var diff []string
	for k, v := range fa {
		if k != "concurrency" && fb[k] != v {
			diff = append(diff, fmt.Sprintf("%s = %s, not %s", k, fb[k], v))
		}
	}
	for k, v := range fb {
		if _, ok := fa[k]; !ok && k != "concurrency" {
			diff = append(diff, fmt.Sprintf("%s = %s, not set", k, v))
		}
	}
	if len(diff) == 0 {
		return nil
	}
	sort.Strings(diff)
	return errors.New(strings.Join(diff, "; "))
}

// CheckSeeds refuses a negative or repeated seed (*InputError).
func CheckSeeds(seeds []int64) error {
	seen := map[int64]bool{}
	for _, s := range seeds {
		if s < 0 {
			return InputErrorf("sweep: seed %d: seeds must be ≥ 0", s)
		}
		if seen[s] {
			return InputErrorf("sweep: seed %d is listed twice", s)
		}
		seen[s] = true
	}
	return nil
}

// ErrBudgetSweep refuses a budget by the clock for a sweep (*InputError).
var ErrBudgetSweep = InputErrorf("a budget by the clock (budget, -hours) cannot be combined with -seeds: give the sweep a step budget, or run each seed with -seed and its own -hours")
