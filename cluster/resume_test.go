package cluster

import (
	"context"
	"encoding/json"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// TestRestartedCallPlaysEachBatchOnce: a coordinator killed in the middle
// of a call and resumed after the server's de-duplication window (2
// minutes) has forgotten the message ids of its batches. The call made
// again neither queues a second copy of the batches still queued nor
// plays again a batch whose result is stored: every game is played once,
// and nothing is left in the queue.
func TestRestartedCallPlaysEachBatchOnce(t *testing.T) {
	ctx := context.Background()
	matches := testMatches(t)
	const seed = 11
	want, err := testReferee().Play(ctx, seed, matches)
	if err != nil {
		t.Fatal(err)
	}
	c := newCluster(t, testReferee())
	if err := c.coord.Prepare(ctx); err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(c.coord.Conn)
	if err != nil {
		t.Fatal(err)
	}
	// What the killed coordinator left: its first batch played (the
	// result stored, the batch acknowledged and so gone from the queue),
	// the others queued, published without message ids as the window has
	// forgotten them.
	batches, err := c.coord.batches(seed, matches, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(batches) < 3 {
		t.Fatalf("%d batches: the test wants at least 3", len(batches))
	}
	first := batches[0]
	done, err := testReferee().PlayRange(ctx, seed, first.Range(), first.Matches)
	if err != nil {
		t.Fatal(err)
	}
	data, err := EncodeResult(Result{Key: first.Key(), Worker: "before the kill", Outcomes: done})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Publish(ctx, resultSubject(first.Run, seed), data); err != nil {
		t.Fatal(err)
	}
	var left int64 // the games of the queued batches
	count := testReferee()
	count.GameLog = func(tournament.GameRecord) error { left++; return nil }
	for _, b := range batches[1:] {
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := js.Publish(ctx, batchSubject(b.Key()), data); err != nil {
			t.Fatal(err)
		}
		if _, err := count.PlayRange(ctx, seed, b.Range(), b.Matches); err != nil {
			t.Fatal(err)
		}
	}

	// The worker starts once the call has queued its batches again (a
	// worker still playing an old copy would be a case of its own: its
	// result counts, and the new copy may be played too).
	requeued := make(chan *nats.Msg, len(batches))
	sub, err := c.coord.Conn.ChanSubscribe(batchSubjects+">", requeued)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Unsubscribe()
	type call struct {
		out []optimize.Outcome
		err error
	}
	calls := make(chan call, 1)
	go func() {
		out, err := c.coord.Play(ctx, seed, matches)
		calls <- call{out, err}
	}()
	for n := 0; n < len(batches)-1; {
		select {
		case <-requeued:
			n++
		case r := <-calls:
			t.Fatalf("the call ended (%v, %v) before it queued the batches again", r.out, r.err)
		}
	}
	var played atomic.Int64
	w := &Worker{Conn: c.dial(t, "w"), Name: "w", Concurrency: 1, Slots: 1}
	w.onGame = func() { played.Add(1) }
	c.worker(t, w)
	r := <-calls
	got, err := r.out, r.err
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("resumed call: %v, in-process %v", got, want)
	}
	// A batch still queued, or taken and not acknowledged, is counted in
	// the stream; one played to the end is counted in played.
	if n, queued := played.Load(), queuedBatches(t, js); n != left || queued != 0 {
		t.Errorf("%d games played and %d batches left in the queue; want the %d games of the queued batches, each played once, and none left",
			n, queued, left)
	}
}

// queuedBatches is the number of batches in the queue (waiting, or taken
// and not acknowledged).
func queuedBatches(t *testing.T, js jetstream.JetStream) uint64 {
	t.Helper()
	s, err := js.Stream(context.Background(), BatchStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}

// playsAgain makes the call again (a resumed run's step) with a worker
// that plays: it must give the in-process outcomes. A batch never
// delivered again, or a result dropped as a duplicate, would hang it: a
// minute fails the test.
func playsAgain(t *testing.T, c *testCluster, seed uint64, matches []optimize.Match) {
	t.Helper()
	want, err := testReferee().Play(context.Background(), seed, matches)
	if err != nil {
		t.Fatal(err)
	}
	c.worker(t, &Worker{Conn: c.dial(t, "steady"), Name: "steady", Concurrency: 1})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := c.coord.Play(ctx, seed, matches)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("the call made again: %v (%v), in-process %v", got, err, want)
	}
}
