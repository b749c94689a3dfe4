package spsa

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"
)

// FuzzPerGene reads arbitrary JSON as a per-gene option (c_end, r_end):
// no panic; an error is the package's; a value that reads sets either
// every gene (All) or genes by name, not both, and writes back
// (MarshalJSON) to JSON that reads as the same value (an empty table and
// 0 both mean the default for every gene).
func FuzzPerGene(f *testing.F) {
	for _, s := range []string{`0.004`, `0`, `{"S1":0.004,"M2":1e-3}`, `{}`, `null`, `-1`, `{"a":"x"}`, `"0.1"`, `[1]`, `1e400`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v PerGene
		if err := json.Unmarshal(data, &v); err != nil {
			if !strings.Contains(err.Error(), "spsa: ") && !strings.HasPrefix(err.Error(), "invalid character") && !strings.HasPrefix(err.Error(), "unexpected end") {
				t.Fatalf("%q: error %v", data, err)
			}
			return
		}
		if v.All != 0 && len(v.Genes) > 0 {
			t.Fatalf("%q reads as both a number %g and a table %v", data, v.All, v.Genes)
		}
		enc, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%q reads as %+v, which does not write: %v", data, v, err)
		}
		var back PerGene
		if err := json.Unmarshal(enc, &back); err != nil {
			t.Fatalf("%q written back as %s does not read: %v", data, enc, err)
		}
		if back.All != v.All || !maps.Equal(back.Genes, v.Genes) {
			t.Fatalf("%q reads as %+v, written back as %s: %+v", data, v, enc, back)
		}
	})
}
