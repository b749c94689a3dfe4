package configs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
)

func TestLoadWeightsByName(t *testing.T) {
	for _, name := range WeightNames() {
		wf, err := LoadWeights(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The embedded baseline is the file in configs/weights.
		disk, err := engine.LoadWeightFile(filepath.Join("weights", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(wf, disk) {
			t.Errorf("%s: embedded %+v, on disk %+v", name, wf, disk)
		}
	}
	wf, err := LoadWeights("zhou2015")
	if err != nil || wf.Name != "zhou2015" || wf.Schema != engine.Symmetric {
		t.Errorf("zhou2015: %+v, %v", wf, err)
	}
}

func TestLoadWeightsByPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.json")
	want := &engine.WeightFile{Name: "mine", Schema: engine.Symmetric, Values: []float64{1, 2, 3, 4, 5},
		Provenance: engine.Provenance{Tool: "configs test"}}
	if err := engine.WriteWeightFile(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := LoadWeights(path)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("LoadWeights(%q) = %+v, %v; want %+v", path, got, err, want)
	}
	// A path to a baseline's file works too.
	if wf, err := LoadWeights(filepath.Join("weights", "zhou2015.json")); err != nil || wf.Name != "zhou2015" {
		t.Errorf("path to zhou2015.json: %+v, %v", wf, err)
	}
	// A file of a schema and its values is enough: named after the file,
	// without provenance.
	hand := filepath.Join(dir, "hand.json")
	os.WriteFile(hand, []byte(`{"schema": "tempo", "values": [20, 80, 150, 800, 1000, 20, 80, 150, 800, 1000, 10, 100]}`), 0o644)
	if wf, err := LoadWeights(hand); err != nil || wf.Name != "hand" || wf.Schema != engine.Tempo || wf.Provenance != (engine.Provenance{}) {
		t.Errorf("schema and values only: %+v, %v", wf, err)
	}
	// A parse error names the file and the line.
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\n  \"name\": \"b\",\n  \"schema\": \"symmetric\",\n  \"values\": [1, 2],\n  \"provenance\": {\"tool\": \"t\"}\n}\n"), 0o644)
	if _, err := LoadWeights(bad); err == nil || !strings.Contains(err.Error(), bad+":4:") {
		t.Errorf("bad file: %v, want it to name %s:4", err, bad)
	}
}

func TestLoadWeightsUnknown(t *testing.T) {
	for _, name := range []string{"zhou2016", "", filepath.Join(t.TempDir(), "missing.json")} {
		_, err := LoadWeights(name)
		if err == nil {
			t.Errorf("LoadWeights(%q): no error", name)
			continue
		}
		msg := err.Error()
		for _, base := range WeightNames() {
			if !strings.Contains(msg, base) {
				t.Errorf("LoadWeights(%q): %q does not list baseline %s", name, msg, base)
			}
		}
		if name != "" && (!strings.Contains(msg, name) || !errors.Is(err, fs.ErrNotExist)) {
			t.Errorf("LoadWeights(%q): %q does not name the path or wrap fs.ErrNotExist", name, msg)
		}
	}
}

// TestChen2010Baselines checks the vectors Chen 2010 prints (Fig. 4.10,
// generations 15 and 30 of the improved GA; Fig. 5.3, the PSO's Gbest
// after 15 iterations) and that each cites its figure.
func TestChen2010Baselines(t *testing.T) {
	want := map[string]struct {
		values []float64
		cite   string
	}{
		"chen2010-ga15":  {[]float64{75, 340, 859, 2970, 140}, "Fig. 4.10"},
		"chen2010-ga30":  {[]float64{56, 352, 766, 3554, 102}, "Fig. 4.10"},
		"chen2010-pso15": {[]float64{-124, 275, 1229, 6518, 2763}, "Fig. 5.3"},
	}
	for name, w := range want {
		wf, err := LoadWeights(name)
		if err != nil {
			t.Fatal(err)
		}
		if wf.Name != name || wf.Schema != engine.Symmetric || !reflect.DeepEqual(wf.Values, w.values) {
			t.Errorf("%s: %s %s %v, want symmetric %v", name, wf.Name, wf.Schema, wf.Values, w.values)
		}
		p := wf.Provenance
		if p.Method != "published" || !strings.Contains(p.Source, "Chen 2010 "+w.cite) || !strings.Contains(p.Note, "as printed") {
			t.Errorf("%s: provenance %+v", name, p)
		}
	}
}
