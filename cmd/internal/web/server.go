package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/roadtune/roadtune/tournament"
)

// Options are a Server's settings; the zero value serves from the files
// alone.
type Options struct {
	// Live, when set, reports the status of a run played in this process
	// (tune -http, arena -http); the run it names (Live.Run) shows it in
	// place of the status derived from its files. It is called from the
	// server's goroutines and must be safe for concurrent use (Tracker.Live
	// is).
	Live func() Live
	// Tune, when set, reads tuning runs: directories holding its first
	// file (tune's config.toml) are then served as tuning runs.
	Tune TuneRuns
}

// Live is the status of a run as its own process knows it, between the
// checkpoints on disk.
type Live struct {
	Run   string // the run directory, as given to New
	Phase string // tune: "optimize", "verify", "done"; arena: "playing", "done", "interrupted"
	// Step is the steps completed of Steps planned (tune; 0 for arena).
	Step, Steps int
	// Games is the games played so far.
	Games int
	// GamesPerSecond is the rate since the process started playing.
	GamesPerSecond float64
	// ETA is the time left at that rate (0 when unknown).
	ETA time.Duration
	// End is a budgeted tuning run's planned end (wall-clock; zero for
	// none).
	End time.Time
	// BatchDone of BatchTotal games of the batch in flight (tune: a step
	// or a ladder rung; arena: the whole match).
	BatchDone, BatchTotal int
	// Updated is when the status last changed.
	Updated time.Time
	// Players are an arena match's entrants with their settings (optional).
	Players []tournament.PlayerInfo
	// Rungs are the verification ladder's rungs played so far (tune, in
	// the phase "verify"), of RungsPlanned.
	Rungs        []Rung
	RungsPlanned int
}

// Server serves the runs found in its directories. Create it with New and
// mount Handler; it is safe for concurrent use.
type Server struct {
	dirs []string
	opts Options
	ctx  context.Context // cancelled by Close: ends the event streams
	stop context.CancelFunc

	mu   sync.Mutex
	runs []*run // in discovery order
	mux  *http.ServeMux
}

// run is one served run directory, or a directory of runs played as one
// (a chain, a sweep: a group).
type run struct {
	id   string
	dir  string   // as found: a served directory or its subdirectory
	abs  string   // absolute, to match Live.Run
	kind string   // kindTune, kindArena, kindChain or kindSweep
	tune TuneRuns // Options.Tune, for a tuning run or a group
	// parent is the group the run belongs to (nil at the top level);
	// planned are a group's member directories (a chain's stages, started
	// or not; a sweep's seeds).
	parent  *run
	planned []string

	mu     sync.Mutex
	logs   map[string]*gameLog // by path inside dir
	status *statusCache
	charts *chartCache
}

const (
	kindTune  = "tune"
	kindArena = "arena"
	kindChain = "chain"
	kindSweep = "sweep"
)

// isGroup reports whether r is a chain or a sweep.
func (r *run) isGroup() bool { return r.kind == kindChain || r.kind == kindSweep }

// New returns a server of dirs: each is a run directory (a tuning run,
// which holds config.toml, or an arena match, which holds command.json or
// summary.json), a group of runs (with Options.Tune: a chain's directory,
// whose stages are its runs, or a sweep's, whose seeds are), or a
// directory whose immediate subdirectories are runs or groups (runs/);
// such directories are looked at again for new runs when the list of runs
// is asked for. Errors, worded for a user without a package prefix: no
// directory given, a directory that does not exist ("no directory
// \"runs/x\"") or is not a directory.
func New(dirs []string, o Options) (*Server, error) {
	if len(dirs) == 0 {
		return nil, errors.New("no directory to serve")
	}
	for _, d := range dirs {
		fi, err := os.Stat(d)
		var pe *fs.PathError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("no directory %q", d)
		case errors.As(err, &pe):
			return nil, fmt.Errorf("directory %q: %w", d, pe.Err)
		case err != nil:
			return nil, err
		case !fi.IsDir():
			return nil, fmt.Errorf("%s is not a directory", d)
		}
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{dirs: slices.Clone(dirs), opts: o, ctx: ctx, stop: stop}
	s.scan()
	s.routes()
	return s, nil
}

// Close ends the server's event streams (an http.Server's Shutdown waits
// for them otherwise). The handler keeps answering other requests.
func (s *Server) Close() { s.stop() }

// Serve serves Handler on ln until ctx is done, then ends the event
// streams and shuts down, waiting at most two seconds for requests in
// flight. It returns nil after ctx is done, or the error that stopped the
// listener.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	s.Close()
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	return nil
}

// kindOf says what run dir holds: kindTune (only with Options.Tune),
// kindArena or "".
func (s *Server) kindOf(dir string) string {
	exists := func(name string) bool {
		fi, err := os.Stat(filepath.Join(dir, name))
		return err == nil && fi.Mode().IsRegular()
	}
	switch {
	case s.opts.Tune != nil && exists(s.opts.Tune.Files()[0]):
		return kindTune
	case exists(commandFile), exists(planFile), exists(summaryFile):
		return kindArena
	}
	return ""
}

// Files of an arena -out directory.
const (
	commandFile  = "command.json"
	planFile     = "plan.json" // tournament.MatchPlan, since arena wrote it
	summaryFile  = "summary.json"
	arenaGameLog = "games.jsonl"
)

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// found is a run or group found by scan: its directory, kind, the
// directory of its group ("" at the top level) and a group's members.
type found struct {
	dir, kind, parent string
	planned           []string
}

// maxNesting is how deep groups nest: a sweep of chains.
const maxNesting = 2

// visit adds dir to out when it is a run or a group (then with its
// members, and any other run in it, after it) and reports whether it was.
func (s *Server) visit(dir, parent string, depth int, out *[]found) bool {
	if k := s.kindOf(dir); k != "" {
		*out = append(*out, found{dir: dir, kind: k, parent: parent})
		return true
	}
	if s.opts.Tune == nil || depth > maxNesting {
		return false
	}
	kind, members, err := s.opts.Tune.Group(dir)
	if err != nil || kind == "" {
		return false
	}
	*out = append(*out, found{dir: dir, kind: kind, parent: parent, planned: members})
	for _, m := range members {
		s.visit(m, dir, depth+1, out)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		sub := filepath.Join(dir, e.Name())
		if e.IsDir() && !slices.Contains(members, sub) && s.kindOf(sub) != "" {
			*out = append(*out, found{dir: sub, kind: s.kindOf(sub), parent: dir})
		}
	}
	return true
}

// scan finds the runs of the served directories, keeping the runs already
// known (and their caches) and adding new ones: a served directory that
// is a run or a group, else its immediate subdirectories that are. A
// top-level run's ID is its directory's base name, made URL-safe; a name
// already taken gets its parent's name in front, then a number. A
// group's member has the group's ID, "_" and its base name.
func (s *Server) scan() {
	var all []found
	for _, d := range s.dirs {
		if s.visit(d, "", 0, &all) {
			continue
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if e.IsDir() {
				s.visit(filepath.Join(d, e.Name()), "", 0, &all)
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	byDir := map[string]*run{}
	taken := map[string]bool{}
	for _, r := range s.runs {
		byDir[r.dir], taken[r.id] = r, true
	}
	for _, f := range all {
		if r := byDir[f.dir]; r != nil {
			if r.isGroup() {
				r.planned = f.planned // a sweep's new seeds
			}
			continue
		}
		clean := filepath.Clean(f.dir)
		id := unsafeID.ReplaceAllString(filepath.Base(clean), "_")
		parent := byDir[f.parent]
		switch {
		case parent != nil:
			id = parent.id + "_" + id
		case taken[id] || id == "." || id == "..":
			id = unsafeID.ReplaceAllString(filepath.Base(filepath.Dir(clean)), "_") + "_" + id
		}
		for base, k := id, 2; taken[id]; k++ {
			id = fmt.Sprintf("%s-%d", base, k)
		}
		taken[id] = true
		abs, err := filepath.Abs(f.dir)
		if err != nil {
			abs = clean
		}
		r := &run{id: id, dir: f.dir, abs: abs, kind: f.kind, parent: parent, planned: f.planned, logs: map[string]*gameLog{}}
		if r.kind != kindArena {
			r.tune = s.opts.Tune
		}
		byDir[f.dir] = r
		s.runs = append(s.runs, r)
	}
}

// children are r's member runs (r a group) by directory.
func (s *Server) children(r *run) map[string]*run {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string]*run{}
	for _, c := range s.runs {
		if c.parent == r {
			out[c.dir] = c
		}
	}
	return out
}

// list returns the runs, looking for new ones first.
func (s *Server) list() []*run {
	s.scan()
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.runs)
}

// lookup finds a run by ID, looking for new runs when it is not known.
func (s *Server) lookup(id string) *run {
	find := func() *run {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, r := range s.runs {
			if r.id == id {
				return r
			}
		}
		return nil
	}
	if r := find(); r != nil {
		return r
	}
	s.scan()
	return find()
}

// live returns the Live status of r when the provider reports on it.
func (s *Server) live(r *run) (Live, bool) {
	if s.opts.Live == nil {
		return Live{}, false
	}
	l := s.opts.Live()
	if l.Run == "" {
		return Live{}, false
	}
	abs, err := filepath.Abs(l.Run)
	if err != nil || filepath.Clean(abs) != filepath.Clean(r.abs) {
		return Live{}, false
	}
	return l, true
}

// validRel reports whether p (slash-separated, from a URL) names a file
// inside a run directory: not empty, not absolute, no "..".
func validRel(p string) bool {
	return p != "" && !strings.Contains(p, "\\") && filepath.IsLocal(filepath.FromSlash(p))
}

// Background serves the pages of dirs (New with o) on ln in a goroutine
// until stop is called; stop then ends the server, waits for it and
// reports the error that stopped the listener early, if any. Errors:
// New's (the listener is closed then).
func Background(ln net.Listener, dirs []string, o Options) (stop func() error, err error) {
	s, err := New(dirs, o)
	if err != nil {
		ln.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	return func() error {
		cancel()
		return <-done
	}, nil
}
