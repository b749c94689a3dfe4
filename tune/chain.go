package tune

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/tune/budget"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/results"
)

// A chain runs methods one after the other, each stage starting from the
// best vector of the stage before (config key `then`): a static fit that
// is cheap and reliable (Texel) followed by a match-based refinement that
// adds what the fit cannot see (SPSA), as docs/experiments.md experiment 10
// measured. Every stage is an ordinary run directory inside the chain's
// directory, StageDir(dir, k, method), with its own records, plots, ladder
// and report; the chain's directory holds FileChain, the resolved config of
// every stage, written before the first game, so a stopped chain continues
// (ResumeChain, or the same command again) with exactly the settings it
// started with.

// FileChain is the file of a chain's directory that lists its stages.
const FileChain = "chain.json"

// maxStages bounds a chain (and catches a config whose `then` loops).
const maxStages = 8

// StageDir is the run directory of stage k (from 1) of a chain in dir.
func StageDir(dir string, k int, method string) string {
	return filepath.Join(dir, fmt.Sprintf("stage-%d-%s", k, method))
}

// checkThen checks a `then` value's form; Stages loads it.
func checkThen(then string) error {
	if isConfigPath(then) {
		return nil
	}
	_, err := configs.Config(then)
	return err
}

func isConfigPath(then string) bool {
	return strings.HasSuffix(then, ".toml") || strings.ContainsAny(then, `/\`)
}

// Stages resolves the chain that cfg begins: cfg, then the config its
// `then` names, and so on, at most 8 stages. Every later stage takes the
// first stage's seed (so -seed and -seeds move the whole chain) and must
// not set start (it starts from the stage before). A `then` path is
// relative to the directory of the config file that names it (Load
// resolves it); an embedded config's `then` ("x" or "x.toml") names another
// embedded config; in a config from Parse, a path is relative to the
// working directory. The stages are validated; nothing is written. Errors: a
// *ConfigError naming the file and key at fault.
func Stages(cfg Config) ([]Config, error) {
	stages := []Config{cfg}
	name := "the config"
	for cur := cfg; cur.Then != ""; {
		if len(stages) == maxStages {
			return nil, &ConfigError{File: name, Key: "then", Msg: fmt.Sprintf("a chain has at most %d stages (does `then` loop?)", maxStages)}
		}
		next, nextName, err := loadStage(cur, name, cfg.Seed)
		if err != nil {
			return nil, err
		}
		stages = append(stages, next)
		cur, name = next, nextName
	}
	return stages, nil
}

// thenFrom resolves a `then` read from the config file path ("" for an
// embedded config): a relative path becomes relative to the file's
// directory; in an embedded config a bare "x.toml" names the embedded x.
func thenFrom(then, path string) string {
	switch {
	case !isConfigPath(then):
		return then
	case path == "" && !strings.ContainsAny(then, `/\`):
		return strings.TrimSuffix(then, ".toml")
	case path != "" && !filepath.IsAbs(then):
		return filepath.Join(filepath.Dir(path), then)
	}
	return then
}

// loadStage loads the stage prev's `then` names, with the chain's seed;
// prevName names prev in errors.
func loadStage(prev Config, prevName string, seed int64) (Config, string, error) {
	var name, from string
	var data []byte
	var err error
	if isConfigPath(prev.Then) {
		name, from = prev.Then, prev.Then
		data, err = fileio.ReadFile(name, fileio.Config)
	} else {
		data, err = configs.Config(prev.Then)
		name = "configs/" + prev.Then + ".toml (embedded)"
	}
	if err != nil {
		return Config{}, "", &ConfigError{File: prevName, Key: "then", Msg: err.Error()}
	}
	c, err := decode(name, data)
	if err != nil {
		return Config{}, "", err
	}
	if c.Start != "" {
		return Config{}, "", &ConfigError{File: name, Line: keyLine(data, "start"), Key: "start",
			Msg: fmt.Sprintf("a later stage of a chain starts from the best vector of the stage before (%s); remove start", prevName)}
	}
	if c.Budget != "" {
		return Config{}, "", &ConfigError{File: name, Line: keyLine(data, "budget"), Key: "budget",
			Msg: "a later stage of a chain takes its share of the chain's budget, the first stage's budget (or -hours); remove budget"}
	}
	if c.Schema != prev.Schema && c.External == nil && prev.External == nil {
		return Config{}, "", &ConfigError{File: name, Line: keyLine(data, "schema"), Key: "schema",
			Msg: fmt.Sprintf("a later stage of a chain starts from the best vector of the stage before (%s), which tunes the %s schema, not %s: give schema = %q", prevName, prev.Schema, c.Schema, prev.Schema)}
	}
	c.Seed, c.chained = seed, true
	c.Then = thenFrom(c.Then, from)
	if err := c.Validate(); err != nil {
		return Config{}, "", locate(err, name, data, nil)
	}
	return c, name, nil
}

// StartFrom is c starting from the best vector of the run in dir (its
// Start): a later stage of a chain (Stages), which starts from the stage
// before, becomes the run its stage directory holds, a run of its own.
func (c Config) StartFrom(dir string) Config {
	c.Start, c.chained = dir, false
	return c
}

// ChainFile is FileChain, a chain's list of stages: each stage's
// directory (relative to the chain's) and resolved config, and the
// chain's budget.
type ChainFile struct {
	Version int          `json:"version"`
	Stages  []ChainStage `json:"stages"`
	// Budget is a budgeted chain's budget; nil without one.
	Budget *budget.Chain `json:"budget,omitempty"`
}

// ChainStage is one stage of a ChainFile.
type ChainStage struct {
	Dir    string `json:"dir"`    // StageDir's base name
	Config string `json:"config"` // TOML, Config.Encode; a later stage without its start, no stage with a budget
}

const chainVersion = 1

// NewChainFile is the ChainFile of a new chain of stages (Stages' result)
// in dir, with the budget b (nil without one): each stage's config
// without its budget, which is the chain's. Errors: a stage's Encode.
func NewChainFile(dir string, stages []Config, b *budget.Chain) (ChainFile, error) {
	cf := ChainFile{Version: chainVersion, Budget: b}
	for k, c := range stages {
		c = c.WithBudget("", "")
		data, err := c.Encode()
		if err != nil {
			return cf, err
		}
		cf.Stages = append(cf.Stages, ChainStage{Dir: filepath.Base(StageDir(dir, k+1, c.Method)), Config: string(data)})
	}
	return cf, nil
}

// IsChain reports whether dir holds a chain (FileChain).
func IsChain(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, FileChain))
	return err == nil
}

// Chain runs the stages (Stages' result) in dir, one after the other, and
// returns the stage directories. A new chain's dir (created if missing)
// must not hold a run; FileChain is written first; a dir holding a chain continues it: a
// finished stage is kept, a stopped one resumed, and stages that differ
// from the chain's (concurrency aside) are an *InputError naming the key.
// Stage k > 1 starts from stage k−1's best vector (its config's start is
// that stage's directory, absolute). opts.Bind, when set, is called with
// each stage's job. Errors: *InputError, *ConfigError, a stage's error; an
// *InterruptedError when ctx is cancelled, naming the chain's directory to
// resume.
//
// A budget (the first stage's Config.Budget) covers the whole chain: a new
// chain calibrates every stage before anything is written (a budget too
// short for a stage's share is a *ConfigError), and each stage, when it
// starts, takes a share of the budget left in proportion to its forecast
// fitness games at its configured step budget among the stages left
// (budget.Chain).
func Chain(ctx context.Context, stages []Config, dir string, opts Options) ([]string, error) {
	if len(stages) == 0 {
		return nil, InputErrorf("chain: no stages")
	}
	var cb *budget.Chain
	if stages[0].Budget != "" {
		var err error
		if cb, err = newChainBudget(stages, opts); err != nil {
			return nil, err
		}
	}
	cf, err := NewChainFile(dir, stages, cb)
	if err != nil {
		return nil, err
	}
	var cals []*budget.Calibration
	if IsChain(dir) {
		oldFile, old, err := ReadChainFile(dir)
		if err != nil {
			return nil, err
		}
		if len(old) != len(stages) {
			return nil, InputErrorf("chain: %s holds a chain of %d stages, the config gives %d", dir, len(old), len(stages))
		}
		for k := range stages {
			// `then` is where the next stage's config was read, which the
			// stage's own config (compared next) stands for.
			a, b := old[k], stages[k]
			a.Then, b.Then, b.Budget = "", "", ""
			if err := SameSetting(a, b); err != nil {
				return nil, InputErrorf("chain: stage %d in %s was started with another config: %v", k+1, dir, err)
			}
		}
		if was, now := oldFile.Budget.Text(), cb.Text(); was != now {
			return nil, InputErrorf("chain: %s was started with %s, the config gives %s", dir, was, now)
		}
		cb = oldFile.Budget
	} else {
		// Like a sweep's, a chain's directory may exist (a cluster session
		// keeps its server's storage there); it must not hold a run.
		if _, err := os.Stat(filepath.Join(dir, FileCheckpoint)); err == nil {
			return nil, InputErrorf("%s holds a run (checkpoint.json), not a chain: resume it with `tune -resume %s`, or choose another -out", dir, dir)
		}
		if cb != nil {
			var err error
			if cals, err = calibrateChain(ctx, cb, stages, opts); err != nil {
				return nil, err
			}
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, InputErrorf("chain directory: %v", err)
		}
		if err := CheckWritable(dir); err != nil {
			return nil, err
		}
		if err := results.WriteJSONAtomic(filepath.Join(dir, FileChain), cf); err != nil {
			return nil, err
		}
	}
	return runChain(ctx, stages, dir, opts, cb, cals)
}

// ResumeChain continues the chain in dir with the stages its FileChain
// holds (only concurrency may change, through opts), and its budget.
func ResumeChain(ctx context.Context, dir string, opts Options) ([]string, error) {
	cf, stages, err := ReadChainFile(dir)
	if err != nil {
		return nil, err
	}
	return runChain(ctx, stages, dir, opts, cf.Budget, nil)
}

// ReadChain reads the stages of the chain in dir (its FileChain), in
// order. Errors name the file at fault.
func ReadChain(dir string) ([]Config, error) {
	_, stages, err := ReadChainFile(dir)
	return stages, err
}

// ReadChainFile reads the chain in dir: its FileChain and its stages,
// decoded and validated, in order. Errors (*InputError, *ConfigError)
// name the file and stage at fault: a version this roadtune does not
// read, no stages, a malformed budget, a stage's config or directory.
func ReadChainFile(dir string) (ChainFile, []Config, error) {
	path := filepath.Join(dir, FileChain)
	var cf ChainFile
	if err := results.ReadJSON(path, &cf); err != nil {
		return cf, nil, &InputError{err}
	}
	if cf.Version != chainVersion {
		return cf, nil, InputErrorf("%s: version %d: this roadtune reads version %d", path, cf.Version, chainVersion)
	}
	if len(cf.Stages) == 0 {
		return cf, nil, InputErrorf("%s: no stages", path)
	}
	if b := cf.Budget; b != nil && (!(b.Seconds > 0) || len(b.Games) != len(cf.Stages) || !(b.Calibration >= 0)) {
		return cf, nil, InputErrorf("%s: budget: seconds %g must be > 0, calibration %g ≥ 0, with a forecast for each of the %d stages", path, b.Seconds, b.Calibration, len(cf.Stages))
	}
	var stages []Config
	for k, s := range cf.Stages {
		name := fmt.Sprintf("%s: stage %d", path, k+1)
		c, err := decode(name, []byte(s.Config))
		if err != nil {
			return cf, nil, err
		}
		c.chained = k > 0
		if err := c.Validate(); err != nil {
			return cf, nil, locate(err, name, []byte(s.Config), nil)
		}
		if want := filepath.Base(StageDir(dir, k+1, c.Method)); s.Dir != want {
			return cf, nil, InputErrorf("%s: stage %d's directory is %q, want %q", path, k+1, s.Dir, want)
		}
		stages = append(stages, c)
	}
	return cf, stages, nil
}

// runChain plays the stages in dir's stage directories; cb is a budgeted
// chain's budget, cals the stages' calibrations at its start (nil when
// it resumes: a stage that starts then calibrates itself).
func runChain(ctx context.Context, stages []Config, dir string, opts Options, cb *budget.Chain, cals []*budget.Calibration) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, &InputError{err}
	}
	var dirs []string
	for k, c := range stages {
		sd := StageDir(dir, k+1, c.Method)
		dirs = append(dirs, sd)
		if k > 0 {
			c = c.StartFrom(StageDir(abs, k, stages[k-1].Method))
		}
		c = c.WithBudget("", "")
		var cal *budget.Calibration
		if cb != nil && !fileExists(filepath.Join(sd, FileCheckpoint)) {
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
			var ie *InterruptedError
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
func stageJob(ctx context.Context, c Config, sd string, k, n int, opts Options, budgeted bool, cal *budget.Calibration) (*Job, error) {
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format, args...)
		}
	}
	if _, err := os.Stat(filepath.Join(sd, FileCheckpoint)); err == nil {
		old, err := ReadSnapshot(sd)
		if err != nil {
			return nil, &InputError{err}
		}
		if budgeted {
			if c, err = c.WithSteps(old.Budget()); err != nil {
				return nil, err
			}
		}
		if err := SameSetting(c, old.Config); err != nil {
			return nil, InputErrorf("chain: %s was started with another config: %v", sd, err)
		}
		if old.Phase == PhaseDone {
			logf("chain: stage %d of %d (%s) is done (%s)\n", k, n, c.Method, sd)
			return nil, nil
		}
		logf("chain: stage %d of %d (%s) continues in %s\n", k, n, c.Method, sd)
		return Resume(sd, opts)
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, &InputError{err}
	}
	logf("chain: stage %d of %d (%s) → %s\n", k, n, c.Method, sd)
	return StartCalibrated(ctx, c, sd, opts, cal)
}
