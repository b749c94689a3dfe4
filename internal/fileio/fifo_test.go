//go:build linux

package fileio

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// TestOpenRefusesFIFO: a named pipe with no writer is refused at once by
// Open, ReadFile, OpenIn and ReadFileIn, naming the file, without being
// opened (the kind is checked first; before, each of these waited for a
// writer for good). A pipe swapped in after the kind was checked (a stat
// that still says regular) is opened without blocking and refused too.
func TestOpenRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := fileiotest.FIFO(t, dir)
	swapped := filepath.Join(dir, "swapped")
	if err := syscall.Mkfifo(swapped, 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "regular"), []byte("{}"), 0o644)
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	w := Weights
	for name, read := range map[string]func() error{
		"Open":       func() error { _, _, err := Open(fifo, w); return err },
		"ReadFile":   func() error { _, err := ReadFile(fifo, w); return err },
		"OpenIn":     func() error { _, _, err := OpenIn(root, "fifo", w); return err },
		"ReadFileIn": func() error { _, err := ReadFileIn(root, "fifo", w); return err },
		"swapped after the check": func() error {
			stat := func(string) (fs.FileInfo, error) { return os.Stat(filepath.Join(dir, "regular")) }
			_, _, err := open(swapped, w, stat, func() (*os.File, error) { return os.OpenFile(swapped, os.O_RDONLY|nonBlocking, 0) })
			return err
		},
	} {
		start := time.Now()
		err := read()
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: refused after %v", name, took)
		}
		want := ": not a regular file (a named pipe): a weight file is read only from a regular file"
		if err == nil || !strings.HasSuffix(err.Error(), want) || !IsInput(err) || !errors.Is(err, ErrNotRegular) {
			t.Errorf("%s: %v, want a bad-input error ending %q", name, err, want)
		}
	}
}
