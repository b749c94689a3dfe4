package main

import (
	"fmt"
	"strings"
	"testing"

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

func (d *fakeDisplay) Step(label string, games, left int) {
	d.calls = append(d.calls, fmt.Sprintf("step %s %d %d", label, games, left))
}

// TestDisplayEvents: the bar is labelled with the unit and the steps done
// of the forecast's total, each step restarts it for the games left, and
// the ladder gets a bar of its own.
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
}
