// This file holds the wiring of a job's events to the progress display
// (displayEvents): the command's part of a launch; resolving it from the
// flags' values is launchCommandLine (flags.go).

package main

import (
	"fmt"
	"time"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
)

// display is a run's progress display (progress.Run: the bar and step
// lines): Plan starts a bar of total games under label, Games moves it,
// Step prints a step line and restarts the bar for the games left.
type display interface {
	Plan(label string, total int)
	Games(done, total int)
	Step(label string, games, left int)
	PlannedEnd(t time.Time)
}

// displayEvents wires a job's events to d: a bar for a budgeted run's
// calibration, one bar for the whole optimisation labelled "<unit>
// <done>/<total>" (the method's forecast) with a budgeted run's planned
// end, a line per step, a bar for the verification ladder.
func displayEvents(d display) tune.Events {
	var unit string
	label := func(st optimize.Status, f optimize.Forecast) string {
		return fmt.Sprintf("%s %d/%d", unit, st.Steps, st.Steps+f.Steps)
	}
	return tune.Events{
		Plan: func(p tune.Plan) {
			unit = p.Unit
			if !p.End.IsZero() {
				d.PlannedEnd(p.End)
			}
			d.Plan(label(p.Status, p.Forecast), p.Forecast.Games)
		},
		Calibrate: func(games int) { d.Plan("calibration", games) },
		Games:     d.Games,
		Step: func(rec optimize.Record, st optimize.Status, f optimize.Forecast) {
			d.Step(label(st, f), rec.Games, f.Games)
		},
		Verify: func(games int) { d.Plan("verification", games) },
	}
}
