// Package report is the room of a tuning run's report and charts below
// the job: the report's files in a run directory (File, FileHTML,
// DirPlots); the charts of a run's records (RunCharts: the best vector's
// genes by step in panels per kind of road, with a baseline dashed and
// genes the method left unidentified greyed; the method's own charts;
// the measured Elo), saved as PNG and SVG (SavePlot); and WriteHTML,
// which builds report.html from report.md and the charts as one
// self-contained page (inline SVG and CSS, no script, no external URL)
// that reads offline. It imports nothing of the tuning job: the job
// (package tune) gives it records and values, writes report.md and
// calls it.
package report
