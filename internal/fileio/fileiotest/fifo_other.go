//go:build !linux

package fileiotest

import "testing"

// FIFO is "" where named pipes are not tested: no pipe is made.
func FIFO(t testing.TB, dir string) string { return "" }
