package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tune"
)

// gamesRunner is a head-to-head match of zhou2015 against Chen 2010's
// PSO vector at depth 2 over generated openings.
func gamesRunner(t *testing.T) *tournament.Runner {
	t.Helper()
	s := engine.DefaultSettings()
	s.Depth, s.Width, s.TableBits = 2, 6, 12
	var ents []tournament.Entrant
	for _, name := range []string{"zhou2015", "chen2010-pso15"} {
		f, err := configs.LoadWeights(name)
		if err != nil {
			t.Fatal(err)
		}
		ents = append(ents, tournament.Entrant{Name: name, Weights: f.Weights(), Settings: s})
	}
	ops, err := tournament.GenerateOpenings(3, 5)
	if err != nil {
		t.Fatal(err)
	}
	return &tournament.Runner{Entrants: ents, Openings: ops[:24], MaxMoves: 80, Concurrency: 2}
}

// stripTimes drops what differs between machines: thinking times.
func stripTimes(recs []tournament.GameRecord) []tournament.GameRecord {
	out := append([]tournament.GameRecord(nil), recs...)
	for i := range out {
		out[i].Time = [2]time.Duration{}
	}
	return out
}

// TestGamesEqualInProcess: a tournament match played through the
// coordinator (tournament.Runner.Remote) by two workers, one of them
// over TCP, gives the in-process table game for game, with and without an
// SPRT that stops it early.
func TestGamesEqualInProcess(t *testing.T) {
	for _, sprt := range []*stats.SPRT{nil, {Elo0: 0, Elo1: 150, Alpha: 0.2, Beta: 0.2}} {
		r := gamesRunner(t)
		r.SPRT = sprt
		want, err := r.Run(context.Background(), tournament.HeadToHead(0, 1, 24))
		if err != nil {
			t.Fatal(err)
		}
		if sprt != nil && (want.SPRT == nil || want.SPRT.Pairs >= 24) {
			t.Fatalf("the SPRT did not stop the match early: %+v", want.SPRT)
		}
		c := newCluster(t, nil)
		local, err := c.srv.Connect("local")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(local.Close)
		c.worker(t, &Worker{Conn: local, Name: "local", Concurrency: 1})
		c.worker(t, &Worker{Conn: c.dial(t, "remote"), Name: "remote", Concurrency: 1})
		r = gamesRunner(t)
		r.SPRT, r.Remote, r.RemoteBatch, r.Concurrency = sprt, c.coord, 6, 3
		got, err := r.Run(context.Background(), tournament.HeadToHead(0, 1, 24))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(stripTimes(got.Games), stripTimes(want.Games)) || !reflect.DeepEqual(got.Matchups, want.Matchups) || !reflect.DeepEqual(got.SPRT, want.SPRT) {
			t.Fatalf("SPRT %v: through workers %d games %+v, in-process %d games %+v", sprt, len(got.Games), got.Matchups, len(want.Games), want.Matchups)
		}
	}
}

// TestGamesOfAForeignBuildAreRefused: a worker of another engine build
// gives a games batch back; once it reached its maximum deliveries the
// match fails naming both builds.
func TestGamesOfAForeignBuildAreRefused(t *testing.T) {
	c := newCluster(t, nil)
	c.coord.MaxDeliver = 2
	c.worker(t, &Worker{Conn: c.dial(t, "old"), Name: "old", Build: "roadtune-play-0"})
	r := gamesRunner(t)
	r.Remote, r.Concurrency = c.coord, 1
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := r.Run(ctx, tournament.HeadToHead(0, 1, 4))
	if err == nil || !strings.Contains(err.Error(), "delivered 2 times") || !strings.Contains(err.Error(), "roadtune-play-0") || !strings.Contains(err.Error(), EngineBuild) {
		t.Fatalf("error %v, want a batch delivered 2 times, refused naming both builds", err)
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
		return withoutSeconds(t, filepath.Join(dir, tune.FileLadder)), withoutSeconds(t, filepath.Join(dir, tune.FileRecords))
	}
	wantLadder, wantRecs := run(tune.Options{})
	c := twoWorkers(t, cfg)
	remote := &countingRemote{Remote: c.coord}
	gotLadder, gotRecs := run(tune.Options{Referee: c.coord, Remote: remote})
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
	games := func(opts tune.Options) map[string]string {
		dir := stepped(t, cfg, opts)
		files, _ := filepath.Glob(filepath.Join(dir, tune.DirGames, "*.jsonl"))
		out := map[string]string{}
		for _, f := range files {
			out[filepath.Base(f)] = withoutKey(t, f, "time_s")
		}
		return out
	}
	want := games(tune.Options{})
	if len(want) == 0 {
		t.Fatal("the in-process run wrote no games")
	}
	c := twoWorkers(t, cfg)
	if got := games(tune.Options{Referee: c.coord}); !reflect.DeepEqual(got, want) {
		t.Fatalf("games through workers differ: %d files, in-process %d", len(got), len(want))
	}
}

// twoWorkers is a test cluster for cfg's games with two workers over TCP.
func twoWorkers(t *testing.T, cfg tune.Config) *testCluster {
	t.Helper()
	ref, err := tune.NewReferee(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := newCluster(t, ref)
	c.worker(t, &Worker{Conn: c.dial(t, "w1"), Name: "w1", Concurrency: 1})
	c.worker(t, &Worker{Conn: c.dial(t, "w2"), Name: "w2", Concurrency: 1})
	return c
}

// stepped starts cfg in a new run directory, runs its optimisation steps
// and returns the directory.
func stepped(t *testing.T, cfg tune.Config, opts tune.Options) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	j, err := tune.Start(cfg, dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Steps(context.Background(), 100); err != nil {
		t.Fatal(err)
	}
	return dir
}
