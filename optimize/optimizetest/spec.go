package optimizetest

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

// CheckCharts checks that rec, a record of a run of spec on a problem with
// the named genes, has every metric spec's charts plot: each of a chart's
// Metrics and, for a chart with a Prefix, Prefix+gene for every gene.
func CheckCharts(t testing.TB, spec optimize.Spec, rec optimize.Record, genes []string) {
	t.Helper()
	for _, ch := range spec.Charts {
		keys := append([]string(nil), ch.Metrics...)
		if ch.Prefix != "" {
			for _, g := range genes {
				keys = append(keys, ch.Prefix+g)
			}
		}
		for _, k := range keys {
			if _, ok := rec.Metrics[k]; !ok {
				t.Errorf("chart %s plots %q, which the record lacks", ch.Name, k)
			}
		}
	}
}

// CheckNilOptions checks that spec's methods refuse nil options with an
// error (a Describe line) that names the method, instead of panicking.
func CheckNilOptions(t testing.TB, spec optimize.Spec, p optimize.Problem) {
	t.Helper()
	if err := spec.Validate(nil, p); err == nil || !strings.Contains(err.Error(), spec.Name) {
		t.Errorf("Validate(nil): %v", err)
	}
	if m, err := spec.New(nil, p, rand.NewPCG(1, 1)); err == nil || m != nil {
		t.Errorf("New(nil): %v", err)
	}
	if m, err := spec.Restore(nil, p, []byte("{}")); err == nil || m != nil {
		t.Errorf("Restore(nil): %v", err)
	}
	if d := spec.Describe(nil); !strings.Contains(d, spec.Name) {
		t.Errorf("Describe(nil): %q", d)
	}
}

// Step runs one m.Step with a background context, failing t on an error,
// and returns the record with its Detail as the method's own type D.
func Step[D any](t testing.TB, m optimize.Method, ref optimize.Referee) (optimize.Record, D) {
	t.Helper()
	rec, err := m.Step(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := rec.Detail.(D)
	if !ok {
		t.Fatalf("record detail is %T, want %T", rec.Detail, d)
	}
	return rec, d
}

// RecordJSON returns rec as JSON, its Line included and its wall time
// zeroed, for comparing the records of two runs (a resumed one and an
// uninterrupted one) byte for byte.
func RecordJSON(t testing.TB, rec optimize.Record) string {
	t.Helper()
	rec.Seconds = 0
	b, err := json.Marshal(struct {
		optimize.Record
		Line string
	}{rec, rec.Line})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
