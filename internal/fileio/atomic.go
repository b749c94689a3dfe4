package fileio

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteAtomic replaces the file at path with data so that no reader ever
// sees a partial file: it writes a temporary file ".<name>.tmp-*" in the
// same directory (IsTemp knows the pattern, RemoveTemps clears what a stop
// leaves), fsyncs it, renames it over path and then fsyncs the directory
// (best effort: some file systems refuse to sync a directory). Every room
// writes its files through it: weight files, SGF records, results.
//
// A new file gets mode 0644; an existing file keeps its permission bits. The
// parent directory must exist. Errors: path not a file name, path an
// existing non-regular file, or the file system's; on any error the target
// is left as it was, the temporary file is removed, and the error names
// path.
func WriteAtomic(path string, data []byte) error {
	return writeAtomic(path, data, true)
}

// ReplaceAtomic replaces the file at path with data as WriteAtomic does (no
// reader sees a partial file) but without fsyncs, so that it costs no disk
// flush: for a marker a crash may lose (a run's running.json, written at
// every start), never for results.
func ReplaceAtomic(path string, data []byte) error {
	return writeAtomic(path, data, false)
}

// writeAtomic is WriteAtomic, with or without its fsyncs.
func writeAtomic(path string, data []byte, sync bool) (err error) {
	dir, name := filepath.Split(path)
	if name == "" || name == "." || name == ".." {
		return fmt.Errorf("write %q: not a file name", path)
	}
	if dir == "" {
		dir = "."
	}
	perm := fs.FileMode(0o644)
	if st, statErr := os.Stat(path); statErr == nil {
		if !st.Mode().IsRegular() {
			return fmt.Errorf("write %s: exists and is not a regular file", path)
		}
		perm = st.Mode().Perm()
	}

	f, err := os.CreateTemp(dir, "."+name+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				f.Close()
			}
			os.Remove(tmp)
		}
	}()

	if _, err = f.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if sync {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("write %s: sync: %w", path, err)
		}
	}
	closed = true
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: close: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if sync {
		syncDir(dir)
	}
	return nil
}

// syncDir fsyncs a directory so that a rename in it survives a crash. Errors
// are ignored: some file systems (and all of Windows) cannot sync a directory,
// and the rename itself has already succeeded.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}

// WholeLines returns the length of the whole lines at the start of the
// line-oriented file f of size bytes: size when it is empty or ends with a
// newline, else the offset just after its last newline (0 if it has none),
// so that a caller can drop (or refuse to append after) a last line that a
// stopped write left without its newline. It reads back from the end at
// most MaxLine bytes; a last line longer than that is a *Error naming path
// (not a file of records), as is a read error.
func WholeLines(f io.ReaderAt, size int64, path string) (int64, error) {
	const chunk = 64 << 10
	tail := make([]byte, 0, chunk)
	tooLong := &Error{Path: path, Err: fmt.Errorf("its last %s hold no newline, more than any record: not a file of JSON lines", Size(MaxLine))}
	for keep := size; keep > 0; {
		if size-keep > MaxLine {
			return 0, tooLong
		}
		n := min(int64(chunk), keep)
		tail = tail[:n]
		if _, err := f.ReadAt(tail, keep-n); err != nil {
			return 0, &Error{Path: path, Err: err}
		}
		if i := bytes.LastIndexByte(tail, '\n'); i >= 0 {
			end := keep - n + int64(i) + 1
			if size-end > MaxLine {
				return 0, tooLong
			}
			return end, nil
		}
		keep -= n
	}
	if size > MaxLine {
		return 0, tooLong
	}
	return 0, nil
}
