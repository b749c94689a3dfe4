package tunecluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/cmd/internal/tunecluster"
	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/launch"
)

// onWorkers is a coordinator playing cfg's games (NewReferee) on an
// embedded NATS server (a random loopback port, storage in a temporary
// directory) with one worker per name: "local" connects inside the
// process at full concurrency, as tune -listen's own worker does; any
// other name over TCP, one game at a time, as a remote worker does.
// Everything stops when the test ends.
func onWorkers(t *testing.T, cfg tune.Config, names ...string) *cluster.Coordinator {
	t.Helper()
	c := newTestCluster(t, cfg)
	for _, name := range names {
		c.start(name)
	}
	return c.coord
}

// testCluster is onWorkers' server and coordinator: start adds a worker
// (as onWorkers does for a name) and dial connects another client over
// TCP.
type testCluster struct {
	coord *cluster.Coordinator
	start func(name string)
	dial  func(name string) *nats.Conn
}

func newTestCluster(t *testing.T, cfg tune.Config) *testCluster {
	t.Helper()
	ref, err := tune.NewReferee(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := cluster.StartServer(cluster.ServerOptions{Listen: "127.0.0.1:0", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { wg.Wait(); srv.Shutdown() })
	connect := func(name string, tcp bool) *nats.Conn {
		connect := srv.Connect
		if tcp {
			connect = func(name string) (*nats.Conn, error) { return cluster.Dial(srv.URL(), "", name, nil) }
		}
		nc, err := connect(name)
		if err != nil {
			t.Error(err)
			return nil
		}
		t.Cleanup(nc.Close)
		return nc
	}
	c := &testCluster{dial: func(name string) *nats.Conn { return connect(name, true) }}
	c.coord = &cluster.Coordinator{Conn: connect("coordinator", false), Run: t.Name(), Referee: ref, BatchGames: 8, AckWait: time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	c.start = func(name string) {
		w := &cluster.Worker{Conn: connect(name, name != "local"), Name: name}
		if w.Conn == nil {
			return
		}
		if name != "local" {
			w.Concurrency = 1
		}
		wg.Go(func() {
			if err := w.Run(ctx); err != nil && !w.Conn.IsClosed() {
				t.Errorf("worker %s: %v", w.Name, err)
			}
		})
	}
	return c
}

// TestJobsEqualInProcess: GA, PSO and Texel runs through the cluster
// referee (a worker in the coordinator's process, as tune -listen runs
// it, and one over TCP) leave the in-process run's records and best
// vector.
func TestJobsEqualInProcess(t *testing.T) {
	for _, method := range []string{"ga", "pso", "texel"} {
		t.Run(method, func(t *testing.T) {
			cfg, err := tune.Parse(method+".toml", []byte(tunetest.Tiny(method)))
			if err != nil {
				t.Fatal(err)
			}
			want := runfixture.RunSteps(t, cfg, tune.Options{})
			coord := onWorkers(t, cfg, "local", "remote")
			got := runfixture.RunSteps(t, cfg, tune.Options{Referee: coord})
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("cluster run:\n%s\nin-process run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			st := coord.Stats()
			t.Logf("replay cost: %d games replayed for %d played (%.1f%%); each worker's first results and %.0f%% of the batches", st.Replayed, st.Accepted, 100*float64(st.Replayed)/float64(st.Accepted), 100*cluster.DefaultVerifySample)
			if len(coord.QuarantinedWorkers()) > 0 || st.Refused+st.Mismatched > 0 {
				t.Errorf("honest workers quarantined: %v, stats %+v", coord.QuarantinedWorkers(), st)
			}
		})
	}
}

// TestLadderOnWorkers: a whole job (steps, the verification ladder at two
// depths with elo_every measurements) through the coordinator as referee
// and remote leaves the in-process run's ladder.json and records.
func TestLadderOnWorkers(t *testing.T) {
	cfg, err := tune.Parse("ga.toml", []byte(tunetest.Tiny("ga", "depths = [1, 2]\nelo_every = 2\nelo_pairs = 2")))
	if err != nil {
		t.Fatal(err)
	}
	run := func(opts tune.Options) (string, string) {
		dir := filepath.Join(t.TempDir(), "run")
		j, err := tune.Start(cfg, dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return withoutSeconds(t, filepath.Join(dir, ladder.File)), withoutSeconds(t, filepath.Join(dir, tune.FileRecords))
	}
	wantLadder, wantRecs := run(tune.Options{})
	coord := onWorkers(t, cfg, "w1", "w2")
	remote := &countingRemote{Remote: coord}
	gotLadder, gotRecs := run(tune.Options{Referee: coord, Remote: remote})
	if gotLadder != wantLadder || gotRecs != wantRecs {
		t.Fatalf("through workers:\n%s\n%s\nin-process:\n%s\n%s", gotLadder, gotRecs, wantLadder, wantRecs)
	}
	// Two depths against zhou2015 and the halfway vector, 2 pairs each,
	// and the Elo measurements of steps 2 and 3: 2 pairs each.
	if remote.games < 4*2*2 {
		t.Errorf("%d games went to the workers", remote.games)
	}
}

// countingRemote counts the games it passes on.
type countingRemote struct {
	tournament.Remote
	mu    sync.Mutex
	games int
}

func (r *countingRemote) PlayGames(ctx context.Context, set tournament.GameSet, games []tournament.ScheduledGame) ([]tournament.GameRecord, error) {
	r.mu.Lock()
	r.games += len(games)
	r.mu.Unlock()
	return r.Remote.PlayGames(ctx, set, games)
}

// withoutSeconds is a JSON or JSON Lines file with every "seconds" key
// removed (wall times differ between runs).
func withoutSeconds(t *testing.T, file string) string {
	t.Helper()
	return withoutKey(t, file, "seconds")
}

// withoutKey is a JSON or JSON Lines file with every key named key
// removed.
func withoutKey(t *testing.T, file, key string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		drop(v, key)
		b, _ := json.Marshal(v)
		out = append(out, string(b))
	}
	return strings.Join(out, "\n")
}

func drop(v any, key string) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, key)
		for _, e := range x {
			drop(e, key)
		}
	case []any:
		for _, e := range x {
			drop(e, key)
		}
	}
}

// TestGameRecordsThroughWorkers: with output.games, a run through the
// workers writes the in-process run's games files (thinking times aside).
func TestGameRecordsThroughWorkers(t *testing.T) {
	cfg, err := tune.Parse("pso.toml", []byte(tunetest.Tiny("pso", "[output]\ngames = true")))
	if err != nil {
		t.Fatal(err)
	}
	games := func(opts tune.Options) map[string]string { return gamesOf(t, runfixture.Stepped(t, cfg, opts)) }
	want := games(tune.Options{})
	if len(want) == 0 {
		t.Fatal("the in-process run wrote no games")
	}
	coord := onWorkers(t, cfg, "w1", "w2")
	if got := games(tune.Options{Referee: coord}); !reflect.DeepEqual(got, want) {
		t.Fatalf("games through workers differ: %d files, in-process %d", len(got), len(want))
	}
}

// gamesOf is a run directory's games files (output.games) by name,
// thinking times aside.
func gamesOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, tune.DirGames, "*.jsonl"))
	out := map[string]string{}
	for _, f := range files {
		out[filepath.Base(f)] = withoutKey(t, f, "time_s")
	}
	return out
}

// TestExternalRunOnWorkers: an [external] run through a cluster session
// leaves the single-process run's records, games and ladder (whose
// external players stay on the coordinator's machine), played by tune
// -listen's in-process worker with the coordinator's engine, or by a
// worker over TCP that declares the same program (-local-worker=false);
// the session says which workers play the engine's batches.
func TestExternalRunOnWorkers(t *testing.T) {
	bin := fakeenginetest.Build(t)
	cfg, err := tune.Parse("ext.toml", []byte(fmt.Sprintf(`method = "spsa"
seed = 7
[engine]
depth = 1
[external]
cmd = %q
args = ["-options", "Share:float:0.5:0:1"]
[spsa]
iterations = 2
[output]
games = true
[validation]
opponents = ["defaults"]
pairs = 1
[[param]]
name = "Share"
min = 0.1
max = 0.9
start = 0.6 # not the default: a ladder of the defaults against themselves is skipped
`, bin)))
	if err != nil {
		t.Fatal(err)
	}
	run := func(opts tune.Options, hooks launch.Hooks) string {
		dir := filepath.Join(t.TempDir(), "run")
		j, err := tune.Start(cfg, dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		if hooks.Job != nil {
			if err := hooks.Job(j, &opts); err != nil {
				t.Fatal(err)
			}
		}
		if err := j.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	want := run(tune.Options{}, launch.Hooks{})
	for _, local := range []bool{true, false} {
		t.Run(fmt.Sprintf("local-worker=%v", local), func(t *testing.T) {
			log := &tunetest.SyncBuffer{}
			s, err := cluster.NewSession(cluster.SessionOptions{Listen: "127.0.0.1:0", LocalWorker: local, Log: log})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var opts tune.Options
			tunecluster.Attach(&opts, s)
			hooks := tunecluster.Hooks(ctx, s)
			start := hooks.Job
			var wg sync.WaitGroup
			defer wg.Wait()
			hooks.Job = func(j *tune.Job, o *tune.Options) error {
				if err := start(j, o); err != nil || local {
					return err
				}
				url := regexp.MustCompile(`-connect (nats://\S+)`).FindStringSubmatch(log.String())
				if url == nil {
					t.Fatalf("no address in %q", log.String())
				}
				nc, err := cluster.Dial(url[1], "", "remote", nil)
				if err != nil {
					return err
				}
				e, err := cluster.ParseEngine([]string{"cmd=" + bin})
				if err != nil {
					return err
				}
				w := &cluster.Worker{Conn: nc, Name: "remote", Concurrency: 1, Engines: []tournament.Engine{e}}
				wg.Go(func() { w.Run(ctx); nc.Close() })
				return nil
			}
			got := run(opts, hooks)
			cancel()
			for _, f := range []string{tune.FileRecords, ladder.File} {
				if a, b := withoutSeconds(t, filepath.Join(got, f)), withoutSeconds(t, filepath.Join(want, f)); a != b {
					t.Errorf("%s through the cluster:\n%s\nin one process:\n%s", f, a, b)
				}
			}
			if a, b := gamesOf(t, got), gamesOf(t, want); !reflect.DeepEqual(a, b) || len(b) == 0 {
				t.Errorf("games through the cluster differ: %d files, in one process %d", len(a), len(b))
			}
			wantSaid := "the in-process worker plays them"
			if !local {
				wantSaid = "they wait for workers started with -engine name=fakeengine cmd=PATH"
			}
			if said := log.String(); !strings.Contains(said, "the games need engine fakeengine (") || !strings.Contains(said, wantSaid) {
				t.Errorf("the session's log lacks %q: %s", wantSaid, said)
			}
		})
	}
}
