package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/tournament"
)

// work is a batch as the exchange handles it (a *Batch or a *GamesBatch).
type work interface {
	// checkResult is why r cannot be the batch's result, nil if it can.
	checkResult(r Result) error
	// maxResult is the most bytes the JSON of a result of the batch can
	// take: a result message that inflates to more is refused unread.
	maxResult() int64
	// replay plays the batch in this process, an external engine's games
	// with engines; errTimed when its games play by the clock.
	replay(ctx context.Context, concurrency int, engines []tournament.Engine) (Result, error)
	// checkedOnly reports whether a result is only checked, never
	// replayed to verify it: games by the clock, or an external engine's.
	checkedOnly() bool
	// queue is the subject the batch with key is queued on.
	queue(key string) string
	// again is the batch queued once more under a new key, for other
	// workers; false when it cannot be (its result subject would change).
	again() (work, bool)
}

// parcel is one batch on its way: the message, its key, its queue
// subject and its name in messages.
type parcel struct {
	batch work
	key   string
	queue string
	name  string
}

// newParcel is b on its way, named name in messages.
func newParcel(b work, name string) parcel {
	key := keyOf(b)
	return parcel{batch: b, key: key, queue: b.queue(key), name: name}
}

// maxRequeues is how often a batch whose result was refused goes back to
// the queue before the coordinator plays it itself.
const maxRequeues = 2

// verdict is the end of a replay: the coordinator's result of parcel i
// and the worker's result it verifies (none when forced: a batch the
// coordinator plays for want of a worker it can trust).
type verdict struct {
	i      int
	worker Result
	replay Result
	forced bool
	err    error
}

// exchange queues the parcels (each on a subject of its own; not those
// whose result is already stored, and each replacing any copy an earlier
// call left in the queue), judges each result read from subject (results
// stored before included) and, once every parcel has an accepted result,
// hands them to got in parcel order. progress, when set, is told of each
// result accepted (+1) and revoked (−1). need, when set, is the external
// engine the parcels' games need (the coordinator's own): the coordinator
// replays a batch with it when it must play it itself, and says on Log
// while it waits when no live worker has it (watchEngine).
//
// Judging: a result of a quarantined worker is dropped; a result that
// fails its batch's consistency checks is refused and its worker
// quarantined; a result of a worker no replay has verified yet, or of a
// batch sampled for verification (VerifySample), is replayed in this
// process and compared (not for timed games). A worker whose result
// differs from the replay is quarantined: the replay's result is taken,
// and the worker's other results of the call are revoked. A refused,
// dropped or revoked batch goes back to the queue under a new key for
// other workers (maxRequeues times; then, and for a games batch, the
// coordinator plays it itself).
//
// A worker's error result counts against it (Coordinator.failed: the
// worker is quarantined at MaxErrors) and its batch is queued again, as
// is a batch a worker ended (terminated). A result that inflates to more
// than its batch can produce (maxResult) is refused unread, as an
// impossible one. A batch whose deliveries reached the consumer's maximum
// is queued again when some of them were given back (NAKs, which the
// server announces): only the others, those that ended without a result,
// count toward MaxDeliver.
//
// Errors: a batch MaxDeliver of whose deliveries (refusals not counted)
// ended without a result, a replay's or got's error, a cancelled ctx.
func (c *Coordinator) exchange(ctx context.Context, run, subject string, parcels []parcel, need *tournament.Engine, progress func(p parcel, sign int), got func(parcel, Result) error) error {
	js, err := c.queue(ctx)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// Listen before publishing: for results (those already stored
	// included, e.g. of a step a restarted coordinator plays again), for
	// the workers' consumer's advisories and for the workers' refusals
	// (on one channel: in the order the server sent them).
	results := make(chan jetstream.Msg, 64)
	cons, err := js.OrderedConsumer(ctx, ResultStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{subject}, DeliverPolicy: jetstream.DeliverAllPolicy})
	if err != nil {
		return fmt.Errorf("cluster: results on %s: %w", subject, err)
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		select {
		case results <- m:
		case <-ctx.Done():
		}
	})
	if err != nil {
		return fmt.Errorf("cluster: results on %s: %w", subject, err)
	}
	defer cc.Stop()
	notes := make(chan *nats.Msg, 4096) // a worker may give batches back fast: each give-back is a note
	var engines []tournament.Engine
	var watch *engineWatch
	var tick <-chan time.Time
	if need != nil {
		engines = []tournament.Engine{*need}
		if watch, err = c.watchEngine(*need, run); err != nil {
			return err
		}
		defer watch.stop()
		t := time.NewTicker(watch.every())
		defer t.Stop()
		tick = t.C
	}
	for _, subject := range []string{advisorySubject("MAX_DELIVERIES"), advisorySubject("MSG_TERMINATED"), advisorySubject("MSG_NAKED"), refusalSubject(run)} {
		sub, err := c.Conn.ChanSubscribe(subject, notes)
		if err != nil {
			return fmt.Errorf("cluster: advisories: %w", err)
		}
		defer sub.Unsubscribe()
	}
	refused := map[string][]string{} // by batch key
	naks := map[uint64]int{}         // given-back deliveries by stream sequence
	_, maxDeliver := queueDefaults(c.AckWait, c.MaxDeliver)
	var limit int64 // the most bytes a result of any parcel inflates to
	for _, p := range parcels {
		limit = max(limit, p.batch.maxResult())
	}

	current := append([]parcel(nil), parcels...) // as last queued
	accepted := make([]*Result, len(parcels))
	from := make([]string, len(parcels)) // the worker whose result was accepted; "" a replay's
	tries := make([]int, len(parcels))   // requeues
	lost := make([]int, len(parcels))    // deliveries that ended without a result, refusals not counted
	said := make([]bool, len(parcels))   // the refusals of a parcel logged
	pending := map[string]int{}          // keys awaiting a worker's result
	for i, p := range parcels {
		pending[p.key] = i
	}
	open := len(parcels)
	later := map[string]Result{}  // results stored for keys not (yet) pending
	replaced := map[string]bool{} // parcels whose copy left by an earlier call was replaced
	bySeq := map[uint64]string{}
	verdicts := make(chan verdict, len(parcels))
	replaying := c.replaySlot()
	var judge func(i int, r Result) error

	replay := func(i int, r Result, forced bool) {
		b := current[i].batch
		go func() {
			select {
			case replaying <- struct{}{}:
			case <-ctx.Done():
				return
			}
			rr, err := b.replay(ctx, c.ReplayConcurrency, engines)
			<-replaying
			select {
			case verdicts <- verdict{i: i, worker: r, replay: rr, forced: forced, err: err}:
			case <-ctx.Done():
			}
		}()
	}
	publish := func(i int, old bool) error {
		p := current[i]
		seq, err := enqueue(ctx, js, p, old)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("cluster: %w", ctx.Err())
			}
			return fmt.Errorf("cluster: queueing batch %s: %w", p.name, err)
		}
		bySeq[seq] = p.key
		return nil
	}
	// requeue gives parcel i's batch to other workers, or plays it here.
	requeue := func(i int) error {
		next, ok := current[i].batch.again()
		if !ok || tries[i] >= maxRequeues {
			replay(i, Result{}, true)
			return nil
		}
		tries[i]++
		p := newParcel(next, parcels[i].name)
		current[i], pending[p.key] = p, i
		if r, ok := later[p.key]; ok { // a restarted coordinator's requeue, played already
			delete(later, p.key)
			delete(pending, p.key)
			return judge(i, r)
		}
		return publish(i, false)
	}
	accept := func(i int, r Result, worker string) {
		accepted[i], from[i] = &r, worker
		open--
		c.count(func(s *VerifyStats) { s.Accepted += gamesOf(r) })
		if progress != nil {
			progress(parcels[i], 1)
		}
	}
	// revoke takes back the results of worker accepted in this call.
	revoke := func(worker string) error {
		for i, r := range accepted {
			if r == nil || from[i] != worker {
				continue
			}
			accepted[i], from[i] = nil, ""
			open++
			c.count(func(s *VerifyStats) { s.Accepted -= gamesOf(*r); s.Revoked++ })
			if progress != nil {
				progress(parcels[i], -1)
			}
			if err := requeue(i); err != nil {
				return err
			}
		}
		return nil
	}
	quarantine := func(worker, why string) error {
		c.quarantine(worker, why)
		return revoke(worker)
	}
	// refuse drops an impossible result of parcel i and quarantines its
	// worker.
	refuse := func(i int, worker string, why error) error {
		p := current[i]
		c.count(func(s *VerifyStats) { s.Refused++ })
		c.logf("cluster: batch %s: refused the result of worker %s: %v", p.name, worker, why)
		if err := quarantine(worker, fmt.Sprintf("an impossible result of batch %s: %v", p.name, why)); err != nil {
			return err
		}
		return requeue(i)
	}
	// failed takes an error result of parcel i: it counts against its
	// worker, and the batch goes to another (its copy, if a worker still
	// holds one, leaves the queue).
	failed := func(i int, r Result) error {
		p := current[i]
		if !c.Quarantined(r.Worker) {
			n, last := c.failed(r.Worker)
			c.logf("cluster: batch %s: worker %s sent an error instead of a result (%d): %s; the batch is played again", p.name, r.Worker, n, clip(r.Error))
			if last {
				if err := quarantine(r.Worker, fmt.Sprintf("%d error results", n)); err != nil {
					return err
				}
			}
		}
		if err := unqueue(ctx, js, p); err != nil && ctx.Err() == nil {
			return fmt.Errorf("cluster: %w", err)
		}
		return requeue(i)
	}
	judge = func(i int, r Result) error {
		p := current[i]
		if c.Quarantined(r.Worker) {
			c.logf("cluster: batch %s: dropped the result of quarantined worker %s; the batch is played again", p.name, r.Worker)
			return requeue(i)
		}
		if err := p.batch.checkResult(r); err != nil {
			return refuse(i, r.Worker, err)
		}
		if !p.batch.checkedOnly() && c.mustReplay(p.key, r.Worker) {
			replay(i, r, false)
			return nil
		}
		accept(i, r, r.Worker)
		return nil
	}
	// take reads a result message: a pending parcel's result is judged; a
	// worker's error result counts against the worker (failed), unless
	// stored says it was sent before the exchange began (a dead
	// coordinator's step made again): then the batch is simply played
	// again. A message that inflates beyond limit is refused, as an
	// impossible result of the batch its key names.
	take := func(m jetstream.Msg, stored bool) error {
		r, err := decodeResult(m.Data(), limit)
		i, ok := pending[r.Key]
		switch {
		case errors.Is(err, errTooLarge) && ok && !stored:
			delete(pending, r.Key)
			if c.Quarantined(r.Worker) {
				return judge(i, r) // dropped
			}
			return refuse(i, r.Worker, err)
		case err != nil:
			return nil // not a result of this protocol, or a stored one refused unread
		case !ok && stored:
			later[r.Key] = r
			return nil
		case !ok:
			return nil // a duplicate, or another call's on the same subject
		case r.Error != "" && stored:
			return nil
		case r.Error != "":
			delete(pending, r.Key)
			return failed(i, r)
		}
		delete(pending, r.Key)
		p := current[i] // judge may queue the batch again under a new key
		if err := judge(i, r); err != nil {
			return err
		}
		if replaced[r.Key] { // the old copy was played after all: drop the new one if still queued
			if err := unqueue(ctx, js, p); err != nil && ctx.Err() == nil {
				return fmt.Errorf("cluster: %w", err)
			}
		}
		return nil
	}

	// Results stored before this exchange (a restarted coordinator's step
	// made again) come first: their batches are not queued again.
	stored, err := subjects(ctx, js, ResultStream, subject)
	if err != nil {
		return err
	}
	for range stored[subject] {
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: %w", ctx.Err())
		case m := <-results:
			if err := take(m, true); err != nil {
				return err
			}
		}
	}

	queued, err := subjects(ctx, js, BatchStream, runBatches(run))
	if err != nil {
		return err
	}
	if need != nil {
		ext, err := subjects(ctx, js, BatchStream, runEngineBatches(run))
		if err != nil {
			return err
		}
		maps.Copy(queued, ext)
	}
	for _, p := range parcels {
		i, ok := pending[p.key]
		if !ok {
			continue
		}
		old := queued[p.queue] > 0
		if err := publish(i, old); err != nil {
			return err
		}
		replaced[p.key] = old
	}

	for open > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: %w", ctx.Err())
		case v := <-verdicts:
			if v.err != nil {
				return fmt.Errorf("cluster: replaying batch %s: %w", current[v.i].name, v.err)
			}
			c.count(func(s *VerifyStats) { s.Replayed += gamesOf(v.replay) })
			switch {
			case v.forced || c.Quarantined(v.worker.Worker):
				accept(v.i, v.replay, "")
			case sameResult(v.worker, v.replay):
				c.trust(v.worker.Worker)
				accept(v.i, v.worker, v.worker.Worker)
			default:
				c.count(func(s *VerifyStats) { s.Mismatched++ })
				c.logf("cluster: batch %s: the result of worker %s differs from the coordinator's replay; the replay's is taken", current[v.i].name, v.worker.Worker)
				accept(v.i, v.replay, "")
				if err := quarantine(v.worker.Worker, fmt.Sprintf("its result of batch %s differs from the coordinator's replay", current[v.i].name)); err != nil {
					return err
				}
			}
		case m := <-notes:
			if r, ok := refusalOf(m, pending); ok {
				c.noteRefusal(r, refused)
				continue
			}
			a := advisory{kind: strings.Split(m.Subject, ".")[4]}
			if json.Unmarshal(m.Data, &a) != nil {
				continue
			}
			key := bySeq[a.StreamSeq]
			i, ok := pending[key]
			if !ok {
				continue // another run's batch, a replaced copy, or one already answered
			}
			switch a.kind {
			case "MSG_NAKED":
				naks[a.StreamSeq]++
				continue
			case "MSG_TERMINATED":
				if lost[i]++; lost[i] >= maxDeliver {
					return fmt.Errorf("cluster: batch %s ended by workers %d times without a result, last: %s", current[i].name, lost[i], clip(a.Reason))
				}
				c.logf("cluster: batch %s ended by a worker without a result (%s); it is queued again", current[i].name, clip(a.Reason))
			default: // MAX_DELIVERIES
				given := naks[a.StreamSeq]
				if given == 0 {
					return fmt.Errorf("cluster: batch %s delivered %d times without a result (max_deliver of consumer %s): %s", current[i].name, a.Deliveries, WorkerGroup, exhausted(refused[key]))
				}
				if lost[i] += max(int(a.Deliveries)-given, 0); lost[i] >= maxDeliver {
					return fmt.Errorf("cluster: batch %s: %d deliveries ended without a result (max_deliver of consumer %s), refusals not counted: %s", current[i].name, lost[i], WorkerGroup, exhausted(refused[key]))
				}
				if !said[i] {
					said[i] = true
					c.logf("cluster: batch %s: workers gave it back %d times (%s); it is queued again and waits for a worker that plays it", current[i].name, given, givenBack(refused[key]))
				}
			}
			delete(bySeq, a.StreamSeq)
			delete(naks, a.StreamSeq)
			if err := publish(i, true); err != nil {
				return err
			}
		case m := <-results:
			if err := take(m, false); err != nil {
				return err
			}
		case <-tick:
			watch.check()
		}
	}
	for i, p := range parcels {
		if err := got(p, *accepted[i]); err != nil {
			return err
		}
	}
	return nil
}

// keyOf is a queued batch's key.
func keyOf(w work) string {
	switch b := w.(type) {
	case *Batch:
		return b.Key()
	case *GamesBatch:
		return b.Key()
	}
	panic(fmt.Sprintf("cluster: no key for %T", w))
}

// gamesOf is the number of games a result counts: its outcomes' games, or
// its records for a games batch.
func gamesOf(r Result) int64 {
	if len(r.Outcomes) == 0 {
		return int64(len(r.Records))
	}
	var n int64
	for _, o := range r.Outcomes {
		n += int64(o.Games())
	}
	return n
}
