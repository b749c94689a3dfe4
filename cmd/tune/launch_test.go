package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fixture/cmdlinetest"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
)

// fakeDisplay records a display's calls as text.
type fakeDisplay struct{ calls []string }

func (d *fakeDisplay) Plan(label string, total int) {
	d.calls = append(d.calls, fmt.Sprintf("plan %s %d", label, total))
}

func (d *fakeDisplay) Games(done, total int) {
	d.calls = append(d.calls, fmt.Sprintf("games %d/%d", done, total))
}

func (d *fakeDisplay) PlannedEnd(t time.Time) {
	d.calls = append(d.calls, "end "+t.UTC().Format("15:04"))
}

func (d *fakeDisplay) Step(label string, games, left int) {
	d.calls = append(d.calls, fmt.Sprintf("step %s %d %d", label, games, left))
}

// TestDisplayEvents: the bar is labelled with the unit and the steps done
// of the forecast's total, each step restarts it for the games left, and
// the ladder gets a bar of its own; a budgeted run's calibration gets a
// bar and its plan the planned end.
func TestDisplayEvents(t *testing.T) {
	d := &fakeDisplay{}
	ev := displayEvents(d)
	ev.Plan(tune.Plan{Unit: "generation", Status: optimize.Status{Steps: 2}, Forecast: optimize.Forecast{Steps: 3, Games: 300}})
	ev.Games(10, 100)
	ev.Step(optimize.Record{Games: 100}, optimize.Status{Steps: 3}, optimize.Forecast{Steps: 2, Games: 200})
	ev.Verify(40)
	want := "plan generation 2/5 300; games 10/100; step generation 3/5 100 200; plan verification 40"
	if got := strings.Join(d.calls, "; "); got != want {
		t.Errorf("display calls:\n got %s\nwant %s", got, want)
	}
	d.calls = nil
	ev.Calibrate(128)
	ev.Plan(tune.Plan{Unit: "round", Forecast: optimize.Forecast{Steps: 4, Games: 40}, End: time.Date(2026, 11, 29, 6, 0, 0, 0, time.UTC)})
	want = "plan calibration 128; end 06:00; plan round 0/4 40"
	if got := strings.Join(d.calls, "; "); got != want {
		t.Errorf("a budgeted run's display calls:\n got %s\nwant %s", got, want)
	}
}

// TestStartFromHandWrittenWeights: -start takes a weight file of a schema
// and its values alone (no name, no provenance), as engine and arena do.
func TestStartFromHandWrittenWeights(t *testing.T) {
	dir := t.TempDir()
	hand := cmdlinetest.HandWeights(t, dir)
	keys := map[string]string{"method": "spsa", "schema": "tempo", "start": hand}
	if _, err := launchNew("", keys, filepath.Join(dir, "run"), "", time.Now()); err != nil {
		t.Fatalf("-start %s: %v", hand, err)
	}
}
