package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tune"
)

// TestTLSFlagsRefuseBadUse: unreadable, mismatched or misplaced TLS files
// exit 2 with one line and write no run directory.
func TestTLSFlagsRefuseBadUse(t *testing.T) {
	t.Setenv("ROADTUNE_NATS_TOKEN", "")
	files := tunetest.WriteTLSFiles(t)
	cfg := writeConfig(t, "ga", 1)
	listen := []string{"-listen", "127.0.0.1:0"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{append(listen, "-tls-cert", files.Cert), "both"},
		{append(listen, "-tls-cert", files.Cert, "-tls-key", files.OtherKey), "private key does not match"},
		{append(listen, "-tls-cert", files.Cert+".missing", "-tls-key", files.Key), "no such file"},
		{append(listen, "-tls-ca", files.CA), "-tls-ca is for -nats"},
		{[]string{"-nats", "nats://127.0.0.1:1", "-tls-cert", files.Cert, "-tls-key", files.Key}, "-tls-cert and -tls-key make the embedded server"},
		{[]string{"-nats", "nats://127.0.0.1:1", "-tls-ca", files.Key}, "no PEM certificate"},
		{[]string{"worker", "-connect", "nats://127.0.0.1:1", "-tls-ca", files.CA + ".missing"}, "no such file"},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		args := c.args
		if args[0] != "worker" {
			args = append([]string{"-config", cfg, "-out", dir, "-quiet"}, args...)
		}
		code, _, errs := runTune(t, args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%v: wrote %s", c.args, dir)
		}
	}
}

// urlWriter passes the first worker address a coordinator prints to a
// channel and keeps everything.
type urlWriter struct {
	tunetest.SyncBuffer
	url chan string
}

var connectRE = regexp.MustCompile(`-connect (\S+)`)

func (w *urlWriter) Write(p []byte) (int, error) {
	if m := connectRE.FindSubmatch(p); m != nil {
		select {
		case w.url <- string(m[1]):
		default:
		}
	}
	return w.SyncBuffer.Write(p)
}

// TestTLSCoordinatorAndWorker: a coordinator serving TLS (-tls-cert,
// -tls-key) is refused by a worker that does not trust its CA, with one
// line, and finishes its run through a worker given the CA (-tls-ca).
func TestTLSCoordinatorAndWorker(t *testing.T) {
	files := tunetest.WriteTLSFiles(t)
	dir := filepath.Join(t.TempDir(), "run")
	stderr := &urlWriter{url: make(chan string, 1)}
	coord := make(chan int, 1)
	go func() {
		coord <- run(context.Background(), []string{"-config", writeConfig(t, "ga", 1), "-out", dir, "-quiet",
			"-listen", "127.0.0.1:0", "-tls-cert", files.Cert, "-tls-key", files.Key, "-local-worker=false"}, &tunetest.SyncBuffer{}, stderr)
	}()
	var url string
	select {
	case url = <-stderr.url:
	case code := <-coord:
		t.Fatalf("the coordinator ended (exit %d) before printing an address: %s", code, stderr.String())
	}
	if !strings.HasPrefix(url, "tls://") || !strings.Contains(stderr.String(), "-tls-ca FILE") {
		t.Errorf("address line %q: want a tls:// address and a word on -tls-ca", stderr.String())
	}
	code, _, errs := runTune(t, "worker", "-connect", url)
	if code != 1 || !strings.Contains(errs, "TLS handshake") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Errorf("worker without the CA: exit %d, %q; want exit 1 and one line on the TLS handshake", code, errs)
	}
	ctx, stop := context.WithCancel(context.Background())
	worker := make(chan int, 1)
	var wout tunetest.SyncBuffer
	go func() {
		worker <- run(ctx, []string{"worker", "-connect", url, "-tls-ca", files.CA, "-concurrency", "1"}, &wout, &wout)
	}()
	if code := <-coord; code != 0 {
		t.Errorf("coordinator: exit %d: %s\nworker: %s", code, stderr.String(), wout.String())
	}
	stop()
	if code := <-worker; code != 0 {
		t.Errorf("worker with the CA: exit %d: %s", code, wout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, tune.FileBest)); err != nil {
		t.Errorf("the run did not finish: %v", err)
	}
}
