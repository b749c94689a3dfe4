// Package optimizetest holds a synthetic Referee for testing optimizers
// without an engine: of two weight vectors, the one closer to a hidden
// target tends to win.
package optimizetest
