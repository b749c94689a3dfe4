package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// Worker pulls batches from the queue, plays them with the in-process
// engine and publishes their results: the fishtest or OpenBench client,
// over JetStream. It takes one batch per slot at a time, reports progress
// to the server while playing (so a long batch is not given to another
// worker), publishes the result with the batch's key as message id, then
// acknowledges the batch. It announces itself every Heartbeat (Heartbeat
// messages, which a coordinator's Roster follows). A batch whose
// fingerprint this build cannot reproduce is given back for other
// workers, with a Refusal notice naming the reason, and this worker
// pauses its pulls (RefusalDelay, FirstRefusalPause); a batch it cannot
// read at all (another message protocol) is terminated.
type Worker struct {
	// Conn is the connection to the NATS server.
	Conn *nats.Conn
	// Name identifies the worker in results and messages (default the
	// connection's name).
	Name string
	// Concurrency is the number of games a batch plays at once (default
	// GOMAXPROCS).
	Concurrency int
	// Slots is the number of batches played at once (default 2: the next
	// batch fills the cores while the last games of one finish).
	Slots int
	// Log, when set, receives one line per refused or failed batch and
	// per connection trouble.
	Log io.Writer
	// Build is the engine build this worker plays (default EngineBuild);
	// tests change it.
	Build string
	// Heartbeat is how often the worker announces itself on
	// HeartbeatSubject (default DefaultHeartbeat, 2 s): name, games
	// played, batches in hand.
	Heartbeat time.Duration

	onGame func()     // test hook: called after each game played
	live   liveCounts // what the heartbeats report
	pause  backoff    // after refusals
}

// Run plays batches until ctx is cancelled (then it returns nil, the
// batches in hand given back for redelivery at once) or the connection is
// closed for good. It waits for the queue when no coordinator has created
// it yet, and rides out network breaks (the connection reconnects, Run
// retries).
func (w *Worker) Run(ctx context.Context) error {
	js, err := jetstream.New(w.Conn)
	if err != nil {
		return err
	}
	defer w.announce(w.slots())()
	var cons jetstream.Consumer
	for waited := false; ; waited = true {
		if cons, err = js.Consumer(ctx, BatchStream, WorkerGroup); err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		if w.Conn.IsClosed() {
			return fmt.Errorf("cluster: connection closed: %w", err)
		}
		if !waited {
			w.logf("waiting for a coordinator to create the queue (%v)", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
	every := cons.CachedInfo().Config.AckWait / 3
	if every <= 0 {
		every = 10 * time.Second
	}
	slots := w.slots()
	errs := make(chan error, slots)
	for range slots {
		go func() { errs <- w.loop(ctx, js, cons, every) }()
	}
	for range slots {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

func (w *Worker) logf(format string, args ...any) {
	if w.Log != nil {
		fmt.Fprintf(w.Log, "worker %s: "+format+"\n", append([]any{w.name()}, args...)...)
	}
}

// slots is Slots with its default.
func (w *Worker) slots() int {
	if w.Slots == 0 {
		return 2
	}
	return max(w.Slots, 1)
}

func (w *Worker) name() string {
	if w.Name != "" {
		return w.Name
	}
	return w.Conn.Opts.Name
}

// loop is one slot: fetch a batch, play it, again.
func (w *Worker) loop(ctx context.Context, js jetstream.JetStream, cons jetstream.Consumer, every time.Duration) error {
	var ref *referee.VectorReferee // kept between batches of the same setup: engines are reused
	var refPrint string
	var engines tournament.EnginePool // of games batches
	for ctx.Err() == nil {
		w.pause.wait(ctx)
		fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		mb, err := cons.Fetch(1, jetstream.FetchContext(fctx))
		if err != nil {
			cancel()
			if w.Conn.IsClosed() {
				return fmt.Errorf("cluster: connection closed: %w", err)
			}
			if ctx.Err() == nil { // a network break: the connection reconnects
				time.Sleep(time.Second)
			}
			continue
		}
		for msg := range mb.Messages() {
			if ctx.Err() != nil {
				msg.Nak()
				continue
			}
			var b Batch
			if err := json.Unmarshal(msg.Data(), &b); err != nil || b.Protocol != protocol {
				reason := fmt.Sprintf("worker %s cannot read the batch (protocol %d, this worker's %d): %v", w.name(), b.Protocol, protocol, err)
				w.logf("%s", reason)
				msg.TermWithReason(reason)
				continue
			}
			if b.Kind == kindGames {
				w.playGames(ctx, js, msg, &engines, every)
				continue
			}
			if b.Fingerprint != refPrint || ref == nil {
				ref, refPrint = nil, ""
				if reason := w.refuse(&b); reason != "" {
					w.giveBack(msg, b.Run, b.Key(), describe(&b), reason)
					continue
				}
				if ref, err = b.Setup.Referee(w.Concurrency); err != nil { // refuse checked it
					cancel()
					return err
				}
				refPrint = b.Fingerprint
			}
			w.play(ctx, js, msg, &b, ref, every)
		}
		cancel()
	}
	return nil
}

// refuse is why this worker cannot play the batch's games exactly, "" if
// it can.
func (w *Worker) refuse(b *Batch) string {
	build := buildOr(w.Build)
	if fp := Fingerprint(build, b.Setup); fp != b.Fingerprint {
		return foreign(b.Fingerprint, fp, b.Build, build)
	}
	if _, err := b.Setup.Referee(w.Concurrency); err != nil {
		return fmt.Sprintf("game settings this worker cannot play: %v", err)
	}
	return ""
}

// play plays one batch, reporting progress to the server while it does,
// and publishes its result. A cancelled ctx gives the batch back.
func (w *Worker) play(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg, b *Batch, ref *referee.VectorReferee, every time.Duration) {
	defer repeat(every, func() { msg.InProgress() })()
	w.live.batches.Add(1)
	defer w.live.batches.Add(-1)
	r, err := b.Play(ctx, ref, func() {
		w.live.games.Add(1)
		if w.onGame != nil {
			w.onGame()
		}
	})
	switch {
	case ctx.Err() != nil:
		msg.Nak() // stopping: another worker takes it at once
		return
	case err != nil: // the same on every worker: do not deliver it again
		r.Error = err.Error()
		w.logf("batch %s failed: %v", describe(b), err)
		w.publish(ctx, js, b, r)
		msg.TermWithReason(r.Error)
		return
	}
	if err := w.publish(ctx, js, b, r); err != nil {
		w.logf("batch %s: %v; it will be delivered again", describe(b), err)
		msg.Nak()
		return
	}
	msg.Ack()
	w.pause.played()
}

// Play plays the batch with ref (its Setup's referee) as a worker does and
// returns the result without key and worker: outcomes in match order,
// positions of a Sample batch, game records of a Games batch in game
// order, wall time in seconds; onGame (may be nil) is called after each
// game. The coordinator's replays call it too. Errors: those of
// referee.VectorReferee.PlayRange and SampleRange.
func (b *Batch) Play(ctx context.Context, ref *referee.VectorReferee, onGame func()) (Result, error) {
	var games []tournament.GameRecord
	ref.GameLog = func(g tournament.GameRecord) error {
		if onGame != nil {
			onGame()
		}
		if b.Games {
			games = append(games, g)
		}
		return nil
	}
	start := time.Now()
	var r Result
	var err error
	if b.Sample {
		r.Outcomes, r.Positions, err = ref.SampleRange(ctx, b.Seed, b.Range(), b.Matches)
	} else {
		r.Outcomes, err = ref.PlayRange(ctx, b.Seed, b.Range(), b.Matches)
	}
	r.Seconds, r.Records = time.Since(start).Seconds(), games
	return r, err
}

// publish sends a batch's result, its key as message id (none for an
// error result), retrying through
// a network break until ctx ends. A result larger than the server takes is
// replaced by an error result saying so.
func (w *Worker) publish(ctx context.Context, js jetstream.JetStream, b *Batch, r Result) error {
	return w.publishTo(ctx, js, b.Key(), b.ResultSubject(), r)
}

// publishTo sends the result of the batch with key to subject, as
// publish does.
func (w *Worker) publishTo(ctx context.Context, js jetstream.JetStream, key, subject string, r Result) error {
	r.Key, r.Worker = key, w.name()
	data, err := EncodeResult(r)
	if err != nil {
		return err
	}
	if limit := w.Conn.MaxPayload(); int64(len(data)) > limit {
		r = Result{Key: r.Key, Worker: r.Worker, Error: fmt.Sprintf("the result takes %d bytes, more than the server's max_payload %d: make batches smaller or raise max_payload", len(data), limit)}
		if data, err = EncodeResult(r); err != nil {
			return err
		}
	}
	msg := &nats.Msg{Subject: subject, Data: data}
	id := []jetstream.PublishOpt{jetstream.WithMsgID(r.Key)}
	if r.Error != "" {
		// An error result has no message id: it must not make the result
		// of a later delivery (e.g. once max_payload is raised) a duplicate.
		id = nil
	}
	for {
		_, err := js.PublishMsg(ctx, msg, id...)
		if err == nil || ctx.Err() != nil || w.Conn.IsClosed() {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
