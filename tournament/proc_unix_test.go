//go:build unix

package tournament

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// checkGroupsGone fails t unless every process group in pgids is gone
// within 2 s: kill(-pgid, 0) reports ESRCH, or (Linux) only zombies are
// left in it. Zombies are allowed because orphans are reparented to init,
// and some container inits never reap them; a zombie runs nothing.
func checkGroupsGone(t *testing.T, pgids []int) {
	t.Helper()
	if len(pgids) == 0 {
		t.Error("no process was started")
	}
	deadline := time.Now().Add(2 * time.Second)
	for _, g := range pgids {
		for !groupGone(g) {
			if time.Now().After(deadline) {
				t.Errorf("process group %d is still running", g)
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

func groupGone(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	if len(stats) == 0 {
		return false // no /proc: only ESRCH counts
	}
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 3 {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid && f[0] != "Z" && f[0] != "X" {
			return false
		}
	}
	return true
}
