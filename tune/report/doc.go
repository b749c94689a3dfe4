// Package report is the room of a tuning run's report below the job:
// the report's files in a run directory (File, FileHTML, DirPlots) and
// WriteHTML, which builds report.html from report.md and the charts as
// one self-contained page (inline SVG and CSS, no script, no external
// URL) that reads offline. It imports nothing of the tuning job: the job
// (package tune) writes report.md and calls it.
package report
