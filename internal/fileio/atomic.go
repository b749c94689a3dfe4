package fileio

import (
	"fmt"
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
