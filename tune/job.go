// This file holds the API of a tuning job: the caller's Options and
// Events, the Plan it reports, its errors (InterruptedError, InputError)
// and the Job with its accessors. The run directory's housekeeping is in
// rundir.go and running.go, the life cycle (Start, Resume, Steps, Run) in
// lifecycle.go.

package tune

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/roadtune/roadtune/tune/budget"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/ladder"
)

// Options are the caller's settings of a job that do not change its
// results.
type Options struct {
	// Log receives the job's human lines: the start, one line per step,
	// one per rung of the verification ladder, the verdict, the end. nil
	// discards them.
	Log io.Writer
	// Events, when set, are told of the job's progress.
	Events Events
	// Referee, when set, plays the fitness matches instead of the
	// in-process engine referee the config describes (NewReferee): a way
	// to play games elsewhere. It must honour the config's pairs and give
	// the same outcomes for the same seed and matches.
	Referee optimize.Referee
	// Remote, when set, plays the games of the verification ladder and of
	// the Elo-of-best measurements (validation.elo_every) elsewhere, in
	// batches (tournament.Runner.Remote; package cluster's Coordinator):
	// with fixed-depth engines their results equal the in-process ones.
	Remote tournament.Remote
	// Bind, when set, is called by Sweep with each seed's job before it
	// plays (to point a referee given in Referee at that run, e.g. a
	// cluster coordinator); an error stops the sweep. Start and Resume do
	// not call it: their caller holds the job.
	Bind func(*Job) error
	// Concurrency, when not nil, replaces the config's concurrency (the one
	// key a resume may change: results do not depend on it).
	Concurrency *int
	// Clock, when set, is the time a budgeted run (Config.Budget) reads
	// for its calibration, its elapsed time, the safety valve and the
	// budget left on resume; nil = time.Now. Tests give a fake one.
	Clock func() time.Time
}

// Events are progress callbacks; any may be nil. They are called from the
// goroutine running the job, except Games, which the referee may call from
// its workers.
type Events struct {
	// Plan is called when the optimisation starts or resumes.
	Plan func(Plan)
	// Games reports done of total games of the batch in flight.
	Games func(done, total int)
	// Step is called after each step is recorded and checkpointed, with
	// the status and the method's forecast after it.
	Step func(rec optimize.Record, st optimize.Status, f optimize.Forecast)
	// Verify is called once when the verification ladder starts, with
	// its most games over all rungs (Games then reports each rung as a
	// batch).
	Verify func(games int)
	// Rung is called after each rung of the ladder is played (its games
	// written), with its number k (from 1) of the n rungs planned.
	Rung func(r ladder.Rung, k, n int)
	// Calibrate is called once when a budgeted run's calibration starts,
	// with its most games (Games then reports its batches).
	Calibrate func(games int)
}

// Plan is the shape of the optimisation when it starts or resumes.
type Plan struct {
	Unit     string            // "generation", "iteration"
	Status   optimize.Status   // what is done
	Forecast optimize.Forecast // what is left, the method's own figure
	// End is a budgeted run's planned end (the job's clock's time when
	// its budget runs out); zero without a budget.
	End time.Time
}

// InterruptedError is a job stopped by its context with its last
// checkpoint intact: Resume continues it.
type InterruptedError struct {
	Dir   string
	Steps int
	Unit  string
	Phase string
	Err   error // the context's error
	// Resume is the directory to resume, when it is not Dir: the chain
	// whose stage Dir is.
	Resume string
}

func (e *InterruptedError) Error() string {
	what := fmt.Sprintf("%d %ss complete and checkpointed in %s; the games in flight were abandoned", e.Steps, e.Unit, e.Dir)
	if e.Phase == PhaseVerify {
		what = fmt.Sprintf("during the verification ladder (the %d %ss are checkpointed in %s; the ladder starts again)", e.Steps, e.Unit, e.Dir)
	}
	resume := e.Dir
	if e.Resume != "" {
		resume = e.Resume
	}
	return fmt.Sprintf("interrupted: %s.\nResume with: go run ./cmd/tune -resume %s", what, resume)
}

func (e *InterruptedError) Unwrap() error { return e.Err }

// InputError is bad input that is not a config key: a run directory that
// cannot be used, a checkpoint that does not fit. Nothing was computed.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// InputErrorf is an *InputError of a formatted message (fmt.Errorf:
// %w wraps).
func InputErrorf(format string, args ...any) error {
	return &InputError{fmt.Errorf(format, args...)}
}

// Job is one tuning run in its run directory: Start or Resume it, then Run.
// A Job is not safe for concurrent use.
type Job struct {
	cfg   Config
	spec  optimize.Spec
	dir   *results.RunDir
	opts  Options
	m     optimize.Method
	cp    checkpoint
	ref   optimize.Referee
	games []tournament.GameRecord // fitness games of the step in flight (output.games)
	// marked is set while the directory holds this process's FileRunning.
	marked bool
	// bud is a budgeted run's clock (nil without a budget).
	bud *budget.Clock
	// stopping is set while the step the safety valve ends the
	// optimisation after is recorded.
	stopping bool
}

func (j *Job) logf(format string, args ...any) {
	if j.opts.Log != nil {
		fmt.Fprintf(j.opts.Log, format, args...)
	}
}

// Dir is the run directory.
func (j *Job) Dir() string { return j.dir.Dir }

// Config is the job's resolved config.
func (j *Job) Config() Config { return j.cfg }

// Status is what the optimisation has done so far.
func (j *Job) Status() optimize.Status { return j.cp.Status }

// Best is a copy of the best vector so far (nil before the first step):
// the one best.json holds and the verification plays.
func (j *Job) Best() []float64 { return slices.Clone(j.cp.Best) }

// Done reports whether the whole job (optimisation, verification, report)
// has finished.
func (j *Job) Done() bool { return j.cp.Phase == PhaseDone }
