//go:build !unix

package fileio

// nonBlocking is no flag where the platform has no non-blocking open.
const nonBlocking = 0
