package main

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roadtune/roadtune/tune/cluster"
)

// TestCoordinatorAndWorkerProcesses runs a coordinator (tune -listen,
// without its in-process worker) and one `tune worker` as real processes
// on loopback: the run equals the in-process run, and the worker stops
// cleanly on Ctrl-C.
func TestCoordinatorAndWorkerProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildTune(t)
	cfg := writeConfig(t, "ga", 3)
	straight := filepath.Join(t.TempDir(), "straight")
	if out, err := exec.Command(bin, "-config", cfg, "-out", straight, "-quiet").CombinedOutput(); err != nil {
		t.Fatalf("in-process run: %v\n%s", err, out)
	}
	dir := filepath.Join(t.TempDir(), "cluster")
	coord := exec.Command(bin, "-config", cfg, "-out", dir, "-quiet", "-listen", "127.0.0.1:0", "-local-worker=false")
	stderr, err := coord.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	defer coord.Process.Kill()
	lines := bufio.NewScanner(stderr)
	address := regexp.MustCompile(`-connect (nats://\S+)`)
	url := ""
	var said strings.Builder
	for url == "" && lines.Scan() {
		said.WriteString(lines.Text() + "\n")
		if m := address.FindStringSubmatch(lines.Text()); m != nil {
			url = m[1]
		}
	}
	go func() { // drain the rest
		for lines.Scan() {
		}
	}()
	if url == "" {
		t.Fatalf("the coordinator printed no address:\n%s", said.String())
	}
	worker := exec.Command(bin, "worker", "-connect", url, "-concurrency", "1")
	var wout strings.Builder
	worker.Stdout, worker.Stderr = &wout, &wout
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	defer worker.Process.Kill()
	done := make(chan error, 1)
	go func() { done <- coord.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("coordinator: %v\nworker: %s", err, wout.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("the coordinator did not finish; worker: %s", wout.String())
	}
	if got, want := finished(t, dir), finished(t, straight); got != want {
		t.Fatalf("through a worker process:\n%s\nin-process:\n%s", got, want)
	}
	worker.Process.Signal(syscall.SIGINT)
	if err := worker.Wait(); err != nil {
		t.Errorf("worker after Ctrl-C: %v\n%s", err, wout.String())
	}
	if _, err := os.Stat(filepath.Join(dir, cluster.DirNATS)); err != nil {
		t.Errorf("no JetStream storage in the run directory: %v", err)
	}
}

// TestClusterFlagsRefuseBadUse: a non-loopback -listen without a token,
// -listen with -nats, an unreachable -nats server, an ack wait under a
// second and a worker without -connect exit 2 or 1 with one clear line, and write no run directory.
func TestClusterFlagsRefuseBadUse(t *testing.T) {
	t.Setenv("ROADTUNE_NATS_TOKEN", "")
	cfg := writeConfig(t, "ga", 1)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-listen", "0.0.0.0:4222"}, 2, "needs a token"},
		{[]string{"-listen", ":4222"}, 2, "needs a token"},
		{[]string{"-listen", "127.0.0.1"}, 2, "HOST:PORT"},
		{[]string{"-listen", "127.0.0.1:0", "-nats", "nats://127.0.0.1:4222"}, 2, "cannot be combined"},
		{[]string{"-nats", "nats://127.0.0.1:1"}, 1, "no NATS server answers"},
		{[]string{"-listen", "127.0.0.1:0", "-token-file", "/nonexistent/token"}, 2, "token file"},
		{[]string{"-listen", "127.0.0.1:0", "-ack-wait", "500ms"}, 2, "flag -ack-wait"},
	} {
		dir := filepath.Join(t.TempDir(), "run")
		code, _, errs := runTune(t, append([]string{"-config", cfg, "-out", dir, "-quiet"}, c.args...)...)
		if code != c.code || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit %d and one line with %q", c.args, code, errs, c.code, c.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%v: wrote %s", c.args, dir)
		}
	}
	withGames := filepath.Join(t.TempDir(), "games.toml")
	data, _ := os.ReadFile(cfg)
	os.WriteFile(withGames, append(data, "[output]\ngames = true\n"...), 0o644)
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, errs := runTune(t, "-config", withGames, "-out", dir, "-listen", "127.0.0.1:0"); code != 2 || !strings.Contains(errs, "output.games") {
		t.Errorf("output.games on workers: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("output.games on workers: wrote %s", dir)
	}
	if code, _, errs := runTune(t, "worker"); code != 2 || !strings.Contains(errs, "-connect") {
		t.Errorf("worker without -connect: exit %d, %q", code, errs)
	}
	if code, _, errs := runTune(t, "worker", "-connect", "nats://127.0.0.1:1"); code != 1 || !strings.Contains(errs, "no NATS server answers") {
		t.Errorf("worker with no server: exit %d, %q", code, errs)
	}
}
