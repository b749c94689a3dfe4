package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// FuzzConfig parses arbitrary TOML as a run config: no panic, and a config
// that parses encodes to TOML that parses back to the same fingerprint (the
// key a resume checks).
func FuzzConfig(f *testing.F) {
	externalStarts.Store(false) // a fuzzed [external] table must not run its command
	defer externalStarts.Store(true)
	for _, name := range configs.ConfigNames() {
		data, err := configs.Config(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, m := range MethodNames() {
		f.Add([]byte(tunetest.Tiny(m)))
	}
	f.Add([]byte("method = \"ga\"\n[space]\nmonotone = [[0, 1, 2]]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz.toml", data)
		if err != nil {
			return
		}
		enc, err := c.Encode()
		if err != nil {
			t.Fatalf("Encode of a parsed config: %v", err)
		}
		back, err := Parse("encoded.toml", enc)
		if err != nil {
			t.Fatalf("the encoded config does not parse: %v\n%s", err, enc)
		}
		a, err := c.Flat()
		if err != nil {
			t.Fatal(err)
		}
		b, err := back.Flat()
		if err != nil {
			t.Fatal(err)
		}
		if fingerprint(a) != fingerprint(b) {
			t.Fatalf("fingerprint changed through Encode: %v", diffFlat(a, b))
		}
	})
}

// fuzzReferee is the cheap synthetic referee of the method-state target:
// outcomes and positions drawn from a logistic model (both Referee and
// optimize.Sampler, for Texel).
func fuzzReferee(genes int) *optimizetest.LogisticSampler {
	truth := make([]float64, genes)
	for i := range truth {
		truth[i] = float64(i + 1)
	}
	return &optimizetest.LogisticSampler{Truth: truth, K: 0.01, PerGame: 2}
}

// fuzzMethods are the tiny configs of every registered method, parsed
// once; their states seed FuzzMethodState.
func fuzzMethods(tb testing.TB) []Config {
	tb.Helper()
	var cs []Config
	for _, m := range MethodNames() {
		c, err := Parse(m+".toml", []byte(tunetest.Tiny(m)))
		if err != nil {
			tb.Fatal(err)
		}
		cs = append(cs, c)
	}
	return cs
}

// FuzzMethodState restores every method from arbitrary checkpoint state
// (checkpoint.json's "state") and plays one step with it: a state that
// restores must step (or fail with an error, never a panic), and marshal to
// a state that restores to the same steps and best vector.
func FuzzMethodState(f *testing.F) {
	cs := fuzzMethods(f)
	ctx := context.Background()
	for i, c := range cs {
		spec := registry[c.Method]
		m, err := c.newMethod(spec, rand.NewPCG(1, 2))
		if err != nil {
			f.Fatal(err)
		}
		for range 2 { // the state before any step, and after one
			st, err := m.MarshalState()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(uint8(i), st)
			if _, err := m.Step(ctx, fuzzReferee(len(c.GeneNames()))); err != nil {
				f.Fatal(err)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, state []byte) {
		c := cs[int(which)%len(cs)]
		spec := registry[c.Method]
		m, err := c.restoreMethod(spec, state)
		if err != nil {
			return
		}
		st, err := m.MarshalState()
		if err != nil {
			t.Fatalf("%s: MarshalState of a restored state: %v", c.Method, err)
		}
		again, err := c.restoreMethod(spec, st)
		if err != nil {
			t.Fatalf("%s: its own state does not restore: %v\n%s", c.Method, err, st)
		}
		if again.Steps() != m.Steps() || !slices.Equal(again.Best(), m.Best()) {
			t.Fatalf("%s: restored twice: steps %d best %v, then steps %d best %v", c.Method, m.Steps(), m.Best(), again.Steps(), again.Best())
		}
		if m.Done() {
			return
		}
		if m.Forecast().NextGames > 1<<16 {
			return // a state asking for more games than a fuzz step can play
		}
		rec, err := m.Step(ctx, fuzzReferee(len(c.GeneNames())))
		if err == nil && rec.Step != again.Steps() {
			t.Fatalf("%s: the step after %d steps is numbered %d", c.Method, again.Steps(), rec.Step)
		}
	})
}

// FuzzRecords reads arbitrary generations.jsonl data as a resume does: no
// panic, and records that parse write back (one JSON line each) to records
// that parse the same. The seeds are two steps' records of every method.
func FuzzRecords(f *testing.F) {
	for _, c := range fuzzMethods(f) {
		m, err := c.newMethod(registry[c.Method], rand.NewPCG(3, 4))
		if err != nil {
			f.Fatal(err)
		}
		var log []byte
		for range 2 {
			rec, err := m.Step(context.Background(), fuzzReferee(len(c.GeneNames())))
			if err != nil {
				f.Fatal(err)
			}
			line, err := json.Marshal(rec)
			if err != nil {
				f.Fatal(err)
			}
			log = append(append(log, line...), '\n')
		}
		f.Add(log)
	}
	f.Add([]byte(`{"step":0,"games":8,"seconds":0.5,"best":[1,2,3],"metrics":{"fitness":0.5},"detail":{"x":1}}` + "\n"))
	f.Add([]byte(`{"step":0,"games":8,"seconds":0.5,"best":[1,2,3]}` + "\n" + `{"step":1,"games":8,"seconds":0.5,"best":[1,2,4]}` + "\n"))
	f.Add([]byte(`{"step":1}` + "\n"))
	f.Add([]byte(`{"step":0,"extra":1}` + "\n"))
	f.Add([]byte(`{"step":0}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := parseRecords("generations.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "generations.jsonl:") {
				t.Fatalf("error without the file and line: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		for _, r := range recs {
			line, err := json.Marshal(r)
			if err != nil {
				return // a value JSON cannot write (NaN cannot come from JSON)
			}
			buf.Write(line)
			buf.WriteByte('\n')
		}
		back, err := parseRecords("again.jsonl", buf.Bytes())
		if err != nil {
			t.Fatalf("records written back do not parse: %v\n%s", err, buf.Bytes())
		}
		if len(back) != len(recs) {
			t.Fatalf("%d records, then %d", len(recs), len(back))
		}
		for i := range recs {
			a, _ := json.Marshal(recs[i])
			b, _ := json.Marshal(back[i])
			if !bytes.Equal(a, b) {
				t.Fatalf("record %d: %s, then %s", i, a, b)
			}
		}
	})
}
