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

// CheckSpecRefuses checks that spec's functions refuse options of the
// wrong type (a value instead of a pointer, a nil pointer, nil, a string)
// with an error, or a Describe line, that names want, the options type
// (e.g. "*spsa.Settings").
func CheckSpecRefuses(t testing.TB, spec optimize.Spec, p optimize.Problem, value any, want string) {
	t.Helper()
	for _, bad := range []any{value, nil, spec.Name} {
		if err := spec.Validate(bad, p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(%T): %v", bad, err)
		}
		if m, err := spec.New(bad, p, rand.NewPCG(1, 1)); err == nil || m != nil {
			t.Errorf("New(%T): %v", bad, err)
		}
		if m, err := spec.Restore(bad, p, []byte("{}")); err == nil || m != nil {
			t.Errorf("Restore(%T): %v", bad, err)
		}
		if d := spec.Describe(bad); !strings.Contains(d, want) {
			t.Errorf("Describe(%T): %q", bad, d)
		}
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
