package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"

	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// DirNATS is the embedded NATS server's JetStream storage inside the run
// directory.
const DirNATS = "nats"

// SessionOptions say where a run's games are played: Listen (HOST:PORT)
// starts an embedded server, URL uses an existing one; exactly one is set.
// Token is what workers present (required for a non-loopback Listen);
// LocalWorker also plays batches in this process; Log receives one line
// per event (connections, the workers' address, workers joined, stopped
// or lost); Workers, when set, receives the live view of the workers
// after each heartbeat and loss (Roster.OnChange). TLS (ServerTLS, with
// Listen only) makes the embedded server require TLS of the workers; CA
// (LoadCA, with URL only) is the authority the server's certificate is
// checked against, and requires TLS.
type SessionOptions struct {
	Listen, URL, Token string
	LocalWorker        bool
	Log                io.Writer
	// Program prefixes the log lines (default "tune").
	Program string
	Workers func(Snapshot)
	TLS     *tls.Config
	CA      *x509.CertPool
}

// Check finds what is wrong with the options without connecting
// anywhere: both or neither of Listen and URL, a Listen address that is
// not HOST:PORT, a non-loopback Listen without a token, TLS without
// Listen, CA without URL. Errors name the flag.
func (o SessionOptions) Check() error {
	switch {
	case o.Listen != "" && o.URL != "":
		return errors.New("-listen and -nats cannot be combined: -listen runs its own NATS server, -nats uses another")
	case o.Listen == "" && o.URL == "":
		return errors.New("cluster: neither a listen address nor a server URL")
	case o.TLS != nil && o.Listen == "":
		return errors.New("-tls-cert and -tls-key make the embedded server (-listen) speak TLS; a server given by -nats has its own TLS settings (trust its CA with -tls-ca)")
	case o.CA != nil && o.URL == "":
		return errors.New("-tls-ca is for -nats (and workers): the coordinator's connections to its embedded server stay inside the process")
	}
	if o.Listen != "" {
		host, _, err := net.SplitHostPort(o.Listen)
		if err != nil {
			return fmt.Errorf("flag -listen %q: want HOST:PORT, e.g. 127.0.0.1:4222", o.Listen)
		}
		if !Loopback(host) && o.Token == "" {
			return fmt.Errorf("flag -listen %s: a non-loopback address needs a token workers present (-token-file FILE or $%s); or listen on 127.0.0.1", o.Listen, TokenEnv)
		}
	}
	return nil
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
	o      SessionOptions
	coord  *Coordinator
	run    string // of StartGames
	dir    string // of StartSweep: the sweep's or chain's directory
	conn   *nats.Conn
	roster *Roster
	stops  []func()
	local  localWorker
}

// localWorker is the session's in-process worker and what restarts it
// with another engine (Bind).
type localWorker struct {
	ctx         context.Context
	connect     func(name string) (*nats.Conn, error)
	concurrency int
	engines     []tournament.Engine
	stop        func()
}

// NewSession checks the options (Check) and, with URL, connects; nothing
// is started and nothing written, so a bad address or an unreachable
// server fails before the run directory exists. Errors: Check's, Dial's.
func NewSession(o SessionOptions) (*Session, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	s := &Session{o: o}
	if o.URL != "" {
		var err error
		if s.conn, err = s.dial("roadtune-coordinator"); err != nil {
			return nil, err
		}
	}
	s.coord = &Coordinator{Conn: s.conn, Log: o.Log}
	return s, nil
}

// dial connects to the URL with the session's token and CA.
func (s *Session) dial(name string) (*nats.Conn, error) {
	var extra []nats.Option
	if s.o.CA != nil {
		extra = append(extra, Secure(s.o.CA))
	}
	return Dial(s.o.URL, s.o.Token, name, s.o.Log, extra...)
}

// Referee is the session's coordinator: the referee (optimize.Referee,
// optimize.Sampler) and tournament.Remote to give the games to play
// through the session.
func (s *Session) Referee() *Coordinator { return s.coord }

// Start starts the session for one run in dir (a run directory): the
// coordinator plays ref's games (its game settings; games, when set,
// reports batch progress), the embedded server keeps its storage in dir's
// nats/ folder (Listen), and the roster of workers (Workers) and the
// in-process worker (LocalWorker, playing concurrency games at once; 0:
// all cores; with ref's external engine, if any) start; Log is told which
// workers play an external engine's batches. Close stops them. Errors:
// StartGames's, an external engine's program that cannot be read
// (EngineOf).
func (s *Session) Start(ctx context.Context, dir string, ref *referee.VectorReferee, concurrency int, games func(done, total int)) error {
	s.coord.Referee, s.coord.Progress = ref, games
	if _, err := s.coord.engine(); err != nil {
		return err
	}
	if err := s.StartGames(ctx, filepath.Join(dir, DirNATS), filepath.Base(filepath.Clean(dir)), concurrency); err != nil {
		return err
	}
	return s.engineNeeded()
}

// StartSweep starts the session for a sweep or a chain in dir (created
// if missing): one server for every run in it, its storage in dir's nats/
// folder, the in-process worker playing concurrency games at once; Bind
// then points the coordinator at each of its runs. Errors: dir cannot be
// made; StartGames's.
func (s *Session) StartSweep(ctx context.Context, dir string, concurrency int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := s.StartGames(ctx, filepath.Join(dir, DirNATS), filepath.Base(filepath.Clean(dir)), concurrency); err != nil {
		return err
	}
	s.dir = dir
	return nil
}

// Bind points the coordinator at a run of a sweep or chain once
// StartSweep has started the session: ref's game settings, the run's name
// (the sweep's run name, then runDir below the sweep's directory, e.g.
// seed-2-stage-1-texel, so no two runs share a name) and progress (games,
// may be nil). A run of an external engine the in-process worker does
// not run yet restarts that worker with it. Errors: the external
// engine's program cannot be read (EngineOf), the in-process worker
// cannot reconnect.
func (s *Session) Bind(runDir string, ref *referee.VectorReferee, games func(done, total int)) error {
	s.coord.Referee, s.coord.Progress = ref, games
	name := filepath.Base(filepath.Clean(runDir))
	if rel, err := filepath.Rel(s.dir, runDir); s.dir != "" && err == nil && !strings.HasPrefix(rel, "..") {
		name = strings.ReplaceAll(filepath.ToSlash(rel), "/", "-")
	}
	s.coord.Run = s.run + "-" + name
	return s.engineNeeded()
}

// engineNeeded says on Log which workers play the batches of the
// referee's external engine, if it has one, and makes the in-process
// worker run it.
func (s *Session) engineNeeded() error {
	need, err := s.coord.engine()
	if err != nil || need == nil {
		return err
	}
	if !s.o.LocalWorker {
		fmt.Fprintf(s.o.Log, "%s: the games need engine %s (%s, sha256 %s): they wait for workers started with -engine name=%s cmd=PATH, PATH a program with that SHA-256\n",
			s.o.prog(), need.Name, need.Program, need.SHA256, need.Name)
		return nil
	}
	fmt.Fprintf(s.o.Log, "%s: the games need engine %s (%s, sha256 %s): the in-process worker plays them with it, other workers only if started with -engine name=%s cmd=PATH, PATH a program with that SHA-256\n",
		s.o.prog(), need.Name, need.Program, need.SHA256, need.Name)
	for _, e := range s.local.engines {
		if e.ID() == need.ID() {
			return nil
		}
	}
	var engines []tournament.Engine
	for _, e := range s.local.engines {
		if e.Name != need.Name {
			engines = append(engines, e)
		}
	}
	return s.startLocal(append(engines, *need))
}

// startLocal (re)starts the in-process worker with engines.
func (s *Session) startLocal(engines []tournament.Engine) error {
	if s.local.stop != nil {
		s.local.stop()
		s.local.stop = nil
	}
	nc, err := s.local.connect("roadtune-local-worker")
	if err != nil {
		return err
	}
	wctx, cancel := context.WithCancel(s.local.ctx)
	var wg sync.WaitGroup
	w := &Worker{Conn: nc, Name: "local", Concurrency: s.local.concurrency, Log: s.o.Log, Engines: engines}
	wg.Go(func() {
		if err := w.Run(wctx); err != nil {
			fmt.Fprintf(s.o.Log, "%s: in-process worker: %v\n", s.o.prog(), err)
		}
	})
	s.local.engines = engines
	s.local.stop = func() { cancel(); wg.Wait(); nc.Close() }
	return nil
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
	local := s.dial
	url, hint := s.o.URL, ""
	if s.o.Listen != "" {
		if storeDir == "" {
			tmp, err := os.MkdirTemp("", "roadtune-nats-")
			if err != nil {
				return err
			}
			storeDir = tmp
			s.stops = append(s.stops, func() { os.RemoveAll(tmp) })
		}
		srv, err := StartServer(ServerOptions{Listen: s.o.Listen, StoreDir: storeDir, Token: s.o.Token, TLS: s.o.TLS})
		if err != nil {
			return err
		}
		s.stops = append(s.stops, srv.Shutdown)
		if s.conn, err = srv.Connect("roadtune-coordinator"); err != nil {
			return err
		}
		s.coord.Conn, local, url = s.conn, srv.Connect, srv.URL()
		if s.o.TLS != nil {
			hint = " -tls-ca FILE (the CA that signed -tls-cert, unless the system trusts it)"
		}
	}
	s.stops = append(s.stops, s.conn.Close)
	if err := s.coord.Prepare(ctx); err != nil {
		return err
	}
	if err := s.watchWorkers(); err != nil {
		return err
	}
	s.coord.Roster = s.roster
	fmt.Fprintf(s.o.Log, "%s: games go to NATS at %s; start workers with: tune worker -connect %s%s\n", s.o.prog(), url, url, hint)
	if !s.o.LocalWorker {
		fmt.Fprintf(s.o.Log, "%s: no in-process worker (-local-worker=false): the games wait for workers\n", s.o.prog())
		return nil
	}
	s.local = localWorker{ctx: ctx, connect: local, concurrency: concurrency}
	s.stops = append(s.stops, func() {
		if s.local.stop != nil {
			s.local.stop()
		}
	})
	var engines []tournament.Engine
	if need, err := s.coord.engine(); err != nil {
		return err
	} else if need != nil {
		engines = []tournament.Engine{*need}
	}
	return s.startLocal(engines)
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
