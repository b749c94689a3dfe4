// Command tune runs roadtune's tuning job (package tune): an optimisation
// method (GA, Chen 2010 §4; PSO, §5; any registered method) over Connect6
// road weights, with fitness from self-play games, a checkpoint after every
// step, plots, a report and a verification match against a baseline.
//
//	tune                           run the embedded default config (configs/default.toml)
//	tune -config FILE.toml [flags] run a configured job; flags override the file
//	tune -resume RUNDIR            continue a stopped run from its checkpoint
//	tune -seeds 1,2,3 [-out DIR] …  the same config once per seed (a sweep), then a comparison;
//	                               the same command continues a stopped sweep
//	tune export RUNDIR [-step K] [-o FILE]
//	                               write the run's best vector (or step K's) as an engine weight file
//	tune compare -o BASE [-metric M] RUNDIR...
//	                               chart a metric (diversity, gene-std, gene:NAME, …) across runs
//	tune serve [-http ADDR] DIR... read-only web pages of runs (and arena -out directories) until Ctrl-C;
//	                               -http ADDR on a run serves its pages live while it runs
//	tune … -listen HOST:PORT       play the games on workers through an embedded NATS server
//	tune … -nats URL               … through an existing NATS server (package tune/cluster)
//	tune worker -connect URL [-concurrency N]
//	                               play batches of games for such runs until Ctrl-C
//
// Exit status: 0 done, 1 run failed, 2 bad usage, config or input, 130
// interrupted (the checkpoint is written; the message says how to resume).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/internal/web"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/cluster"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usageError marks errors that exit with status 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// keyFlags are the flags that set one config key, with its TOML type.
var keyFlags = []struct{ flag, key, kind string }{
	{"method", "method", "string"}, {"schema", "schema", "string"}, {"seed", "seed", "int"},
	{"concurrency", "concurrency", "int"}, {"depth", "engine.depth", "int"}, {"width", "engine.width", "int"},
	{"steps", "@budget", "int"}, {"generations", "@budget", "int"}, {"iterations", "@budget", "int"},
	{"rounds", "@budget", "int"},
	{"start", "start", "string"}, {"openings", "openings", "string"},
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "export" {
		return exitCode(exportCmd(args[1:], stdout, stderr), stderr)
	}
	if len(args) > 0 && args[0] == "compare" {
		return exitCode(compareCmd(args[1:], stdout, stderr), stderr)
	}
	if len(args) > 0 && args[0] == "serve" {
		return exitCode(serveCmd(ctx, args[1:], stdout, stderr), stderr)
	}
	if len(args) > 0 && args[0] == "worker" {
		return exitCode(workerCmd(ctx, args[1:], stdout, stderr), stderr)
	}
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	configPath := fs.String("config", "", "TOML config file (default: the embedded configs/default.toml)")
	resume := fs.String("resume", "", "continue the stopped run in this directory")
	out := fs.String("out", "", "run directory (default runs/<UTC timestamp>-<method>); must not exist or be empty")
	quiet := fs.Bool("quiet", false, "no progress bar or per-step lines")
	httpAddr := fs.String("http", "", "serve the run's pages live on `ADDR` while it runs (:8080 binds 127.0.0.1)")
	seedList := fs.String("seeds", "", "run the config once per seed (comma-separated, e.g. 1,2,3) into -out/seed-N; run again to continue a stopped sweep")
	cl := newClusterFlags(fs)
	values := map[string]*string{}
	for _, k := range keyFlags {
		values[k.flag] = fs.String(k.flag, "", "override "+k.key+keyHelp[k.flag])
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune [-config FILE.toml] [flags]\n       tune -resume RUNDIR [-concurrency N] [-quiet] [-http ADDR]\n       tune export RUNDIR [-step K] [-o FILE]\n       tune compare -o BASE [-metric M] RUNDIR...\n       tune serve [-http ADDR] DIR...\n       tune worker -connect URL [-concurrency N]\n\nmethods: %v\nflags:\n", tune.MethodNames())
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tune: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	var conc *int
	if set["concurrency"] {
		n, err := strconv.Atoi(*values["concurrency"])
		if err != nil || n < 0 {
			fmt.Fprintf(stderr, "tune: flag -concurrency: want 0 (all cores) or more, not %q\n", *values["concurrency"])
			return 2
		}
		conc = &n
	}
	live, err := web.ListenRun(*httpAddr, stderr)
	if err != nil {
		return exitCode(usageError{err}, stderr)
	}
	defer live.Close()
	disp := progress.NewRun(stdout, progress.IsTerminal(stdout), *quiet)
	opts := tune.Options{Log: disp, Concurrency: conc, Events: events(disp)}
	if *quiet {
		opts.Log = nil
	}
	var workers func(cluster.Snapshot) // the live view of the workers, after the bar's label
	if !*quiet {
		workers = func(s cluster.Snapshot) { disp.Status(s.String()) }
	}
	sess, err := cl.session(stderr, workers)
	if err != nil {
		return exitCode(err, stderr)
	}
	if sess != nil {
		defer sess.Close()
		sess.Attach(&opts)
	}
	var job *tune.Job
	if *resume != "" {
		for name := range set {
			if name != "resume" && name != "concurrency" && name != "quiet" && name != "http" && !slices.Contains(clusterFlagNames, name) {
				fmt.Fprintf(stderr, "tune: -%s cannot be given with -resume: a resumed run keeps its config (only -concurrency, -quiet, -http and -listen, -nats, -token-file, -local-worker, -tls-cert, -tls-key, -tls-ca, -ack-wait may change)\n", name)
				return 2
			}
		}
		if tune.IsChain(*resume) {
			return runChain(ctx, *resume, nil, sess, &opts, live, disp, stdout, stderr)
		}
		live.Track(*resume, &opts)
		job, err = tune.Resume(*resume, opts)
	} else {
		var ov []tune.Override
		for _, k := range keyFlags {
			if !set[k.flag] {
				continue
			}
			ov = append(ov, tune.FlagOverride(k.flag, k.key, *values[k.flag], k.kind == "string"))
		}
		var cfg tune.Config
		if *configPath == "" {
			cfg, err = tune.LoadEmbedded("default", ov...)
		} else {
			cfg, err = tune.Load(*configPath, ov...)
		}
		if err != nil {
			return exitCode(usageError{err}, stderr)
		}
		dir := *out
		if *seedList != "" {
			if set["seed"] {
				return exitCode(usageError{errors.New("-seed and -seeds cannot be combined")}, stderr)
			}
			seeds, err := parseSeeds(*seedList)
			if err != nil {
				return exitCode(usageError{err}, stderr)
			}
			if dir == "" {
				dir = tune.DefaultRunDir(cfg, true, time.Now())
			}
			if err := live.Serve(dir, stderr); err != nil {
				return exitCode(err, stderr)
			}
			if sess != nil {
				if err := sess.StartSweep(ctx, dir, cfg, &opts, opts.Events.Games); err != nil {
					return exitCode(err, stderr)
				}
			}
			dirs, err := tune.Sweep(ctx, cfg, seeds, dir, opts)
			disp.End()
			if err == nil {
				var c *tune.RunComparison
				if c, err = tune.CompareRuns(dirs); err == nil {
					err = writeComparison(filepath.Join(dir, "compare"), c, stdout)
				}
			}
			return exitCode(err, stderr)
		}
		if dir == "" {
			dir = tune.DefaultRunDir(cfg, false, time.Now())
		}
		if cfg.Then != "" {
			stages, err := tune.Stages(cfg)
			if err != nil {
				return exitCode(usageError{err}, stderr)
			}
			return runChain(ctx, dir, stages, sess, &opts, live, disp, stdout, stderr)
		}
		live.Track(dir, &opts)
		job, err = tune.Start(cfg, dir, opts)
	}
	if err == nil {
		err = live.Serve(job.Dir(), stderr)
	}
	if err == nil && sess != nil {
		err = sess.Start(ctx, job, opts.Events.Games)
	}
	if err != nil {
		return exitCode(err, stderr)
	}
	err = job.Run(ctx)
	disp.End()
	if err == nil && *quiet {
		st := job.Status()
		fmt.Fprintf(stdout, "done: %d steps, %d games. Best vector: %s\n", st.Steps, st.Games, filepath.Join(job.Dir(), tune.FileBest))
	}
	return exitCode(err, stderr)
}

var keyHelp = map[string]string{
	"method": ": " + fmt.Sprint(tune.MethodNames()), "schema": ": symmetric, asymmetric or dual",
	"concurrency": " (games at once; 0 = all cores; may change on -resume)",
	"steps":       " (the method's step budget, e.g. ga.generations)",
	"generations": " (GA runs only)", "iterations": " (PSO and SPSA runs only)",
	"rounds":   " (Texel runs only)",
	"start":    " (spsa, texel: start from a run directory, weight file or baseline instead of a random vector)",
	"openings": " (balanced, generated or an opening file)",
}

// events wires the job's progress to the run display: one bar for the
// whole run, the step lines above it.
func events(d *progress.Run) tune.Events {
	var unit string
	var total int
	label := func(st optimize.Status, f optimize.Forecast) string {
		total = st.Steps + f.Steps
		return fmt.Sprintf("%s %d/%d", unit, st.Steps, total)
	}
	return tune.Events{
		Plan: func(p tune.Plan) {
			unit = p.Unit
			d.Plan(label(p.Status, p.Forecast), p.Forecast.Games)
		},
		Games: d.Games,
		Step: func(rec optimize.Record, st optimize.Status, f optimize.Forecast) {
			d.Step(label(st, f), rec.Games, f.Games)
		},
		Verify: func(games int) { d.Plan("verification", games) },
	}
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "tune: %v\n", err)
	var ie *tune.InterruptedError
	var ce *tune.ConfigError
	var in *tune.InputError
	var ue usageError
	switch {
	case errors.As(err, &ie):
		return 130
	case errors.As(err, &ce), errors.As(err, &in), errors.As(err, &ue):
		return 2
	}
	return 1
}

// parseSeeds reads -seeds: comma-separated non-negative integers.
func parseSeeds(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("flag -seeds: %q is not a seed (want non-negative integers separated by commas, e.g. 1,2,3)", f)
		}
		out = append(out, n)
	}
	return out, nil
}

// runChain runs the chain of stages in dir (tune.Chain), or continues the
// chain in dir (stages nil: tune.ResumeChain), on the cluster's workers
// when sess is set.
func runChain(ctx context.Context, dir string, stages []tune.Config, sess *cluster.Session, opts *tune.Options,
	live *web.RunServer, disp *progress.Run, stdout, stderr io.Writer) int {
	if err := live.Serve(dir, stderr); err != nil {
		return exitCode(err, stderr)
	}
	if sess != nil {
		cfg := tune.Config{}
		if len(stages) > 0 {
			cfg = stages[0]
		}
		if err := sess.StartSweep(ctx, dir, cfg, opts, opts.Events.Games); err != nil {
			return exitCode(err, stderr)
		}
	}
	var dirs []string
	var err error
	if stages == nil {
		dirs, err = tune.ResumeChain(ctx, dir, *opts)
	} else {
		dirs, err = tune.Chain(ctx, stages, dir, *opts)
	}
	disp.End()
	if err == nil {
		last := dirs[len(dirs)-1]
		fmt.Fprintf(stdout, "chain done: %d stages in %s. Best vector: %s\nreport: %s\n",
			len(dirs), dir, filepath.Join(last, tune.FileBest), filepath.Join(last, tune.FileReport))
	}
	return exitCode(err, stderr)
}
