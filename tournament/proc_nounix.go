//go:build !unix

package tournament

import (
	"fmt"
	"os"
	"syscall"
)

// sysProcAttr: no process groups here; only the engine itself is killed.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// killGroup does nothing here (the driver kills the engine process itself).
func killGroup(int) {}

// exitText says how a process ended: "exited with status N" or the
// system's words.
func exitText(ps *os.ProcessState) string {
	if code := ps.ExitCode(); code >= 0 {
		return fmt.Sprintf("exited with status %d", code)
	}
	return ps.String()
}
