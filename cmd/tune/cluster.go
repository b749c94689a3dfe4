package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nats-io/nats.go"

	"github.com/roadtune/roadtune/tune/cluster"
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
		fmt.Fprintln(stderr, "usage: tune worker -connect URL [-concurrency N] [-slots N] [-token-file FILE] [-tls-ca FILE] [-name NAME]\n\nPlays batches of games for tune runs started with -listen or -nats, until Ctrl-C.\nflags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	switch {
	case fs.NArg() > 0:
		return usageError{fmt.Errorf("worker: unexpected argument %q", fs.Arg(0))}
	case *connect == "":
		return usageError{errors.New("worker: -connect URL is required (the address tune -listen prints)")}
	case *conc < 0 || *slots < 1:
		return usageError{errors.New("worker: -concurrency must be ≥ 0 and -slots ≥ 1")}
	}
	token, err := cluster.ReadToken(*tokenFile)
	if err != nil {
		return usageError{err}
	}
	ca, err := cluster.ReadCA(*tlsCA)
	if err != nil {
		return usageError{err}
	}
	var extra []nats.Option
	if ca != nil {
		extra = append(extra, cluster.Secure(ca))
	}
	nc, err := cluster.Dial(*connect, token, *name, stderr, extra...)
	if err != nil {
		return err
	}
	defer nc.Close()
	fmt.Fprintf(stdout, "worker %s: playing batches from %s until Ctrl-C\n", *name, nc.ConnectedUrlRedacted())
	w := &cluster.Worker{Conn: nc, Name: *name, Concurrency: *conc, Slots: *slots, Log: stderr}
	return w.Run(ctx)
}
