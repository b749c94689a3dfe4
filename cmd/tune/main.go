package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/cmd/internal/tunecluster"
	"github.com/roadtune/roadtune/cmd/internal/web/tuneweb"
	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/internal/suggest"
	"github.com/roadtune/roadtune/tune"
)

func main() { cmdline.Main("tune", run) }

// usageError marks errors that exit with status 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

// subcommands are tune's subcommands, for "did you mean".
var subcommands = []string{"export", "compare", "serve", "worker"}

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
	configPath := fs.String("config", "", "the TOML config `FILE` (default: the embedded configs/default.toml)")
	resume := fs.String("resume", "", "continue the stopped run or chain in `DIR`")
	out := fs.String("out", "", "the run directory `DIR` (default runs/<UTC timestamp>-<method>); must not exist or be empty")
	quiet := fs.Bool("quiet", false, "no progress bar or per-step lines")
	httpAddr := fs.String("http", "", "serve the run's pages live on `ADDR` while it runs (:8080 binds 127.0.0.1)")
	seedList := fs.String("seeds", "", "run the config once per seed of `LIST` (comma-separated, e.g. 1,2,3) into -out/seed-N; "+
		"run again to continue a stopped sweep")
	cl := newClusterFlags(fs)
	values := map[string]*string{}
	for _, k := range keyFlags() {
		values[k.Flag] = fs.String(k.Flag, "", k.Help)
	}
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune [-config FILE.toml] [flags]\n       tune -resume RUNDIR [-concurrency N] [-quiet] [-http ADDR]\n       tune export RUNDIR [-step K] [-o FILE]\n       tune compare [-o BASE [-metric M]] RUNDIR...\n       tune serve [-http ADDR] DIR...\n       tune worker -connect URL [-concurrency N]\n\nmethods: %v\nflags:\n", tune.MethodNames())
		cmdline.PrintDefaults(fs)
	}
	if err := cmdline.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitCode(usageError{err}, stderr)
	}
	if fs.NArg() > 0 {
		hint := "; tune -h lists the flags and subcommands"
		if s := suggest.Suggest(fs.Arg(0), subcommands); s != "" {
			hint = fmt.Sprintf(" (did you mean tune %s?)", s)
		}
		return exitCode(usageError{fmt.Errorf("unexpected argument %q%s", fs.Arg(0), hint)}, stderr)
	}
	line := commandLine{Config: *configPath, Resume: *resume, Out: *out, Seeds: *seedList,
		Keys: map[string]string{}, Free: append([]string{"quiet", "http"}, cluster.FlagNames...)}
	fs.Visit(func(f *flag.Flag) {
		line.Given = append(line.Given, f.Name)
		if v, ok := values[f.Name]; ok {
			line.Keys[f.Name] = *v
		}
	})
	l, conc, err := launchCommandLine(line, time.Now())
	if err != nil {
		return exitCode(err, stderr)
	}
	if l.Config().Budget != "" && slices.ContainsFunc(line.Given, func(f string) bool { return f == "listen" || f == "nats" }) {
		return exitCode(usageError{tune.ErrBudgetCluster}, stderr)
	}
	live, err := tuneweb.ListenRun(*httpAddr, stderr)
	if err != nil {
		return exitCode(usageError{err}, stderr)
	}
	defer live.Close()
	disp := progress.NewRun(stdout, progress.IsTerminal(stdout), *quiet)
	opts := tune.Options{Log: disp, Concurrency: conc, Events: displayEvents(disp)}
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
		tunecluster.Attach(&opts, sess)
	}
	res, err := l.Run(ctx, opts, live.Hooks(stderr).Then(tunecluster.Hooks(ctx, sess)))
	disp.End()
	if err == nil {
		fmt.Fprint(stdout, l.Summary(res, !*quiet))
	}
	return exitCode(err, stderr)
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if cmdline.Internal("tune", err, stderr) {
		return cmdline.ExitInternal
	}
	fmt.Fprintf(stderr, "tune: %v\n", err)
	var ie *tune.InterruptedError
	var ce *tune.ConfigError
	var in *tune.InputError
	var ue usageError
	switch {
	case errors.As(err, &ie), errors.Is(err, context.Canceled):
		return 130
	case errors.As(err, &ce), errors.As(err, &in), errors.As(err, &ue), fileio.IsInput(err):
		return 2
	}
	return 1
}
