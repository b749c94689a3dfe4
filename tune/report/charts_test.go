package report

import (
	"fmt"
	"slices"
	"testing"
)

// TestGeneSetsCut: a set of more genes than a chart holds is cut in parts.
func TestGeneSetsCut(t *testing.T) {
	var names []string
	for i := range 30 {
		names = append(names, fmt.Sprintf("X.g%d", i))
	}
	names = append(names, "lone")
	var got []string
	n := 0
	for _, s := range geneSets(names) {
		got = append(got, s.slug)
		n += len(s.idx)
		if len(s.idx) > MaxGeneSeries {
			t.Errorf("set %s: %d genes", s.slug, len(s.idx))
		}
	}
	if want := []string{"X-1", "X-2", "X-3", "other"}; !slices.Equal(got, want) || n != len(names) {
		t.Errorf("sets %v (%d genes), want %v", got, n, want)
	}
}
