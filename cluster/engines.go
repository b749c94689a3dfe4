// This file holds external engines on workers: how a batch names the
// engine it needs (by name and the SHA-256 of its program, never by a
// path), how a worker declares the engines it can run, and the queue
// subjects that route a batch only to the workers that have its engine.

package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// NewEngine is the external engine this process runs for the batches
// that name it (a worker's -engine, the coordinator's own: EngineOf): its
// name (referee.DefaultEngineName(cmd) for ""), its Program cmd
// resolved from dir as the external player starts it
// (tournament.ProgramPath: an absolute path, a path relative to dir ("":
// the current directory) or a name in $PATH) to an absolute path, dir
// made absolute, and the program's SHA-256, read now; no arguments
// (batches carry them). Its ID (name and SHA-256) is what batches and
// heartbeats name it by. Errors: a bad name (referee.CheckEngineName), dir not a
// directory, a program that cannot be started (the path and why), a file
// that cannot be read.
func NewEngine(name, cmd, dir string) (tournament.Engine, error) {
	if name == "" {
		name = referee.DefaultEngineName(cmd)
	}
	if err := referee.CheckEngineName(name); err != nil {
		return tournament.Engine{}, err
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return tournament.Engine{}, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return tournament.Engine{}, fmt.Errorf("engine %s: dir %q is not a directory", name, dir)
		}
		dir = abs
	}
	path, err := tournament.ProgramPath(cmd, dir)
	if err != nil {
		return tournament.Engine{}, fmt.Errorf("engine %s: %w", name, err)
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return tournament.Engine{}, fmt.Errorf("engine %s: %w", name, err)
	}
	return tournament.Engine{Name: name, Program: path, Dir: dir, SHA256: sum}, nil
}

// EngineOf is the engine of an external referee as a coordinator runs it
// (NewEngine): x.Name (referee.DefaultEngineName of its program for ""),
// its program and directory, the program's SHA-256. Errors: NewEngine's.
func EngineOf(x *referee.External) (tournament.Engine, error) {
	if x.Program == "" {
		return tournament.Engine{}, errors.New("external engine: empty command")
	}
	return NewEngine(x.Name, x.Program, x.Dir)
}

// fileSHA256 is the SHA-256 of the file at path in hex.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// EngineKeys are the keys of a worker's -engine words.
var EngineKeys = []string{"name", "cmd", "dir"}

// ParseEngine reads the words of a worker's -engine flag, `name=N
// cmd=PATH [dir=DIR]` (name defaults to referee.DefaultEngineName(PATH)), and
// returns the engine (NewEngine: the program resolved, its SHA-256 read).
// Errors name the word or the key: a word that is not key=value of
// EngineKeys, a key given twice, no cmd=, and NewEngine's.
func ParseEngine(words []string) (tournament.Engine, error) {
	got := map[string]string{}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || !slices.Contains(EngineKeys, k) {
			return tournament.Engine{}, fmt.Errorf("flag -engine: word %q: want key=value with key one of %s", w, strings.Join(EngineKeys, ", "))
		}
		if _, dup := got[k]; dup {
			return tournament.Engine{}, fmt.Errorf("flag -engine: word %q: %s given twice", w, k)
		}
		got[k] = v
	}
	if got["cmd"] == "" {
		return tournament.Engine{}, fmt.Errorf("flag -engine %s: cmd=PATH is missing: the engine's program", strings.Join(words, " "))
	}
	e, err := NewEngine(got["name"], got["cmd"], got["dir"])
	if err != nil {
		return tournament.Engine{}, fmt.Errorf("flag -engine %s: %w", strings.Join(words, " "), err)
	}
	return e, nil
}

// localReferee is the referee of the setup in this process
// (RefereeWith), an external engine's with engines and its values files
// in a temporary directory of its own; done ends the engine's processes
// and removes the directory.
func localReferee(s Setup, concurrency int, engines []tournament.Engine) (ref *referee.VectorReferee, done func(), err error) {
	if s.External == nil {
		ref, err = RefereeWith(s, concurrency, nil, "")
		return ref, func() {}, err
	}
	dir, err := os.MkdirTemp("", "roadtune-values-")
	if err != nil {
		return nil, nil, err
	}
	if ref, err = RefereeWith(s, concurrency, engines, dir); err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return ref, func() { ref.Close(); os.RemoveAll(dir) }, nil
}

// mismatch says that this process's engine name has another program than
// the run's.
func mismatch(name, mine, run string) string {
	return fmt.Sprintf("engine %s: this worker's binary has sha256 %s, the run's has %s", name, mine, run)
}

// ownExternal is the setup's external engine x as this process runs it:
// a copy with the program and directory of its own engine of that name
// (one of engines, which must have x's SHA-256) and values files (the
// file ways) in fileDir. Errors: no engine of the name here, another
// program under the name (both fingerprints named).
func ownExternal(x *referee.External, engines []tournament.Engine, fileDir string) (*referee.External, error) {
	i := -1
	for k := range engines {
		if engines[k].Name == x.Name {
			i = k
		}
	}
	switch {
	case i < 0:
		return nil, fmt.Errorf("engine %s: not one of this worker's engines (declare it: -engine name=%s cmd=PATH, a program with sha256 %s)", x.Name, x.Name, x.SHA256)
	case engines[i].SHA256 != x.SHA256:
		return nil, errors.New(mismatch(x.Name, engines[i].SHA256, x.SHA256))
	}
	own := *x
	own.Program, own.Dir, own.FileDir = engines[i].Program, engines[i].Dir, fileDir
	return &own, nil
}

// The queue subjects of batches that need an external engine: one subject
// per engine and fingerprint, below it the batch's key, and one durable
// pull consumer per engine and fingerprint filtered to it, which the
// workers that have that engine share (and the coordinator creates too).
// A worker without the engine never consumes from it, so never receives
// the batches.
const engineBatches = "roadtune.engine."

// engineSubjects prefixes the queue subjects of the batches that need
// engine id.
func engineSubjects(id tournament.EngineID) string {
	return engineBatches + id.Name + "." + id.SHA256 + "."
}

// engineConsumer is the durable consumer of the batches that need engine
// id: "roadtune-engine-NAME-" and 16 hex digits of its SHA-256.
func engineConsumer(id tournament.EngineID) string {
	return fmt.Sprintf("%s-engine-%s-%.16s", WorkerGroup, id.Name, id.SHA256)
}

// runEngineBatches matches the queue subjects of a run's batches that
// need an external engine, any engine.
func runEngineBatches(run string) string { return engineBatches + "*.*." + run + ".>" }

// engineConsumers are the consumers of the worker's engines (created with
// ackWait and maxDeliver, the workers' consumer's, when missing), and
// the engines the heartbeats announce from now on. An engine whose
// consumer cannot be made (a server whose queue predates external
// engines) is left out, with a line on Log.
func (w *Worker) engineConsumers(ctx context.Context, js jetstream.JetStream, ackWait time.Duration, maxDeliver int) []jetstream.Consumer {
	var out []jetstream.Consumer
	var ids []tournament.EngineID
	for _, e := range w.Engines {
		cons, err := js.Consumer(ctx, BatchStream, engineConsumer(e.ID()))
		if err != nil {
			cons, err = createEngineConsumer(ctx, js, e.ID(), ackWait, maxDeliver)
		}
		if err != nil {
			w.logf("engine %s left out: %v", e.Name, err)
			continue
		}
		w.logf("engine %s: %s (sha256 %s): takes the batches of runs with this program", e.Name, e.Program, e.SHA256)
		out = append(out, cons)
		ids = append(ids, e.ID())
	}
	w.live.engines.Store(&ids)
	return out
}

// listen subscribes to the coordinators' notices to this worker and logs
// each once.
func (w *Worker) listen() (*nats.Subscription, error) {
	var mu sync.Mutex
	said := map[string]bool{}
	sub, err := w.Conn.Subscribe(noticeSubject(w.id), func(m *nats.Msg) {
		var n Notice
		if json.Unmarshal(m.Data, &n) != nil {
			return
		}
		line := fmt.Sprintf("run %s: %s: this worker does not receive its batches of that engine; run the coordinator's program", n.Run, n.Text)
		mu.Lock()
		first := !said[line]
		said[line] = true
		mu.Unlock()
		if first {
			w.logf("%s", line)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: notices: %w", err)
	}
	return sub, nil
}
