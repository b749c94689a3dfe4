package engine

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

func TestWeightFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "best.json")
	f := &WeightFile{
		Name:   "run7-g12",
		Schema: Asymmetric,
		Values: []float64{1.5, 5, 10, 25.25, 25, 1, 10, 15, 35, -0.125},
		Provenance: Provenance{
			Tool: "roadtune tune", Run: "stage-2-ga", Chain: "run7", Stage: 2, Unfinished: "13 of 40 generations",
			Method: "ga", Generation: 12, Fitness: 0.625, Date: "2026-11-22", Note: "champion",
		},
	}
	if err := WriteWeightFile(path, f); err != nil {
		t.Fatal(err)
	}
	g, err := LoadWeightFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(f, g) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", g, f)
	}
	w := g.Weights()
	if w.Schema != Asymmetric || !reflect.DeepEqual(w.Genes, f.Values) {
		t.Fatalf("Weights() = %+v", w)
	}
	w.Genes[0] = 99
	if g.Values[0] != 1.5 {
		t.Fatal("Weights() shares the file's slice")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temp files left behind: %v", entries)
	}
	// An invalid file is not written and the old one survives.
	bad := *f
	bad.Values = bad.Values[:3]
	if err := WriteWeightFile(path, &bad); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `"values"`) {
		t.Fatalf("invalid write: %v", err)
	}
	if g2, err := LoadWeightFile(path); err != nil || !reflect.DeepEqual(g2, f) {
		t.Fatalf("old file damaged: %v", err)
	}
}

// TestWeightFileNeedsSchemaAndValues: a hand-written file of a schema and
// its values loads, named after the file, without provenance; a name or a
// provenance without its tool loads as given; and what loads writes back
// and loads again the same (no provenance block is invented).
func TestWeightFileNeedsSchemaAndValues(t *testing.T) {
	dir := t.TempDir()
	minimal := filepath.Join(dir, "my.json")
	text := `{"schema": "tempo", "values": [20, 80, 150, 800, 1000, 20, 80, 150, 800, 1000, 10, 100]}`
	if err := os.WriteFile(minimal, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := LoadWeightFile(minimal)
	if err != nil {
		t.Fatalf("schema and values only: %v", err)
	}
	if f.Name != "my" || f.Schema != Tempo || len(f.Values) != 12 || f.Provenance != (Provenance{}) {
		t.Fatalf("loaded %+v: want the name \"my\", the tempo schema, 12 values, no provenance", f)
	}
	if err := f.Validate(minimal); err != nil {
		t.Fatalf("a loaded file is invalid: %v", err)
	}
	back := filepath.Join(dir, "back.json")
	if err := WriteWeightFile(back, f); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(back); strings.Contains(string(data), "provenance") {
		t.Errorf("a file without provenance is written with one:\n%s", data)
	}
	if g, err := LoadWeightFile(back); err != nil || !reflect.DeepEqual(g, f) {
		t.Errorf("written and loaded again: %+v, %v; want %+v", g, err, f)
	}
	for name, text := range map[string]string{
		"named":              `{"name": "mine", "schema": "symmetric", "values": [1, 2, 3, 4, 5]}`,
		"provenance no tool": `{"schema": "symmetric", "values": [1, 2, 3, 4, 5], "provenance": {"note": "by hand"}}`,
		"empty provenance":   `{"schema": "symmetric", "values": [1, 2, 3, 4, 5], "provenance": {}}`,
	} {
		f, err := ParseWeightFile("w/x.json", []byte(text))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if want := map[bool]string{true: "mine", false: "x"}[name == "named"]; f.Name != want {
			t.Errorf("%s: name %q, want %q", name, f.Name, want)
		}
	}
	for path, want := range map[string]string{"a/b/c.json": "c", "plain": "plain", ".json": "weights", "x.y.json": "x.y"} {
		if got := fileName(path); got != want {
			t.Errorf("fileName(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestWeightFileRejects(t *testing.T) {
	const good = `{
  "name": "x",
  "schema": "symmetric",
  "values": [20, 80, 150, 800, 1000],
  "provenance": {"tool": "hand"}
}`
	if _, err := ParseWeightFile("good.json", []byte(good)); err != nil {
		t.Fatalf("good file rejected: %v", err)
	}
	cases := []struct {
		name, text string
		want       []string // substrings of the error besides the file name
	}{
		{"unknown schema", strings.Replace(good, `"symmetric"`, `"cubic"`, 1), []string{`:3:`, `"schema"`, "cubic"}},
		{"too few values", strings.Replace(good, `[20, 80, 150, 800, 1000]`, `[20, 80]`, 1), []string{`:4:`, `"values"`, "needs 5"}},
		{"too many values", strings.Replace(good, `1000]`, `1000, 1]`, 1), []string{`"values"`, "got 6"}},
		{"string value", strings.Replace(good, `150`, `"150"`, 1), []string{`:4:`, `"values[2]"`, "not a number"}},
		{"NaN string", strings.Replace(good, `150`, `"NaN"`, 1), []string{`"values[2]"`, "NaN"}},
		{"Infinity string", strings.Replace(good, `800`, `"Infinity"`, 1), []string{`"values[3]"`}},
		{"null value", strings.Replace(good, `800`, `null`, 1), []string{`"values[3]"`}},
		{"overflow", strings.Replace(good, `800`, `1e999`, 1), []string{`"values[3]"`, "finite"}},
		{"values not array", strings.Replace(good, `[20, 80, 150, 800, 1000]`, `"20 80"`, 1), []string{`"values"`, "array"}},
		{"empty name", strings.Replace(good, `"name": "x"`, `"name": ""`, 1), []string{`:2:`, `"name"`, "empty"}},
		{"missing schema", strings.Replace(good, `"schema": "symmetric",`, ``, 1), []string{`"schema"`, "missing"}},
		{"missing values", strings.Replace(good, `"values": [20, 80, 150, 800, 1000],`, ``, 1), []string{`"values"`, "missing"}},
		{"wrong type generation", strings.Replace(good, `{"tool": "hand"}`, `{"tool": "hand", "generation": "ten"}`, 1), []string{`:5:`, `"provenance.generation"`}},
		{"unknown field", strings.Replace(good, `"name": "x",`, `"name": "x", "colour": 1,`, 1), []string{`:2:`, `"colour"`, "unknown"}},
		{"unknown provenance field", strings.Replace(good, `{"tool": "hand"}`, `{"tool": "hand", "seed": 4}`, 1), []string{`"provenance.seed"`, "unknown"}},
		{"name not string", strings.Replace(good, `"name": "x"`, `"name": 7`, 1), []string{`"name"`, "string"}},
		{"not an object", `[1, 2]`, []string{"object"}},
		{"malformed", strings.Replace(good, `"schema": "symmetric",`, `"schema": "symmetric"`, 1), []string{`:4:`, "malformed"}},
		{"truncated", good[:40], []string{"malformed"}},
		{"trailing data", good + `{}`, []string{"after"}},
		{"empty object", `{}`, []string{`"schema"`, "missing"}},
		{"provenance not an object", strings.Replace(good, `{"tool": "hand"}`, `"hand"`, 1), []string{`:5:`, `"provenance"`, "object"}},
		{"not JSON", "root:$6$x:19000::\n", []string{":1:", "malformed JSON: unexpected character looking for beginning of value"}},
	}
	for _, c := range cases {
		_, err := ParseWeightFile("w/"+c.name+".json", []byte(c.text))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, "w/"+c.name+".json") {
			t.Errorf("%s: error %q does not name the file", c.name, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q lacks %q", c.name, msg, w)
			}
		}
	}
	if _, err := LoadWeightFile(filepath.Join(t.TempDir(), "none.json")); err == nil || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("missing file: %v", err)
	}
	// Nothing but a regular file of at most 1 MiB is read, and the refusal
	// is bad input naming the file.
	for _, h := range fileiotest.Files(t) {
		_, err := LoadWeightFile(h.Path)
		if err == nil || !strings.HasPrefix(err.Error(), h.Path+": ") || !fileio.IsInput(err) {
			t.Errorf("%s: %v", h.Name, err)
		}
	}
	if _, err := ParseWeightFile("x.json", []byte(`{}`)); !fileio.IsInput(err) {
		t.Errorf("a bad weight file is not bad input: %v", err)
	}
}

// TestBaselineFiles loads the shipped baseline vectors and checks their
// values against the seeds' published vectors (Chen 2010, Zhou 2015,
// Qi 2018).
func TestBaselineFiles(t *testing.T) {
	want := map[string]struct {
		schema Schema
		values []float64
	}{
		"zhou2015":        {Symmetric, []float64{20, 80, 150, 800, 1000}},
		"qi2018-table3-1": {Asymmetric, []float64{1, 5, 10, 25, 25, 1, 10, 15, 35, 25}},
		"qi2018-dual":     {Dual, []float64{1, 5, 10, 25, 25, 1, 10, 15, 35, 25, 1, 15, 30, 50, 50, 1, 10, 15, 35, 25, 0}},
		"qi2018-attack":   {Asymmetric, []float64{1, 10, 15, 350, 250, 1, 10, 15, 35, 25}},
		"qi2018-defend":   {Asymmetric, []float64{1, 10, 15, 35, 25, 1, 10, 15, 350, 250}},
	}
	for name, w := range want {
		f, err := LoadWeightFile(filepath.Join("..", "configs", "weights", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if f.Name != name || f.Schema != w.schema || !reflect.DeepEqual(f.Values, w.values) {
			t.Errorf("%s: got %s %s %v", name, f.Name, f.Schema, f.Values)
		}
		if !strings.Contains(f.Provenance.Source, "Table") && !strings.Contains(f.Provenance.Source, "Zhou 2015") {
			t.Errorf("%s: provenance.source %q does not cite the seed", name, f.Provenance.Source)
		}
		if _, err := NewWeights(f.Schema, f.Values); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestWriteWeightFileMode: a written weight file is readable by all (0644),
// not the 0600 of os.CreateTemp, whether new or replacing an older file.
func TestWriteWeightFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits")
	}
	path := filepath.Join(t.TempDir(), "w.json")
	f := &WeightFile{Name: "w", Schema: Symmetric, Values: []float64{1, 2, 3, 4, 5}, Provenance: Provenance{Tool: "test"}}
	for range 2 {
		if err := WriteWeightFile(path, f); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644", st.Mode().Perm())
		}
	}
}
