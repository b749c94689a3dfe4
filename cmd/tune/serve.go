package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/roadtune/roadtune/cmd/internal/web"
	"github.com/roadtune/roadtune/cmd/internal/web/tuneweb"
	"github.com/roadtune/roadtune/internal/cmdline"
)

// serveCmd is `tune serve [-http ADDR] DIR...`: the run pages of the run
// directories (or of chains and sweeps, with a row per stage or seed, or
// of directories of them: runs/) until ctx ends (Ctrl-C), which is a
// normal end.
func serveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tune serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "127.0.0.1:8080", "serve on `ADDR` (HOST:PORT; :PORT binds 127.0.0.1; another host is reachable from the network, without authentication)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune serve [-http ADDR] DIR...\n\n")
		cmdline.Wrap(stderr, "", "Serves read-only pages of tuning runs, chains, sweeps and arena matches (each DIR a run "+
			"directory, a chain's or sweep's directory, or a directory of them such as runs/) until Ctrl-C.")
		cmdline.PrintDefaults(fs)
	}
	dirs, help, err := parseSub(fs, args)
	if help || err != nil {
		return err
	}
	if len(dirs) == 0 {
		fs.Usage()
		return usageError{errors.New("serve: at least one run directory is required")}
	}
	s, err := web.New(dirs, web.Options{Tune: tuneweb.Runs{}})
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
