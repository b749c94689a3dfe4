package stats

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// vector is one entry of stats-vectors.json: fishtest's own numbers
// (get_elo, LLR_logistic, LLR_normalized) for a result.
type vector struct {
	Results       []int   `json:"results"`
	Kind          string  `json:"kind"`
	Elo           float64 `json:"elo"`
	Elo95         float64 `json:"elo95"`
	LOS           float64 `json:"los"`
	Elo0          float64 `json:"elo0"`
	Elo1          float64 `json:"elo1"`
	LLRLogistic   float64 `json:"llr_logistic"`
	LLRNormalized float64 `json:"llr_normalized"`
}

var (
	testdataVectors = filepath.Join("testdata", "stats-vectors.json")
	specVectors     = filepath.Join("..", "..", "..", "shared", "spec", "stats-vectors.json")
)

func readVectors(t *testing.T, path string) []vector {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v []vector
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(v) == 0 {
		t.Fatalf("%s: no vectors", path)
	}
	return v
}

// loadVectors reads the self-contained testdata copy and, when the shared
// spec is checked out beside the repository, fails if the two have drifted.
func loadVectors(t *testing.T) []vector {
	t.Helper()
	v := readVectors(t, testdataVectors)
	if _, err := os.Stat(specVectors); err == nil {
		if spec := readVectors(t, specVectors); !reflect.DeepEqual(v, spec) {
			t.Errorf("%s differs from %s: refresh the testdata copy", testdataVectors, specVectors)
		}
	}
	return v
}

// close reports whether got matches want to 1e-6 relative, or 1e-9 absolute
// near zero.
func close(got, want float64) bool {
	d := math.Abs(got - want)
	return d <= 1e-9 || d <= 1e-6*math.Abs(want)
}

func TestVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		e, err := EstimateCounts(v.Results)
		if err != nil {
			t.Errorf("EstimateCounts(%v): %v", v.Results, err)
			continue
		}
		n := 0
		for _, c := range v.Results {
			n += c
		}
		if e.N != n {
			t.Errorf("%v: N = %d, want %d", v.Results, e.N, n)
		}
		check := func(name string, got, want float64) {
			t.Helper()
			if !close(got, want) {
				t.Errorf("%v (%s): %s = %.15g, want %.15g (rel %.2g)", v.Results, v.Kind, name, got, want, math.Abs(got-want)/math.Abs(want))
			}
		}
		check("elo", e.Elo, v.Elo)
		check("elo95", e.EloCI, v.Elo95)
		check("los", e.LOS, v.LOS)
		llr, err := LLRLogistic(v.Results, v.Elo0, v.Elo1)
		if err != nil {
			t.Errorf("LLRLogistic(%v): %v", v.Results, err)
		} else {
			check("llr_logistic", llr, v.LLRLogistic)
		}
		llr, err = LLRNormalized(v.Results, v.Elo0, v.Elo1)
		if err != nil {
			t.Errorf("LLRNormalized(%v): %v", v.Results, err)
		} else {
			check("llr_normalized", llr, v.LLRNormalized)
		}
	}
}
