// Package web serves roadtune's run directories as read-only web pages:
// the list of runs, a tuning run's status, charts, verification ladder and
// games, an arena match's table built live from its games log, and a game
// viewer. Pages update without a reload through server-sent events.
//
// Everything is read from the run directories as the commands write them
// (tune's run directory, arena's -out directory), through an os.Root per
// run, so a request never reaches a file outside a served directory and
// never writes anything. Pages are plain HTML, CSS and a little JavaScript
// embedded in the binary: no external URL is loaded.
//
// The package knows no tuning code: tuning runs are read through
// Options.Tune (TuneRuns), which the tune command fills from package
// cmd/internal/web/tuneweb, so arena, which serves only its matches, links
// neither tune nor an optimizer.
package web
