// Command tune runs roadtune's tuning job: a GA (Chen 2010 §4) or PSO
// (Chen 2010 §5) over Connect6 road weights, with fitness from self-play
// games, a checkpoint after every generation/iteration, plots, a report and
// a validation match of the tuned vector against a baseline.
//
//	tune                          run the embedded default config (configs/default.toml)
//	tune -config FILE.toml [flags] run a configured job; flags override the file
//	tune -resume RUNDIR           continue an interrupted run from its checkpoint
//	tune export RUNDIR [-generation K] [-o FILE]
//	                              write the run's best vector (or generation K's) as an engine weight file
//	tune compare -o BASE [-metric M] RUNDIR...
//	                              chart a metric (diversity, gene-std, gene:NAME) across runs
//
// Exit status: 0 done, 1 run failed, 2 bad usage or config, 130 interrupted
// (the checkpoint is written; the message says how to resume).
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
	"syscall"
	"time"

	"github.com/roadtune/roadtune/configs"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// errUsage marks errors that exit with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "export" {
		return exitCode(exportCmd(args[1:], stdout, stderr), stderr)
	}
	if len(args) > 0 && args[0] == "compare" {
		return exitCode(compareCmd(args[1:], stdout, stderr), stderr)
	}
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		configPath  = fs.String("config", "", "TOML config file (default: the embedded configs/default.toml)")
		resume      = fs.String("resume", "", "continue the interrupted run in this directory")
		method      = fs.String("method", "", "override method: ga or pso")
		schema      = fs.String("schema", "", "override schema: symmetric, asymmetric or dual")
		seed        = fs.Uint64("seed", 0, "override the seed")
		concurrency = fs.Int("concurrency", -1, "games at once (0 = all cores)")
		out         = fs.String("out", "", "run directory (default runs/<UTC timestamp>-<method>); must not exist or be empty")
		generations = fs.Int("generations", 0, "override ga.generations")
		iterations  = fs.Int("iterations", 0, "override pso.iterations")
		depth       = fs.Int("depth", 0, "override engine.depth")
		width       = fs.Int("width", 0, "override engine.width")
		quiet       = fs.Bool("quiet", false, "no progress bar or per-generation lines")
	)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune [-config FILE.toml] [flags]\n       tune -resume RUNDIR [-concurrency N]\n       tune export RUNDIR [-generation K] [-o FILE]\n       tune compare -o BASE [-metric diversity|gene-std|gene:NAME] RUNDIR...\n\nflags:\n")
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

	opts := jobOptions{Stdout: stdout, Stderr: stderr, Quiet: *quiet}
	if *resume != "" {
		for name := range set {
			if name != "resume" && name != "concurrency" && name != "quiet" {
				fmt.Fprintf(stderr, "tune: -%s cannot be changed on -resume: a resumed run keeps its config (only -concurrency and -quiet may be given)\n", name)
				return 2
			}
		}
		if set["concurrency"] {
			opts.Concurrency = concurrency
		}
		return exitCode(resumeJob(ctx, *resume, opts), stderr)
	}

	var cfg Config
	var err error
	if *configPath == "" {
		data, rerr := configs.Config("default")
		if rerr != nil {
			fmt.Fprintf(stderr, "tune: %v\n", rerr)
			return 1
		}
		cfg, err = ParseConfig("configs/default.toml (embedded)", data)
	} else {
		cfg, err = LoadConfig(*configPath)
	}
	if err != nil {
		fmt.Fprintf(stderr, "tune: %v\n", err)
		return 2
	}
	// Flags override the file; each is checked by Validate like a key.
	if set["method"] {
		cfg.Method = *method
	}
	if set["schema"] {
		cfg.Schema = *schema
	}
	if set["seed"] {
		cfg.Seed = *seed
	}
	if set["concurrency"] {
		cfg.Concurrency = *concurrency
	}
	if set["generations"] {
		cfg.GA.Generations = *generations
	}
	if set["iterations"] {
		cfg.PSO.Iterations = *iterations
	}
	if set["depth"] {
		cfg.Engine.Depth = *depth
	}
	if set["width"] {
		cfg.Engine.Width = *width
	}
	if err := cfg.Validate(); err != nil {
		var ce *ConfigError
		if errors.As(err, &ce) {
			fmt.Fprintf(stderr, "tune: flag -%s: %s\n", flagForKey(ce.Key), ce.Msg)
		} else {
			fmt.Fprintf(stderr, "tune: %v\n", err)
		}
		return 2
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join("runs", time.Now().UTC().Format("20060102-150405")+"-"+cfg.Method)
	}
	return exitCode(startJob(ctx, cfg, dir, opts), stderr)
}

// flagForKey names the flag that sets a config key, for error messages.
func flagForKey(key string) string {
	switch key {
	case "ga.generations":
		return "generations"
	case "pso.iterations":
		return "iterations"
	case "engine.depth":
		return "depth"
	case "engine.width":
		return "width"
	}
	return key
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	var ie *interruptedError
	if errors.As(err, &ie) {
		fmt.Fprintf(stderr, "tune: %v\n", err)
		return 130
	}
	fmt.Fprintf(stderr, "tune: %v\n", err)
	var ue usageError
	var ce *ConfigError
	if errors.As(err, &ue) || errors.As(err, &ce) {
		return 2
	}
	return 1
}
