package cluster

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tournament"
)

// fakeClock is a Roster's clock that moves only when told.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestRosterAggregates drives a roster with heartbeats at chosen times:
// workers join once, rates are measured over the window, batches add up,
// a silent worker is reported lost once and shown for LostShown, a
// stopping one leaves at once, and a lost one that speaks again is back.
func TestRosterAggregates(t *testing.T) {
	clock := newFakeClock()
	var log bytes.Buffer
	changes := 0
	r := &Roster{Log: &log, Now: clock.Now, Window: 10 * time.Second, OnChange: func(Snapshot) { changes++ }}
	beat := func(id string, games int64, batches int) {
		r.Heard(Heartbeat{ID: id, Worker: id, Games: games, Batches: batches, Slots: 2, Concurrency: 4, Every: 2})
	}
	if got := r.Status().String(); got != "no workers" {
		t.Errorf("empty roster: %q", got)
	}
	beat("w1", 0, 0)
	beat("w2", 0, 0)
	clock.Add(2 * time.Second)
	beat("w1", 40, 2)
	beat("w2", 42, 1)
	s := r.Status()
	if got, want := s.String(), "2 workers, 3 batches in flight, 41 g/s (w1 20, w2 21)"; got != want {
		t.Errorf("after two heartbeats: %q, want %q", got, want)
	}
	if len(s.Workers) != 2 || s.Workers[0].Games != 40 || s.Workers[0].Slots != 2 || s.Workers[0].Concurrency != 4 || s.Workers[1].Every != 2*time.Second {
		t.Errorf("workers %+v", s.Workers)
	}
	if n := strings.Count(log.String(), "joined"); n != 2 {
		t.Errorf("%d joined lines, want 2:\n%s", n, log.String())
	}
	if changes != 4 {
		t.Errorf("%d changes, want one per heartbeat (4)", changes)
	}

	// w1 slows down to 5 games/s; w2 falls silent.
	for games := int64(50); games <= 150; games += 10 {
		clock.Add(2 * time.Second)
		beat("w1", games, 1)
		r.Check()
	}
	s = r.Status()
	if len(s.Workers) != 1 || s.Workers[0].Name != "w1" || s.Workers[0].GamesPerSecond != 5 {
		t.Errorf("w1 at 5 games/s over the 10 s window, w2 lost: %+v", s)
	}
	if got, want := s.String(), "1 worker, 1 batch in flight, 5.0 g/s (w1 5.0), lost: w2"; got != want {
		t.Errorf("after w2 fell silent: %q, want %q", got, want)
	}
	if n := strings.Count(log.String(), "worker w2 lost (last heard 8s ago); its batches go to other workers after the ack wait"); n != 1 {
		t.Errorf("w2 reported lost %d times, want once, after 3 heartbeats (6 s) checked every 2 s:\n%s", n, log.String())
	}

	// The lost worker speaks again: back, measured afresh.
	beat("w2", 50, 0)
	if s := r.Status(); len(s.Workers) != 2 || len(s.Lost) != 0 || s.Workers[1].GamesPerSecond != 0 {
		t.Errorf("w2 back: %+v", s)
	}
	if !strings.Contains(log.String(), "worker w2 is back after 22s of silence") {
		t.Errorf("no line for w2 back:\n%s", log.String())
	}

	// A stopping worker leaves at once, not lost.
	r.Heard(Heartbeat{ID: "w2", Worker: "w2", Games: 60, Stopping: true})
	if s := r.Status(); len(s.Workers) != 1 || len(s.Lost) != 0 {
		t.Errorf("w2 stopped: %+v", s)
	}
	if !strings.Contains(log.String(), "worker w2 stopped after 60 games") {
		t.Errorf("no line for w2 stopped:\n%s", log.String())
	}

	// A lost worker is shown for LostShown, then forgotten.
	clock.Add(7 * time.Second)
	if s := r.Status(); len(s.Lost) != 1 || len(s.Workers) != 0 {
		t.Errorf("w1 silent 7 s: %+v", s)
	}
	clock.Add(LostShown + time.Second)
	if s := r.Status(); len(s.Lost) != 0 || s.String() != "no workers" {
		t.Errorf("w1 lost over a minute ago: %+v", s)
	}
	if n := strings.Count(log.String(), " lost "); n != 2 {
		t.Errorf("%d lost lines, want 2 (w2, w1):\n%s", n, log.String())
	}
}

func TestSnapshotStringListsThree(t *testing.T) {
	s := Snapshot{Batches: 1, GamesPerSecond: 1.5, Lost: []string{"a", "b", "c", "d"}}
	for _, n := range []string{"p", "q", "r", "s"} {
		s.Workers = append(s.Workers, WorkerStatus{Name: n, GamesPerSecond: 0.3125})
	}
	if got, want := s.String(), "4 workers, 1 batch in flight, 1.5 g/s (p 0.3, q 0.3, r 0.3, …), lost: a, b, c, …"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	s.Quarantined = []string{"rogue"}
	if got := s.String(); !strings.HasSuffix(got, ", quarantined: rogue") {
		t.Errorf("%q names no quarantined worker", got)
	}
	r := &Roster{Quarantined: func() []string { return []string{"rogue"} }}
	if got := r.Status().Quarantined; len(got) != 1 || got[0] != "rogue" {
		t.Errorf("roster status names %v quarantined, want rogue", got)
	}
}

// TestRosterWatchesWorkers: workers on the server appear in the roster of
// a coordinator's connection with the games they played; one that stops
// is reported stopped at once, one whose connection dies is reported lost
// once LostAfter of its heartbeats are missing.
func TestRosterWatchesWorkers(t *testing.T) {
	c := newCluster(t, testReferee())
	clock := newFakeClock()
	var log tunetest.SyncBuffer
	snaps := make(chan Snapshot, 100)
	r := &Roster{Log: &log, Now: clock.Now, OnChange: func(s Snapshot) {
		select {
		case snaps <- s:
		default: // the test reads the latest through Status too
		}
	}}
	stop, err := r.Watch(c.coord.Conn)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// until waits for a snapshot that satisfies ok; the deadline only
	// guards against a hang.
	until := func(what string, ok func(Snapshot) bool) Snapshot {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case s := <-snaps:
				if ok(s) {
					return s
				}
			case <-deadline:
				t.Fatalf("never %s; roster %+v; log:\n%s", what, r.Status(), log.String())
			}
		}
	}
	// One heartbeat per hour: only the first one and the stopping one
	// are sent during the test.
	cancel := c.worker(t, &Worker{Conn: c.dial(t, "steady"), Name: "steady", Concurrency: 1, Heartbeat: time.Hour})
	cutConn := c.dial(t, "cut")
	c.worker(t, &Worker{Conn: cutConn, Name: "cut", Concurrency: 1, Slots: 1, Heartbeat: time.Hour})
	s := until("saw both workers", func(s Snapshot) bool { return len(s.Workers) == 2 })
	if s.Workers[0].Name != "cut" || s.Workers[1].Name != "steady" || s.Workers[0].Slots != 1 || s.Workers[1].Slots != 2 {
		t.Errorf("workers %+v", s.Workers)
	}

	cancel()
	until("saw steady stop", func(s Snapshot) bool { return len(s.Workers) == 1 && s.Workers[0].Name == "cut" })
	if !strings.Contains(log.String(), "worker steady stopped") {
		t.Errorf("no line for the stopped worker:\n%s", log.String())
	}

	cutConn.Close()
	clock.Add(LostAfter*time.Hour + time.Second)
	r.Check()
	if s := r.Status(); len(s.Workers) != 0 || len(s.Lost) != 1 || s.Lost[0] != "cut" {
		t.Errorf("after the cut worker's silence: %+v", s)
	}
	if n := strings.Count(log.String(), "worker cut lost (last heard 3h0m1s ago)"); n != 1 {
		t.Errorf("the cut worker reported lost %d times, want once:\n%s", n, log.String())
	}
}

// TestHeartbeatsCountGames: a worker's heartbeats report the games it
// played and the batches it holds.
func TestHeartbeatsCountGames(t *testing.T) {
	c := newCluster(t, testReferee())
	snaps := make(chan Snapshot, 1000)
	r := &Roster{OnChange: func(s Snapshot) {
		select {
		case snaps <- s:
		default:
		}
	}}
	stop, err := r.Watch(c.coord.Conn)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	c.worker(t, &Worker{Conn: c.dial(t, "w"), Name: "w", Concurrency: 1, Heartbeat: 20 * time.Millisecond})
	matches := testMatches(t)
	var games int64 // played in process: an early stop skips some
	ref := testReferee()
	ref.GameLog = func(tournament.GameRecord) error { games++; return nil }
	if _, err := ref.Play(context.Background(), 5, matches); err != nil {
		t.Fatal(err)
	}
	if _, err := c.coord.Play(context.Background(), 5, matches); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(30 * time.Second)
	for {
		select {
		case s := <-snaps:
			if len(s.Workers) == 1 && s.Workers[0].Games == games && s.Batches == 0 {
				return
			}
			if len(s.Workers) == 1 && s.Workers[0].Games > games {
				t.Fatalf("heartbeat says %d games, %d were played", s.Workers[0].Games, games)
			}
		case <-deadline:
			t.Fatalf("no heartbeat with %d games; roster %+v", games, r.Status().Workers)
		}
	}
}
