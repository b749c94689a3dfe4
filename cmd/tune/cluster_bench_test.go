package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/roadtune/roadtune/tune"
)

// benchFaultTOML is a GA run at depth 5 whose batches take about a second
// of one core: 6 generations of 26 games, each in a call of two batches
// (8 and 5 matches of 2 games) and one of a single match.
const benchFaultTOML = `
method = "ga"
seed = 5
[engine]
depth = 5
width = 8
[ga]
population = 8
groups = 2
generations = 6
[validation]
opponent = "zhou2015"
pairs = 1
`

// benchAckWait is the coordinator's -ack-wait in BenchmarkWorkerKilledMidBatch.
const benchAckWait = 5 * time.Second

// BenchmarkWorkerKilledMidBatch measures what kill -9 of a worker in the
// middle of a batch costs a run: a coordinator and two workers (tune
// worker -concurrency 1 -slots 1; batches of at most 16 games, the
// default; ack wait 5 s) play benchFaultTOML undisturbed, then again with
// worker a killed while it holds a batch once generation 2 is recorded and
// a replacement worker started at once (the same capacity: the difference
// is the fault's). Metrics, in seconds: the wall time of both runs
// (undisturbed-s/op, killed-s/op), and how much longer the generation in
// flight at the kill took than the same generation undisturbed (the same
// games; fault-s/op), which should be at most that batch's play time plus
// the ack wait (ackwait-s/op); the generation undisturbed (step-s/op)
// took at least that batch's play time. Run with -benchtime 1x: an iteration takes
// about half a minute.
func BenchmarkWorkerKilledMidBatch(b *testing.B) {
	bin := buildCmd(b, "tune")
	cfg := filepath.Join(b.TempDir(), "bench.toml")
	if err := os.WriteFile(cfg, []byte(benchFaultTOML), 0o644); err != nil {
		b.Fatal(err)
	}
	var undisturbed, killed, fault, step float64
	n := 0
	for b.Loop() {
		whole, base, _ := faultRun(b, bin, cfg, false)
		wall, steps, in := faultRun(b, bin, cfg, true)
		undisturbed += whole.Seconds()
		killed += wall.Seconds()
		fault += steps[in] - base[in]
		step += base[in]
		n++
		b.Logf("undisturbed %.2fs, generations %.2f; worker killed in generation %d: %.2fs, generations %.2f", whole.Seconds(), base, in, wall.Seconds(), steps)
	}
	b.ReportMetric(0, "ns/op")
	b.ReportMetric(undisturbed/float64(n), "undisturbed-s/op")
	b.ReportMetric(killed/float64(n), "killed-s/op")
	b.ReportMetric(fault/float64(n), "fault-s/op")
	b.ReportMetric(step/float64(n), "step-s/op")
	b.ReportMetric(benchAckWait.Seconds(), "ackwait-s/op")
}

// faultRun plays the run of cfg on a coordinator and two workers and,
// with kill, worker a killed mid-batch and replaced (see
// BenchmarkWorkerKilledMidBatch); it returns the coordinator's wall
// time, the seconds of every generation and the generation in flight at
// the kill.
func faultRun(b *testing.B, bin, cfg string, kill bool) (time.Duration, []float64, int) {
	b.Helper()
	const wait = 5 * time.Minute
	var ps processes
	defer ps.killAll()
	addr := freeLoopbackAddr(b)
	url := "nats://" + addr
	dir := filepath.Join(b.TempDir(), "run")
	start := time.Now()
	coord := ps.start(b, "coordinator", bin, "-config", cfg, "-out", dir, "-quiet", "-listen", addr, "-local-worker=false", "-ack-wait", benchAckWait.String())
	coord.waitFor(b, "start workers with", wait)
	worker := func(name string) *process {
		return ps.start(b, "worker "+name, bin, "worker", "-connect", url, "-concurrency", "1", "-slots", "1", "-name", name)
	}
	workers := []*process{worker("a"), worker("b")}
	in := -1
	if kill {
		q := watchQueue(b, url)
		coord.waitUntil(b, "generation 2", wait, func() bool { return records(b, dir) >= 2 })
		killHoldingBatch(b, coord, workers[0], q, wait)
		in = records(b, dir)
		workers[0] = worker("c")
		q.close()
	}
	if err := coord.wait(b, wait); err != nil {
		b.Fatalf("coordinator: %v\n%s", err, coord.out.String())
	}
	wall := time.Since(start)
	for _, w := range workers {
		w.signal(b, syscall.SIGINT)
		if err := w.wait(b, wait); err != nil {
			b.Fatalf("%s after SIGINT: %v\n%s", w.name, err, w.out.String())
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, tune.FileRecords))
	if err != nil {
		b.Fatal(err)
	}
	var steps []float64
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var rec struct{ Seconds float64 }
		if err := json.Unmarshal(line, &rec); err != nil {
			b.Fatal(err)
		}
		steps = append(steps, rec.Seconds)
	}
	if kill && in >= len(steps) {
		b.Fatalf("the worker was killed after the last generation (%d recorded)", in)
	}
	return wall, steps, in
}
