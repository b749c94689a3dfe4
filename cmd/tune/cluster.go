package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"

	"github.com/nats-io/nats.go"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/cluster"
)

// DirNATS is the embedded NATS server's JetStream storage inside the run
// directory.
const DirNATS = "nats"

// clusterFlags are the coordinator's flags: where the games are played.
type clusterFlags struct {
	listen, url, tokenFile *string
	local                  *bool

	token string
	coord *cluster.Coordinator
	conn  *nats.Conn // -nats: dialled before the job starts
}

func newClusterFlags(fs *flag.FlagSet) *clusterFlags {
	return &clusterFlags{
		listen:    fs.String("listen", "", "play the games on workers through an embedded NATS server listening on `HOST:PORT` (port 0: any); a non-loopback host needs a token"),
		url:       fs.String("nats", "", "play the games on workers through the NATS server at `URL` (e.g. nats://host:4222)"),
		tokenFile: fs.String("token-file", "", "with -listen or -nats: the token workers present, read from `FILE` (default $"+cluster.TokenEnv+")"),
		local:     fs.Bool("local-worker", true, "with -listen or -nats: also play batches in this process"),
	}
}

// names of the flags a resumed run may change.
var clusterFlagNames = []string{"listen", "nats", "token-file", "local-worker"}

// referee checks the flags and returns the coordinator the job plays
// through (nil without -listen or -nats), so that nothing is written
// when the address or the server is wrong; with -nats it connects.
func (c *clusterFlags) referee(stderr io.Writer) (*cluster.Coordinator, error) {
	if *c.listen == "" && *c.url == "" {
		return nil, nil
	}
	if *c.listen != "" && *c.url != "" {
		return nil, usageError{errors.New("-listen and -nats cannot be combined: -listen runs its own NATS server, -nats uses another")}
	}
	var err error
	if c.token, err = cluster.ReadToken(*c.tokenFile); err != nil {
		return nil, usageError{err}
	}
	if *c.listen != "" {
		host, _, err := net.SplitHostPort(*c.listen)
		if err != nil {
			return nil, usageError{fmt.Errorf("flag -listen %q: want HOST:PORT, e.g. 127.0.0.1:4222", *c.listen)}
		}
		if !cluster.Loopback(host) && c.token == "" {
			return nil, usageError{fmt.Errorf("flag -listen %s: a non-loopback address needs a token workers present (-token-file FILE or $%s); or listen on 127.0.0.1", *c.listen, cluster.TokenEnv)}
		}
	} else if c.conn, err = cluster.Dial(*c.url, c.token, "roadtune-coordinator", stderr); err != nil {
		return nil, err
	}
	c.coord = &cluster.Coordinator{Conn: c.conn}
	return c.coord, nil
}

// fits fails for a config whose run cannot yet be played on workers.
func (c *clusterFlags) fits(cfg tune.Config) error {
	if c.coord != nil && cfg.Output.Games {
		return usageError{errors.New("output.games cannot be written yet when the games are played on workers (-listen, -nats)")}
	}
	return nil
}

// start connects the coordinator to the job (its game settings, its
// progress), starts the embedded server in the run directory (-listen)
// and the in-process worker, and returns the function that stops them.
func (c *clusterFlags) start(ctx context.Context, job *tune.Job, games func(done, total int), stderr io.Writer) (func(), error) {
	cfg := job.Config()
	if err := c.fits(cfg); err != nil {
		return nil, err
	}
	ref, err := tune.NewReferee(cfg)
	if err != nil {
		return nil, err
	}
	c.coord.Referee, c.coord.Run, c.coord.Progress = ref, filepath.Base(filepath.Clean(job.Dir())), games
	var stops []func()
	stop := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	var local func(name string) (*nats.Conn, error)
	url := *c.url
	if *c.listen != "" {
		srv, err := cluster.StartServer(cluster.ServerOptions{Listen: *c.listen, StoreDir: filepath.Join(job.Dir(), DirNATS), Token: c.token})
		if err != nil {
			return nil, err
		}
		stops = append(stops, srv.Shutdown)
		if c.conn, err = srv.Connect("roadtune-coordinator"); err != nil {
			stop()
			return nil, err
		}
		c.coord.Conn = c.conn
		local = srv.Connect
		url = srv.URL()
	} else {
		local = func(name string) (*nats.Conn, error) { return cluster.Dial(url, c.token, name, stderr) }
	}
	stops = append(stops, c.conn.Close)
	if err := c.coord.Prepare(ctx); err != nil {
		stop()
		return nil, err
	}
	fmt.Fprintf(stderr, "tune: games go to NATS at %s; start workers with: tune worker -connect %s\n", url, url)
	if *c.local {
		nc, err := local("roadtune-local-worker")
		if err != nil {
			stop()
			return nil, err
		}
		wctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		w := &cluster.Worker{Conn: nc, Name: "local", Concurrency: cfg.Concurrency, Log: stderr}
		wg.Go(func() {
			if err := w.Run(wctx); err != nil {
				fmt.Fprintf(stderr, "tune: in-process worker: %v\n", err)
			}
		})
		stops = append(stops, func() { cancel(); wg.Wait(); nc.Close() })
	} else {
		fmt.Fprintln(stderr, "tune: no in-process worker (-local-worker=false): the run waits for workers")
	}
	return stop, nil
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
