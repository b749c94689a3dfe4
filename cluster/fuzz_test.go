package cluster

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// fuzzSetup is a small in-process setup for the batch seeds.
func fuzzSetup() Setup {
	st := engine.DefaultSettings()
	st.Depth, st.Width = 1, 4
	return Setup{Schema: engine.Symmetric, Settings: st, Pairs: 1}
}

// FuzzDecodeResult reads arbitrary bytes as a worker's result message
// (decodeResult, gzip-compressed JSON, inflated at most to what a
// two-match batch can produce): no panic; a result that decodes passes the coordinator's check of a two-match batch or fails it with an
// error, never a panic; and it encodes (EncodeResult) to a message that
// decodes to the same result.
func FuzzDecodeResult(f *testing.F) {
	for _, r := range []Result{
		{Key: "k", Worker: "w", Outcomes: []optimize.Outcome{{Wins: 1, Losses: 1}, {Draws: 2}}, Seconds: 0.5},
		{Key: "k", Worker: "w", Error: "boom"},
		{Key: "k", Outcomes: []optimize.Outcome{{Wins: -1, Losses: 3}}},
		{Key: "k", Records: []tournament.GameRecord{{Game: 3, Black: "a", White: "b", BlackIndex: 0, WhiteIndex: 1, Result: tournament.BlackWins}}},
	} {
		data, err := EncodeResult(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("not gzip"))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	b := &Batch{Run: "r", Seed: 1, Total: 2, Setup: fuzzSetup(), Matches: make([]optimize.Match, 2)}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := decodeResult(data, b.maxResult())
		if err != nil {
			return
		}
		_ = b.checkResult(r)
		enc, err := EncodeResult(r)
		if err != nil {
			return // a value JSON cannot write
		}
		back, err := decodeResult(enc, 2*b.maxResult())
		if err != nil {
			t.Fatalf("an encoded result does not decode: %v", err)
		}
		a, _ := json.Marshal(r)
		c, _ := json.Marshal(back)
		if !bytes.Equal(a, c) {
			t.Fatalf("result %s decodes back as %s", a, c)
		}
	})
}

// FuzzBatchMessage reads arbitrary bytes as a queued batch, as a worker
// does (handle: a Batch, then a GamesBatch for the games kind): no panic;
// a batch that reads is refused with a reason or set up as a referee (or
// refused with its error), and writes back to a message that reads as the
// same batch with the same key.
func FuzzBatchMessage(f *testing.F) {
	set := fuzzSetup()
	b := Batch{Protocol: protocol, Build: EngineBuild, Fingerprint: Fingerprint(EngineBuild, set), Run: "r", Seed: 7, Total: 1,
		Setup: set, Matches: []optimize.Match{{A: []float64{1, 2, 3, 4, 5}, B: []float64{1, 2, 3, 4, 6}}}}
	w5, err := engine.NewWeights(engine.Symmetric, []float64{1, 2, 3, 4, 5})
	if err != nil {
		f.Fatal(err)
	}
	gs := tournament.GameSet{Entrants: []tournament.Engine{{Name: "a", Weights: w5, Settings: set.Settings}, {Name: "b", Weights: w5, Settings: set.Settings}}}
	g := GamesBatch{Protocol: protocol, Kind: kindGames, Build: EngineBuild, Fingerprint: GamesFingerprint(EngineBuild, gs), Run: "r", Set: gs,
		Games: []tournament.ScheduledGame{{Game: 0, Black: 0, White: 1}}}
	for _, v := range []any{b, g} {
		data, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"protocol":3,"setup":{"schema":"dual","settings":{"depth":-1}},"matches":[{}]}`))
	f.Add([]byte(`{"protocol":3,"kind":"games","set":{"entrants":[{"name":"x"}]},"games":[{"black":5}]}`))
	w := &Worker{Build: EngineBuild}
	f.Fuzz(func(t *testing.T, data []byte) {
		var b Batch
		if err := json.Unmarshal(data, &b); err != nil || b.Protocol != protocol {
			return
		}
		if b.Kind == kindGames {
			var g GamesBatch
			if err := json.Unmarshal(data, &g); err != nil {
				return
			}
			if w.refuseGames(&g) == "" {
				for _, e := range g.Set.Entrants {
					if _, err := engine.NewWeights(e.Weights.Schema, e.Weights.Genes); err != nil || e.Settings.Validate() != nil {
						t.Fatalf("entrant %q taken with weights or settings the engine refuses", e.Name)
					}
				}
			}
			roundTrip(t, &g, new(GamesBatch), func(v any) string { return v.(*GamesBatch).Key() })
			return
		}
		if w.refuse(&b) == "" {
			if ref, done, err := localReferee(b.Setup, 1, nil); err == nil {
				if ref == nil {
					t.Fatal("a setup with neither a referee nor an error")
				}
				done()
			}
		}
		roundTrip(t, &b, new(Batch), func(v any) string { return v.(*Batch).Key() })
	})
}

// roundTrip checks that v writes to JSON that reads (into back) as the
// same value with the same key.
func roundTrip(t *testing.T, v, back any, key func(any) string) {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		return // a value JSON cannot write
	}
	if err := json.Unmarshal(data, back); err != nil {
		t.Fatalf("%s does not read back: %v", data, err)
	}
	again, _ := json.Marshal(back)
	if !bytes.Equal(data, again) || key(v) != key(back) {
		t.Fatalf("%s reads back as %s (key %s, then %s)", data, again, key(v), key(back))
	}
}

// FuzzHeartbeat reads arbitrary bytes as a worker's heartbeat, as a
// Roster's Watch does (heartbeatOf), twice a second apart: no panic; a
// worker that announced itself is live right after, with counts ≥ 0, a
// heartbeat interval > 0 and a finite rate ≥ 0; a stopping worker is gone.
func FuzzHeartbeat(f *testing.F) {
	for _, h := range []Heartbeat{
		{ID: "1", Worker: "w", Games: 10, Batches: 1, Slots: 2, Concurrency: 2, Every: 2},
		{ID: "1", Worker: "w", Stopping: true},
		{ID: "1", Worker: "w", Games: -5, Batches: -1, Every: -1},
		{ID: "1", Worker: "w", Every: 1e300},
		{ID: "", Worker: "w"},
	} {
		data, err := json.Marshal(h)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, ok := heartbeatOf(data)
		if !ok {
			return
		}
		clock := newFakeClock()
		r := &Roster{Now: clock.Now}
		r.Heard(h)
		clock.Add(time.Second)
		r.Heard(h)
		s := r.Status()
		if h.Stopping {
			if len(s.Workers) != 0 {
				t.Fatalf("a stopping worker is live: %+v", s)
			}
			return
		}
		if len(s.Workers) != 1 || len(s.Lost) != 0 {
			t.Fatalf("heartbeat %s: snapshot %+v", data, s)
		}
		ws := s.Workers[0]
		if ws.Games < 0 || ws.Batches < 0 || ws.Slots < 0 || ws.Concurrency < 0 || ws.Every <= 0 || math.IsNaN(ws.GamesPerSecond) || math.IsInf(ws.GamesPerSecond, 0) || ws.GamesPerSecond < 0 {
			t.Fatalf("heartbeat %s: worker %+v", data, ws)
		}
		_ = s.String()
	})
}

// FuzzRefusal reads arbitrary bytes as a worker's refusal notice on a
// run's refusal subject (refusalOf): no panic; a refusal is taken only for
// a pending batch, and the coordinator records it under that batch's key
// as a line naming the worker.
func FuzzRefusal(f *testing.F) {
	for _, r := range []Refusal{{Worker: "w", Key: "k1", Reason: "foreign build"}, {Worker: "w", Key: "other", Reason: "x"}, {Key: "k1"}} {
		data, err := json.Marshal(r)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"key":["k1"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		pending := map[string]int{"k1": 0, "k2": 1}
		r, ok := refusalOf(&nats.Msg{Subject: refusalSubject("run"), Data: data}, pending)
		if !ok {
			return
		}
		if _, ok := pending[r.Key]; !ok {
			t.Fatalf("refusal of batch %q taken, which is not pending", r.Key)
		}
		c := &Coordinator{}
		refused := map[string][]string{}
		c.noteRefusal(r, refused)
		c.noteRefusal(r, refused)
		if len(refused[r.Key]) != 1 || !strings.Contains(refused[r.Key][0], "worker "+r.Worker) {
			t.Fatalf("refusal %+v recorded as %q", r, refused)
		}
	})
}

// FuzzParseEngine reads arbitrary -engine words (one per line) of a
// worker, with $PATH holding one program: no panic; an error names the
// flag; an engine that parses has a valid name, an absolute program path
// and its SHA-256, and its words written back (name= cmd= dir=) parse to
// the same engine.
func FuzzParseEngine(f *testing.F) {
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "eng"), []byte("#!/bin/sh\necho name eng\n"), 0o755); err != nil {
		f.Fatal(err)
	}
	f.Setenv("PATH", dir)
	for _, s := range []string{"cmd=eng", "name=e1\ncmd=eng", "cmd=" + filepath.Join(dir, "eng") + "\ndir=" + dir, "cmd=eng\ncmd=eng",
		"name=bad name\ncmd=eng", "cmd=missing", "dir=" + dir, "foo=bar", "cmd=", "cmd=./eng\ndir=" + dir} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := strings.Split(s, "\n")
		e, err := ParseEngine(words)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "flag -engine") {
				t.Fatalf("error without the flag: %v", err)
			}
			return
		}
		if e.Name == "" || !filepath.IsAbs(e.Program) || len(e.SHA256) != 64 || e.Dir != "" && !filepath.IsAbs(e.Dir) {
			t.Fatalf("%q parses to %+v", words, e)
		}
		again := []string{"name=" + e.Name, "cmd=" + e.Program}
		if e.Dir != "" {
			again = append(again, "dir="+e.Dir)
		}
		back, err := ParseEngine(again)
		if err != nil || !reflect.DeepEqual(back, e) {
			t.Fatalf("%q parses to %+v; written back as %q: %+v, %v", words, e, again, back, err)
		}
	})
}

// FuzzSecrets reads arbitrary bytes as a token file and as a CA file
// (ReadToken, ReadCA): no panic; a token is the file's text trimmed, not
// empty; a CA is a pool or an error; no error quotes the file's contents.
func FuzzSecrets(f *testing.F) {
	f.Add([]byte("s3cret-token\n"))
	f.Add([]byte(" \n\t"))
	f.Add([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"))
	f.Add([]byte("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "secret")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		secret := strings.TrimSpace(string(data))
		leaks := func(err error) bool {
			return len(secret) >= 8 && strings.Contains(err.Error(), secret)
		}
		tok, err := ReadToken(path)
		switch {
		case err != nil && leaks(err):
			t.Fatalf("the token file's error quotes it: %v", err)
		case err == nil && (tok == "" || tok != secret):
			t.Fatalf("token %q from %q", tok, data)
		}
		pool, err := ReadCA(path)
		switch {
		case err != nil && leaks(err):
			t.Fatalf("the CA file's error quotes it: %v", err)
		case err == nil && pool == nil:
			t.Fatal("no pool and no error")
		}
		if reflect.ValueOf(pool).IsNil() != (err != nil) {
			t.Fatalf("pool %v with error %v", pool, err)
		}
	})
}
