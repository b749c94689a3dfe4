package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/internal/web"
	"github.com/roadtune/roadtune/tune"
)

// serveCmd is `tune serve [-http ADDR] DIR...`: the run pages of the run
// directories (or directories of runs: a sweep, runs/) until ctx ends
// (Ctrl-C), which is a normal end.
func serveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tune serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "127.0.0.1:8080", "serve on `ADDR` (HOST:PORT; :PORT binds 127.0.0.1; another host is reachable from the network, without authentication)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune serve [-http ADDR] DIR...\n\nServes read-only pages of tuning runs and arena matches (each DIR a run directory or a directory of runs) until Ctrl-C.\n")
		fs.PrintDefaults()
	}
	dirs, err := parseSub(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil || len(dirs) == 0 {
		fs.Usage()
		return usageError{errors.New("serve: at least one run directory is required")}
	}
	s, err := web.New(dirs, web.Options{})
	if err != nil {
		return usageError{fmt.Errorf("serve: %w", err)}
	}
	ln, url, err := web.Listen(*addr, stderr)
	if err != nil {
		return usageError{fmt.Errorf("serve: %w", err)}
	}
	fmt.Fprintf(stdout, "serving %s at %s (Ctrl-C stops)\n", strings.Join(dirs, ", "), url)
	return s.Serve(ctx, ln)
}

// liveServer serves the pages of the run tune plays (-http), with its
// progress from the job's events, until tune ends. A nil *liveServer
// (no -http) does nothing.
type liveServer struct {
	ln      net.Listener
	url     string
	tracker *web.Tracker
	stop    func() error
}

// listenHTTP binds addr before the run starts, so a bad address fails
// first; "" is no server.
func listenHTTP(addr string, stderr io.Writer) (*liveServer, error) {
	if addr == "" {
		return nil, nil
	}
	ln, url, err := web.Listen(addr, stderr)
	if err != nil {
		return nil, usageError{err}
	}
	return &liveServer{ln: ln, url: url}, nil
}

// track makes the job's events report to the pages of the run in dir.
func (l *liveServer) track(dir string, opts *tune.Options) {
	if l == nil {
		return
	}
	l.tracker = web.NewTracker(dir)
	opts.Events = l.tracker.TuneEvents(opts.Events)
}

// serve starts serving dir (a run, or a sweep's directory, created if
// missing) in the background and says where.
func (l *liveServer) serve(dir string, stderr io.Writer) error {
	if l == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var o web.Options
	if l.tracker != nil {
		o.Live = l.tracker.Live
	}
	stop, err := web.Background(l.ln, []string{dir}, o)
	if err != nil {
		return err
	}
	l.stop = stop
	page := strings.TrimSuffix(l.url, "/") + "/run/" + url.PathEscape(filepath.Base(dir)) + "/"
	fmt.Fprintf(stderr, "tune: the run's page is at %s until tune ends (tune serve %s keeps it up)\n", page, dir)
	return nil
}

// close stops the server (or releases the address when it never started).
func (l *liveServer) close() {
	switch {
	case l == nil:
	case l.stop == nil:
		l.ln.Close()
	default:
		l.stop()
	}
}
