package cluster

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
)

// testCluster is an embedded server on a random loopback port, storage in
// a temporary directory, and a coordinator connected to it.
type testCluster struct {
	srv   *Server
	coord *Coordinator
	wg    sync.WaitGroup
}

func newCluster(t *testing.T, ref *referee.VectorReferee) *testCluster {
	t.Helper()
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c := &testCluster{srv: srv}
	t.Cleanup(func() { c.wg.Wait(); srv.Shutdown() })
	nc, err := srv.Connect("coordinator")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	c.coord = &Coordinator{Conn: nc, Run: t.Name(), Referee: ref, BatchGames: 8, AckWait: time.Second}
	return c
}

// dial connects a client over TCP, as a remote worker does.
func (c *testCluster) dial(t *testing.T, name string) *nats.Conn {
	t.Helper()
	nc, err := Dial(c.srv.URL(), "", name, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// worker runs w until the test ends (or its ctx is cancelled through the
// returned function).
func (c *testCluster) worker(t *testing.T, w *Worker) context.CancelFunc {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c.wg.Go(func() {
		if err := w.Run(ctx); err != nil && !w.Conn.IsClosed() {
			t.Errorf("worker %s: %v", w.Name, err)
		}
	})
	return cancel
}

func testMatches(t *testing.T) []optimize.Match {
	t.Helper()
	f, err := configs.LoadWeights("zhou2015")
	if err != nil {
		t.Fatal(err)
	}
	vecs := [][]float64{f.Weights().Genes, {1, 1, 1, 1, 1}, {-5, -20, -80, -150, -800}, {20, 60, 300, 200, 900}}
	var ms []optimize.Match
	for i := range vecs {
		for j := range vecs {
			if i != j && len(ms) < 9 {
				ms = append(ms, optimize.Match{A: vecs[i], B: vecs[j], WinnerOnly: (i+j)%2 == 0})
			}
		}
	}
	return ms
}

func testReferee() *referee.VectorReferee {
	s := engine.DefaultSettings()
	s.Depth, s.Width, s.TableBits = 1, 6, 12
	return &referee.VectorReferee{Setup: referee.Setup{Schema: engine.Symmetric, Settings: s, Pairs: 2, MaxMoves: 40, EarlyStop: "decided"}, Concurrency: 2}
}

// inProcess is what the in-process referee's Sample gives.
func inProcess(t *testing.T, seed uint64, matches []optimize.Match) ([]optimize.Outcome, []optimize.Position) {
	t.Helper()
	out, pos, err := testReferee().Sample(context.Background(), seed, matches)
	if err != nil {
		t.Fatal(err)
	}
	return out, pos
}

// TestCoordinatorEqualsInProcess: Play and Sample through two workers give
// the in-process referee's outcomes and positions, and progress reaches
// the games scheduled.
func TestCoordinatorEqualsInProcess(t *testing.T) {
	matches := testMatches(t)
	wantOut, wantPos := inProcess(t, 21, matches)
	c := newCluster(t, testReferee())
	var last [2]int
	c.coord.Progress = func(done, total int) { last = [2]int{done, total} }
	for _, name := range []string{"w1", "w2"} {
		c.worker(t, &Worker{Conn: c.dial(t, name), Name: name, Concurrency: 1})
	}
	out, pos, err := c.coord.Sample(context.Background(), 21, matches)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, wantOut) || !reflect.DeepEqual(pos, wantPos) {
		t.Fatalf("cluster Sample: %v and %d positions, in-process %v and %d", out, len(pos), wantOut, len(wantPos))
	}
	if last != [2]int{36, 36} {
		t.Errorf("progress %v, want 36 of 36 games", last)
	}
	out, err = c.coord.Play(context.Background(), 21, matches)
	if err != nil || !reflect.DeepEqual(out, wantOut) {
		t.Fatalf("cluster Play: %v (%v), in-process %v", out, err, wantOut)
	}
	if out, err := c.coord.Play(context.Background(), 22, nil); out != nil || err != nil {
		t.Errorf("no matches: %v, %v", out, err)
	}
}

// TestWorkerLostMidBatch: a worker that drops its connection in the middle
// of a batch, without acknowledging it, loses nothing: the batch is
// delivered again after the ack wait and played by another worker, with
// the same outcomes.
func TestWorkerLostMidBatch(t *testing.T) {
	matches := testMatches(t)
	want, err := testReferee().Play(context.Background(), 9, matches)
	if err != nil {
		t.Fatal(err)
	}
	c := newCluster(t, testReferee())
	if _, err := c.coord.queue(context.Background()); err != nil {
		t.Fatal(err)
	}
	lostConn := c.dial(t, "lost")
	var once sync.Once
	lost := &Worker{Conn: lostConn, Name: "lost", Concurrency: 1, Slots: 1}
	var stop context.CancelFunc
	lost.onGame = func() { once.Do(func() { lostConn.Close(); stop() }) }
	stop = c.worker(t, lost)
	time.Sleep(300 * time.Millisecond) // the lost worker waits for the first batch
	c.worker(t, &Worker{Conn: c.dial(t, "steady"), Name: "steady", Concurrency: 1})
	start := time.Now()
	out, err := c.coord.Play(context.Background(), 9, matches)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("after a lost worker: %v, in-process %v", out, want)
	}
	if !lostConn.IsClosed() {
		t.Fatal("the lost worker never played a game")
	}
	if d := time.Since(start); d < c.coord.AckWait {
		t.Errorf("done in %v, before the lost batch's ack wait %v", d, c.coord.AckWait)
	}
}

// TestDuplicatesAreIgnored: a call made again (a restarted coordinator's
// step) reads the stored results, so its batches are not played again,
// and ignores later result messages for the same batches, even with
// other outcomes.
func TestDuplicatesAreIgnored(t *testing.T) {
	matches := testMatches(t)
	c := newCluster(t, testReferee())
	c.worker(t, &Worker{Conn: c.dial(t, "w"), Name: "w"})
	want, err := c.coord.Play(context.Background(), 4, matches)
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(c.coord.Conn)
	if err != nil {
		t.Fatal(err)
	}
	batches, err := c.coord.batches(4, matches, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range batches {
		fake := Result{Key: b.Key(), Worker: "forger", Outcomes: make([]optimize.Outcome, len(b.Matches))}
		data, err := EncodeResult(fake)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := js.Publish(context.Background(), resultSubject(b.Run, b.Seed), data); err != nil {
			t.Fatal(err)
		}
	}
	got, err := c.coord.Play(context.Background(), 4, matches)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("again: %v (%v), first %v", got, err, want)
	}
	info, err := js.Stream(context.Background(), ResultStream)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := info.Info(context.Background()); st.State.Msgs != uint64(2*len(batches)) {
		t.Errorf("%d result messages, want %d played once and %d forged", st.State.Msgs, len(batches), len(batches))
	}
}

// TestForeignFingerprintIsRefused: batches only a worker of another
// engine build takes are given back until their deliveries run out; the
// call does not fail (refusals use up no deliveries): the coordinator
// logs that the batch was given back, naming the refusal (the fingerprint
// and both builds), logs the refusal itself once, and queues the batch
// again; a right worker started then plays it, and the call gives the
// in-process outcomes.
func TestForeignFingerprintIsRefused(t *testing.T) {
	matches := testMatches(t)
	want, _ := inProcess(t, 3, matches)
	c := newCluster(t, testReferee())
	c.coord.MaxDeliver = 2
	log := newLogWatch("workers gave it back")
	c.coord.Log = log
	stop := c.worker(t, &Worker{Conn: c.dial(t, "old"), Name: "old", Build: "roadtune-play-0"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := playUntil(t, ctx, c.coord, 3, matches, log, "the call ended before its deliveries ran out")
	line := log.line("workers gave it back")
	if !strings.Contains(line, "refused by worker old: fingerprint") || !strings.Contains(line, "roadtune-play-0") || !strings.Contains(line, EngineBuild) {
		t.Errorf("line %q, want the refusal for its fingerprint naming both builds", line)
	}
	stop()
	c.worker(t, &Worker{Conn: c.dial(t, "new"), Name: "new", Concurrency: 1})
	r := <-done
	if r.err != nil || !reflect.DeepEqual(r.out, want) {
		t.Fatalf("with a right worker after the refusals: %v (%v), in-process %v", r.out, r.err, want)
	}
	if n := strings.Count(log.String(), "worker old refuses batches"); n != 1 {
		t.Errorf("%d refusal lines, want 1 (once per worker and reason):\n%s", n, log)
	}
}

// client runs a hand-made worker named name until ctx ends: it fetches
// up to fetch batches at a time from the workers' consumer and hands
// each to each.
func (c *testCluster) client(t *testing.T, ctx context.Context, name string, fetch int, each func(jetstream.JetStream, jetstream.Msg)) {
	nc := c.dial(t, name)
	c.wg.Go(func() {
		js, err := jetstream.New(nc)
		if err != nil {
			return
		}
		for ctx.Err() == nil {
			cons, err := js.Consumer(ctx, BatchStream, WorkerGroup)
			if err != nil {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			mb, err := cons.Fetch(fetch, jetstream.FetchMaxWait(200*time.Millisecond))
			if err != nil {
				continue
			}
			for msg := range mb.Messages() {
				each(js, msg)
			}
		}
	})
}

// played is the end of a call.
type played struct {
	out []optimize.Outcome
	err error
}

// playUntil starts coord.Play and returns once log saw its line; the call
// ending first fails the test with early, and so does ctx ending.
func playUntil(t *testing.T, ctx context.Context, coord *Coordinator, seed uint64, matches []optimize.Match, log *logWatch, early string) <-chan played {
	t.Helper()
	done := make(chan played, 1)
	go func() {
		out, err := coord.Play(ctx, seed, matches)
		done <- played{out, err}
	}()
	select {
	case <-log.seen:
	case r := <-done:
		t.Fatalf("%s: %v", early, r.err)
	case <-ctx.Done():
		t.Fatalf("no line %q before %v; log:\n%s", log.want, ctx.Err(), log)
	}
	return done
}

// logWatch is a coordinator's log that closes seen once a line contains
// want.
type logWatch struct {
	mu    sync.Mutex
	lines []string
	want  string
	seen  chan struct{}
}

func newLogWatch(want string) *logWatch { return &logWatch{want: want, seen: make(chan struct{})} }

func (w *logWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, string(p))
	if w.want != "" && strings.Contains(string(p), w.want) {
		w.want = ""
		close(w.seen)
	}
	return len(p), nil
}

// line is the first line containing s, "" if none does.
func (w *logWatch) line(s string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, l := range w.lines {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

func (w *logWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "")
}

// lineWriter sends each write to a channel.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

// TestRefusedBatchesGoToOtherWorkers: a worker of another engine build
// takes batches first and gives them back; a compatible worker started
// after the first refusal plays them, and the results equal the
// in-process referee's.
func TestRefusedBatchesGoToOtherWorkers(t *testing.T) {
	matches := testMatches(t)
	wantOut, wantPos := inProcess(t, 8, matches)
	c := newCluster(t, testReferee())
	lines := make(lineWriter, 100)
	c.coord.Log = lines
	c.worker(t, &Worker{Conn: c.dial(t, "old"), Name: "old", Build: "roadtune-play-0", Concurrency: 1})
	type result struct {
		out []optimize.Outcome
		pos []optimize.Position
		err error
	}
	done := make(chan result, 1)
	go func() {
		out, pos, err := c.coord.Sample(context.Background(), 8, matches)
		done <- result{out, pos, err}
	}()
	select {
	case line := <-lines:
		if !strings.Contains(line, "worker old refuses batches") {
			t.Errorf("coordinator line %q, want the refusal", line)
		}
	case r := <-done:
		t.Fatalf("the call ended before any refusal: %v", r.err)
	}
	c.worker(t, &Worker{Conn: c.dial(t, "new"), Name: "new", Concurrency: 1})
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if !reflect.DeepEqual(r.out, wantOut) || !reflect.DeepEqual(r.pos, wantPos) {
		t.Fatalf("with a foreign worker: %v and %d positions, in-process %v and %d", r.out, len(r.pos), wantOut, len(wantPos))
	}
}

// TestMaxDeliveriesFailTheCall: a batch taken and never acknowledged
// MaxDeliver times fails the call clearly. The call made again at once
// (the run resumed) with a worker that plays queues the batch again,
// which the consumer no longer delivers.
func TestMaxDeliveriesFailTheCall(t *testing.T) {
	c := newCluster(t, testReferee())
	c.coord.AckWait, c.coord.MaxDeliver = 300*time.Millisecond, 2
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// a worker that takes batches and dies every time
	c.client(t, ctx, "flaky", 10, func(jetstream.JetStream, jetstream.Msg) {})
	_, err := c.coord.Play(ctx, 3, testMatches(t))
	if err == nil || !strings.Contains(err.Error(), "delivered 2 times") {
		t.Fatalf("error %v, want a batch delivered 2 times without a result", err)
	}
	cancel()
	c.wg.Wait()
	playsAgain(t, c, 3, testMatches(t))
}

func TestListenNeedsATokenBeyondLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0"} {
		_, err := StartServer(ServerOptions{Listen: addr, StoreDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), "token") {
			t.Errorf("listen %s without a token: %v", addr, err)
		}
	}
	for _, host := range []string{"127.0.0.1", "::1", "[::1]", "localhost", "127.3.2.1"} {
		if !Loopback(host) {
			t.Errorf("%s is loopback", host)
		}
	}
	srv, err := StartServer(ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Shutdown()
	if _, err := Dial(srv.URL(), "wrong", "w", nil); err == nil || !strings.Contains(err.Error(), "credentials") {
		t.Errorf("wrong token: %v", err)
	}
	nc, err := Dial(srv.URL(), "s3cret", "w", nil)
	if err != nil {
		t.Fatal(err)
	}
	nc.Close()
	if _, err := Dial("nats://127.0.0.1:1", "", "w", nil); err == nil || !strings.Contains(err.Error(), "no NATS server") {
		t.Errorf("refused connection: %v", err)
	}
	t.Setenv(TokenEnv, " from-env\n")
	if tok, err := ReadToken(""); tok != "from-env" || err != nil {
		t.Errorf("token from the environment: %q %v", tok, err)
	}
	f := filepath.Join(t.TempDir(), "token")
	os.WriteFile(f, []byte("from-file\n"), 0o600)
	if tok, err := ReadToken(f); tok != "from-file" || err != nil {
		t.Errorf("token from a file: %q %v", tok, err)
	}
}
