package cluster

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/roadtune/roadtune/tournament"
)

// HeartbeatSubject is where every worker announces itself (core NATS: not
// stored, seen only by those listening). It names no run: a worker serves
// whichever run's batches it pulls.
const HeartbeatSubject = "roadtune.workers.heartbeat"

// DefaultHeartbeat is how often a worker announces itself unless
// Worker.Heartbeat says otherwise. A Roster takes a worker for lost after
// LostAfter of its heartbeats go missing.
const (
	DefaultHeartbeat = 2 * time.Second
	LostAfter        = 3
)

// Heartbeat is what a worker says of itself, as JSON on HeartbeatSubject:
// once when Worker.Run starts, then every Every seconds, and a last one
// with Stopping set when Run returns.
type Heartbeat struct {
	ID          string  `json:"id"`          // one per Worker.Run: tells apart two workers of one name
	Worker      string  `json:"worker"`      // the worker's name
	Games       int64   `json:"games"`       // games played since Run started
	Batches     int     `json:"batches"`     // batches being played now
	Slots       int     `json:"slots"`       // batches played at once at most
	Concurrency int     `json:"concurrency"` // games at once per batch
	Every       float64 `json:"every"`       // seconds to the next heartbeat
	Stopping    bool    `json:"stopping,omitempty"`
	// Engines are the external engines whose batches the worker takes
	// (Worker.Engines, once their consumers exist).
	Engines []tournament.EngineID `json:"engines,omitempty"`
}

// liveCounts is what a worker's heartbeats report of its play.
type liveCounts struct {
	games   atomic.Int64
	batches atomic.Int32
	engines atomic.Pointer[[]tournament.EngineID]
}

// announce sends the worker's heartbeats until the returned function is
// called, which sends the last one (Stopping) and waits for it to leave.
func (w *Worker) announce(slots int) (stop func()) {
	every := w.Heartbeat
	if every <= 0 {
		every = DefaultHeartbeat
	}
	conc := w.Concurrency
	if conc <= 0 {
		conc = runtime.GOMAXPROCS(0)
	}
	hb := Heartbeat{ID: w.id, Worker: w.name(), Slots: slots, Concurrency: conc, Every: every.Seconds()}
	send := func(stopping bool) {
		hb.Games, hb.Batches, hb.Stopping = w.live.games.Load(), int(w.live.batches.Load()), stopping
		if e := w.live.engines.Load(); e != nil {
			hb.Engines = *e
		}
		if data, err := json.Marshal(hb); err == nil {
			w.Conn.Publish(HeartbeatSubject, data) // lost in a network break: the next one tells
		}
	}
	send(false)
	stopBeats := repeat(every, func() { send(false) })
	return func() {
		stopBeats()
		send(true)
		w.Conn.FlushTimeout(time.Second)
	}
}

// repeat calls f every d from a goroutine of its own until stop is
// called, which waits for a call under way to return.
func repeat(d time.Duration, f func()) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				f()
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// Roster follows the workers through their heartbeats: which are alive,
// what they play and how fast. It reports a worker that joins, stops or
// goes silent for more than LostAfter heartbeats (lost: killed, crashed,
// cut off; the batches it held go to other workers once the consumer's
// ack wait passes). Set its fields before Watch or the first Heard; its
// methods may be called from any goroutine.
type Roster struct {
	// Log, when set, receives one line per worker joined, stopped, lost
	// or back.
	Log io.Writer
	// OnChange, when set, is called with the new snapshot after each
	// heartbeat and each loss (from the goroutine that saw it; keep it
	// short).
	OnChange func(Snapshot)
	// Window is the recent span games/s is measured over (default 20 s).
	Window time.Duration
	// Now is the roster's clock (default time.Now); tests set it.
	Now func() time.Time
	// Quarantined, when set, names the workers whose results are dropped
	// (Coordinator.QuarantinedWorkers), for Snapshot.Quarantined.
	Quarantined func() []string

	mu      sync.Mutex
	workers map[string]*watched // by Heartbeat.ID
}

// watched is one worker as the roster knows it.
type watched struct {
	last    Heartbeat
	heard   time.Time
	samples []sample // (time, games), oldest first, spanning about Window
	lost    time.Time
}

type sample struct {
	at    time.Time
	games int64
}

// LostShown is how long a lost worker stays in Snapshot.Lost.
const LostShown = time.Minute

// Snapshot is the roster at one moment.
type Snapshot struct {
	Workers        []WorkerStatus // the live workers, by name
	Lost           []string       // names of the workers lost in the last LostShown, by name
	Quarantined    []string       // names of the workers whose results the coordinator drops, by name
	Batches        int            // batches being played: Workers' Batches summed
	GamesPerSecond float64        // Workers' GamesPerSecond summed
}

// WorkerStatus is one live worker in a Snapshot.
type WorkerStatus struct {
	ID                 string                // of its heartbeats (one per Worker.Run)
	Engines            []tournament.EngineID // the external engines it announces
	Name               string
	Games              int64         // games played since the worker started
	Batches            int           // batches being played now
	Slots, Concurrency int           // batches at once at most, games at once per batch
	GamesPerSecond     float64       // over the roster's Window; 0 until two heartbeats
	Heard              time.Duration // since its last heartbeat
	Every              time.Duration // between its heartbeats, as it announced
}

func (r *Roster) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Roster) say(format string, args ...any) {
	if r.Log != nil {
		fmt.Fprintf(r.Log, format+"\n", args...)
	}
}

// Watch subscribes to the workers' heartbeats on nc and checks for
// silent workers every second until stop is called. Errors: a closed
// connection.
func (r *Roster) Watch(nc *nats.Conn) (stop func(), err error) {
	sub, err := nc.Subscribe(HeartbeatSubject, func(m *nats.Msg) {
		if h, ok := heartbeatOf(m.Data); ok {
			r.Heard(h)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: workers' heartbeats: %w", err)
	}
	stopChecks := repeat(time.Second, r.Check)
	return func() { sub.Unsubscribe(); stopChecks() }, nil
}

// MaxHeartbeat is the longest interval between heartbeats a Roster takes
// from a worker.
const MaxHeartbeat = time.Hour

// heartbeatOf reads a heartbeat message; ok is false for one that is not
// a heartbeat (no ID) or says what no worker can: a count below 0, or
// seconds to the next heartbeat below 0 or beyond MaxHeartbeat (a
// worker announcing "games": -5 was shown with -5 games, one announcing
// "every": 1e300 was taken for lost at once, its interval overflowing).
func heartbeatOf(data []byte) (h Heartbeat, ok bool) {
	if json.Unmarshal(data, &h) != nil || h.ID == "" {
		return h, false
	}
	return h, h.Games >= 0 && h.Batches >= 0 && h.Slots >= 0 && h.Concurrency >= 0 &&
		h.Every >= 0 && h.Every <= MaxHeartbeat.Seconds()
}

// Heard records a heartbeat received now (Roster.Now): a new worker is
// reported joined, a lost one back, a Stopping one stopped (and dropped).
func (r *Roster) Heard(h Heartbeat) {
	r.mu.Lock()
	now := r.now()
	if r.workers == nil {
		r.workers = map[string]*watched{}
	}
	w := r.workers[h.ID]
	switch {
	case h.Stopping:
		if w != nil {
			delete(r.workers, h.ID)
			r.say("worker %s stopped after %d games; the batches it held went back to the queue", h.Worker, h.Games)
		}
	case w == nil:
		w = &watched{}
		r.workers[h.ID] = w
		r.say("worker %s joined: %d batch%s at once, %d game%s at once in each", h.Worker, h.Slots, plural(h.Slots, "es"), h.Concurrency, plural(h.Concurrency, "s"))
	case !w.lost.IsZero():
		r.say("worker %s is back after %s of silence", h.Worker, now.Sub(w.heard).Round(time.Second))
		w.lost, w.samples = time.Time{}, nil
	}
	if w != nil && !h.Stopping {
		if n := len(w.samples); n > 0 && h.Games < w.samples[n-1].games {
			w.samples = nil // another count: measure afresh
		}
		w.last, w.heard = h, now
		w.samples = append(w.samples, sample{now, h.Games})
		window := r.Window
		if window <= 0 {
			window = 20 * time.Second
		}
		// Keep one sample at or before the window's start, so the rate
		// spans the whole window.
		for len(w.samples) > 2 && !w.samples[1].at.After(now.Add(-window)) {
			w.samples = w.samples[1:]
		}
	}
	snap := r.snapshot(now)
	r.mu.Unlock()
	if r.OnChange != nil {
		r.OnChange(snap)
	}
}

// Check reports the workers silent for more than LostAfter heartbeats
// as lost, once each, and forgets those lost longer than LostShown ago.
func (r *Roster) Check() {
	r.mu.Lock()
	changed := r.check(r.now())
	snap := r.snapshot(r.now())
	r.mu.Unlock()
	if changed && r.OnChange != nil {
		r.OnChange(snap)
	}
}

func (r *Roster) check(now time.Time) (changed bool) {
	for id, w := range r.workers {
		switch {
		case !w.lost.IsZero():
			if now.Sub(w.lost) > LostShown {
				delete(r.workers, id)
				changed = true
			}
		case now.Sub(w.heard) > LostAfter*w.every():
			w.lost = now
			changed = true
			r.say("worker %s lost (last heard %s ago); its batches go to other workers after the ack wait", w.last.Worker, now.Sub(w.heard).Round(time.Second))
		}
	}
	return changed
}

func (w *watched) every() time.Duration {
	if w.last.Every <= 0 {
		return DefaultHeartbeat
	}
	return time.Duration(w.last.Every * float64(time.Second))
}

// Status is the roster now (losses checked first).
func (r *Roster) Status() Snapshot {
	r.Check()
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.snapshot(r.now())
}

func (r *Roster) snapshot(now time.Time) Snapshot {
	var s Snapshot
	for _, w := range r.workers {
		if !w.lost.IsZero() {
			s.Lost = append(s.Lost, w.last.Worker)
			continue
		}
		st := WorkerStatus{ID: w.last.ID, Engines: w.last.Engines, Name: w.last.Worker, Games: w.last.Games, Batches: w.last.Batches,
			Slots: w.last.Slots, Concurrency: w.last.Concurrency,
			Heard: now.Sub(w.heard), Every: w.every()}
		if first, last := w.samples[0], w.samples[len(w.samples)-1]; last.at.After(first.at) {
			st.GamesPerSecond = float64(last.games-first.games) / last.at.Sub(first.at).Seconds()
		}
		s.Workers = append(s.Workers, st)
		s.Batches += st.Batches
		s.GamesPerSecond += st.GamesPerSecond
	}
	slices.SortFunc(s.Workers, func(a, b WorkerStatus) int { return strings.Compare(a.Name, b.Name) })
	slices.Sort(s.Lost)
	if r.Quarantined != nil {
		s.Quarantined = r.Quarantined()
	}
	return s
}

// String is the snapshot in one short line, e.g. "2 workers, 3 batches
// in flight, 41 g/s (w1 20, w2 21), lost: w3, quarantined: w4": at most
// three workers' rates, lost and quarantined names are listed, "…"
// standing for the others.
func (s Snapshot) String() string {
	var b strings.Builder
	switch len(s.Workers) {
	case 0:
		b.WriteString("no workers")
	case 1:
		b.WriteString("1 worker")
	default:
		fmt.Fprintf(&b, "%d workers", len(s.Workers))
	}
	if len(s.Workers) > 0 {
		fmt.Fprintf(&b, ", %d batch%s in flight, %s g/s", s.Batches, plural(s.Batches, "es"), rate(s.GamesPerSecond))
		var each []string
		for _, w := range s.Workers {
			each = append(each, w.Name+" "+rate(w.GamesPerSecond))
		}
		fmt.Fprintf(&b, " (%s)", list(each))
	}
	if len(s.Lost) > 0 {
		fmt.Fprintf(&b, ", lost: %s", list(s.Lost))
	}
	if len(s.Quarantined) > 0 {
		fmt.Fprintf(&b, ", quarantined: %s", list(s.Quarantined))
	}
	return b.String()
}

// list joins up to three items, "…" standing for more.
func list(items []string) string {
	if len(items) > 3 {
		items = append(items[:3:3], "…")
	}
	return strings.Join(items, ", ")
}

func plural(n int, suffix string) string {
	if n == 1 {
		return ""
	}
	return suffix
}

// rate is games/s to two significant digits or so: 41, 3.5, 0.2.
func rate(x float64) string {
	if x >= 10 {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}

// watchWorkers starts the session's roster (its lines to the session's
// log, its snapshots to SessionOptions.Workers); Close stops it.
func (s *Session) watchWorkers() error {
	s.roster = &Roster{Log: s.o.Log, OnChange: s.o.Workers, Quarantined: s.coord.QuarantinedWorkers}
	stop, err := s.roster.Watch(s.conn)
	if err != nil {
		return err
	}
	s.stops = append(s.stops, stop)
	return nil
}

// Workers is the live view of the workers (Roster.Status); empty before
// Start.
func (s *Session) Workers() Snapshot {
	if s.roster == nil {
		return Snapshot{}
	}
	return s.roster.Status()
}
