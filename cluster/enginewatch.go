// This file holds what the coordinator says while batches wait for an
// external engine: that no live worker has it, and which workers have
// another program under its name.

package cluster

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/roadtune/roadtune/tournament"
)

// DefaultEngineWait is how long a call whose batches need an external
// engine waits with no live worker announcing that engine before the
// coordinator says so, and how often it says it again, unless
// Coordinator.EngineWait says otherwise.
const DefaultEngineWait = 10 * time.Second

// noticePrefix starts the subjects of the coordinator's notices to one
// worker (core NATS): noticePrefix + the worker's Heartbeat.ID.
const noticePrefix = "roadtune.workers.notice."

func noticeSubject(id string) string { return noticePrefix + id }

// Notice is the coordinator's word to one worker, as JSON on the
// worker's notice subject: why it does not receive a run's batches.
type Notice struct {
	Run  string `json:"run"`
	Text string `json:"text"`
}

// engineWatch follows, during a call, which live workers announce the
// engine the call's batches need (their heartbeats: Heartbeat.Engines).
type engineWatch struct {
	c      *Coordinator
	need   tournament.Engine
	run    string
	roster *Roster
	end    func()
	since  time.Time // the call's start, or the last time a worker had the engine or the coordinator said none has
}

// watchEngine starts following the workers for a call that needs engine
// need: through Coordinator.Roster, or a roster of the call's own.
// Errors: a closed connection.
func (c *Coordinator) watchEngine(need tournament.Engine, run string) (*engineWatch, error) {
	w := &engineWatch{c: c, need: need, run: run, roster: c.Roster, end: func() {}, since: time.Now()}
	if w.roster == nil {
		w.roster = &Roster{}
		end, err := w.roster.Watch(c.Conn)
		if err != nil {
			return nil, err
		}
		w.end = end
	}
	return w, nil
}

func (w *engineWatch) stop() { w.end() }

// wait is Coordinator.EngineWait with its default.
func (w *engineWatch) wait() time.Duration {
	if w.c.EngineWait > 0 {
		return w.c.EngineWait
	}
	return DefaultEngineWait
}

// every is how often check runs.
func (w *engineWatch) every() time.Duration { return min(w.wait(), time.Second) }

// check counts the live workers that announce the engine with the run's
// SHA-256: none for EngineWait, it says so on Log (with the workers that
// are connected) and again every EngineWait; a worker that announces
// another program under the engine's name is told, and named on Log, once
// (tellMismatch).
func (w *engineWatch) check() {
	snap := w.roster.Status()
	have := 0
	var names []string
	for _, ws := range snap.Workers {
		names = append(names, ws.Name)
		for _, e := range ws.Engines {
			switch {
			case e.Name != w.need.Name:
			case e.SHA256 == w.need.SHA256:
				have++
			default:
				w.c.tellMismatch(ws, e, w.need, w.run)
			}
		}
	}
	now := time.Now()
	if have > 0 {
		w.since = now
		return
	}
	if now.Sub(w.since) < w.wait() {
		return
	}
	w.since = now
	connected := "no worker is connected"
	if len(names) > 0 {
		connected = fmt.Sprintf("connected: %s", list(names))
	}
	w.c.logf("cluster: no connected worker has engine %s with sha256 %s: the batches that need it wait in the queue (%s); start a worker with -engine name=%s cmd=PATH, PATH a program with that SHA-256",
		w.need.Name, w.need.SHA256, connected, w.need.Name)
}

// tellMismatch names on Log, once per worker and program, a worker whose
// engine of the run's engine's name is another program, and tells the
// worker (its Notice) with both fingerprints.
func (c *Coordinator) tellMismatch(ws WorkerStatus, e tournament.EngineID, need tournament.Engine, run string) {
	key := ws.ID + " " + e.SHA256
	c.mu.Lock()
	if c.engineSaid == nil {
		c.engineSaid = map[string]bool{}
	}
	said := c.engineSaid[key]
	c.engineSaid[key] = true
	c.mu.Unlock()
	if said {
		return
	}
	c.logf("cluster: worker %s has engine %s with sha256 %s, the run's has sha256 %s: it never receives the run's batches of %s; give it the coordinator's program",
		ws.Name, e.Name, e.SHA256, need.SHA256, e.Name)
	if data, err := json.Marshal(Notice{Run: run, Text: mismatch(e.Name, e.SHA256, need.SHA256)}); err == nil {
		c.Conn.Publish(noticeSubject(ws.ID), data)
	}
}
