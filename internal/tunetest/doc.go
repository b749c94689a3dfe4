// Package tunetest holds the test data and helpers shared by the tests of
// the tuning job and its commands: a tiny run config, a log buffer.
package tunetest
