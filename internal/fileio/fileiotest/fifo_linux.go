package fileiotest

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// FIFO makes a named pipe "fifo" in dir and returns its path. Until t
// ends, a watcher opens it for writing every 50 ms: the open succeeds
// only while a reader has the pipe open, which no reader of roadtune
// should ever do (they check the kind first); the watcher then writes a
// NUL byte, closes, and fails t naming the pipe, so that the reader gets
// input it refuses instead of waiting for good.
func FIFO(t testing.TB, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	opened := 0
	go func() {
		defer wg.Done()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			if w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Write([]byte{0})
				w.Close()
				opened++
			}
		}
	}()
	t.Cleanup(func() {
		close(done)
		wg.Wait()
		if opened > 0 {
			t.Errorf("%s: a reader opened the named pipe and waited for a writer (%d times); a file's kind is checked before it is opened", p, opened)
		}
	})
	return p
}
