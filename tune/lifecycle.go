// This file holds the life cycle of a tuning job: Start and Resume make a
// Job ready to play (config.toml and the first checkpoint written, or the
// checkpoint restored), Steps and Run drive it, record persists each step
// (records, games, best.json, then the checkpoint).

package tune

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/roadtune/roadtune/tune/budget"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/positions"
)

// rngStream separates roadtune's tuning stream from other uses of a seed.
const rngStream = 0x726f616474756e65 // "roadtune"

// Start validates cfg, prepares dir (created if missing; it must be empty,
// or hold only what a run stopped before its first checkpoint leaves: its
// config.toml and temporary files), writes config.toml, the first
// checkpoint (the method's initial state) and FileRunning, and returns the
// job ready to Run.
// Errors: *ConfigError for a bad config, *InputError for an unusable
// directory; nothing is written then.
//
// A config with a budget (Config.Budget) is first calibrated (Calibrate:
// sample games on this machine, nothing written) and its method's step
// budget sized to end within it (Config.FitBudget); config.toml then holds that
// step count and no budget, and the checkpoint the budget, the
// calibration and the clock. A budget too short for the fewest steps and
// the ladder is a *ConfigError naming where it was set, with the least
// time measured. Start calibrates uncancellably: StartContext takes a
// context.
func Start(cfg Config, dir string, opts Options) (*Job, error) {
	return StartContext(context.Background(), cfg, dir, opts)
}

// StartContext is Start with a context that stops a budgeted run's
// calibration (the error then wraps ctx's; nothing is written).
func StartContext(ctx context.Context, cfg Config, dir string, opts Options) (*Job, error) {
	return StartCalibrated(ctx, cfg, dir, opts, nil)
}

// StartCalibrated is StartContext with the calibration cal of a budgeted
// cfg already played (Calibrate; a chain calibrates its stages at its
// start, and counts that time), or nil to play it. Errors: Start's.
func StartCalibrated(ctx context.Context, cfg Config, dir string, opts Options, cal *budget.Calibration) (*Job, error) {
	if opts.Concurrency != nil {
		cfg.Concurrency = *opts.Concurrency
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var bs *budget.State
	var since time.Time
	if cfg.Budget != "" {
		if _, _, err := checkNewDir(dir); err != nil {
			return nil, err
		}
		var err error
		if cfg, bs, since, err = resolveBudget(ctx, cfg, opts, cal); err != nil {
			return nil, err
		}
	}
	if err := prepareDir(dir); err != nil {
		return nil, err
	}
	return start(cfg, &results.RunDir{Dir: dir}, opts, bs, since)
}

// start writes config.toml and the initial checkpoint into rd; bs is a
// budgeted run's budget, its clock started at since.
func start(cfg Config, rd *results.RunDir, opts Options, bs *budget.State, since time.Time) (*Job, error) {
	j, err := newJob(cfg, rd, opts)
	if err != nil {
		return nil, err
	}
	data, err := cfg.Encode()
	if err != nil {
		return nil, err
	}
	head := fmt.Sprintf("# Resolved config of run %s (every key; `tune -resume` reads it and refuses a changed one).\n", filepath.Base(rd.Dir))
	if bs != nil {
		head += fmt.Sprintf("# %s = %d was sized for the budget %s on this machine (%s holds the budget, the calibration and the clock); this file replays the same steps without it.\n",
			bs.Key, bs.Steps, bs.Budget, FileCheckpoint)
	}
	if err := results.WriteFileAtomic(rd.Path(FileConfig), append([]byte(head), data...)); err != nil {
		return nil, err
	}
	pcg := rand.NewPCG(uint64(cfg.Seed), rngStream)
	if j.m, err = cfg.newMethod(j.spec, pcg); err != nil {
		return nil, err
	}
	flat, err := cfg.Flat()
	if err != nil {
		return nil, err
	}
	state, err := j.m.MarshalState()
	if err != nil {
		return nil, err
	}
	// The first checkpoint holds the method's initial state, so a stop in
	// the first step resumes exactly.
	j.cp = checkpoint{Version: checkpointVersion, Method: cfg.Method, Phase: PhaseOptimize,
		Fingerprint: fingerprint(flat), Config: flat, State: state, Budget: bs}
	if bs != nil {
		j.watchClock(since)
	}
	if err := os.Remove(rd.Path(FileRecords)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := j.saveCheckpoint(); err != nil {
		return nil, err
	}
	if err := j.markRunning(); err != nil {
		return nil, err
	}
	j.logf("roadtune tune: %s → %s\n", cfg.startLine(), rd.Dir)
	return j, nil
}

// Resume opens the run in dir and prepares it to continue from its
// checkpoint: it checks the directory is writable, removes temporary files
// of interrupted writes (fileio.RemoveTemps: in dir and every directory
// below it), refuses a config.toml changed since the run started
// (naming the keys; only concurrency may change, through opts), validates
// the checkpoint against the method's state and the records, drops records
// written after the checkpoint (a torn last line included), rebuilds
// best.json from the checkpoint and writes FileRunning. A directory holding a config.toml but no
// checkpoint (a run stopped before its first checkpoint) starts afresh from
// that config, which gives exactly the uninterrupted run. Errors:
// *InputError, *ConfigError.
func Resume(dir string, opts Options) (*Job, error) {
	rd, err := reopenDir(dir)
	if err != nil {
		return nil, err
	}
	cfgPath := rd.Path(FileConfig)
	// The run's config.toml was written with `then` already resolved (Load
	// joins a relative one to the directory of the config it came from), so
	// it is parsed as written: Load would join it to the run's directory
	// and the resumed stage of a chain started as `-config configs/x.toml`
	// would no longer match its checkpoint.
	data, err := fileio.ReadFile(cfgPath, fileio.Config)
	if err != nil {
		return nil, &InputError{err}
	}
	cfg, err := Parse(cfgPath, data)
	if err != nil {
		return nil, err
	}
	if opts.Concurrency != nil {
		cfg.Concurrency = *opts.Concurrency
	}
	cpPath := rd.Path(FileCheckpoint)
	if _, err := os.Stat(cpPath); errors.Is(err, os.ErrNotExist) {
		j, err := start(cfg, rd, opts, nil, time.Time{})
		if err != nil {
			return nil, err
		}
		j.logf("%s had no checkpoint yet (stopped before its first one): started the run from its %s\n", dir, FileConfig)
		return j, nil
	}
	j, err := newJob(cfg, rd, opts)
	if err != nil {
		return nil, err
	}
	if err := j.restore(); err != nil {
		return nil, err
	}
	if err := j.markRunning(); err != nil {
		return nil, err
	}
	if bs := j.cp.Budget; bs != nil {
		j.watchClock(j.opts.Now())
		bs = j.cp.Budget
		j.logf("roadtune tune: resuming with %s of the %s budget left; %s after %d of %d %ss (phase %s), planned end %s; the clock guards it\n",
			budget.Text(max(bs.Seconds-bs.Elapsed, 0)), bs.Budget, dir, j.cp.Status.Steps, bs.Steps, j.spec.Unit, j.cp.Phase, progress.TimeOfDay(bs.End, j.opts.Now()))
		return j, nil
	}
	j.logf("roadtune tune: resuming %s after %d %ss (phase %s)\n", dir, j.cp.Status.Steps, j.spec.Unit, j.cp.Phase)
	return j, nil
}

func newJob(cfg Config, rd *results.RunDir, opts Options) (*Job, error) {
	spec, err := cfg.Spec()
	if err != nil {
		return nil, err
	}
	if cfg.External != nil {
		cfg.externalFileDir = rd.Path(externalFiles)
	}
	j := &Job{cfg: cfg, spec: spec, dir: rd, opts: opts, ref: opts.Referee}
	logGame := func(g tournament.GameRecord) error {
		j.games = append(j.games, g)
		return nil
	}
	if gl, ok := j.ref.(referee.GameLogger); ok && cfg.Output.Games {
		gl.SetGameLog(logGame)
	}
	if j.ref == nil {
		vr, err := NewReferee(cfg)
		if err != nil {
			return nil, err
		}
		vr.Progress = opts.Events.Games
		if cfg.Output.Games {
			vr.GameLog = logGame
		}
		j.ref = vr
	}
	if smp, ok := j.ref.(optimize.Sampler); ok {
		j.ref = &positions.Store{Sampler: smp, Dir: rd.Path(positions.Dir), Genes: cfg.GeneNames()}
	}
	return j, nil
}

// NewReferee is the in-process engine referee of a config: its schema,
// engine settings, [[param]] tables and fixed road weights, clock, pairs
// per match, move limit and concurrency. cfg must have passed Validate
// (its schema is one the engine knows).
func NewReferee(cfg Config) (*referee.VectorReferee, error) {
	var suite []tournament.Opening
	var err error
	if !cfg.generatedOpenings() {
		if suite, err = configs.LoadOpenings(cfg.Openings); err != nil {
			return nil, err
		}
	}
	r, err := cfg.playerRef(cfg.Engine.Depth, cfg.Engine.Width)
	if err != nil {
		return nil, err
	}
	if r.Time, err = cfg.clock(); err != nil {
		return nil, err
	}
	r.Openings = referee.OpeningTexts(suite)
	r.Pairs, r.EarlyStop, r.MaxMoves, r.Concurrency = cfg.Match.Pairs, cfg.Match.EarlyStop, cfg.Engine.MaxMoves, cfg.Concurrency
	return r, nil
}

// settings are the driver settings of the job, without its recorder.
func (j *Job) settings() optimize.Settings {
	return optimize.Settings{Stall: j.cfg.Stall}
}

// optimizing reports whether optimisation steps remain.
func (j *Job) optimizing() bool {
	return j.cp.Phase == PhaseOptimize && !j.m.Done() && !j.settings().Stalled(j.cp.Status) && !j.clockStopped()
}

// Steps runs at most n more optimisation steps (each one recorded and
// checkpointed), fewer if the method's budget, the stall rule or, for a
// budgeted run, the clock ends the optimisation first. It does not
// verify: Run finishes the job. It returns *InterruptedError when ctx is
// cancelled.
func (j *Job) Steps(ctx context.Context, n int) error {
	if !j.optimizing() || n <= 0 {
		return nil
	}
	if bs := j.cp.Budget; bs != nil && j.cp.Status.Steps > 0 {
		// A resumed run whose budget left holds no more step.
		b := *bs
		if over, end := j.overrun(&b, j.m.Forecast(), j.cp.Status.Steps, false); over {
			line := b.Stop(j.spec.Unit, j.cp.Status.Steps, end)
			j.cp.Budget = &b
			if err := j.saveCheckpoint(); err != nil {
				return err
			}
			j.logf("%s\n", line)
			return nil
		}
	}
	if j.opts.Events.Plan != nil {
		p := Plan{Unit: j.spec.Unit, Status: j.cp.Status, Forecast: j.m.Forecast()}
		if j.cp.Budget != nil {
			p.End = j.cp.Budget.End
		}
		j.opts.Events.Plan(p)
	}
	j.games = j.games[:0]
	st := j.cp.Status
	s := j.settings()
	s.Recorder = func(rec optimize.Record, st optimize.Status) error { return j.record(ctx, rec, st) }
	if err := optimize.Run(ctx, &limited{Method: j.m, left: n, job: j}, j.ref, s, &st); err != nil {
		if ctx.Err() != nil {
			return j.interrupted(ctx)
		}
		return err
	}
	return nil
}

// limited lets optimize.Run drive at most left more steps of a method,
// none after the clock stopped the job's optimisation; it times each
// step on a budgeted job's clock.
type limited struct {
	optimize.Method
	left int
	job  *Job
}

func (l *limited) Done() bool { return l.left <= 0 || l.Method.Done() || l.job.clockStopped() }

func (l *limited) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if b := l.job.bud; b != nil {
		b.BeginStep()
		defer b.EndStep()
	}
	rec, err := l.Method.Step(ctx, ref)
	if err == nil {
		l.left--
	}
	return rec, err
}

func (j *Job) interrupted(ctx context.Context) error {
	return &InterruptedError{Dir: j.dir.Dir, Steps: j.cp.Status.Steps, Unit: j.spec.Unit, Phase: j.cp.Phase, Err: ctx.Err()}
}

// record persists a completed step, checkpoint last: the best vector's
// Elo is measured when due (validation.elo_every) and added to the
// record's metrics, the record is appended to generations.jsonl, the
// step's games and best.json written, then the checkpoint. A stop between
// any two of these resumes from the previous checkpoint, dropping what was
// written after it.
func (j *Job) record(ctx context.Context, rec optimize.Record, st optimize.Status) error {
	var bs *budget.State // a budgeted run's budget after the step
	var stop bool
	var end float64
	if j.cp.Budget != nil {
		b := *j.cp.Budget
		bs = &b
		j.measure(bs, rec)
		if !j.m.Done() && !j.settings().Stalled(st) {
			stop, end = j.overrun(bs, j.m.Forecast(), st.Steps, j.eloDue(rec, st))
		}
		j.stopping = stop
		defer func() { j.stopping = false }()
	}
	if j.eloDue(rec, st) {
		var t time.Time
		if bs != nil {
			t = j.opts.Now()
		}
		if err := j.ladderRun().MeasureElo(ctx, j.cfg.elo(), &rec); err != nil {
			return fmt.Errorf("%s %d: Elo of the best vector: %w", j.spec.Unit, rec.Step, err)
		}
		if bs != nil {
			bs.Measured.EloSeconds = j.opts.Now().Sub(t).Seconds()
		}
	}
	// The counts are checked before anything is written: a step with an
	// impossible count leaves the last good checkpoint to resume from.
	if games, err := addGames(j.cp.Status.Games, rec.Games); err != nil || games != st.Games {
		return fmt.Errorf("%s %d: the step's game count is impossible (%d games on top of %d, the status counts %d): %v", j.spec.Unit, rec.Step, rec.Games, j.cp.Status.Games, st.Games, err)
	}
	if err := checkStatus(st, 0); err != nil {
		return fmt.Errorf("%s %d: %w", j.spec.Unit, rec.Step, err)
	}
	path := j.dir.Path(FileRecords)
	if err := results.AppendJSONL(path, rec); err != nil {
		return err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if len(j.games) > 0 {
		if _, err := j.dir.MkdirAll(DirGames); err != nil {
			return err
		}
		name := j.dir.Path(DirGames, fmt.Sprintf("%s-%03d.jsonl", j.spec.Unit, rec.Step))
		if err := results.WriteJSONL(name, j.games); err != nil {
			return err
		}
	}
	state, err := j.m.MarshalState()
	if err != nil {
		return err
	}
	cp := j.cp
	cp.Status = st
	cp.RecordsBytes = fi.Size()
	cp.Best = slices.Clone(rec.Best)
	cp.BestStep = rec.Step
	cp.BestFitness = nil
	if f, ok := rec.Metrics["fitness"]; ok {
		cp.BestFitness = &f
	}
	cp.State = state
	if bs != nil {
		cp.Budget = bs
	}
	if err := j.writeBest(cp); err != nil {
		return err
	}
	var line string
	if stop {
		line = bs.Stop(j.spec.Unit, st.Steps, end)
	}
	j.cp = cp
	if err := j.saveCheckpoint(); err != nil {
		return err
	}
	j.games = j.games[:0]
	j.logf("%s\n", j.stepLine(rec))
	if stop {
		j.logf("%s\n", line)
	}
	if j.opts.Events.Step != nil {
		j.opts.Events.Step(rec, st, j.m.Forecast())
	}
	return nil
}

// stepLine is the console line of a step.
func (j *Job) stepLine(rec optimize.Record) string {
	s := fmt.Sprintf("%s %3d:", j.spec.Unit, rec.Step)
	if rec.Line != "" {
		s += " " + rec.Line + ","
	}
	return fmt.Sprintf("%s %d games in %.1fs (%.1f games/s) | best %s", s, rec.Games, rec.Seconds,
		float64(rec.Games)/max(rec.Seconds, 1e-9), j.cfg.formatVector(rec.Best))
}

func formatGenes(names []string, genes []float64) string {
	parts := make([]string, len(genes))
	for d, x := range genes {
		name := fmt.Sprint(d)
		if d < len(names) {
			name = names[d]
		}
		parts[d] = fmt.Sprintf("%s=%.0f", name, x)
	}
	return strings.Join(parts, " ")
}

// writeBest writes best.json from a checkpoint's best vector (and
// best-settings.json when the run tunes parameters).
func (j *Job) writeBest(cp checkpoint) error {
	if cp.Best == nil {
		return nil
	}
	if j.cfg.External != nil { // no road weights: the engine's options alone
		return j.writeBestSettings(&engine.WeightFile{Name: j.bestName(cp.BestStep)}, cp.Best)
	}
	wf, err := j.weightFile(cp.Best, cp.BestStep, cp.BestFitness)
	if err != nil {
		return err
	}
	if err := j.writeBestSettings(wf, cp.Best); err != nil {
		return err
	}
	return engine.WriteWeightFile(j.dir.Path(FileBest), wf)
}

// bestName names the run's vector of a step: <run>-<unit letter><step>
// (e.g. run-g12).
func bestName(run string, spec optimize.Spec, step int) string {
	return fmt.Sprintf("%s-%c%d", run, spec.Unit[0], step)
}

// bestName is bestName for this job's run.
func (j *Job) bestName(step int) string {
	return bestName(filepath.Base(filepath.Clean(j.dir.Dir)), j.spec, step)
}

// weightFile is a vector of the run as an engine weight file named
// <run>-<unit letter><step> (e.g. run-g12), with its provenance.
func (j *Job) weightFile(genes []float64, step int, fitness *float64) (*engine.WeightFile, error) {
	return WeightFile(j.cfg, j.spec, filepath.Base(filepath.Clean(j.dir.Dir)), genes, step, fitness)
}

// WeightFile is a vector of a run of cfg (method spec) as an engine
// weight file named <run>-<unit letter><step> (e.g. run-g12), with its
// provenance: the run's name, method, step (Provenance.Generation), seed
// and match settings, and its fitness when not nil. genes may hold the
// [[param]] settings after the schema's genes; the file has the genes.
// Errors: a vector whose length is not the config's.
func WeightFile(cfg Config, spec optimize.Spec, run string, genes []float64, step int, fitness *float64) (*engine.WeightFile, error) {
	genes, _, err := cfg.splitVector(genes) // a vector with [[param]] values
	if err != nil {
		return nil, err
	}
	wf := &engine.WeightFile{
		Name:   bestName(run, spec, step),
		Schema: cfg.Schema,
		Values: slices.Clone(genes),
		Provenance: engine.Provenance{
			Tool:       "roadtune tune",
			Run:        run,
			Method:     cfg.Method,
			Generation: step,
			Date:       time.Now().UTC().Format(time.RFC3339),
			Note: strings.TrimSuffix(fmt.Sprintf("%s %d; seed %d, depth %d, width %d, %d game pair(s) per match; %s",
				spec.Unit, step, cfg.Seed, cfg.Engine.Depth, cfg.Engine.Width, cfg.Match.Pairs, cfg.Name), "; "),
		},
	}
	if fitness != nil {
		wf.Provenance.Fitness = *fitness
	}
	return wf, nil
}

// Run drives the job from where it stands to the end: the optimisation
// steps (each recorded and checkpointed), the plots, the verification
// ladder with its verdict line, the report. A run stopped during the
// ladder plays the whole ladder again on resume. While it runs, the
// directory holds FileRunning. It returns *InterruptedError when ctx is
// cancelled (the last checkpoint is intact), nil when done.
func (j *Job) Run(ctx context.Context) error {
	if err := j.markRunning(); err != nil {
		return err
	}
	defer j.unmarkRunning()
	defer j.Close()
	if j.cp.Phase == PhaseOptimize {
		if err := j.Steps(ctx, int(^uint(0)>>1)); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return j.interrupted(ctx)
		}
		if j.cp.Best == nil {
			return errors.New("the optimizer produced no best vector")
		}
		j.cp.Phase = PhaseVerify
		if err := j.saveCheckpoint(); err != nil {
			return err
		}
	}
	if j.cp.Phase == PhaseVerify {
		recs, err := readRecords(j.dir.Path(FileRecords), j.cp.Status.Steps, j.cp.RecordsBytes, false)
		if err != nil {
			return err
		}
		lr, ladderPlots, err := j.ladder(ctx, recs)
		if err != nil {
			if ctx.Err() != nil {
				return j.interrupted(ctx)
			}
			return fmt.Errorf("verification: %w", err)
		}
		plots, err := j.plots(recs, lr.Rungs)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		plots = append(plots, ladderPlots...)
		if len(lr.Rungs) > 0 {
			j.logf("%s\n", ladder.VerdictLine(lr.Rungs))
			for _, l := range ladder.VerdictDetail(lr.Rungs) {
				j.logf("  %s\n", l)
			}
		}
		j.stampBudget() // the report's time used: the ladder's included
		if err := j.writeReport(plots, lr, recs); err != nil {
			return err
		}
		j.cp.Phase = PhaseDone
		if err := j.saveCheckpoint(); err != nil {
			return err
		}
	}
	best := FileBest
	if j.cfg.External != nil {
		best = FileBestSettings
	}
	j.logf("done: %d %ss, %d games in %s. Best vector: %s\nreport: %s\n",
		j.cp.Status.Steps, j.spec.Unit, j.cp.Status.Games, WallText(j.cp.Status.Seconds),
		j.dir.Path(best), j.dir.Path(FileReport))
	if bs := j.cp.Budget; bs != nil {
		j.logf("%s\n", bs.UsedLine())
	}
	return nil
}

// Close ends the external engine processes the job's referee keeps
// between batches ([external] runs; nothing otherwise). Run closes them
// when it returns; a caller of Steps alone must Close the job. The job may
// go on afterwards (new processes are started).
func (j *Job) Close() error {
	if c, ok := j.ref.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

// WallText writes a wall time in seconds as the job's lines and reports
// do: tenths of a second below a minute ("12.3s"), whole
// seconds above.
func WallText(seconds float64) string {
	if seconds < 60 {
		return fmt.Sprintf("%.1fs", seconds)
	}
	return time.Duration(seconds * float64(time.Second)).Round(time.Second).String()
}
