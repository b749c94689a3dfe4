//go:build unix

package fileio

import "syscall"

// nonBlocking opens a file without waiting: a named pipe swapped in after
// the kind was checked opens at once (and is then refused) rather than
// waiting for a writer. It changes nothing for a regular file.
const nonBlocking = syscall.O_NONBLOCK
