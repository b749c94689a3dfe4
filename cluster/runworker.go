package cluster

import (
	"context"
	"fmt"
	"io"

	"github.com/nats-io/nats.go"
	"github.com/roadtune/roadtune/tournament"
)

// WorkerOptions are a worker process's settings (`tune worker`'s flags).
type WorkerOptions struct {
	URL         string // the coordinator's NATS server, e.g. nats://host:4222
	TokenFile   string // read the token here ("": $ROADTUNE_NATS_TOKEN, see ReadToken)
	CAFile      string // require TLS and trust these PEM certificates ("": TLS only if the server asks)
	Name        string // the worker's name in results and logs
	Concurrency int    // games at once per batch (0: all cores)
	Slots       int    // batches at once (≥ 1)
	// Engines are the external engines the worker runs (ParseEngine of
	// each -engine flag; names distinct).
	Engines []tournament.Engine
}

// RunWorker connects to opts.URL and plays batches (Worker.Run) until ctx
// is cancelled, saying so on stdout; log receives connection trouble and
// refused batches. Errors: a missing URL, a bad count, two engines of
// one name, an unreadable token or CA file (*FlagError); an unreachable
// server; Run's.
func RunWorker(ctx context.Context, opts WorkerOptions, stdout, log io.Writer) error {
	switch {
	case opts.URL == "":
		return &FlagError{fmt.Errorf("worker: -connect URL is required (the address tune -listen prints)")}
	case opts.Concurrency < 0 || opts.Slots < 1:
		return &FlagError{fmt.Errorf("worker: -concurrency must be ≥ 0 and -slots ≥ 1")}
	}
	for i, e := range opts.Engines {
		for _, f := range opts.Engines[:i] {
			if f.Name == e.Name {
				return &FlagError{fmt.Errorf("flag -engine: two engines named %s (%s and %s): give each name=", e.Name, f.Program, e.Program)}
			}
		}
	}
	token, err := ReadToken(opts.TokenFile)
	if err != nil {
		return &FlagError{err}
	}
	ca, err := ReadCA(opts.CAFile)
	if err != nil {
		return &FlagError{err}
	}
	var extra []nats.Option
	if ca != nil {
		extra = append(extra, Secure(ca))
	}
	nc, err := Dial(opts.URL, token, opts.Name, log, extra...)
	if err != nil {
		return err
	}
	defer nc.Close()
	fmt.Fprintf(stdout, "worker %s: playing batches from %s until Ctrl-C\n", opts.Name, nc.ConnectedUrlRedacted())
	w := &Worker{Conn: nc, Name: opts.Name, Concurrency: opts.Concurrency, Slots: opts.Slots, Log: log, Engines: opts.Engines}
	return w.Run(ctx)
}
