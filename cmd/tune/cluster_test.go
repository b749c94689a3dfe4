package main

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/tune"
)

// TestCoordinatorAndWorkerProcesses runs a coordinator (tune -listen,
// without its in-process worker) and one `tune worker` as real processes
// on loopback: the run equals the in-process run, and the worker stops
// cleanly on Ctrl-C.
func TestCoordinatorAndWorkerProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildCmd(t, "tune")
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
		{[]string{"-listen", "127.0.0.1:0", "-verify-sample", "1.5"}, 2, "flag -verify-sample"},
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
	if code, _, errs := runTune(t, "worker"); code != 2 || !strings.Contains(errs, "-connect") {
		t.Errorf("worker without -connect: exit %d, %q", code, errs)
	}
	if code, _, errs := runTune(t, "worker", "-connect", "nats://127.0.0.1:1"); code != 1 || !strings.Contains(errs, "no NATS server answers") {
		t.Errorf("worker with no server: exit %d, %q", code, errs)
	}
}

// faultTOML is a GA run long enough for two kills to land in its middle:
// 16 generations of 62 games, each cut into 4 batches of at most 16 games
// (about 50 ms a batch at depth 1), so two workers often play at once.
const faultTOML = `
method = "ga"
seed = 5
[engine]
depth = 1
width = 4
[ga]
population = 12
groups = 2
generations = 16
[validation]
opponent = "zhou2015"
pairs = 2
`

// TestWorkersKilledAndCoordinatorResumed runs a coordinator (tune -listen,
// no in-process worker) and two `tune worker` processes on loopback,
// kills one worker with SIGKILL while it holds a batch, later kills the
// coordinator with SIGKILL while the other worker plays a batch, resumes
// the coordinator on the same address, and checks: the surviving worker
// reconnects by itself and finishes the run, whose records, verification
// and best vector equal the in-process run's; the worker stops cleanly on
// SIGINT; every process started has exited.
func TestWorkersKilledAndCoordinatorResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs five processes")
	}
	const wait = 3 * time.Minute // for anything; generous for a loaded machine
	bin := buildCmd(t, "tune")
	cfg := filepath.Join(t.TempDir(), "fault.toml")
	if err := os.WriteFile(cfg, []byte(faultTOML), 0o644); err != nil {
		t.Fatal(err)
	}
	straight := filepath.Join(t.TempDir(), "straight")
	if out, err := exec.Command(bin, "-config", cfg, "-out", straight, "-quiet").CombinedOutput(); err != nil {
		t.Fatalf("in-process run: %v\n%s", err, out)
	}
	want := finished(t, straight)
	steps := records(t, straight)

	addr := freeLoopbackAddr(t) // the resumed coordinator listens there again
	url := "nats://" + addr
	dir := filepath.Join(t.TempDir(), "cluster")
	// A 2 s ack wait: the killed worker's batch goes to the other one
	// after 2 s, not 30.
	flags := []string{"-quiet", "-listen", addr, "-local-worker=false", "-ack-wait", "2s"}
	var ps processes
	t.Cleanup(ps.killAll)
	coord := ps.start(t, "coordinator", bin, append([]string{"-config", cfg, "-out", dir}, flags...)...)
	coord.waitFor(t, "start workers with", wait)
	// One slot each: a worker holds at most one batch.
	worker := func(name string) *process {
		return ps.start(t, "worker "+name, bin, "worker", "-connect", url, "-concurrency", "1", "-slots", "1", "-name", name)
	}
	a, b := worker("a"), worker("b")
	q := watchQueue(t, url)
	defer q.close()

	// Once the first generation is recorded, kill worker a in the middle
	// of a batch.
	coord.waitUntil(t, "the first generation", wait, func() bool { return records(t, dir) >= 1 })
	killHoldingBatch(t, coord, a, q, wait)
	killedIn := records(t, dir)
	t.Logf("worker a killed holding a batch, %d generations recorded", killedIn)
	if killedIn >= steps {
		t.Fatalf("worker a was killed after the last generation (%d recorded): make the run longer", killedIn)
	}
	// a's batch belongs to generation killedIn or an earlier one: once
	// the next generation is recorded, b has played it. Then kill the
	// coordinator while b plays a batch.
	coord.waitUntil(t, "a generation after a's batch and b in the middle of a batch", wait, func() bool {
		return records(t, dir) >= killedIn+2 && q.inHand() >= 1
	})
	coord.signal(t, syscall.SIGKILL)
	coord.wait(t, wait)
	q.close()
	if n := records(t, dir); n >= steps {
		t.Fatalf("the coordinator was killed after the last generation (%d recorded): make the run longer", n)
	} else {
		t.Logf("coordinator killed while worker b held a batch, %d generations recorded", n)
	}

	resumed := ps.start(t, "resumed coordinator", bin, append([]string{"-resume", dir}, flags...)...)
	if err := resumed.wait(t, wait); err != nil {
		t.Fatalf("resumed coordinator: %v\n%s\nworker b:\n%s", err, resumed.out.String(), b.out.String())
	}
	if got := finished(t, dir); got != want {
		t.Fatalf("after the kills:\n%s\nin-process:\n%s", got, want)
	}
	b.signal(t, syscall.SIGINT)
	if err := b.wait(t, wait); err != nil {
		t.Errorf("worker b after SIGINT: %v\n%s", err, b.out.String())
	}
	if !strings.Contains(b.out.String(), "reconnected to "+url) {
		t.Errorf("worker b did not say it reconnected:\n%s", b.out.String())
	}
	for _, p := range ps.all {
		if !p.exited() {
			t.Errorf("%s is still running", p.name)
		}
	}
}

// queueWatch reads the state of the workers' consumer on a NATS server.
type queueWatch struct {
	nc *nats.Conn
	js jetstream.JetStream
}

// watchQueue connects to the server at url (no reconnection: the watch
// ends with the server).
func watchQueue(t testing.TB, url string) *queueWatch {
	t.Helper()
	nc, err := nats.Connect(url, nats.NoReconnect())
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		t.Fatal(err)
	}
	return &queueWatch{nc: nc, js: js}
}

func (q *queueWatch) close() { q.nc.Close() }

// inHand is the number of batches delivered to workers and not yet
// acknowledged (-1 when the server does not answer).
func (q *queueWatch) inHand() int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cons, err := q.js.Consumer(ctx, cluster.BatchStream, cluster.WorkerGroup)
	if err != nil {
		return -1
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return -1
	}
	return info.NumAckPending
}

// killHoldingBatch kills worker a (SIGKILL) while it holds a batch and
// waits for its end. a and the one other worker play one batch at a time
// (-slots 1): a is frozen (SIGSTOP) while the batches in hand are
// counted; two in hand, of which the other holds at most one, means a
// holds one, and a frozen worker cannot finish it before the kill.
func killHoldingBatch(t testing.TB, coord, a *process, q *queueWatch, wait time.Duration) {
	t.Helper()
	coord.waitUntil(t, "both workers in the middle of a batch", wait, func() bool {
		a.signal(t, syscall.SIGSTOP)
		if q.inHand() >= 2 {
			a.signal(t, syscall.SIGKILL)
			return true
		}
		a.signal(t, syscall.SIGCONT)
		return false
	})
	a.wait(t, wait)
}

// records is the number of generations recorded in the run directory so
// far (lines of generations.jsonl; 0 before the first).
func records(t testing.TB, dir string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, tune.FileRecords))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return bytes.Count(data, []byte("\n"))
}

// freeLoopbackAddr is 127.0.0.1:PORT with a port that was free a moment
// ago.
func freeLoopbackAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// processes are the processes a test started; killAll kills those still
// running.
type processes struct{ all []*process }

// process is a started command: its merged output and its end.
type process struct {
	name string
	cmd  *exec.Cmd
	out  *notifyBuffer
	done chan struct{} // closed once Wait has returned
	err  error         // Wait's, once done
}

func (ps *processes) start(t testing.TB, name, bin string, args ...string) *process {
	t.Helper()
	p := &process{name: name, cmd: exec.Command(bin, args...), out: newNotifyBuffer(), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	ps.all = append(ps.all, p)
	go func() { p.err = p.cmd.Wait(); close(p.done) }()
	return p
}

func (ps *processes) killAll() {
	for _, p := range ps.all {
		if !p.exited() {
			p.cmd.Process.Kill()
			<-p.done
		}
	}
}

func (p *process) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func (p *process) signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("%s: %v: %v\n%s", p.name, sig, err, p.out.String())
	}
}

// wait waits for the process to end and returns Wait's error; it fails
// the test after timeout.
func (p *process) wait(t testing.TB, timeout time.Duration) error {
	t.Helper()
	select {
	case <-p.done:
		return p.err
	case <-time.After(timeout):
		t.Fatalf("%s did not end in %v:\n%s", p.name, timeout, p.out.String())
		return nil
	}
}

// waitFor waits until the process has printed text; it fails the test if
// the process ends first or after timeout.
func (p *process) waitFor(t testing.TB, text string, timeout time.Duration) {
	t.Helper()
	deadline := time.After(timeout)
	for {
		said, changed := p.out.snapshot()
		if strings.Contains(said, text) {
			return
		}
		select {
		case <-changed:
		case <-p.done:
			if said, _ := p.out.snapshot(); !strings.Contains(said, text) {
				t.Fatalf("%s ended (%v) without printing %q:\n%s", p.name, p.err, text, said)
			}
			return
		case <-deadline:
			t.Fatalf("%s did not print %q in %v:\n%s", p.name, text, timeout, said)
		}
	}
}

// waitUntil checks cond every 10 ms until it holds; it fails the test if
// the process ends first or after timeout.
func (p *process) waitUntil(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(timeout)
	for !cond() {
		select {
		case <-tick.C:
		case <-p.done:
			t.Fatalf("%s ended (%v) before %s:\n%s", p.name, p.err, what, p.out.String())
		case <-deadline:
			t.Fatalf("no %s in %v; %s:\n%s", what, timeout, p.name, p.out.String())
		}
	}
}

// notifyBuffer is an output buffer safe for concurrent use that tells
// when it grows.
type notifyBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{} // closed at the next write
}

func newNotifyBuffer() *notifyBuffer { return &notifyBuffer{changed: make(chan struct{})} }

func (b *notifyBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	close(b.changed)
	b.changed = make(chan struct{})
	return b.buf.Write(p)
}

// snapshot is the output so far and a channel closed at the next write.
func (b *notifyBuffer) snapshot() (string, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String(), b.changed
}

func (b *notifyBuffer) String() string {
	s, _ := b.snapshot()
	return s
}

// TestSweepOnWorkers: -seeds with -listen plays every seed's run through
// one embedded server (its storage beside the runs) and leaves each the
// in-process sweep's records and verification.
func TestSweepOnWorkers(t *testing.T) {
	cfg := writeConfig(t, "pso", 2)
	straight := filepath.Join(t.TempDir(), "straight")
	if code, _, errs := runTune(t, "-config", cfg, "-out", straight, "-quiet", "-seeds", "1,2"); code != 0 {
		t.Fatalf("in-process sweep: exit %d: %s", code, errs)
	}
	sweep := filepath.Join(t.TempDir(), "sweep")
	code, _, errs := runTune(t, "-config", cfg, "-out", sweep, "-quiet", "-seeds", "1,2", "-listen", "127.0.0.1:0")
	if code != 0 {
		t.Fatalf("sweep on workers: exit %d: %s", code, errs)
	}
	for _, seed := range []string{"seed-1", "seed-2"} {
		if got, want := finished(t, filepath.Join(sweep, seed)), finished(t, filepath.Join(straight, seed)); got != want {
			t.Errorf("%s through workers:\n%s\nin-process:\n%s", seed, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(sweep, cluster.DirNATS)); err != nil {
		t.Errorf("no JetStream storage in the sweep directory: %v", err)
	}
}

// TestWorkerEngineFlags: a bad `tune worker -engine` list (the lists are
// taken out by enginespec.TakeLists, tested there) exits 2 with one line naming the flag and the word before
// anything connects.
func TestWorkerEngineFlags(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "engine")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-engine"}, "flag -engine: want name=N cmd=PATH"},
		{[]string{"-engine", "name=a", "path=" + exe}, `flag -engine: word "path=`},
		{[]string{"-engine", "name=a"}, "cmd=PATH is missing"},
		{[]string{"-engine", "cmd=" + exe + ".missing"}, "no such file"},
		{[]string{"-engine", "cmd=" + exe, "-engine", "cmd=" + exe}, "two engines named engine"},
	} {
		code, _, errs := runTune(t, append([]string{"worker", "-connect", "nats://127.0.0.1:1"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", c.args, code, errs, c.want)
		}
	}
}
