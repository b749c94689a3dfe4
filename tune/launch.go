package tune

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
)

// LaunchKind is what a Launch runs.
type LaunchKind int

const (
	// LaunchRun is one run (Start, Resume).
	LaunchRun LaunchKind = iota
	// LaunchSweep is one run (or chain) per seed (Sweep), then their
	// comparison.
	LaunchSweep
	// LaunchChain is a chain of stages (Chain, ResumeChain).
	LaunchChain
)

// A Launch is one invocation of the tuning job, resolved before anything
// is written: a new run, sweep or chain of a config, or a stopped run or
// chain to continue. It is what `tune` does with its flags; NewLaunch and
// ResumeLaunch make one, Run runs it.
type Launch struct {
	// Dir is the run's, sweep's or chain's directory.
	Dir string
	// Kind is what runs in Dir.
	Kind LaunchKind
	// Resume is set when Dir holds a stopped run or chain to continue.
	Resume bool

	cfg    Config   // the config (a chain's: its first stage); zero on resume
	stages []Config // a new chain's stages
	seeds  []int64  // a sweep's seeds
}

// NewLaunch resolves a new job of cfg: a sweep when seeds is not empty,
// else a chain when cfg has `then` (Stages), else one run. dir "" is
// DefaultRunDir(cfg, sweep, now). A sweep directory may hold a stopped
// sweep of the same config, which continues (Sweep). Errors: a chain's
// stage that cannot be read (*ConfigError, *InputError), a bad seed list
// (*InputError). Nothing is written.
func NewLaunch(cfg Config, dir string, seeds []int64, now time.Time) (*Launch, error) {
	l := &Launch{Dir: dir, cfg: cfg, seeds: seeds, Kind: LaunchRun}
	switch {
	case len(seeds) > 0:
		l.Kind = LaunchSweep
		if err := checkSeeds(seeds); err != nil {
			return nil, err
		}
		if cfg.Budget != "" {
			return nil, errBudgetSweep
		}
	case cfg.Then != "":
		stages, err := Stages(cfg)
		if err != nil {
			return nil, err
		}
		l.Kind, l.stages = LaunchChain, stages
	}
	if l.Dir == "" {
		l.Dir = DefaultRunDir(cfg, l.Kind == LaunchSweep, now)
	}
	return l, nil
}

// ResumeLaunch is the launch that continues the stopped run or chain in
// dir (IsChain tells which). Run reports a directory that holds neither.
func ResumeLaunch(dir string) *Launch {
	l := &Launch{Dir: dir, Kind: LaunchRun, Resume: true}
	if IsChain(dir) {
		l.Kind = LaunchChain
	}
	return l
}

// Config is the launch's config (a chain's: its first stage; with a
// sweep's seeds still to apply); the zero Config when the launch resumes
// (the config is in its directory).
func (l *Launch) Config() Config { return l.cfg }

// LaunchHooks attach a command's services (live pages, a cluster session)
// to a launch; any may be nil.
type LaunchHooks struct {
	// Track is called with a run's directory and options before its job
	// is made (Start, Resume): the options' events may be wrapped.
	Track func(dir string, opts *Options)
	// Job is called with a run's job and its options (as Track left
	// them) before it plays; an error stops the launch before the first
	// game.
	Job func(*Job, *Options) error
	// Group is called before a sweep or chain plays, with its directory,
	// its first config (the zero Config when a chain resumes: the stages
	// are in its directory) and the options, which it may change (e.g.
	// Options.Bind); an error stops the launch before the first game.
	Group func(dir string, first Config, opts *Options) error
}

// Then returns hooks that run h's hooks and then next's, stopping at the
// first error: e.g. live pages, then a cluster session.
func (h LaunchHooks) Then(next LaunchHooks) LaunchHooks {
	return LaunchHooks{
		Track: func(dir string, opts *Options) {
			for _, f := range []func(string, *Options){h.Track, next.Track} {
				if f != nil {
					f(dir, opts)
				}
			}
		},
		Job: func(job *Job, opts *Options) error {
			for _, f := range []func(*Job, *Options) error{h.Job, next.Job} {
				if f != nil {
					if err := f(job, opts); err != nil {
						return err
					}
				}
			}
			return nil
		},
		Group: func(dir string, first Config, opts *Options) error {
			for _, f := range []func(string, Config, *Options) error{h.Group, next.Group} {
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

// LaunchResult is what a finished launch leaves: its run directories, a
// run's final status and a sweep's comparison. (A match's result is
// optimize.Outcome, a W/D/L count.)
type LaunchResult struct {
	// Dirs are the runs' directories: one for a run, one per seed of a
	// sweep, one per stage of a chain.
	Dirs []string
	// Status is a run's status at its end (a run only).
	Status optimize.Status
	// Comparison is a sweep's comparison of its runs' verification
	// ladders (CompareRuns), written to Dir/compare.md and
	// Dir/compare-ladder.png/.svg.
	Comparison *RunComparison
}

// Best is the path of the best vector of the launch's last run
// (FileBest, or FileBestSettings for a run on an [external] engine,
// which has no road weights); "" before it has run.
func (o *LaunchResult) Best() string {
	if o == nil || len(o.Dirs) == 0 {
		return ""
	}
	dir := o.Dirs[len(o.Dirs)-1]
	if _, err := os.Stat(filepath.Join(dir, FileBest)); err != nil {
		if _, err := os.Stat(filepath.Join(dir, FileBestSettings)); err == nil {
			return filepath.Join(dir, FileBestSettings)
		}
	}
	return filepath.Join(dir, FileBest)
}

// Report is the path of the report of the launch's last run
// (FileReport).
func (o *LaunchResult) Report() string {
	if o == nil || len(o.Dirs) == 0 {
		return ""
	}
	return filepath.Join(o.Dirs[len(o.Dirs)-1], FileReport)
}

// FileCurve is the base name of a sweep's learning curve in its
// directory (png, svg, csv), written when its runs measured their Elo
// (validation.elo_every).
const FileCurve = "compare-curve"

// writeSweepCurve draws the sweep's runs as one learning curve
// (WriteLearningCurves: their mean, a band from the lowest to the highest
// seed) and links it from the comparison's Markdown, when the runs
// measured their Elo during tuning; else it writes nothing.
func writeSweepCurve(dir, label string, runs []string) error {
	if len(runs) == 0 {
		return nil
	}
	if _, err := LearningCurve(runs[0]); err != nil {
		return nil // no Elo measured during the runs: no curve
	}
	base := filepath.Join(dir, FileCurve)
	if err := WriteLearningCurves([]CurveGroup{{Label: label, Dirs: runs}}, base); err != nil {
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
// Errors: those of Start, Resume, Job.Run, Sweep, Chain or ResumeChain
// (an *InterruptedError when ctx is cancelled, with the checkpoints
// written), a hook's error, a sweep's comparison that cannot be written.
func (l *Launch) Run(ctx context.Context, opts Options, h LaunchHooks) (*LaunchResult, error) {
	if l.Kind == LaunchRun {
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
	case l.Kind == LaunchSweep:
		dirs, err = Sweep(ctx, l.cfg, l.seeds, l.Dir, opts)
	case l.Resume:
		dirs, err = ResumeChain(ctx, l.Dir, opts)
	default:
		dirs, err = Chain(ctx, l.stages, l.Dir, opts)
	}
	if err != nil {
		return nil, err
	}
	out := &LaunchResult{Dirs: dirs}
	if l.Kind == LaunchSweep {
		if out.Comparison, err = CompareRuns(dirs); err != nil {
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
func (l *Launch) runOne(ctx context.Context, opts Options, h LaunchHooks) (*LaunchResult, error) {
	if h.Track != nil {
		h.Track(l.Dir, &opts)
	}
	var job *Job
	var err error
	if l.Resume {
		job, err = Resume(l.Dir, opts)
	} else {
		job, err = StartContext(ctx, l.cfg, l.Dir, opts)
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
	return &LaunchResult{Dirs: []string{job.Dir()}, Status: job.Status()}, nil
}

// checkSeeds refuses a negative or repeated seed (*InputError).
func checkSeeds(seeds []int64) error {
	seen := map[int64]bool{}
	for _, s := range seeds {
		if s < 0 {
			return inputErr("sweep: seed %d: seeds must be ≥ 0", s)
		}
		if seen[s] {
			return inputErr("sweep: seed %d is listed twice", s)
		}
		seen[s] = true
	}
	return nil
}

// AsInput keeps a *ConfigError or *InputError and makes any other error
// a *InputError: bad input, not a failed run (for a caller resolving a
// launch from its own input, as the tune command does).
func AsInput(err error) error {
	var ce *ConfigError
	var ie *InputError
	if errors.As(err, &ce) || errors.As(err, &ie) {
		return err
	}
	return &InputError{Err: err}
}

// ParseSeeds reads a seed list as the -seeds flag gives it:
// comma-separated non-negative integers, e.g. "1,2,3". Errors: a
// *InputError naming the item that is not a seed.
func ParseSeeds(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 0 {
			return nil, &InputError{Err: fmt.Errorf("flag -seeds: %q is not a seed (want non-negative integers separated by commas, e.g. 1,2,3)", f)}
		}
		out = append(out, n)
	}
	return out, nil
}

// errBudgetSweep refuses a budget for a sweep.
var errBudgetSweep = inputErr("a budget by the clock (budget, -hours) cannot be combined with -seeds: give the sweep a step budget, or run each seed with -seed and its own -hours")

// Summary is what a finished launch tells its user: a sweep's comparison
// table and the files it wrote, a chain's stages with its best vector and
// report, a run's steps and games with its best vector (only when
// verbose is false: a run's progress lines have said the rest).
func (l *Launch) Summary(out *LaunchResult, verbose bool) string {
	switch {
	case l.Kind == LaunchSweep:
		base := filepath.Join(l.Dir, FileCompare)
		return out.Comparison.Markdown() + fmt.Sprintf("wrote %s.md, %s-ladder.png, %s-ladder.svg\n", base, base, base)
	case l.Kind == LaunchChain:
		return fmt.Sprintf("chain done: %d stages in %s. Best vector: %s\nreport: %s\n", len(out.Dirs), l.Dir, out.Best(), out.Report())
	case !verbose:
		return fmt.Sprintf("done: %d steps, %d games. Best vector: %s\n", out.Status.Steps, out.Status.Games, out.Best())
	}
	return ""
}
