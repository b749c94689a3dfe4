package main

import (
	"context"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nats-io/nats.go"

	"github.com/roadtune/roadtune/tune/cluster"
)

// clusterFlags are the coordinator's flags: where the games are played.
type clusterFlags struct {
	listen, url, tokenFile *string
	tlsCert, tlsKey, tlsCA *string
	local                  *bool
}

func newClusterFlags(fs *flag.FlagSet) *clusterFlags {
	return &clusterFlags{
		listen:    fs.String("listen", "", "play the games on workers through an embedded NATS server listening on `HOST:PORT` (port 0: any); a non-loopback host needs a token"),
		url:       fs.String("nats", "", "play the games on workers through the NATS server at `URL` (e.g. nats://host:4222)"),
		tokenFile: fs.String("token-file", "", "with -listen or -nats: the token workers present, read from `FILE` (default $"+cluster.TokenEnv+")"),
		local:     fs.Bool("local-worker", true, "with -listen or -nats: also play batches in this process"),
		tlsCert:   fs.String("tls-cert", "", "with -listen: the server's TLS certificate, PEM `FILE` (with -tls-key); workers must then connect with TLS"),
		tlsKey:    fs.String("tls-key", "", "with -listen: the private key of -tls-cert, PEM `FILE`"),
		tlsCA:     fs.String("tls-ca", "", "with -nats: require TLS and trust the CA certificate(s) in PEM `FILE` (default: the system's roots)"),
	}
}

// names of the flags a resumed run may change.
var clusterFlagNames = []string{"listen", "nats", "token-file", "local-worker", "tls-cert", "tls-key", "tls-ca"}

// session checks the flags and returns the cluster session the job plays
// through (nil without -listen or -nats), before anything is written;
// workers (nil for none) receives the live view of the workers.
func (c *clusterFlags) session(stderr io.Writer, workers func(cluster.Snapshot)) (*cluster.Session, error) {
	if *c.listen == "" && *c.url == "" {
		return nil, nil
	}
	token, err := cluster.ReadToken(*c.tokenFile)
	if err != nil {
		return nil, usageError{err}
	}
	o := cluster.SessionOptions{Listen: *c.listen, URL: *c.url, Token: token, LocalWorker: *c.local, Log: stderr, Workers: workers}
	if *c.tlsCert != "" || *c.tlsKey != "" {
		if o.TLS, err = cluster.ServerTLS(*c.tlsCert, *c.tlsKey); err != nil {
			return nil, usageError{err}
		}
	}
	if o.CA, err = readCA(*c.tlsCA); err != nil {
		return nil, usageError{err}
	}
	if err := o.Check(); err != nil {
		return nil, usageError{err}
	}
	return cluster.NewSession(o) // with -nats: an unreachable server (exit 1)
}

// readCA is the -tls-ca file's pool, nil without one.
func readCA(file string) (*x509.CertPool, error) {
	if file == "" {
		return nil, nil
	}
	return cluster.LoadCA(file)
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
	ca, err := readCA(*tlsCA)
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
