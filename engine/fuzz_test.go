package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzWeightFile parses arbitrary bytes as a weight file: no panic, errors
// name the file, and a file that parses is valid, makes weights the engine
// takes, and writes back (WriteWeightFile) to a file that parses the same.
func FuzzWeightFile(f *testing.F) {
	f.Add([]byte(`{"name":"g","schema":"asymmetric","values":[1,15,30,50,50,1,10,15,35,25],"provenance":{"tool":"fuzz","generation":3,"fitness":0.5}}`))
	f.Add([]byte(`{"name":"s","schema":"symmetric","values":[1,2,3,4,5],"provenance":{"tool":"t","date":"2026-11-26","note":"x"}}`))
	f.Add([]byte(`{"name":"b","schema":"symmetric","values":[1,2],"provenance":{"tool":"fuzz"}}`))
	f.Add([]byte(`{"name":"n","schema":"symmetric","values":[1,2,3,4,1e999],"provenance":{"tool":"fuzz"}}`))
	f.Add([]byte(`{"name":"d","name":"e","schema":"tempo","values":[],"provenance":{}}`))
	f.Add([]byte(`[1,2,3]`))
	baselines, err := filepath.Glob("../configs/weights/*.json")
	if err != nil || len(baselines) == 0 {
		f.Fatalf("the baselines in configs/weights: %v", err)
	}
	for _, p := range baselines {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		wf, err := ParseWeightFile("w.json", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "w.json") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		if err := wf.Validate("w.json"); err != nil {
			t.Fatalf("a parsed weight file is invalid: %v", err)
		}
		if _, err := NewWeights(wf.Schema, wf.Values); err != nil {
			t.Fatalf("a parsed weight file makes no weights: %v", err)
		}
		path := filepath.Join(t.TempDir(), "back.json")
		if err := WriteWeightFile(path, wf); err != nil {
			t.Fatalf("WriteWeightFile of a parsed file: %v", err)
		}
		back, err := LoadWeightFile(path)
		if err != nil {
			t.Fatalf("a written weight file does not load: %v", err)
		}
		if !reflect.DeepEqual(back, wf) {
			a, _ := json.Marshal(wf)
			b, _ := json.Marshal(back)
			t.Fatalf("weight file %s loads back as %s", a, b)
		}
	})
}

// FuzzMove parses arbitrary text as a point and a move: no panic, and what
// parses writes back (String) to text that parses the same, on the board.
func FuzzMove(f *testing.F) {
	for _, s := range []string{"JJ", "jj", "KLLK", "JJJJ", " AS ", "SS", "TT", "A", "AAAAA", "ÀA", "--"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if p, err := ParsePoint(s); err == nil {
			if !p.OnBoard() {
				t.Fatalf("point %q parses off the board: %d", s, p)
			}
			if q, err := ParsePoint(p.String()); err != nil || q != p {
				t.Fatalf("point %q is %s, read back %v (%v)", s, p, q, err)
			}
		}
		m, err := ParseMove(s)
		if err != nil {
			return
		}
		if !m.A.OnBoard() || (m.B != NoPoint && (!m.B.OnBoard() || m.B == m.A)) {
			t.Fatalf("move %q parses to %v", s, m)
		}
		if back, err := ParseMove(m.String()); err != nil || back != m {
			t.Fatalf("move %q is %s, read back %v (%v)", s, m, back, err)
		}
	})
}

// FuzzParseSchema reads arbitrary text as a schema name: no panic; an
// error quotes the text; a schema that parses is one of Schemas, named by
// the text exactly, has genes, and goes through JSON (MarshalText,
// UnmarshalText) unchanged.
func FuzzParseSchema(f *testing.F) {
	for _, s := range Schemas() {
		f.Add(string(s))
	}
	for _, s := range []string{"", "Tempo", "tempo ", "symmetric\x00", "dualx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sc, err := ParseSchema(s)
		if err != nil {
			if !strings.Contains(err.Error(), strconv.Quote(s)) {
				t.Fatalf("error does not quote the text: %v", err)
			}
			return
		}
		if string(sc) != s || !slices.Contains(Schemas(), sc) || len(sc.GeneNames()) == 0 {
			t.Fatalf("%q parses to schema %q with genes %v", s, sc, sc.GeneNames())
		}
		data, err := json.Marshal(sc)
		if err != nil {
			t.Fatal(err)
		}
		var back Schema
		if err := json.Unmarshal(data, &back); err != nil || back != sc {
			t.Fatalf("%q written as %s reads back as %q, %v", s, data, back, err)
		}
	})
}
