package tomlkeys

import (
	"slices"
	"testing"

	"github.com/BurntSushi/toml"
)

const doc = `method = "ga"  # a comment
[engine]
depth = 3
[[param]]
name = "DefendWide"
min = 0
[[param]]
name = "DefendShare"
min = 0.3
`

// TestLine: top-level keys, a table's keys and header, and the tables
// of an array by number or the first that sets the key.
func TestLine(t *testing.T) {
	for key, want := range map[string]int{"method": 1, "engine": 2, "engine.depth": 3, "param[1]": 4, "param[2].min": 9, "param.min": 6, "engine.width": 0} {
		if got := Line([]byte(doc), key); got != want {
			t.Errorf("Line(%q) = %d, want %d", key, got, want)
		}
	}
}

// TestParse: a syntax error and a type mismatch give their line and key.
func TestParse(t *testing.T) {
	var v struct{ Engine struct{ Depth int } }
	_, err := toml.Decode("[engine]\ndepth = \"x\"\n", &v)
	if line, key, msg := Parse(err); line != 2 || key != "engine.depth" || msg == "" {
		t.Errorf("type mismatch: %d %q %q (%v)", line, key, msg, err)
	}
	_, err = toml.Decode("a = \n", &v)
	if line, _, msg := Parse(err); line != 1 || msg == "" {
		t.Errorf("syntax error: %d %q (%v)", line, msg, err)
	}
}

// TestFlattenDiffFingerprint: two documents that differ in one key differ
// by it, and their fingerprints differ unless that key is skipped.
func TestFlattenDiffFingerprint(t *testing.T) {
	a, err := Flatten([]byte("seed = 5\nconcurrency = 2\n[engine]\ndepth = 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Flatten([]byte("seed = 5\nconcurrency = 4\n[engine]\ndepth = 4\n"))
	if a["engine.depth"] != "3" || a["seed"] != "5" {
		t.Fatalf("flat %v", a)
	}
	none := func(string) bool { return false }
	if d := Diff(a, b, none); !slices.Equal(d, []string{"concurrency: 2 → 4", "engine.depth: 3 → 4"}) {
		t.Errorf("diff %q", d)
	}
	conc := func(k string) bool { return k == "concurrency" }
	if Fingerprint(a, conc) == Fingerprint(b, conc) {
		t.Error("documents of two depths have one fingerprint")
	}
	b["engine.depth"] = "3"
	if Fingerprint(a, conc) != Fingerprint(b, conc) || Fingerprint(a, none) == Fingerprint(b, none) {
		t.Error("the skipped key counts, or the others do not")
	}
	delete(b, "seed")
	if d := Diff(a, b, conc); !slices.Equal(d, []string{"seed: 5 → (missing)"}) {
		t.Errorf("diff %q", d)
	}
}
