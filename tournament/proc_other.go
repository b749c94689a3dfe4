//go:build !linux

package tournament

import "syscall"

// setDeathSignal does nothing: only Linux has a parent-death signal.
func setDeathSignal(*syscall.SysProcAttr) {}

// waitExited cannot wait without reaping here: it reports false and the
// caller kills the process group right after reaping the engine.
func waitExited(int) bool { return false }
