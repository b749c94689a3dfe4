package cluster

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/internal/crash"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// Worker pulls batches from the queue, plays them with the in-process
// engine (or an external engine it declares: Engines) and publishes their
// results: the fishtest or OpenBench client, over JetStream. It takes one batch per slot at a time, reports progress
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
	// HeartbeatSubject (default DefaultHeartbeat, 2 s; at most
	// MaxHeartbeat): name, games played, batches in hand, engines.
	Heartbeat time.Duration
	// Engines are the external engines the worker runs for the batches
	// that need them (NewEngine, ParseEngine: a name, the program's
	// absolute path, a directory and the program's SHA-256; names
	// distinct): for each,
	// the worker takes batches from the consumer of its name and
	// SHA-256 (besides the in-process engine's batches), so it receives
	// only the batches of runs whose engine is the same program. It logs
	// the notice of a coordinator whose run has another program under one
	// of these names, both fingerprints named.
	Engines []tournament.Engine

	onGame func()     // test hook: called after each game played
	live   liveCounts // what the heartbeats report
	pause  backoff    // after refusals
	id     string     // of the heartbeats
}

// Run plays batches until ctx is cancelled (then it returns nil, the
// batches in hand given back for redelivery at once) or the connection is
// closed for good. It waits for the queue when no coordinator has created
// it yet, and rides out network breaks (the connection reconnects, Run
// retries).
//
// Errors: two Engines of one name, a closed connection, a notice
// subscription that fails.
func (w *Worker) Run(ctx context.Context) error {
	seen := map[string]bool{}
	for _, e := range w.Engines {
		if seen[e.Name] {
			return fmt.Errorf("cluster: two engines named %s", e.Name)
		}
		seen[e.Name] = true
	}
	js, err := jetstream.New(w.Conn)
	if err != nil {
		return err
	}
	w.id = rand.Text()
	notices, err := w.listen()
	if err != nil {
		return err
	}
	defer notices.Unsubscribe()
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
	cfg := cons.CachedInfo().Config
	every := cfg.AckWait / 3
	if every <= 0 {
		every = 10 * time.Second
	}
	consumers := append([]jetstream.Consumer{cons}, w.engineConsumers(ctx, js, cfg.AckWait, cfg.MaxDeliver)...)
	slots := w.slots()
	// Every consumer has slots loops, and a loop holds one of the slots
	// tokens while it plays a batch, so no more than slots batches play
	// at once. A loop waits for a batch without a token (an idle
	// consumer's loops keep no other's waiting); with a single consumer
	// a loop that holds a batch always finds a token free.
	tokens := make(chan struct{}, slots)
	errs := make(chan error, slots*len(consumers))
	for _, cons := range consumers {
		for range slots {
			go func() {
				var err error
				defer func() { errs <- err }()
				defer crash.Recover(&err)
				err = w.loop(ctx, js, cons, every, tokens)
			}()
		}
	}
	for range slots * len(consumers) {
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

// slot is what a loop keeps between batches: the referee of the last
// setup (its engines are reused), its fingerprint, what ends its external
// processes, and the engines of games batches.
type slot struct {
	ref   *referee.VectorReferee
	print string
	done  func()
	games tournament.EnginePool
}

// drop ends the slot's referee.
func (s *slot) drop() {
	if s.done != nil {
		s.done()
	}
	s.ref, s.print, s.done = nil, "", nil
}

// loop is one slot of one consumer: fetch a batch, take a slot token
// (telling the server the batch is in progress while it waits for one),
// play the batch, give the token back, again.
func (w *Worker) loop(ctx context.Context, js jetstream.JetStream, cons jetstream.Consumer, every time.Duration, tokens chan struct{}) error {
	var sl slot
	defer sl.drop()
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
			if !take(ctx, tokens, msg, every) {
				msg.Nak() // stopping: another worker takes it at once
				continue
			}
			w.handle(ctx, js, msg, every, &sl)
			<-tokens
		}
		cancel()
	}
	return nil
}

// take takes a slot token for msg, reporting msg in progress every
// while it waits for one; false when ctx ends first.
func take(ctx context.Context, tokens chan struct{}, msg jetstream.Msg, every time.Duration) bool {
	if ctx.Err() != nil {
		return false
	}
	select {
	case tokens <- struct{}{}:
		return true
	default:
	}
	defer repeat(every, func() { msg.InProgress() })()
	select {
	case tokens <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// handle plays one batch with the slot's referee (made anew for another
// setup), or refuses it.
func (w *Worker) handle(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg, every time.Duration, sl *slot) {
	var b Batch
	if err := json.Unmarshal(msg.Data(), &b); err != nil || b.Protocol != protocol {
		reason := fmt.Sprintf("worker %s cannot read the batch (protocol %d, this worker's %d): %v", w.name(), b.Protocol, protocol, err)
		w.logf("%s", reason)
		msg.TermWithReason(reason)
		return
	}
	if b.Kind == kindGames {
		w.playGames(ctx, js, msg, &sl.games, every)
		return
	}
	if b.Fingerprint != sl.print || sl.ref == nil {
		sl.drop()
		if reason := w.refuse(&b); reason != "" {
			w.giveBack(msg, b.Run, b.Key(), describe(&b), reason)
			return
		}
		ref, done, err := localReferee(b.Setup, w.Concurrency, w.Engines)
		if err != nil {
			w.giveBack(msg, b.Run, b.Key(), describe(&b), fmt.Sprintf("game settings this worker cannot play: %v", err))
			return
		}
		sl.ref, sl.print, sl.done = ref, b.Fingerprint, done
	}
	w.play(ctx, js, msg, &b, sl.ref, every)
}

// refuse is why this worker cannot play the batch's games exactly, "" if
// it can (the setup is checked as its referee is made: localReferee).
func (w *Worker) refuse(b *Batch) string {
	build := buildOr(w.Build)
	if fp := Fingerprint(build, b.Setup); fp != b.Fingerprint {
		return foreign(b.Fingerprint, fp, b.Build, build)
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
