package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/roadtune/roadtune/tune/cluster"
)

// clusterFlags are the coordinator's flags: where the games are played.
type clusterFlags struct {
	listen, url, tokenFile *string
	local                  *bool
	ackWait                *time.Duration
}

func newClusterFlags(fs *flag.FlagSet) *clusterFlags {
	return &clusterFlags{
		listen:    fs.String("listen", "", "play the games on workers through an embedded NATS server listening on `HOST:PORT` (port 0: any); a non-loopback host needs a token"),
		url:       fs.String("nats", "", "play the games on workers through the NATS server at `URL` (e.g. nats://host:4222)"),
		tokenFile: fs.String("token-file", "", "with -listen or -nats: the token workers present, read from `FILE` (default $"+cluster.TokenEnv+")"),
		local:     fs.Bool("local-worker", true, "with -listen or -nats: also play batches in this process"),
		ackWait:   fs.Duration("ack-wait", 30*time.Second, "with -listen or -nats: how long a worker may hold a batch without news before it goes to another worker (at least 1s; workers report every third of it while they play)"),
	}
}

// names of the flags a resumed run may change.
var clusterFlagNames = []string{"listen", "nats", "token-file", "local-worker", "ack-wait"}

// session checks the flags and returns the cluster session the job plays
// through (nil without -listen or -nats), before anything is written.
// Errors: usageError for a bad flag (an -ack-wait under a second, a bad
// -listen address, an unreadable token file); an unreachable -nats server.
func (c *clusterFlags) session(stderr io.Writer) (*cluster.Session, error) {
	if *c.ackWait < time.Second {
		return nil, usageError{fmt.Errorf("flag -ack-wait %v: want at least 1s (workers report progress every third of it), e.g. 30s", *c.ackWait)}
	}
	if *c.listen == "" && *c.url == "" {
		return nil, nil
	}
	token, err := cluster.ReadToken(*c.tokenFile)
	if err != nil {
		return nil, usageError{err}
	}
	s, err := cluster.NewSession(cluster.SessionOptions{Listen: *c.listen, URL: *c.url, Token: token, LocalWorker: *c.local, Log: stderr})
	if err != nil {
		if *c.listen != "" {
			err = usageError{err}
		}
		return nil, err
	}
	s.Referee().AckWait = *c.ackWait
	return s, nil
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
	host, _ := os.Hostname()
	name := fs.String("name", fmt.Sprintf("%s-%d", host, os.Getpid()), "the worker's name in results and logs")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tune worker -connect URL [-concurrency N] [-slots N] [-token-file FILE] [-name NAME]\n\nPlays batches of games for tune runs started with -listen or -nats, until Ctrl-C.\nflags:")
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
	nc, err := cluster.Dial(*connect, token, *name, stderr)
	if err != nil {
		return err
	}
	defer nc.Close()
	fmt.Fprintf(stdout, "worker %s: playing batches from %s until Ctrl-C\n", *name, nc.ConnectedUrlRedacted())
	w := &cluster.Worker{Conn: nc, Name: *name, Concurrency: *conc, Slots: *slots, Log: stderr}
	return w.Run(ctx)
}
