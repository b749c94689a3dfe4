//go:build unix

package tournament

import (
	"fmt"
	"os"
	"syscall"
)

// sysProcAttr starts an engine in a process group of its own (its pid is
// the group id), so that killGroup reaches the children it spawns; on
// Linux the engine is also killed when the thread that started it dies
// (the arena killed with SIGKILL).
func sysProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(a)
	return a
}

// killGroup sends SIGKILL to the process group pgid; a group that is gone
// is no error.
func killGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// exitText says how a process ended: "exited with status N" or "killed by
// signal N (name)".
func exitText(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("killed by signal %d (%v)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("exited with status %d", ps.ExitCode())
}
