package cluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// fakeOptions are the fake engine's options the external tests tune.
const fakeOptions = "Width:int:15:1:100,Share:float:0.7:0.01:0.9"

// externalReferee tunes the fake engine's two options through setoption,
// its engine named "fake".
func externalReferee(t *testing.T) *referee.VectorReferee {
	t.Helper()
	bin := fakeenginetest.Build(t)
	return &referee.VectorReferee{Setup: referee.Setup{Schema: engine.Symmetric, Settings: engine.DefaultSettings(), Pairs: 2, MaxMoves: 40,
		External: &referee.External{Engine: tournament.Engine{Name: "fake", Program: bin, Args: []string{"-options", fakeOptions}},
			Params: []engine.Param{{Name: "Width", Min: 1, Max: 100}, {Name: "Share", Float: true, Min: 0.01, Max: 0.9}}}}, Concurrency: 2}
}

func externalMatches() []optimize.Match {
	return []optimize.Match{
		{A: []float64{7, 0.25}, B: []float64{30, 0.5}},
		{A: []float64{15, 0.7}, B: []float64{3, 0.125}, WinnerOnly: true},
		{A: []float64{60, 0.9}, B: []float64{1, 0.01}},
		{A: []float64{2, 0.5}, B: []float64{9, 0.3}},
	}
}

// countGames counts a worker's games.
func countGames(w *Worker) *atomic.Int64 {
	var n atomic.Int64
	w.onGame = func() { n.Add(1) }
	return &n
}

// TestExternalEngineOnWorkers: a call of an external engine through the
// cluster gives the in-process referee's outcomes and games (the fake
// engine is deterministic), played by the worker that declared the
// engine alone: a worker without it plays none of them, and the results
// are checked, never replayed.
func TestExternalEngineOnWorkers(t *testing.T) {
	matches := externalMatches()
	in := externalReferee(t)
	defer in.Close()
	var want []tournament.GameRecord
	in.GameLog = func(g tournament.GameRecord) error { want = append(want, untimed(g)); return nil }
	wantOut, err := in.Play(context.Background(), 5, matches)
	if err != nil {
		t.Fatal(err)
	}
	c := newCluster(t, externalReferee(t))
	c.coord.VerifySample = 1
	var got []tournament.GameRecord
	c.coord.SetGameLog(func(g tournament.GameRecord) error { got = append(got, untimed(g)); return nil })
	fake, err := EngineOf(c.coord.Referee.External)
	if err != nil {
		t.Fatal(err)
	}
	with := &Worker{Conn: c.dial(t, "with"), Name: "with", Concurrency: 1, Engines: []tournament.Engine{fake}}
	without := &Worker{Conn: c.dial(t, "without"), Name: "without", Concurrency: 1}
	withGames, withoutGames := countGames(with), countGames(without)
	if err := c.coord.Prepare(context.Background()); err != nil { // the workers find the queue at once
		t.Fatal(err)
	}
	c.worker(t, with)
	c.worker(t, without)
	out, err := c.coord.Play(context.Background(), 5, matches)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, wantOut) || !reflect.DeepEqual(got, want) || len(want) < 12 {
		t.Fatalf("through the cluster: %v and %d games, in process %v and %d games", out, len(got), wantOut, len(want))
	}
	if withGames.Load() != int64(len(want)) || withoutGames.Load() != 0 {
		t.Errorf("games played: %d by the worker with the engine, %d by the one without, want %d and 0", withGames.Load(), withoutGames.Load(), len(want))
	}
	if st := c.coord.Stats(); st.Replayed != 0 || len(c.coord.QuarantinedWorkers()) > 0 {
		t.Errorf("an external engine's results are checked only: stats %+v, quarantined %v", st, c.coord.QuarantinedWorkers())
	}
}

// TestEngineNobodyHas: with only a worker without the engine and one
// whose engine of that name is another program (the fake with a byte
// appended), neither receives a batch; the coordinator says that no
// worker has the engine, and names the other program's worker with both
// fingerprints, which that worker logs too.
func TestEngineNobodyHas(t *testing.T) {
	ref := externalReferee(t)
	c := newCluster(t, ref)
	coordLog := &tunetest.SyncBuffer{}
	c.coord.Log, c.coord.EngineWait = coordLog, 200*time.Millisecond
	run, err := EngineOf(ref.External)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(run.Program)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "fake")
	if err := os.WriteFile(copyPath, append(data, 0), 0o755); err != nil {
		t.Fatal(err)
	}
	other, err := NewEngine("fake", copyPath, "")
	if err != nil || other.SHA256 == run.SHA256 {
		t.Fatalf("the copy: %+v, %v", other, err)
	}
	workerLog := &tunetest.SyncBuffer{}
	bare := &Worker{Conn: c.dial(t, "bare"), Name: "bare", Heartbeat: 50 * time.Millisecond}
	odd := &Worker{Conn: c.dial(t, "odd"), Name: "odd", Heartbeat: 50 * time.Millisecond, Engines: []tournament.Engine{other}, Log: workerLog}
	bareGames, oddGames := countGames(bare), countGames(odd)
	if err := c.coord.Prepare(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.worker(t, bare)
	c.worker(t, odd)
	ctx, cancel := context.WithTimeout(context.Background(), 800*time.Millisecond)
	defer cancel()
	if _, err := c.coord.Play(ctx, 1, externalMatches()); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a call no worker can play: %v, want the deadline", err)
	}
	said := coordLog.String()
	for _, want := range []string{
		"no connected worker has engine fake with sha256 " + run.SHA256,
		"connected: bare, odd",
		"worker odd has engine fake with sha256 " + other.SHA256 + ", the run's has sha256 " + run.SHA256,
	} {
		if !strings.Contains(said, want) {
			t.Errorf("the coordinator's log lacks %q:\n%s", want, said)
		}
	}
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(workerLog.String(), "this worker's binary") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if want := "engine fake: this worker's binary has sha256 " + other.SHA256 + ", the run's has " + run.SHA256; !strings.Contains(workerLog.String(), want) {
		t.Errorf("the odd worker's log lacks %q:\n%s", want, workerLog.String())
	}
	if bareGames.Load()+oddGames.Load() != 0 {
		t.Errorf("games played: %d, %d", bareGames.Load(), oddGames.Load())
	}
	// The batches wait, undelivered, on the run's engine's consumer.
	js, err := jetstream.New(c.coord.Conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []tournament.EngineID{run.ID(), other.ID()} {
		cons, err := js.Consumer(context.Background(), BatchStream, engineConsumer(id))
		if err != nil {
			t.Fatal(err)
		}
		info, err := cons.Info(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if info.Delivered.Consumer != 0 || (id == run.ID()) != (info.NumPending > 0) {
			t.Errorf("consumer %s: %d delivered, %d pending", info.Name, info.Delivered.Consumer, info.NumPending)
		}
	}
}

// TestParseEngine: a worker's -engine words, resolved and fingerprinted;
// each bad one refused naming the word or key.
func TestParseEngine(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "my.engine")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := ParseEngine([]string{"cmd=./my.engine", "dir=" + dir})
	if err != nil || e.Name != "my_engine" || e.Program != exe || e.Dir != dir {
		t.Fatalf("ParseEngine: %+v, %v", e, err)
	}
	sum := sha256.Sum256([]byte("#!/bin/sh\n"))
	if want := hex.EncodeToString(sum[:]); e.SHA256 != want {
		t.Errorf("fingerprint %s, the file's %s", e.SHA256, want)
	}
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"name=x", "path=/bin/sh"}, `word "path=/bin/sh": want key=value with key one of name, cmd, dir`},
		{[]string{"cmd=/bin/sh", "cmd=/bin/ls"}, `word "cmd=/bin/ls": cmd given twice`},
		{[]string{"name=x"}, "cmd=PATH is missing"},
		{[]string{"name=a.b", "cmd=" + exe}, `engine name "a.b": only letters, digits`},
		{[]string{"cmd=" + filepath.Join(dir, "none")}, "no such file"},
		{[]string{"cmd=" + exe, "dir=" + exe}, "is not a directory"},
	} {
		_, err := ParseEngine(c.words)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "flag -engine") {
			t.Errorf("ParseEngine(%q) = %v, want %q", c.words, err, c.want)
		}
	}
}

// TestExternalSetup: an external referee's setup names its engine by
// name and fingerprint, not path; a worker rebuilds the referee with its
// own copy of the program, and refuses with both fingerprints one whose
// program differs.
func TestExternalSetup(t *testing.T) {
	ref := externalReferee(t)
	ref.External.Args = append(ref.External.Args, "-noise")
	s := SetupOf(ref)
	own, err := EngineOf(ref.External)
	if err != nil {
		t.Fatal(err)
	}
	s.External.SHA256 = own.SHA256
	if len(s.Params) > 0 || s.External.Name != "fake" || !reflect.DeepEqual(s.External.Args, []string{"-options", fakeOptions, "-noise"}) || len(s.External.Params) != 2 {
		t.Fatalf("setup %+v, external %+v", s, s.External)
	}
	back, err := RefereeWith(s, 1, []tournament.Engine{own}, t.TempDir())
	if err != nil || back.External.Program != own.Program || !reflect.DeepEqual(back.External.Params, ref.External.Params) {
		t.Fatalf("rebuilt: %+v, %v", back, err)
	}
	if _, err := RefereeWith(s, 1, nil, ""); err == nil || !strings.Contains(err.Error(), "not one of this worker's engines") {
		t.Errorf("without the engine: %v", err)
	}
	other := own
	other.SHA256 = strings.Repeat("0", 64)
	if _, err := RefereeWith(s, 1, []tournament.Engine{other}, ""); err == nil || !strings.Contains(err.Error(), other.SHA256) || !strings.Contains(err.Error(), own.SHA256) {
		t.Errorf("another program: %v", err)
	}
	moved := s
	x := *s.External
	x.SHA256 = other.SHA256
	moved.External = &x
	if Fingerprint(EngineBuild, s) == Fingerprint(EngineBuild, moved) {
		t.Error("the fingerprint does not depend on the engine's program")
	}
}

// TestExternalSetupWire pins an external setup's JSON and fingerprint
// (those it had when package cluster wrote it with a type of its own):
// the engine by name, SHA-256 and arguments, never its path or directory;
// and a worker reads it back to the same bytes.
func TestExternalSetupWire(t *testing.T) {
	ref := externalReferee(t)
	ref.External.Args = append(ref.External.Args, "-noise")
	ref.External.Dir = t.TempDir()
	ref.External.InitStrings = []string{"depth 2"}
	ref.External.Pass, ref.External.Template = referee.PassInitStr, "param {name} {value}"
	ref.External.MoveTime, ref.External.Handshake = 2*time.Second, time.Second
	ref.Time = tournament.TimeControl{Base: time.Second, Inc: time.Millisecond}
	ref.Openings = []string{"JJ KJJK"}
	s := SetupOf(ref)
	s.External.SHA256 = strings.Repeat("a", 64)
	data, err := json.Marshal(s.External)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"fake","sha256":"` + s.External.SHA256 + `","args":["-options","` + fakeOptions + `","-noise"],"init_strings":["depth 2"],` +
		`"pass":"initstr","template":"param {name} {value}","move_time":2000000000,"handshake":1000000000,` +
		`"params":[{"name":"Width","min":1,"max":100},{"name":"Share","float":true,"min":0.01,"max":0.9}]}`
	if string(data) != want {
		t.Errorf("external setup\n%s\nwant\n%s", data, want)
	}
	if fp := Fingerprint(EngineBuild, s); fp != "d8bfca88c00082ac" {
		t.Errorf("fingerprint %s, was d8bfca88c00082ac", fp)
	}
	var back Setup
	if err := json.Unmarshal(mustJSON(t, s), &back); err != nil {
		t.Fatal(err)
	}
	if back.External.Program != "" || back.External.Dir != "" || !bytes.Equal(mustJSON(t, back), mustJSON(t, s)) {
		t.Errorf("read back as %+v", back.External)
	}
}

// mustJSON is v's JSON.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
