// Package progress shows how far a batch of games has come: a bar with
// games/s and ETA (schollz/progressbar) when the output is a terminal,
// plain periodic lines when it is not (a log file, CI, a pipe).
package progress
