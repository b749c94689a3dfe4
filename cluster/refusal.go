package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// A worker that cannot play a batch exactly (another engine build, game
// settings it cannot read) gives it back for other workers: the batch is
// delivered again after RefusalDelay, and the worker pulls no batch for a
// pause that starts at FirstRefusalPause and doubles with every refusal
// up to MaxRefusalPause, until it plays a batch again. A pull cannot
// choose a fingerprint, so pausing is what keeps a foreign worker from
// taking the batches again and again before a compatible worker takes
// them. A given-back delivery does not count toward the batches' failures
// (the coordinator queues a batch whose deliveries refusals used up
// again), so neither a foreign worker nor a hostile one that refuses every
// batch can fail a call: the batch waits for a worker that plays it.
const (
	RefusalDelay      = time.Second
	FirstRefusalPause = time.Second
	MaxRefusalPause   = 30 * time.Second
)

// refusalPrefix starts the subjects of refusal notices, one per run
// (core NATS).
const refusalPrefix = "roadtune.refused."

func refusalSubject(run string) string { return refusalPrefix + run }

// Refusal is a worker's notice, as JSON on the run's refusal subject, that
// it gave back a batch it cannot play exactly.
type Refusal struct {
	Worker string `json:"worker"`
	Key    string `json:"key"` // the batch's Key
	Reason string `json:"reason"`
}

// backoff is a worker's pause after refusals.
type backoff struct {
	mu    sync.Mutex
	until time.Time       // no pulls before
	next  time.Duration   // the pause after the next refusal
	said  map[string]bool // reasons logged
}

// refused starts a pause unless one is under way and says whether the
// reason is new.
func (b *backoff) refused(reason string, now time.Time) (first bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.said == nil {
		b.said = map[string]bool{}
	}
	first, b.said[reason] = !b.said[reason], true
	if !now.Before(b.until) {
		b.next = max(b.next, FirstRefusalPause)
		b.until = now.Add(b.next)
		b.next = min(2*b.next, MaxRefusalPause)
	}
	return first
}

// played ends the pauses: the worker plays this server's batches.
func (b *backoff) played() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.until, b.next = time.Time{}, 0
}

// wait returns when the pause is over or ctx is done.
func (b *backoff) wait(ctx context.Context) {
	b.mu.Lock()
	d := time.Until(b.until)
	b.mu.Unlock()
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// giveBack refuses a batch: a notice to the coordinator first (so it
// reaches the coordinator before any advisory the batch's redelivery
// causes), then the batch back to the queue after RefusalDelay, and a
// pause of this worker's pulls.
func (w *Worker) giveBack(msg jetstream.Msg, run, key, name, reason string) {
	first := w.pause.refused(reason, time.Now())
	if data, err := json.Marshal(Refusal{Worker: w.name(), Key: key, Reason: reason}); err == nil {
		w.Conn.Publish(refusalSubject(run), data)
	}
	msg.NakWithDelay(RefusalDelay)
	if first {
		w.logf("refused batch %s: %s; it goes back to the queue for other workers, and this worker pulls batches less often (at most every %s) until it can play one", name, reason, MaxRefusalPause)
	}
}

// refusalOf reads a refusal notice of a pending batch; ok is false for
// any other message.
func refusalOf(m *nats.Msg, pending map[string]int) (r Refusal, ok bool) {
	if !strings.HasPrefix(m.Subject, refusalPrefix) || json.Unmarshal(m.Data, &r) != nil {
		return r, false
	}
	_, ok = pending[r.Key]
	return r, ok
}

// noteRefusal records a refusal of a pending batch in refused (by batch
// key: "worker W: reason" lines) and logs it once per worker and reason
// over the coordinator's life.
func (c *Coordinator) noteRefusal(r Refusal, refused map[string][]string) {
	line := fmt.Sprintf("worker %s: %s", clip(r.Worker), clip(r.Reason))
	if !slices.Contains(refused[r.Key], line) {
		refused[r.Key] = append(refused[r.Key], line)
	}
	c.mu.Lock()
	if c.refusals == nil {
		c.refusals = map[string]bool{}
	}
	first := !c.refusals[line]
	c.refusals[line] = true
	c.mu.Unlock()
	if first && c.Log != nil {
		fmt.Fprintf(c.Log, "worker %s refuses batches; they go to other workers (a batch none plays waits for one that does): %s\n", clip(r.Worker), clip(r.Reason))
	}
}

// givenBack names the refusals of a batch given back, or says the
// workers gave no notice.
func givenBack(refusals []string) string {
	if len(refusals) == 0 {
		return "without a refusal notice"
	}
	return "refused by " + strings.Join(refusals, "; ")
}

// exhausted is why a batch was delivered max_deliver times without a
// result: the refusals seen, else the workers that took it stopped.
func exhausted(refusals []string) string {
	if len(refusals) == 0 {
		return "the workers that took it stopped or failed"
	}
	return "no worker could play it; refused by " + strings.Join(refusals, "; ")
}
