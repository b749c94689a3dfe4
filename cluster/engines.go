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
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// Engine is an external engine program this process can run for the
// batches that name it: the coordinator's own (EngineOf) or one a worker
// declares (NewEngine, ParseEngine).
type Engine struct {
	Name   string // as batches name it (referee.CheckEngineName)
	Path   string // the program file, absolute
	Dir    string // the engine's working directory ("" = the current one)
	SHA256 string // of the program file, 64 hex digits
}

// EngineID is an engine as batches and heartbeats name it: its name and
// its program's SHA-256.
type EngineID struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// ID is the engine's name and fingerprint.
func (e Engine) ID() EngineID { return EngineID{Name: e.Name, SHA256: e.SHA256} }

// ExternalSetup is the external engine of a Setup whose vectors stand for
// an external program (referee.External) as the coordinator sends it:
// the engine by name and fingerprint, never by path (each worker runs its
// own copy: Engine), and how the candidates' values reach it.
type ExternalSetup struct {
	Name        string   `json:"name"`
	SHA256      string   `json:"sha256"`
	Args        []string `json:"args,omitempty"` // after the program
	InitStrings []string `json:"init_strings,omitempty"`
	Pass        string   `json:"pass,omitempty"`
	Template    string   `json:"template,omitempty"`
	// MoveTime and Handshake are referee.External's, in nanoseconds.
	MoveTime  time.Duration `json:"move_time,omitempty"`
	Handshake time.Duration `json:"handshake,omitempty"`
	// Params are the engine's options a vector holds, in order.
	Params []ExternalParam `json:"params"`
}

// ExternalParam is one option of an external engine a vector holds a
// value for: name, integer or float, range (engine.Param's fields an
// external engine uses).
type ExternalParam struct {
	Name  string  `json:"name"`
	Float bool    `json:"float,omitempty"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
}

// NewEngine is the engine named name (referee.DefaultEngineName(cmd) for "")
// whose program cmd runs from dir: an absolute path, a path relative to
// dir ("": the current directory) or a name in $PATH, resolved as the
// external player starts it (tournament.ProgramPath), its SHA-256 read
// now. Errors: a bad name (referee.CheckEngineName), dir not a directory, a
// program that cannot be started (the path and why), a file that cannot
// be read.
func NewEngine(name, cmd, dir string) (Engine, error) {
	if name == "" {
		name = referee.DefaultEngineName(cmd)
	}
	if err := referee.CheckEngineName(name); err != nil {
		return Engine{}, err
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return Engine{}, err
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return Engine{}, fmt.Errorf("engine %s: dir %q is not a directory", name, dir)
		}
		dir = abs
	}
	path, err := tournament.ProgramPath(cmd, dir)
	if err != nil {
		return Engine{}, fmt.Errorf("engine %s: %w", name, err)
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return Engine{}, fmt.Errorf("engine %s: %w", name, err)
	}
	return Engine{Name: name, Path: path, Dir: dir, SHA256: sum}, nil
}

// EngineOf is the engine of an external referee as a coordinator runs it:
// x.Name (referee.DefaultEngineName of its program for ""), its program and
// directory, the program's SHA-256. Errors: NewEngine's.
func EngineOf(x *referee.External) (Engine, error) {
	if len(x.Command) == 0 {
		return Engine{}, errors.New("external engine: empty command")
	}
	return NewEngine(x.Name, x.Command[0], x.Dir)
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
func ParseEngine(words []string) (Engine, error) {
	got := map[string]string{}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		if !ok || !slices.Contains(EngineKeys, k) {
			return Engine{}, fmt.Errorf("flag -engine: word %q: want key=value with key one of %s", w, strings.Join(EngineKeys, ", "))
		}
		if _, dup := got[k]; dup {
			return Engine{}, fmt.Errorf("flag -engine: word %q: %s given twice", w, k)
		}
		got[k] = v
	}
	if got["cmd"] == "" {
		return Engine{}, fmt.Errorf("flag -engine %s: cmd=PATH is missing: the engine's program", strings.Join(words, " "))
	}
	e, err := NewEngine(got["name"], got["cmd"], got["dir"])
	if err != nil {
		return Engine{}, fmt.Errorf("flag -engine %s: %w", strings.Join(words, " "), err)
	}
	return e, nil
}

// externalSetupOf is x's engine and params as a Setup carries them; its
// SHA256 is left for the coordinator to fill in (EngineOf).
func externalSetupOf(x *referee.External, params []engine.Param) *ExternalSetup {
	name := x.Name
	if name == "" && len(x.Command) > 0 {
		name = referee.DefaultEngineName(x.Command[0])
	}
	s := &ExternalSetup{Name: name, InitStrings: x.InitStrings, Pass: string(x.Pass), Template: x.Template,
		MoveTime: x.MoveTime, Handshake: x.Handshake, Params: []ExternalParam{}}
	if len(x.Command) > 1 {
		s.Args = x.Command[1:]
	}
	for _, p := range params {
		s.Params = append(s.Params, ExternalParam{Name: p.Name, Float: p.Float, Min: p.Min, Max: p.Max})
	}
	return s
}

// local is the referee of the setup in this process (RefereeWith), an
// external engine's with engines and its values files in a temporary
// directory of its own; done ends the engine's processes and removes the
// directory.
func (s Setup) local(concurrency int, engines []Engine) (ref *referee.VectorReferee, done func(), err error) {
	if s.External == nil {
		ref, err = s.Referee(concurrency)
		return ref, func() {}, err
	}
	dir, err := os.MkdirTemp("", "roadtune-values-")
	if err != nil {
		return nil, nil, err
	}
	if ref, err = s.RefereeWith(concurrency, engines, dir); err != nil {
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

// referee is the external engine of the setup as this process runs it:
// its own engine of that name, which must have the setup's SHA-256, with
// values files (the file ways) in fileDir. Errors: no engine of the name
// here, another program under the name (both fingerprints named), a
// parameter without a name or range, what referee.External.Check refuses.
func (s *ExternalSetup) referee(engines []Engine, fileDir string) (*referee.External, []engine.Param, error) {
	var own *Engine
	for i := range engines {
		if engines[i].Name == s.Name {
			own = &engines[i]
		}
	}
	switch {
	case own == nil:
		return nil, nil, fmt.Errorf("engine %s: not one of this worker's engines (declare it: -engine name=%s cmd=PATH, a program with sha256 %s)", s.Name, s.Name, s.SHA256)
	case own.SHA256 != s.SHA256:
		return nil, nil, errors.New(mismatch(s.Name, own.SHA256, s.SHA256))
	}
	params := make([]engine.Param, len(s.Params))
	for i, p := range s.Params {
		if p.Name == "" || !(p.Min <= p.Max) {
			return nil, nil, fmt.Errorf("engine %s: parameter %d: name %q, range [%g, %g]", s.Name, i, p.Name, p.Min, p.Max)
		}
		params[i] = engine.Param{Name: p.Name, Float: p.Float, Min: p.Min, Max: p.Max}
	}
	x := &referee.External{Name: s.Name, Command: append([]string{own.Path}, s.Args...), Dir: own.Dir,
		InitStrings: s.InitStrings, Pass: referee.Pass(s.Pass), Template: s.Template, FileDir: fileDir,
		MoveTime: s.MoveTime, Handshake: s.Handshake}
	if err := x.Check(params); err != nil {
		return nil, nil, fmt.Errorf("engine %s: %w", s.Name, err)
	}
	return x, params, nil
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
func engineSubjects(id EngineID) string { return engineBatches + id.Name + "." + id.SHA256 + "." }

// engineConsumer is the durable consumer of the batches that need engine
// id: "roadtune-engine-NAME-" and 16 hex digits of its SHA-256.
func engineConsumer(id EngineID) string {
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
	var ids []EngineID
	for _, e := range w.Engines {
		cons, err := js.Consumer(ctx, BatchStream, engineConsumer(e.ID()))
		if err != nil {
			cons, err = createEngineConsumer(ctx, js, e.ID(), ackWait, maxDeliver)
		}
		if err != nil {
			w.logf("engine %s left out: %v", e.Name, err)
			continue
		}
		w.logf("engine %s: %s (sha256 %s): takes the batches of runs with this program", e.Name, e.Path, e.SHA256)
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
