// Package tuneweb joins the web pages to package tune for the tune
// command: Runs reads tuning runs for the pages (web.Options.Tune), Events
// keeps a web.Tracker up to date from a job's events, and RunServer serves
// the pages of the run a tune command plays (-http). Package web itself
// knows no tuning code, so arena links none.
package tuneweb
