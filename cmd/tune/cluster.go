package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/enginespec"
)

// clusterFlags are the coordinator's flags: where the games are played.
type clusterFlags struct{ cluster.Flags }

func newClusterFlags(fs *flag.FlagSet) *clusterFlags {
	c := &clusterFlags{}
	c.Register(fs, "the games")
	return c
}

// session checks the flags and returns the cluster session the job plays
// through (nil without -listen or -nats), before anything is written;
// workers (nil for none) receives the live view of the workers.
func (c *clusterFlags) session(stderr io.Writer, workers func(cluster.Snapshot)) (*cluster.Session, error) {
	s, err := c.Session(stderr, "tune", workers)
	var fe *cluster.FlagError
	if errors.As(err, &fe) {
		return nil, usageError{err}
	}
	return s, err // with -nats: an unreachable server (exit 1)
}

// workerCmd is `tune worker`: play batches from a coordinator until
// Ctrl-C.
func workerCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	args, engineWords, err := enginespec.TakeLists(args, "engine")
	if err != nil {
		return usageError{errors.New("flag -engine: want name=N cmd=PATH [dir=DIR] after it")}
	}
	fs := flag.NewFlagSet("tune worker", flag.ContinueOnError)
	fs.SetOutput(stderr)
	connect := fs.String("connect", "", "the coordinator's NATS server `URL` (printed by tune -listen), e.g. nats://host:4222")
	conc := fs.Int("concurrency", 0, "games at once per batch (0 = all cores)")
	slots := fs.Int("slots", 2, "batches at once")
	tokenFile := fs.String("token-file", "", "read the token from `FILE` (default $"+cluster.TokenEnv+")")
	tlsCA := fs.String("tls-ca", "", "require TLS and trust the CA certificate(s) in PEM `FILE` (default: TLS only if the server asks, the system's roots)")
	host, _ := os.Hostname()
	name := fs.String("name", fmt.Sprintf("%s-%d", host, os.Getpid()), "the worker's name in results and logs")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tune worker -connect URL [-concurrency N] [-slots N] [-token-file FILE] [-tls-ca FILE]\n"+
			"                   [-name NAME] [-engine name=N cmd=PATH [dir=DIR]]...\n\n"+
			"Plays batches of games for tune runs started with -listen or -nats, until Ctrl-C.\nflags:")
		cmdline.PrintDefaults(fs)
		fmt.Fprintln(stderr, "  -engine name=N cmd=PATH [dir=DIR]")
		cmdline.Wrap(stderr, "        ", "an external engine this worker runs (repeatable): it takes the batches of runs "+
			"whose [external] engine is named N and is the same program (its SHA-256); name defaults to PATH's base name, "+
			"dir is the engine's working directory")
	}
	if err := cmdline.Parse(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("worker: unexpected argument %q", fs.Arg(0))}
	}
	var engines []tournament.Engine
	for _, words := range engineWords {
		e, err := cluster.ParseEngine(words)
		if err != nil {
			return usageError{err}
		}
		engines = append(engines, e)
	}
	err = cluster.RunWorker(ctx, cluster.WorkerOptions{URL: *connect, TokenFile: *tokenFile, CAFile: *tlsCA,
		Name: *name, Concurrency: *conc, Slots: *slots, Engines: engines}, stdout, stderr)
	var fe *cluster.FlagError
	if errors.As(err, &fe) {
		return usageError{err}
	}
	return err
}
