package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/chain"
	"github.com/roadtune/roadtune/tune/runs"
)

// Kind is what a Launch runs.
type Kind int

const (
	// KindRun is one run (Start, Resume).
	KindRun Kind = iota
	// KindSweep is one run (or chain) per seed (Sweep), then their
	// comparison.
	KindSweep
	// KindChain is a chain of stages (chain.Run, chain.Resume).
	KindChain
)

// A Launch is one invocation of the tuning job, resolved before anything
// is written: a new run, sweep or chain of a config, or a stopped run or
// chain to continue. It is what `tune` does with its flags; New and
// Resume make one, Run runs it.
type Launch struct {
	// Dir is the run's, sweep's or chain's directory.
	Dir string
	// Kind is what runs in Dir.
	Kind Kind
	// Resume is set when Dir holds a stopped run or chain to continue.
	Resume bool

	cfg    tune.Config   // the config (a chain's: its first stage); zero on resume
	stages []tune.Config // a new chain's stages
	seeds  []int64       // a sweep's seeds
}

// New resolves a new job of cfg: a sweep when seeds is not empty,
// else a chain when cfg has `then` (Stages), else one run. dir "" is
// DefaultRunDir(cfg, sweep, now). A sweep directory may hold a stopped
// sweep of the same config, which continues (Sweep). Errors: a chain's
// stage that cannot be read (*ConfigError, *InputError), a bad seed list
// (*InputError). Nothing is written.
func New(cfg tune.Config, dir string, seeds []int64, now time.Time) (*Launch, error) {
	l := &Launch{Dir: dir, cfg: cfg, seeds: seeds, Kind: KindRun}
	switch {
	case len(seeds) > 0:
		l.Kind = KindSweep
		if err := CheckSeeds(seeds); err != nil {
			return nil, err
		}
		if cfg.Budget != "" {
			return nil, ErrBudgetSweep
		}
	case cfg.Then != "":
		stages, err := tune.Stages(cfg)
		if err != nil {
			return nil, err
		}
		l.Kind, l.stages = KindChain, stages
	}
	if l.Dir == "" {
		l.Dir = tune.DefaultRunDir(cfg, l.Kind == KindSweep, now)
	}
	return l, nil
}

// Resume is the launch that continues the stopped run or chain in
// dir (IsChain tells which). Run reports a directory that holds neither.
func Resume(dir string) *Launch {
	l := &Launch{Dir: dir, Kind: KindRun, Resume: true}
	if tune.IsChain(dir) {
		l.Kind = KindChain
	}
	return l
}

// Config is the launch's config (a chain's: its first stage; with a
// sweep's seeds still to apply); the zero Config when the launch resumes
// (the config is in its directory).
func (l *Launch) Config() tune.Config { return l.cfg }

// Hooks attach a command's services (live pages, a cluster session)
// to a launch; any may be nil.
type Hooks struct {
	// Track is called with a run's directory and options before its job
	// is made (Start, Resume): the options' events may be wrapped.
	Track func(dir string, opts *tune.Options)
	// Job is called with a run's job and its options (as Track left
	// them) before it plays; an error stops the launch before the first
	// game.
	Job func(*tune.Job, *tune.Options) error
	// Group is called before a sweep or chain plays, with its directory,
	// its first config (the zero Config when a chain resumes: the stages
	// are in its directory) and the options, which it may change (e.g.
	// Options.Bind); an error stops the launch before the first game.
	Group func(dir string, first tune.Config, opts *tune.Options) error
}

// Then returns hooks that run h's hooks and then next's, stopping at the
// first error: e.g. live pages, then a cluster session.
func (h Hooks) Then(next Hooks) Hooks {
	return Hooks{
		Track: func(dir string, opts *tune.Options) {
			for _, f := range []func(string, *tune.Options){h.Track, next.Track} {
				if f != nil {
					f(dir, opts)
				}
			}
		},
		Job: func(job *tune.Job, opts *tune.Options) error {
			for _, f := range []func(*tune.Job, *tune.Options) error{h.Job, next.Job} {
				if f != nil {
					if err := f(job, opts); err != nil {
						return err
					}
				}
			}
			return nil
		},
		Group: func(dir string, first tune.Config, opts *tune.Options) error {
			for _, f := range []func(string, tune.Config, *tune.Options) error{h.Group, next.Group} {
				if f != nil {
					if err := f(dir, first, opts); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
}

// Result is what a finished launch leaves: its run directories, a
// run's final status and a sweep's comparison. (A match's result is
// optimize.Outcome, a W/D/L count.)
type Result struct {
	// Dirs are the runs' directories: one for a run, one per seed of a
	// sweep, one per stage of a chain.
	Dirs []string
	// Status is a run's status at its end (a run only).
	Status optimize.Status
	// Comparison is a sweep's comparison of its runs' verification
	// ladders (CompareRuns), written to Dir/compare.md and
	// Dir/compare-ladder.png/.svg.
	Comparison *runs.RunComparison
}

// Best is the path of the best vector of the launch's last run
// (FileBest, or FileBestSettings for a run on an [external] engine,
// which has no road weights); "" before it has run.
func (o *Result) Best() string {
	if o == nil || len(o.Dirs) == 0 {
		return ""
	}
	dir := o.Dirs[len(o.Dirs)-1]
	if _, err := os.Stat(filepath.Join(dir, tune.FileBest)); err != nil {
		if _, err := os.Stat(filepath.Join(dir, tune.FileBestSettings)); err == nil {
			return filepath.Join(dir, tune.FileBestSettings)
		}
	}
	return filepath.Join(dir, tune.FileBest)
}

// Report is the path of the report of the launch's last run
// (FileReport).
func (o *Result) Report() string {
	if o == nil || len(o.Dirs) == 0 {
		return ""
	}
	return filepath.Join(o.Dirs[len(o.Dirs)-1], tune.FileReport)
}

// FileCurve is the base name of a sweep's learning curve in its
// directory (png, svg, csv), written when its runs measured their Elo
// (validation.elo_every).
const FileCurve = "compare-curve"

// writeSweepCurve draws the sweep's runs as one learning curve
// (WriteLearningCurves: their mean, a band from the lowest to the highest
// seed) and links it from the comparison's Markdown, when the runs
// measured their Elo during tuning; else it writes nothing.
func writeSweepCurve(dir, label string, dirs []string) error {
	if len(dirs) == 0 {
		return nil
	}
	if _, err := runs.LearningCurve(dirs[0]); err != nil {
		return nil // no Elo measured during the runs: no curve
	}
	base := filepath.Join(dir, FileCurve)
	if err := runs.WriteLearningCurves([]runs.CurveGroup{{Label: label, Dirs: dirs}}, base); err != nil {
		return err
	}
	md := filepath.Join(dir, FileCompare+".md")
	data, err := fileio.ReadFile(md, fileio.Report)
	if err != nil {
		return err
	}
	data = append(data, []byte("\n## Learning curve\n\nThe Elo measured during tuning (validation.elo_every) by fitness games and by wall time: the mean over the seeds, a band from the lowest to the highest.\n\n![learning curve by games]("+FileCurve+".png)\n\n![learning curve by wall time]("+FileCurve+"-time.png)\n")...)
	return results.WriteFileAtomic(md, data)
}

// FileCompare is the base name of a sweep's comparison in its directory
// (RunComparison.Write).
const FileCompare = "compare"

// Run runs the launch with opts and the hooks, and returns its outcome.
// Errors: those of Start, Resume, Job.Run, Sweep, chain.Run or chain.Resume
// (an *InterruptedError when ctx is cancelled, with the checkpoints
// written), a hook's error, a sweep's comparison that cannot be written.
func (l *Launch) Run(ctx context.Context, opts tune.Options, h Hooks) (*Result, error) {
	if l.Kind == KindRun {
		return l.runOne(ctx, opts, h)
	}
	if h.Group != nil {
		if err := h.Group(l.Dir, l.cfg, &opts); err != nil {
			return nil, err
		}
	}
	var dirs []string
	var err error
	switch {
	case l.Kind == KindSweep:
		dirs, err = Sweep(ctx, l.cfg, l.seeds, l.Dir, opts)
	case l.Resume:
		dirs, err = chain.Resume(ctx, l.Dir, opts)
	default:
		dirs, err = chain.Run(ctx, l.stages, l.Dir, opts)
	}
	if err != nil {
		return nil, err
	}
	out := &Result{Dirs: dirs}
	if l.Kind == KindSweep {
		if out.Comparison, err = runs.CompareRuns(dirs); err != nil {
			return out, err
		}
		if err := out.Comparison.Write(filepath.Join(l.Dir, FileCompare)); err != nil {
			return out, err
		}
		if err := writeSweepCurve(l.Dir, l.cfg.Method, dirs); err != nil {
			return out, err
		}
	}
	return out, nil
}

// runOne starts or resumes one run.
func (l *Launch) runOne(ctx context.Context, opts tune.Options, h Hooks) (*Result, error) {
	if h.Track != nil {
		h.Track(l.Dir, &opts)
	}
	var job *tune.Job
	var err error
	if l.Resume {
		job, err = tune.Resume(l.Dir, opts)
	} else {
		job, err = tune.StartContext(ctx, l.cfg, l.Dir, opts)
	}
	if err != nil {
		return nil, err
	}
	if h.Job != nil {
		if err := h.Job(job, &opts); err != nil {
			return nil, err
		}
	}
	if err := job.Run(ctx); err != nil {
		return nil, err
	}
	return &Result{Dirs: []string{job.Dir()}, Status: job.Status()}, nil
}

// AsInput keeps a *ConfigError or *InputError and makes any other error
// a *InputError: bad input, not a failed run (for a caller resolving a
// launch from its own input, as the tune command does).
func AsInput(err error) error {
	var ce *tune.ConfigError
	var ie *tune.InputError
	if errors.As(err, &ce) || errors.As(err, &ie) {
		return err
	}
	return &tune.InputError{Err: err}
}

// ParseSeeds reads a seed list as the -seeds flag gives it:
// comma-separated non-negative integers, e.g. "1,2,3". Errors: a
// *InputError naming the item that is not a seed.
func ParseSeeds(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 0 {
			return nil, &tune.InputError{Err: fmt.Errorf("flag -seeds: %q is not a seed (want non-negative integers separated by commas, e.g. 1,2,3)", f)}
		}
		out = append(out, n)
	}
	return out, nil
}

// Summary is what a finished launch tells its user: a sweep's comparison
// table and the files it wrote, a chain's stages with its best vector and
// report, a run's steps and games with its best vector (only when
// verbose is false: a run's progress lines have said the rest).
func (l *Launch) Summary(out *Result, verbose bool) string {
	switch {
	case l.Kind == KindSweep:
		base := filepath.Join(l.Dir, FileCompare)
		return out.Comparison.Markdown() + fmt.Sprintf("wrote %s.md, %s-ladder.png, %s-ladder.svg\n", base, base, base)
	case l.Kind == KindChain:
		return fmt.Sprintf("chain done: %d stages in %s. Best vector: %s\nreport: %s\n", len(out.Dirs), l.Dir, out.Best(), out.Report())
	case !verbose:
		return fmt.Sprintf("done: %d steps, %d games. Best vector: %s\n", out.Status.Steps, out.Status.Games, out.Best())
	}
	return ""
}
