package fileiotest

import (
	"os"
	"path/filepath"
	"testing"
)

// Hostile is one input that is not a file to read, with its name for
// test messages.
type Hostile struct {
	Name, Path string
}

// Files returns /dev/zero, a sparse 100 MB file (made with os.Truncate,
// so nothing is written to disk), a directory and, on Linux, a named pipe
// (FIFO), in a temporary directory of t. A reader that opens the pipe
// would wait for a writer for good: a watcher stands in as the writer
// (feeding it a NUL byte, which no input parses), so that such a reader
// fails t instead of hanging it.
func Files(t testing.TB) []Hostile {
	t.Helper()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Truncate(big, 100<<20); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "a-directory")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	files := []Hostile{{"/dev/zero", "/dev/zero"}, {"a 100 MB file", big}, {"a directory", sub}}
	if fifo := FIFO(t, dir); fifo != "" {
		files = append(files, Hostile{"a named pipe", fifo})
	}
	return files
}

// CopyWith copies the directory dir (a run, a match) into a new temporary
// directory of t and there replaces file (a path inside it) with a
// symbolic link to target; it returns the copy.
func CopyWith(t testing.TB, dir, file, target string) string {
	t.Helper()
	d := Copy(t, dir)
	Link(t, target, filepath.Join(d, file))
	return d
}

// Copy copies the directory dir into a new temporary directory of t and
// returns the copy.
func Copy(t testing.TB, dir string) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), filepath.Base(dir))
	if err := os.CopyFS(d, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return d
}

// Link makes a symbolic link at link to target, a hostile file (FIFO's
// pipe, say) standing for a file of a run.
func Link(t testing.TB, target, link string) {
	t.Helper()
	os.Remove(link)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
