// Package results keeps what a roadtune run leaves on disk: the run directory,
// files written atomically (checkpoints, configs, reports), JSON and JSON Lines
// records (generation logs, game logs that grow during a match), line and bar
// charts rendered to PNG and SVG, and Markdown tables for report.md.
//
// It works on plain data (slices of float64, strings, any JSON-encodable
// value) and imports none of engine, tournament or the optimizers, so that
// cmd/tune and cmd/arena can feed it whatever they produce.
//
// Every writer except AppendJSONL replaces its file atomically: the bytes go to
// a temporary file in the same directory, are fsynced, and the temporary file
// is renamed over the target, so a reader (or a run resumed after a crash)
// sees either the old file or the new one, never a partial one.
package results
