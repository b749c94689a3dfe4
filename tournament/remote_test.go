package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/roadtune/roadtune/tournament/stats"
)

// wireRemote plays batches with PlayScheduled after a JSON round trip of
// its arguments and results (what crosses the network), in reverse order
// of arrival per batch, and counts what it was given.
type wireRemote struct {
	mu      sync.Mutex
	batches [][]ScheduledGame
	fail    error // returned from the second batch on
}

func (w *wireRemote) PlayGames(ctx context.Context, set GameSet, games []ScheduledGame) ([]GameRecord, error) {
	w.mu.Lock()
	w.batches = append(w.batches, games)
	n := len(w.batches)
	w.mu.Unlock()
	if w.fail != nil && n > 1 {
		return nil, w.fail
	}
	var s GameSet
	var g []ScheduledGame
	for _, c := range []struct{ in, out any }{{set, &s}, {games, &g}} {
		data, err := json.Marshal(c.in)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, c.out); err != nil {
			return nil, err
		}
	}
	recs, err := PlayScheduled(ctx, s, g, 2, nil)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(recs)
	if err != nil {
		return nil, err
	}
	var back []GameRecord
	return back, json.Unmarshal(data, &back)
}

// TestRemoteEqualsInProcess: a round robin and an SPRT match played
// through a Remote (JSON on the way, batches of 5 games, 3 at once) give
// the in-process tables, game for game but for thinking times.
func TestRemoteEqualsInProcess(t *testing.T) {
	ops, err := GenerateOpenings(2, 7)
	if err != nil {
		t.Fatal(err)
	}
	ents := engineEntrants(t, "zhou2015", "qi2018-table3-1", "qi2018-attack")
	play := func(remote Remote, fx []Fixture, sprt *stats.SPRT) (*Table, []int) {
		t.Helper()
		var order []int
		r := Runner{Entrants: ents, Openings: ops[:6], MaxMoves: 60, SPRT: sprt, Remote: remote, RemoteBatch: 5, Concurrency: 3,
			OnGame: func(g GameRecord) error { order = append(order, g.Game); return nil }}
		if remote == nil {
			r.Concurrency = 2
		}
		tab, err := r.Run(context.Background(), fx)
		if err != nil {
			t.Fatal(err)
		}
		return tab, order
	}
	for _, c := range []struct {
		name string
		fx   []Fixture
		sprt *stats.SPRT
	}{
		{"round robin", RoundRobin(Indices(3), 4), nil},
		{"SPRT", HeadToHead(0, 2, 40), &stats.SPRT{Elo0: 0, Elo1: 200, Alpha: 0.2, Beta: 0.2}},
	} {
		want, _ := play(nil, c.fx, c.sprt)
		wr := &wireRemote{}
		got, order := play(wr, c.fx, c.sprt)
		if !reflect.DeepEqual(strip(got.Games), strip(want.Games)) {
			t.Errorf("%s: remote games differ from in-process", c.name)
		}
		if !reflect.DeepEqual(got.Matchups, want.Matchups) || !reflect.DeepEqual(got.SPRT, want.SPRT) {
			t.Errorf("%s: remote table %+v %+v, in-process %+v %+v", c.name, got.Matchups, got.SPRT, want.Matchups, want.SPRT)
		}
		for i, g := range order {
			if g != i {
				t.Fatalf("%s: OnGame order %v", c.name, order)
			}
		}
		partial := 0
		for _, b := range wr.batches {
			if len(b) == 0 || len(b) > 5 {
				t.Errorf("%s: a batch of %d games", c.name, len(b))
			}
			if len(b) < 5 {
				partial++
			}
		}
		// A worker hands over a short batch only when the schedule has run
		// out, so each of the 3 has at most one; which games go to which
		// worker at the end depends on timing.
		if c.sprt == nil && partial > 3 {
			t.Errorf("%s: %d short batches of %d for %d games: want at most one per worker", c.name, partial, len(wr.batches), 2*len(c.fx))
		}
	}
}

// TestRemoteErrors: a failing batch fails the run with its error, an
// external entrant is refused before anything is played, and
// PlayScheduled names a bad game.
func TestRemoteErrors(t *testing.T) {
	boom := errors.New("batch delivered 5 times")
	ents := engineEntrants(t, "zhou2015", "qi2018-table3-1")
	r := Runner{Entrants: ents, Remote: &wireRemote{fail: boom}, RemoteBatch: 2, Concurrency: 2, MaxMoves: 30}
	if _, err := r.Run(context.Background(), HeadToHead(0, 1, 20)); !errors.Is(err, boom) {
		t.Errorf("failing batch: %v", err)
	}
	wr := &wireRemote{}
	r = Runner{Entrants: []Entrant{ents[0], {Engine: Engine{Name: "ext", Program: "/bin/false"}}}, Remote: wr}
	if _, err := r.Run(context.Background(), HeadToHead(0, 1, 2)); err == nil || len(wr.batches) > 0 {
		t.Errorf("external entrant: %v after %d batches", err, len(wr.batches))
	}
	set := GameSet{Entrants: []Engine{{Name: "a", Weights: ents[0].Weights, Settings: ents[0].Settings}, {Name: "b", Weights: ents[1].Weights, Settings: ents[1].Settings}}}
	for _, g := range []ScheduledGame{{Game: 3, Black: 0, White: 2}, {Game: 3, Black: 1, White: 1}, {Game: 3, Black: 0, White: 1, Opening: "JJ JJ"}} {
		if _, err := PlayScheduled(context.Background(), set, []ScheduledGame{g}, 1, nil); err == nil {
			t.Errorf("game %+v accepted", g)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := PlayScheduled(ctx, set, []ScheduledGame{{Black: 0, White: 1}}, 1, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
