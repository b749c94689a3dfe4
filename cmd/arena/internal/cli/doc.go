// Package cli is the logic of cmd/arena: flags, players, the run, and the
// report (table on stdout, summary.json, games.jsonl, SGF records and the
// win-rate chart in -out).
package cli
