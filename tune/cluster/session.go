package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"

	"github.com/nats-io/nats.go"

	"github.com/roadtune/roadtune/tune"
)

// DirNATS is the embedded NATS server's JetStream storage inside the run
// directory.
const DirNATS = "nats"

// SessionOptions say where a run's games are played: Listen (HOST:PORT)
// starts an embedded server, URL uses an existing one; exactly one is set.
// Token is what workers present (required for a non-loopback Listen);
// LocalWorker also plays batches in this process; Log receives one line
// per event (connections, the workers' address).
type SessionOptions struct {
	Listen, URL, Token string
	LocalWorker        bool
	Log                io.Writer
	// Program prefixes the log lines (default "tune").
	Program string
}

func (o SessionOptions) prog() string {
	if o.Program == "" {
		return "tune"
	}
	return o.Program
}

// Session is a job's side of a cluster: the coordinator the job plays its
// games through (Referee) and, once Start has run, the embedded server
// and the in-process worker.
type Session struct {
	o     SessionOptions
	coord *Coordinator
	run   string // of StartGames
	conn  *nats.Conn
	stops []func()
}

// NewSession checks the options and, with URL, connects; nothing is
// started and nothing written, so a bad address or an unreachable server
// fails before the run directory exists. Errors name the option.
func NewSession(o SessionOptions) (*Session, error) {
	switch {
	case o.Listen != "" && o.URL != "":
		return nil, errors.New("-listen and -nats cannot be combined: -listen runs its own NATS server, -nats uses another")
	case o.Listen == "" && o.URL == "":
		return nil, errors.New("cluster: neither a listen address nor a server URL")
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	s := &Session{o: o}
	if o.Listen != "" {
		host, _, err := net.SplitHostPort(o.Listen)
		if err != nil {
			return nil, fmt.Errorf("flag -listen %q: want HOST:PORT, e.g. 127.0.0.1:4222", o.Listen)
		}
		if !Loopback(host) && o.Token == "" {
			return nil, fmt.Errorf("flag -listen %s: a non-loopback address needs a token workers present (-token-file FILE or $%s); or listen on 127.0.0.1", o.Listen, TokenEnv)
		}
	} else {
		var err error
		if s.conn, err = Dial(o.URL, o.Token, "roadtune-coordinator", o.Log); err != nil {
			return nil, err
		}
	}
	s.coord = &Coordinator{Conn: s.conn}
	return s, nil
}

// Referee is the coordinator to give the job (tune.Options.Referee).
func (s *Session) Referee() *Coordinator { return s.coord }

// Bind points the coordinator at a job of a sweep (tune.Options.Bind)
// once StartGames has started the session: the job's game settings, its
// run name (the sweep's run name, then the job's directory) and progress
// (games). Errors: the job's config has no referee.
func (s *Session) Bind(job *tune.Job, games func(done, total int)) error {
	ref, err := tune.NewReferee(job.Config())
	if err != nil {
		return err
	}
	s.coord.Referee, s.coord.Progress = ref, games
	s.coord.Run = s.run + "-" + filepath.Base(filepath.Clean(job.Dir()))
	return nil
}

// Start connects the coordinator to the job (its game settings; games
// reports batch progress), starts the embedded server in the run
// directory (Listen) and the in-process worker (LocalWorker). Close stops
// them.
func (s *Session) Start(ctx context.Context, job *tune.Job, games func(done, total int)) error {
	cfg := job.Config()
	ref, err := tune.NewReferee(cfg)
	if err != nil {
		return err
	}
	s.coord.Referee, s.coord.Progress = ref, games
	return s.StartGames(ctx, filepath.Join(job.Dir(), DirNATS), filepath.Base(filepath.Clean(job.Dir())), cfg.Concurrency)
}

// StartGames starts the session for games only (the coordinator as a
// tournament.Remote, e.g. for an arena match): the embedded server with
// its JetStream storage in storeDir (Listen; "": a temporary directory
// removed by Close), the coordinator's run name
// (RunName of run: a resumed match must give the same), and the
// in-process worker playing concurrency games at once (LocalWorker; 0:
// all cores). Close stops them. Errors: the server cannot start, the
// queue cannot be created.
func (s *Session) StartGames(ctx context.Context, storeDir, run string, concurrency int) error {
	s.coord.Run, s.run = run, run
	local := func(name string) (*nats.Conn, error) { return Dial(s.o.URL, s.o.Token, name, s.o.Log) }
	url := s.o.URL
	if s.o.Listen != "" {
		if storeDir == "" {
			tmp, err := os.MkdirTemp("", "roadtune-nats-")
			if err != nil {
				return err
			}
			storeDir = tmp
			s.stops = append(s.stops, func() { os.RemoveAll(tmp) })
		}
		srv, err := StartServer(ServerOptions{Listen: s.o.Listen, StoreDir: storeDir, Token: s.o.Token})
		if err != nil {
			return err
		}
		s.stops = append(s.stops, srv.Shutdown)
		if s.conn, err = srv.Connect("roadtune-coordinator"); err != nil {
			return err
		}
		s.coord.Conn, local, url = s.conn, srv.Connect, srv.URL()
	}
	s.stops = append(s.stops, s.conn.Close)
	if err := s.coord.Prepare(ctx); err != nil {
		return err
	}
	fmt.Fprintf(s.o.Log, "%s: games go to NATS at %s; start workers with: tune worker -connect %s\n", s.o.prog(), url, url)
	if !s.o.LocalWorker {
		fmt.Fprintf(s.o.Log, "%s: no in-process worker (-local-worker=false): the games wait for workers\n", s.o.prog())
		return nil
	}
	nc, err := local("roadtune-local-worker")
	if err != nil {
		return err
	}
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	w := &Worker{Conn: nc, Name: "local", Concurrency: concurrency, Log: s.o.Log}
	wg.Go(func() {
		if err := w.Run(wctx); err != nil {
			fmt.Fprintf(s.o.Log, "%s: in-process worker: %v\n", s.o.prog(), err)
		}
	})
	s.stops = append(s.stops, func() { cancel(); wg.Wait(); nc.Close() })
	return nil
}

// Close stops what Start started, in reverse order, and the connection.
func (s *Session) Close() {
	if s.conn != nil && len(s.stops) == 0 {
		s.conn.Close()
	}
	for i := len(s.stops) - 1; i >= 0; i-- {
		s.stops[i]()
	}
	s.stops = nil
}
