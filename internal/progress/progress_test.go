package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestPlainLinesAddUpBatches drives a task of two batches (a GA generation:
// groups, then elite) in plain mode with a line every 1/4 of the games.
func TestPlainLinesAddUpBatches(t *testing.T) {
	var out bytes.Buffer
	d := New(&out, false, false)
	d.Steps = 4
	d.Begin("generation 3", 12)
	for i := 1; i <= 8; i++ {
		d.Update(i, 8)
	}
	for i := 1; i <= 4; i++ {
		d.Update(i, 4)
	}
	d.End()
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 lines (every 3 of 12 games), got %d:\n%s", len(lines), out.String())
	}
	if !strings.HasPrefix(lines[0], "generation 3: 3/12 games") || !strings.HasPrefix(lines[3], "generation 3: 12/12 games") {
		t.Fatalf("lines do not count across batches:\n%s", out.String())
	}
}

func TestQuietAndTerminalDetection(t *testing.T) {
	var out bytes.Buffer
	d := New(&out, false, true)
	d.Steps = 1
	d.Begin("x", 2)
	d.Update(2, 2)
	d.End()
	if out.Len() != 0 {
		t.Fatalf("quiet display wrote %q", out.String())
	}
	if IsTerminal(&out) {
		t.Fatal("a buffer is not a terminal")
	}
}

// TestBarMode renders the bar into a buffer: it must show the games count.
func TestBarMode(t *testing.T) {
	var out bytes.Buffer
	d := New(&out, true, false)
	d.Begin("validation", 10)
	for i := 1; i <= 10; i++ {
		d.Update(i, 10)
	}
	d.End()
	if !strings.Contains(out.String(), "validation") {
		t.Fatalf("bar output %q lacks the label", out.String())
	}
}

// TestRunStatus: the status ends the plain lines and follows the label
// on the bar, across steps.
func TestRunStatus(t *testing.T) {
	var out bytes.Buffer
	r := NewRun(&out, false, false)
	r.Plan("generation 1/2", 8)
	r.Status("2 workers, 1 batch in flight")
	r.lastPrint = time.Time{} // as if Interval had passed
	r.Games(2, 4)
	if got := out.String(); !strings.HasPrefix(got, "generation 1/2: 2/8 games") || !strings.HasSuffix(got, " · 2 workers, 1 batch in flight\n") {
		t.Errorf("plain line %q", got)
	}
	b := NewRun(&out, true, false)
	b.Plan("generation 1/2", 8)
	b.Status("1 worker")
	b.Step("generation 2/2", 4, 4)
	if got := b.describe(); got != "generation 2/2 · 1 worker" {
		t.Errorf("bar description %q", got)
	}
	b.Status("")
	if got := b.describe(); got != "generation 2/2" {
		t.Errorf("bar description without a status %q", got)
	}
	b.End()
}
