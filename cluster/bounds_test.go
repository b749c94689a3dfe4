package cluster

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/optimize"
)

// TestDecodeResultIsBounded: a result message that inflates to more than
// its batch can produce (a 64 MiB error text in 64 KB of gzip) is refused
// with errTooLarge, naming its key and worker, having allocated a small
// part of it; an honest result of the same batch is read.
func TestDecodeResultIsBounded(t *testing.T) {
	b := &Batch{Setup: Setup{Pairs: 2}, Matches: testMatches(t)[:2], Sample: true}
	limit := b.maxResult()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	zw.Write([]byte(`{"key":"k1","worker":"bomber","error":"`))
	zw.Write(bytes.Repeat([]byte("0"), 64<<20))
	zw.Write([]byte(`"}`))
	zw.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r, err := decodeResult(buf.Bytes(), limit)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, errTooLarge) || r.Key != "k1" || r.Worker != "bomber" {
		t.Fatalf("a bomb of %d bytes: %v, key %q, worker %q", buf.Len(), err, r.Key, r.Worker)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*uint64(limit)+(8<<20) {
		t.Errorf("refusing the bomb allocated %d bytes (limit %d)", alloc, limit)
	}
	honest := Result{Key: "k2", Worker: "w", Outcomes: make([]optimize.Outcome, 2)}
	data, err := EncodeResult(honest)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := decodeResult(data, limit); err != nil || !reflect.DeepEqual(r, honest) {
		t.Fatalf("an honest result: %+v, %v", r, err)
	}
}

func TestClip(t *testing.T) {
	if got := clip("short"); got != "short" {
		t.Errorf("clip(short) = %q", got)
	}
	long := strings.Repeat("é", 1000) // 2 bytes each: the cut falls inside one
	got := clip(long)
	if !strings.HasSuffix(got, "… (2000 bytes)") || len(got) > maxLogged+20 || !strings.HasPrefix(got, strings.Repeat("é", 100)) {
		t.Errorf("clip of 2000 bytes = %q", got)
	}
}

// TestErrorResultsCountAgainstTheWorker: a client with the cluster's
// credentials answers every batch it takes with a 1 MiB error result;
// the call goes on (each batch played again), every log line quoting the
// error is cut short, the client is quarantined at its DefaultMaxErrors-th
// error, and a worker started then finishes the call with the in-process
// outcomes.
func TestErrorResultsCountAgainstTheWorker(t *testing.T) {
	matches := testMatches(t)
	want, _ := inProcess(t, 5, matches)
	c := newCluster(t, testReferee())
	log := newLogWatch("worker liar quarantined")
	c.coord.Log = log
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c.client(t, ctx, "liar", 1, func(js jetstream.JetStream, msg jetstream.Msg) {
		var b Batch
		if json.Unmarshal(msg.Data(), &b) != nil {
			return
		}
		data, _ := EncodeResult(Result{Key: b.Key(), Worker: "liar", Error: strings.Repeat("e", 1<<20)})
		js.Publish(ctx, b.ResultSubject(), data)
		msg.Ack()
	})
	done := playUntil(t, ctx, c.coord, 5, matches, log, "the call ended before the liar was quarantined")
	c.worker(t, &Worker{Conn: c.dial(t, "honest"), Name: "honest", Concurrency: 1})
	r := <-done
	if r.err != nil || !reflect.DeepEqual(r.out, want) {
		t.Fatalf("after error results: %v (%v), in-process %v", r.out, r.err, want)
	}
	if st := c.coord.Stats(); st.Failed != DefaultMaxErrors {
		t.Errorf("stats %+v: want %d error results counted (those of a quarantined worker are dropped)", st, DefaultMaxErrors)
	}
	for line := range strings.Lines(log.String()) {
		if len(line) > 1000 {
			t.Errorf("a log line of %d bytes: %.300s…", len(line), line)
		}
	}
	if !strings.Contains(log.String(), "… (1048576 bytes)") {
		t.Errorf("no error quoted cut short; log:\n%s", log)
	}
}
