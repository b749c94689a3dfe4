// Package cluster plays a tuning run's or an arena match's games on many
// machines through NATS JetStream: a Coordinator is the run's optimize.Referee (and
// optimize.Sampler), which cuts every call into batches of matches and
// publishes them to a work-queue stream; Workers anywhere pull the
// batches, play them with the in-process engine referee
// (referee.VectorReferee.PlayRange) and publish the results, which the
// coordinator puts back in order. A batch is a pure function of its
// content (seed, matches, game settings), so a run's results do not depend
// on the number of workers, on which worker played which batch, or on
// redeliveries: they equal the in-process referee's.
//
// The server is either embedded in the coordinator's process (StartServer,
// its storage in the run directory) or an existing NATS deployment (Dial).
// An unacknowledged batch is delivered again after the consumer's ack
// wait, so a worker that dies loses only the batch it was playing; a
// worker extends the wait with in-progress acknowledgements while it
// plays; message ids de-duplicate results, and the coordinator drops any
// result it already has. A call made again (a restarted coordinator's
// step) takes the results already stored and queues only the other
// batches, each replacing any copy of it an earlier call left in the
// queue; an error result stored before the call is not final there: its
// batch is played again.
//
// Of roadtune the cluster imports only the referee, optimize, tournament
// and engine (deps_test.go checks): it knows referees and games, never a
// tuning job, whose launch hooks (tune.ClusterHooks) sit above it.
package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// Coordinator is an optimize.Referee and optimize.Sampler that plays its
// matches on workers. Set its fields before the first call; it is safe for
// one call at a time.
type Coordinator struct {
	// Conn is the connection to the NATS server.
	Conn *nats.Conn
	// Run names the run on the server (RunName of it is used): the subject
	// its batches and results go to.
	Run string
	// Referee holds the game settings (schema, engine settings, pairs,
	// openings, early stop, move limit) sent with every batch; its
	// concurrency and callbacks are not used.
	Referee *referee.VectorReferee
	// BatchGames is the least number of games of a batch (default 16): a
	// batch holds ⌈BatchGames / (2·Pairs)⌉ matches, the last one of a call
	// fewer.
	BatchGames int
	// AckWait is how long a worker may hold a batch without acknowledging
	// it or reporting progress before it is delivered to another (default
	// 30 s); MaxDeliver the most deliveries of a batch (default 5), after
	// which the call fails. Both configure the workers' consumer.
	AckWait    time.Duration
	MaxDeliver int
	// Progress, when set, is told the games of the call's finished batches
	// and the games scheduled (2·Pairs per match).
	Progress func(done, total int)
	// Build is the engine build announced in batches (default EngineBuild);
	// tests change it.
	Build string
	// Log, when set, receives a line when a worker refuses batches (once
	// per worker and reason).
	Log io.Writer

	mu       sync.Mutex
	js       jetstream.JetStream
	refusals map[string]bool // logged
	gameLog  func(tournament.GameRecord) error
}

// SetGameLog makes every later call ask the workers for the game records
// too and pass them to log in game order once the call's batches are all
// in (referee.GameLogger, for output.games).
func (c *Coordinator) SetGameLog(log func(tournament.GameRecord) error) { c.gameLog = log }

var (
	_ optimize.Referee   = (*Coordinator)(nil)
	_ optimize.Sampler   = (*Coordinator)(nil)
	_ referee.GameLogger = (*Coordinator)(nil)
)

// Play plays the matches on the workers and returns their outcomes in
// order: those referee.VectorReferee.Play gives with the same settings and
// seed. A batch a worker refuses (Refusal) goes to another worker.
// Errors: no connection or queue, a batch a worker could not read or
// play (its reason), a batch delivered MaxDeliver times without a result
// (with the refusals of it seen), a cancelled ctx (wrapping ctx.Err()).
func (c *Coordinator) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	out, _, err := c.call(ctx, seed, matches, false)
	return out, err
}

// Sample plays the matches as Play does and also returns the positions of
// their games: those referee.VectorReferee.Sample gives. Errors: as Play.
func (c *Coordinator) Sample(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, []optimize.Position, error) {
	return c.call(ctx, seed, matches, true)
}

// Prepare creates the queue (CreateQueue) if it is not there yet; the
// first call does it otherwise. Errors: no connection, a server without
// JetStream.
func (c *Coordinator) Prepare(ctx context.Context) error {
	_, err := c.queue(ctx)
	return err
}

// queue creates (or updates) the streams and the workers' consumer once.
func (c *Coordinator) queue(ctx context.Context) (jetstream.JetStream, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.js != nil {
		return c.js, nil
	}
	if c.Conn == nil {
		return nil, errors.New("cluster: the coordinator has no connection")
	}
	js, err := jetstream.New(c.Conn)
	if err != nil {
		return nil, err
	}
	if err := CreateQueue(ctx, js, c.AckWait, c.MaxDeliver); err != nil {
		return nil, err
	}
	c.js = js
	return js, nil
}

// CreateQueue creates or updates the streams (file storage) and the
// workers' durable pull consumer: explicit acks, ackWait (default 30 s),
// maxDeliver deliveries at most (default 5). Results are kept a day, long
// enough for a restarted coordinator to find those of its last step.
func CreateQueue(ctx context.Context, js jetstream.JetStream, ackWait time.Duration, maxDeliver int) error {
	if ackWait <= 0 {
		ackWait = 30 * time.Second
	}
	if maxDeliver <= 0 {
		maxDeliver = 5
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: BatchStream, Subjects: []string{batchSubjects + ">"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Duplicates: 2 * time.Minute,
	}); err != nil {
		return fmt.Errorf("cluster: stream %s: %w", BatchStream, err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: ResultStream, Subjects: []string{resultPrefix + ">"},
		Retention: jetstream.LimitsPolicy, Storage: jetstream.FileStorage, Duplicates: 2 * time.Minute, MaxAge: 24 * time.Hour,
	}); err != nil {
		return fmt.Errorf("cluster: stream %s: %w", ResultStream, err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, BatchStream, jetstream.ConsumerConfig{
		Durable: WorkerGroup, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxDeliver: maxDeliver,
		FilterSubject: batchSubjects + ">",
	}); err != nil {
		return fmt.Errorf("cluster: consumer %s: %w", WorkerGroup, err)
	}
	return nil
}

// batches cuts a call into batches of at least BatchGames games.
func (c *Coordinator) batches(seed uint64, matches []optimize.Match, sample bool) []*Batch {
	setup := SetupOf(c.Referee)
	build := buildOr(c.Build)
	games := c.BatchGames
	if games <= 0 {
		games = 16
	}
	per := max(1, (games+2*setup.Pairs-1)/(2*setup.Pairs))
	var out []*Batch
	for first := 0; first < len(matches); first += per {
		end := min(first+per, len(matches))
		out = append(out, &Batch{Protocol: protocol, Build: build, Fingerprint: Fingerprint(build, setup),
			Run: RunName(c.Run), Seed: seed, First: first, Total: len(matches), Sample: sample, Games: c.gameLog != nil,
			Setup: setup, Matches: matches[first:end]})
	}
	return out
}

// advisory is the part of a JetStream consumer advisory the coordinator
// reads (max deliveries reached, message terminated).
type advisory struct {
	StreamSeq  uint64 `json:"stream_seq"`
	Deliveries uint64 `json:"deliveries"`
	Reason     string `json:"reason"`
	kind       string
}

// call publishes the call's batches and gathers their results.
func (c *Coordinator) call(ctx context.Context, seed uint64, matches []optimize.Match, sample bool) ([]optimize.Outcome, []optimize.Position, error) {
	if len(matches) == 0 {
		return nil, nil, nil
	}
	if c.Referee == nil {
		return nil, nil, errors.New("cluster: the coordinator has no referee settings")
	}
	batches := c.batches(seed, matches, sample)
	out := make([]optimize.Outcome, len(matches))
	var pos []optimize.Position
	var games []tournament.GameRecord
	pairs := SetupOf(c.Referee).Pairs
	total, done := 2*pairs*len(matches), 0
	parcels := make([]parcel, len(batches))
	for i, b := range batches {
		parcels[i] = parcel{batch: b, key: b.Key(), name: describe(b)}
	}
	err := c.exchange(ctx, batches[0].Run, resultSubject(batches[0].Run, seed), parcels, func(p parcel, r Result) error {
		b := p.batch.(*Batch)
		if len(r.Outcomes) != len(b.Matches) {
			return fmt.Errorf("cluster: batch %s: worker %s returned %d outcomes", p.name, r.Worker, len(r.Outcomes))
		}
		copy(out[b.First:], r.Outcomes)
		pos = append(pos, r.Positions...)
		games = append(games, r.Records...)
		done += 2 * pairs * len(b.Matches)
		if c.Progress != nil {
			c.Progress(done, total)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Each batch's positions are in game order; games of different
	// batches interleave (referee.Range), so merge by game number.
	slices.SortStableFunc(pos, func(a, b optimize.Position) int { return a.Game - b.Game })
	if c.gameLog != nil {
		slices.SortFunc(games, func(a, b tournament.GameRecord) int { return a.Game - b.Game })
		for _, g := range games {
			if err := c.gameLog(g); err != nil {
				return nil, nil, err
			}
		}
	}
	return out, pos, nil
}

// parcel is one batch on its way: the message (a *Batch or a
// *GamesBatch), its key and its name in messages.
type parcel struct {
	batch any
	key   string
	name  string
}

// exchange queues the parcels (each on a subject of its own; not those
// whose result is already stored, and each replacing any copy an earlier
// call left in the queue) and hands each one's result (read from subject,
// results stored before included) to got, once, until every parcel has
// one. Errors: a worker's error
// result, a batch a worker refused or that reached its maximum
// deliveries, got's error, a cancelled ctx.
func (c *Coordinator) exchange(ctx context.Context, run, subject string, parcels []parcel, got func(parcel, Result) error) error {
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
	notes := make(chan *nats.Msg, 256)
	for _, subject := range []string{advisorySubject("MAX_DELIVERIES"), advisorySubject("MSG_TERMINATED"), refusalSubject(run)} {
		sub, err := c.Conn.ChanSubscribe(subject, notes)
		if err != nil {
			return fmt.Errorf("cluster: advisories: %w", err)
		}
		defer sub.Unsubscribe()
	}
	refused := map[string][]string{} // by batch key

	pending := map[string]parcel{}
	for _, p := range parcels {
		pending[p.key] = p
	}
	replaced := map[string]bool{} // parcels whose copy left by an earlier call was replaced
	// take reads a result message: a pending parcel's result goes to got;
	// a worker's error result fails the exchange, unless stored says it
	// was sent before the exchange began (a dead coordinator's step made
	// again): then it is not final, and the batch is played again.
	take := func(m jetstream.Msg, stored bool) error {
		r, err := decodeResult(m.Data())
		if err != nil {
			return nil // not a result of this protocol
		}
		p, ok := pending[r.Key]
		switch {
		case !ok:
			return nil // a duplicate, or another call's on the same subject
		case r.Error != "" && stored:
			return nil
		case r.Error != "":
			return fmt.Errorf("cluster: batch %s: worker %s: %s", p.name, r.Worker, r.Error)
		}
		if err := got(p, r); err != nil {
			return err
		}
		delete(pending, r.Key)
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
	bySeq := map[uint64]string{}
	for _, p := range parcels {
		if _, ok := pending[p.key]; !ok {
			continue
		}
		old := queued[batchSubject(p.key)] > 0
		seq, err := enqueue(ctx, js, p, old)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("cluster: %w", ctx.Err())
			}
			return fmt.Errorf("cluster: queueing batch %s: %w", p.name, err)
		}
		bySeq[seq] = p.key
		replaced[p.key] = old
	}

	for len(pending) > 0 {
		select {
		case <-ctx.Done():
			return fmt.Errorf("cluster: %w", ctx.Err())
		case m := <-notes:
			if r, ok := refusalOf(m, pending); ok {
				c.noteRefusal(r, refused)
				continue
			}
			a := advisory{kind: strings.Split(m.Subject, ".")[4]}
			if json.Unmarshal(m.Data, &a) != nil {
				continue
			}
			p, ok := pending[bySeq[a.StreamSeq]]
			if !ok {
				continue // another run's batch, a replaced copy, or one already answered
			}
			if a.kind == "MSG_TERMINATED" {
				return fmt.Errorf("cluster: batch %s refused by a worker: %s", p.name, a.Reason)
			}
			return fmt.Errorf("cluster: batch %s delivered %d times without a result (max_deliver of consumer %s): %s", p.name, a.Deliveries, WorkerGroup, exhausted(refused[p.key]))
		case m := <-results:
			if err := take(m, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// subjects returns the stream's message count of every subject that
// matches filter and holds messages.
func subjects(ctx context.Context, js jetstream.JetStream, stream, filter string) (map[string]uint64, error) {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return nil, fmt.Errorf("cluster: stream %s: %w", stream, err)
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(filter))
	if err != nil {
		return nil, fmt.Errorf("cluster: stream %s, subjects %s: %w", stream, filter, err)
	}
	return info.State.Subjects, nil
}

// enqueue queues p's batch and returns its stream sequence. With old (a
// copy an earlier call left in the queue, a killed coordinator's), that
// copy is removed first: it may have been delivered MaxDeliver times, and
// then is never delivered again; and once the server's de-duplication
// window has passed, a copy published beside it would be played twice. A
// worker still playing the old copy sends a result that counts all the
// same.
func enqueue(ctx context.Context, js jetstream.JetStream, p parcel, old bool) (uint64, error) {
	data, err := json.Marshal(p.batch)
	if err != nil {
		return 0, err
	}
	if old {
		if err := unqueue(ctx, js, p); err != nil {
			return 0, err
		}
	}
	ack, err := js.PublishMsg(ctx, &nats.Msg{Subject: batchSubject(p.key), Data: data})
	if err != nil {
		return 0, err
	}
	return ack.Sequence, nil
}

// unqueue removes p's copies from the queue, whether a worker plays them
// or not.
func unqueue(ctx context.Context, js jetstream.JetStream, p parcel) error {
	s, err := js.Stream(ctx, BatchStream)
	if err == nil {
		err = s.Purge(ctx, jetstream.WithPurgeSubject(batchSubject(p.key)))
	}
	if err != nil {
		return fmt.Errorf("removing a copy of batch %s from the queue: %w", p.name, err)
	}
	return nil
}

// advisorySubject is where the server tells of kind (MAX_DELIVERIES,
// MSG_TERMINATED) happening to a batch of the workers' consumer.
func advisorySubject(kind string) string {
	return fmt.Sprintf("$JS.EVENT.ADVISORY.CONSUMER.%s.%s.%s", kind, BatchStream, WorkerGroup)
}

// describe names a batch in messages.
func describe(b *Batch) string {
	return fmt.Sprintf("(run %s, seed %d, matches %d–%d of %d)", b.Run, b.Seed, b.First, b.First+len(b.Matches)-1, b.Total)
}
