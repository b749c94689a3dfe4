package tuneweb

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/cmd/internal/web"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/launch"
)

// RunServer serves the pages of the run a tune command plays (-http),
// with its progress from the job's events, until the command ends. A nil
// *RunServer (no -http) does nothing.
type RunServer struct {
	ln      net.Listener
	url     string
	tracker *web.Tracker
	stop    func() error
}

// ListenRun binds addr (as web.Listen) before the run starts, so a bad
// address fails first; "" is no server (a nil *RunServer).
func ListenRun(addr string, stderr io.Writer) (*RunServer, error) {
	if addr == "" {
		return nil, nil
	}
	ln, url, err := web.Listen(addr, stderr)
	if err != nil {
		return nil, err
	}
	return &RunServer{ln: ln, url: url}, nil
}

// Track makes the job's events report to the pages of the run in dir.
func (l *RunServer) Track(dir string, opts *tune.Options) {
	if l == nil {
		return
	}
	l.tracker = web.NewTracker(dir)
	opts.Events = Events(l.tracker, opts.Events)
}

// Serve starts serving dir (a run, or a sweep's directory, created if
// missing) in the background and tells stderr the run page's address.
func (l *RunServer) Serve(dir string, stderr io.Writer) error {
	if l == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	o := web.Options{Tune: Runs{}}
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

// Hooks are the launch hooks of the live pages (launch.Launch.Run): Track
// a run's events, then serve the run's (or a sweep's or chain's)
// directory, telling stderr its address. A nil server gives no hooks.
func (l *RunServer) Hooks(stderr io.Writer) launch.Hooks {
	if l == nil {
		return launch.Hooks{}
	}
	return launch.Hooks{
		Track: l.Track,
		Job:   func(job *tune.Job, _ *tune.Options) error { return l.Serve(job.Dir(), stderr) },
		Group: func(dir string, _ tune.Config, _ *tune.Options) error { return l.Serve(dir, stderr) },
	}
}

// Close stops the server (or releases the address when it never
// started).
func (l *RunServer) Close() {
	switch {
	case l == nil:
	case l.stop == nil:
		l.ln.Close()
	default:
		l.stop()
	}
}
