package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune"
)

// Files of a run directory.
const (
	fileConfig      = "config.toml"       // the resolved config, all keys
	fileCheckpoint  = "checkpoint.json"   // where a resume starts
	fileGenerations = "generations.jsonl" // one record per generation/iteration
	fileBest        = "best.json"         // the best vector as an engine weight file
	fileValidation  = "validation.json"   // the validation match summary
	fileReport      = "report.md"
	dirPlots        = "plots"
	dirGames        = "games"
)

// Phases a checkpoint can be in.
const (
	phaseOptimize = "optimize"
	phaseValidate = "validate"
	phaseDone     = "done"
)

// rngStream separates roadtune's tuning stream from other uses of a seed.
const rngStream = 0x726f616474756e65 // "roadtune"

// checkpoint is checkpoint.json: everything a resumed run needs besides the
// config. Written atomically after every completed generation/iteration,
// after generations.jsonl and best.json, so a kill at any point leaves a
// consistent run: records beyond Steps are dropped on resume.
type checkpoint struct {
	Version int             `json:"version"`
	Method  string          `json:"method"`
	Steps   int             `json:"steps"` // generations or iterations completed
	Phase   string          `json:"phase"`
	Games   int             `json:"games"`   // fitness games played
	Seconds float64         `json:"seconds"` // wall time of the completed steps
	State   json.RawMessage `json:"state"`   // ga.State or pso.State
}

// interruptedError is a run stopped by a signal with its checkpoint intact.
type interruptedError struct {
	dir   string
	steps int
	unit  string
}

func (e *interruptedError) Error() string {
	return fmt.Sprintf("interrupted: %d %ss complete and checkpointed in %s; the games in flight were abandoned.\nResume with: go run ./cmd/tune -resume %s", e.steps, e.unit, e.dir, e.dir)
}

type jobOptions struct {
	Stdout, Stderr io.Writer
	Quiet          bool
	Concurrency    *int // overrides the config's on resume
}

// job is one tuning run: config, run directory, referee and optimizer.
type job struct {
	cfg    Config
	dir    *results.RunDir
	opts   jobOptions
	schema engine.Schema
	names  []string // gene names
	ref    *tune.VectorReferee
	m      method
	cp     checkpoint
	prog   *progress.Display
	games  []tournament.GameRecord // fitness games of the step in flight (output.games)
}

// startJob creates the run directory and runs a fresh job.
func startJob(ctx context.Context, cfg Config, dir string, opts jobOptions) error {
	j, err := newJob(cfg, opts)
	if err != nil {
		return err
	}
	rd, err := results.CreateRunDir(dir)
	if err != nil {
		return usageError{err}
	}
	j.dir = rd
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# Resolved config of run %s (every key; `tune -resume` reads it).\n", filepath.Base(dir))
	if err := toml.NewEncoder(&buf).Encode(cfg); err != nil {
		return err
	}
	if err := results.WriteFileAtomic(rd.Path(fileConfig), buf.Bytes()); err != nil {
		return err
	}
	pcg := rand.NewPCG(cfg.Seed, rngStream)
	if j.m, err = newMethod(j, pcg); err != nil {
		return err
	}
	j.cp = checkpoint{Version: 1, Method: cfg.Method, Phase: phaseOptimize}
	if err := j.saveCheckpoint(); err != nil {
		return err
	}
	fmt.Fprintf(opts.Stdout, "roadtune tune: %s on the %s schema (%d genes), seed %d, depth %d, width %d → %s\n",
		cfg.Method, cfg.Schema, len(j.names), cfg.Seed, cfg.Engine.Depth, cfg.Engine.Width, dir)
	return j.run(ctx)
}

// resumeJob continues the run in dir from its checkpoint.
func resumeJob(ctx context.Context, dir string, opts jobOptions) error {
	rd, err := results.OpenRunDir(dir)
	if err != nil {
		return usageError{err}
	}
	cfg, err := LoadConfig(rd.Path(fileConfig))
	if err != nil {
		return usageError{err}
	}
	if opts.Concurrency != nil {
		cfg.Concurrency = *opts.Concurrency
	}
	j, err := newJob(cfg, opts)
	if err != nil {
		return err
	}
	j.dir = rd
	if err := results.ReadJSON(rd.Path(fileCheckpoint), &j.cp); err != nil {
		return usageError{err}
	}
	if j.cp.Method != cfg.Method {
		return usageError{fmt.Errorf("%s: method %q does not match the config's %q", rd.Path(fileCheckpoint), j.cp.Method, cfg.Method)}
	}
	if j.m, err = restoreMethod(j, j.cp); err != nil {
		return usageError{fmt.Errorf("%s: %w", rd.Path(fileCheckpoint), err)}
	}
	fmt.Fprintf(opts.Stdout, "roadtune tune: resuming %s after %d %ss (phase %s)\n", dir, j.cp.Steps, j.m.unit(), j.cp.Phase)
	return j.run(ctx)
}

func newJob(cfg Config, opts jobOptions) (*job, error) {
	schema, err := engine.ParseSchema(cfg.Schema)
	if err != nil {
		return nil, err
	}
	s := engineSettings(cfg, cfg.Engine.Depth, cfg.Engine.Width)
	j := &job{cfg: cfg, opts: opts, schema: schema, names: schema.GeneNames()}
	j.prog = progress.New(opts.Stdout, progress.IsTerminal(opts.Stdout), opts.Quiet)
	j.ref = &tune.VectorReferee{
		Schema:      schema,
		Settings:    s,
		Pairs:       cfg.Match.Pairs,
		MaxMoves:    cfg.Engine.MaxMoves,
		Concurrency: cfg.Concurrency,
		Progress:    j.prog.Update,
	}
	if cfg.Output.Games {
		j.ref.GameLog = func(g tournament.GameRecord) error {
			j.games = append(j.games, g)
			return nil
		}
	}
	return j, nil
}

// engineSettings is the search every game of the run uses: fixed depth and
// width, no clock, so games are reproducible.
func engineSettings(cfg Config, depth, width int) engine.Settings {
	s := engine.DefaultSettings()
	s.Depth = depth
	s.Width = width
	s.ThreatSearch = cfg.Engine.ThreatSearch
	s.MoveTime = 0
	s.MaxNodes = 0
	return s
}

// geneRange returns per-gene [lo, hi] from a range config: the alert
// threshold of the dual schema (its last gene) takes the alert range.
func (j *job) geneRange(r RangeConfig) (lo, hi []float64) {
	n := len(j.names)
	lo, hi = make([]float64, n), make([]float64, n)
	for d := range n {
		lo[d], hi[d] = r.Lo, r.Hi
		if j.names[d] == "alert" {
			lo[d], hi[d] = r.AlertLo, r.AlertHi
		}
	}
	return lo, hi
}

// bounds is the configured gene bounds, nil when off.
func (j *job) bounds() *optimize.Bounds {
	if j.cfg.Bounds.Mode == "off" {
		return nil
	}
	lo, hi := j.geneRange(j.cfg.Bounds.RangeConfig)
	return &optimize.Bounds{Lo: lo, Hi: hi}
}

func (j *job) saveCheckpoint() error {
	return results.WriteJSONAtomic(j.dir.Path(fileCheckpoint), j.cp)
}

// run drives the job from its checkpoint to the end: optimisation steps,
// plots, validation, report.
func (j *job) run(ctx context.Context) error {
	if j.cp.Phase == phaseOptimize {
		if err := j.optimize(ctx); err != nil {
			return err
		}
		j.cp.Phase = phaseValidate
		if err := j.saveCheckpoint(); err != nil {
			return err
		}
	}
	var val *validation
	if j.cp.Phase == phaseValidate {
		plots, err := j.m.plots(j.dir.Path(dirPlots), j.names)
		if err != nil {
			return fmt.Errorf("plots: %w", err)
		}
		if j.cfg.Validation.Opponent != "" {
			if val, err = j.validate(ctx); err != nil {
				if ctx.Err() != nil {
					return &interruptedError{dir: j.dir.Dir, steps: j.cp.Steps, unit: j.m.unit()}
				}
				return fmt.Errorf("validation: %w", err)
			}
			plots = append(plots, val.plots...)
		}
		if err := j.writeReport(plots, val); err != nil {
			return err
		}
		j.cp.Phase = phaseDone
		if err := j.saveCheckpoint(); err != nil {
			return err
		}
	}
	fmt.Fprintf(j.opts.Stdout, "done: %d %ss, %d games in %s. Best vector: %s\nreport: %s\n",
		j.cp.Steps, j.m.unit(), j.cp.Games, durText(j.cp.Seconds),
		j.dir.Path(fileBest), j.dir.Path(fileReport))
	return nil
}

// optimize runs generations/iterations until the optimizer is done,
// persisting each one.
func (j *job) optimize(ctx context.Context) error {
	for !j.m.done() {
		if err := ctx.Err(); err != nil {
			return &interruptedError{dir: j.dir.Dir, steps: j.cp.Steps, unit: j.m.unit()}
		}
		j.games = j.games[:0]
		j.prog.Begin(fmt.Sprintf("%s %d", j.m.unit(), j.cp.Steps), j.m.expectedGames())
		start := time.Now()
		err := j.m.step(ctx, j.ref)
		j.prog.End()
		if err != nil {
			if ctx.Err() != nil {
				return &interruptedError{dir: j.dir.Dir, steps: j.cp.Steps, unit: j.m.unit()}
			}
			return err
		}
		elapsed := time.Since(start).Seconds()
		if err := j.persistStep(elapsed); err != nil {
			return err
		}
		if !j.opts.Quiet {
			fmt.Fprintln(j.opts.Stdout, j.m.stepLine(j.names))
		}
	}
	return nil
}

// persistStep writes what a completed step leaves behind, checkpoint last.
func (j *job) persistStep(seconds float64) error {
	j.cp.Steps++
	j.cp.Games += j.m.lastGames()
	j.cp.Seconds += seconds
	if err := j.m.writeRecords(j.dir.Path(fileGenerations)); err != nil {
		return err
	}
	if len(j.games) > 0 {
		if _, err := j.dir.MkdirAll(dirGames); err != nil {
			return err
		}
		name := j.dir.Path(dirGames, fmt.Sprintf("%s-%03d.jsonl", j.m.unit(), j.cp.Steps-1))
		if err := results.WriteJSONL(name, j.games); err != nil {
			return err
		}
	}
	if err := j.writeBest(); err != nil {
		return err
	}
	state, err := j.m.state()
	if err != nil {
		return err
	}
	j.cp.State = state
	return j.saveCheckpoint()
}

// writeBest exports the current best vector as an engine weight file.
func (j *job) writeBest() error {
	genes, fitness, step := j.m.best()
	if genes == nil {
		return nil
	}
	return engine.WriteWeightFile(j.dir.Path(fileBest), bestWeightFile(j.cfg, j.schema, filepath.Base(j.dir.Dir), genes, fitness, step))
}

// bestWeightFile is a run's vector as an engine weight file named
// <run>-g<generation> (GA) or <run>-i<iteration> (PSO), with its provenance:
// the run, method, generation/iteration and fitness.
func bestWeightFile(cfg Config, schema engine.Schema, run string, genes []float64, fitness float64, step int) *engine.WeightFile {
	unit := map[string]string{"ga": "g", "pso": "i"}[cfg.Method]
	return &engine.WeightFile{
		Name:   fmt.Sprintf("%s-%s%d", run, unit, step),
		Schema: schema,
		Values: genes,
		Provenance: engine.Provenance{
			Tool:       "roadtune tune",
			Run:        run,
			Method:     cfg.Method,
			Generation: step,
			Fitness:    fitness,
			Date:       time.Now().UTC().Format(time.RFC3339),
			Note:       strings.TrimSuffix(fmt.Sprintf("seed %d, depth %d, width %d, %d game pair(s) per match; %s", cfg.Seed, cfg.Engine.Depth, cfg.Engine.Width, cfg.Match.Pairs, cfg.Name), "; "),
		},
	}
}

// opponentWeights loads the validation opponent: an embedded baseline by
// name, else a weight-file path.
func opponentWeights(spec string) (engine.Weights, string, error) {
	for _, n := range configs.WeightNames() {
		if n == spec {
			data, err := configs.Weights(n)
			if err != nil {
				return engine.Weights{}, "", err
			}
			wf, err := engine.ParseWeightFile("configs/weights/"+n+".json", data)
			if err != nil {
				return engine.Weights{}, "", err
			}
			return wf.Weights(), n, nil
		}
	}
	if _, err := os.Stat(spec); err != nil {
		return engine.Weights{}, "", fmt.Errorf("validation.opponent %q is neither a baseline (%v) nor a readable weight file: %w", spec, configs.WeightNames(), err)
	}
	wf, err := engine.LoadWeightFile(spec)
	if err != nil {
		return engine.Weights{}, "", err
	}
	name := wf.Name
	if name == "" {
		name = filepath.Base(spec)
	}
	return wf.Weights(), name, nil
}

var errNoBest = errors.New("the optimizer produced no best vector")
