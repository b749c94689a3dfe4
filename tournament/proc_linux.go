//go:build linux

package tournament

import (
	"syscall"
	"unsafe"
)

// setDeathSignal makes the kernel SIGKILL the engine when the thread that
// started it exits, which covers the arena being killed with SIGKILL. (Go
// threads live as long as the process unless a goroutine exits while
// locked to its thread; the engine's own children are not covered, but
// they are killed with its group whenever the driver sees the engine end.)
func setDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }

// waitExited blocks until process pid has exited without reaping it
// (waitid with WNOWAIT, as package os does), so that the caller can kill
// the process group while the group id cannot yet be reused. It reports
// false when the system call failed (the caller then kills after reaping).
func waitExited(pid int) bool {
	const pPID, wNOWAIT = 1, 0x1000000
	var siginfo [16]uint64 // siginfo_t is 128 bytes
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&siginfo)), syscall.WEXITED|wNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			return errno == 0
		}
	}
}
