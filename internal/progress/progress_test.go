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
	if got := b.describe(); got != "generation 1/2 · 1 worker" {
		t.Errorf("bar description before a game %q", got)
	}
	b.start = time.Now().Add(-4 * time.Second) // 4 games in 4 s: 4 left take 4 s
	b.Step("generation 2/2", 4, 4)
	if got := b.describe(); got != "generation 2/2 · ETA 4s · 1 worker" {
		t.Errorf("bar description %q", got)
	}
	b.Status("")
	if got := b.describe(); got != "generation 2/2 · ETA 4s" {
		t.Errorf("bar description without a status %q", got)
	}
	b.End()
}

// TestRunETAOfThePhase: a new phase (the verification ladder after the
// optimisation) measures its own rate: its ETA is its games left at the
// rate of its games so far, whatever the optimisation's pace was.
func TestRunETAOfThePhase(t *testing.T) {
	var out bytes.Buffer
	r := NewRun(&out, true, false)
	r.Plan("generation 1/1", 100)
	r.start = time.Now().Add(-time.Second)
	r.Games(100, 100) // 100 games/s
	r.Plan("verification", 40)
	r.start = time.Now().Add(-10 * time.Second)
	r.Games(10, 20) // 1 game/s in this phase: 30 games left take 30 s
	if r.eta != "30s" {
		t.Errorf("ETA %q at 10 of 40 ladder games in 10 s, want 30s", r.eta)
	}
	r.End()
	for _, c := range []struct {
		all, want int
		el        time.Duration
		eta       string
	}{{0, 10, time.Second, ""}, {5, 10, 5 * time.Second, "5s"}, {10, 10, time.Second, "0s"}, {3, 12, 90 * time.Second, "4m30s"}} {
		if got := etaText(c.all, c.want, c.el); got != c.eta {
			t.Errorf("etaText(%d, %d, %v) = %q, want %q", c.all, c.want, c.el, got, c.eta)
		}
	}
}

// TestRunPlannedEnd: a budgeted run's planned end follows the ETA on the
// bar and the status on the plain lines, through every phase, as a time
// of day (with the day's name when it is not today).
func TestRunPlannedEnd(t *testing.T) {
	var out bytes.Buffer
	now := time.Now()
	end := time.Date(now.Year(), now.Month(), now.Day(), 23, 59, 0, 0, time.Local)
	r := NewRun(&out, false, false)
	r.PlannedEnd(end)
	r.Plan("generation 1/2", 8)
	r.Status("1 worker")
	r.lastPrint = time.Time{}
	r.Games(2, 4)
	if got := out.String(); !strings.HasSuffix(got, " · planned end 23:59 · 1 worker\n") {
		t.Errorf("plain line %q", got)
	}
	b := NewRun(&out, true, false)
	b.PlannedEnd(end)
	b.Plan("verification", 8)
	if got := b.describe(); got != "verification · planned end 23:59" {
		t.Errorf("bar description %q", got)
	}
	b.End()
	if got, want := TimeOfDay(end.AddDate(0, 0, 1), now), end.AddDate(0, 0, 1).Format("Mon")+" 23:59"; got != want {
		t.Errorf("tomorrow: %q, want %q", got, want)
	}
}
