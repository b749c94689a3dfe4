package cluster

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
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
		ents = append(ents, tournament.Entrant{Engine: tournament.Engine{Name: name, Weights: f.Weights(), Settings: s}})
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
// gives a games batch back; once that used up its deliveries the match
// goes on (refusals use up none): the coordinator says so naming both
// builds and queues the batch again, which a right worker then plays.
func TestGamesOfAForeignBuildAreRefused(t *testing.T) {
	c := newCluster(t, nil)
	c.coord.MaxDeliver = 2
	log := newLogWatch("workers gave it back")
	c.coord.Log = log
	stop := c.worker(t, &Worker{Conn: c.dial(t, "old"), Name: "old", Build: "roadtune-play-0"})
	r := gamesRunner(t)
	r.Remote, r.Concurrency = c.coord, 1
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 1)
	var games int
	go func() {
		res, err := r.Run(ctx, tournament.HeadToHead(0, 1, 4))
		if res != nil {
			games = len(res.Games)
		}
		done <- err
	}()
	select {
	case <-log.seen:
	case err := <-done:
		t.Fatalf("the match ended before its deliveries ran out: %v", err)
	case <-ctx.Done():
		t.Fatalf("no batch given back within a minute; log:\n%s", log)
	}
	if line := log.line("workers gave it back"); !strings.Contains(line, "roadtune-play-0") || !strings.Contains(line, EngineBuild) {
		t.Errorf("line %q, want the refusal naming both builds", line)
	}
	stop()
	c.worker(t, &Worker{Conn: c.dial(t, "new"), Name: "new", Concurrency: 1})
	if err := <-done; err != nil || games != 8 {
		t.Fatalf("with a right worker after the refusals: %d games, %v", games, err)
	}
}
