package configs

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"
)

func TestWeightNames(t *testing.T) {
	want := []string{"chen2010-ga15", "chen2010-ga30", "chen2010-pso15", "qi2018-attack", "qi2018-defend", "qi2018-dual", "qi2018-table3-1", "zhou2015"}
	got := WeightNames()
	if !sort.StringsAreSorted(got) {
		t.Errorf("WeightNames() = %q: not sorted", got)
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("WeightNames() = %q: %s missing", got, w)
		}
	}
	for _, name := range got {
		data, err := Weights(name)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Name   string    `json:"name"`
			Values []float64 `json:"values"`
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("%s.json: %v", name, err)
		}
		if len(f.Values) == 0 {
			t.Errorf("%s.json: no values", name)
		}
	}
}

func TestWeightsUnknown(t *testing.T) {
	for _, name := range []string{"nope", "", "zhou2015.json", "../embed", "weights/zhou2015"} {
		_, err := Weights(name)
		if err == nil {
			t.Errorf("Weights(%q): no error", name)
			continue
		}
		if !strings.Contains(err.Error(), "zhou2015, ") && !strings.Contains(err.Error(), ", zhou2015") {
			t.Errorf("Weights(%q) error %q does not list the known names", name, err)
		}
	}
}
