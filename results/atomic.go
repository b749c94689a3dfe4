package results

import "github.com/roadtune/roadtune/internal/fileio"

// WriteFileAtomic replaces the file at path with data so that no reader ever
// sees a partial file (fileio.WriteAtomic: a temporary file in the same
// directory, fsynced, renamed over path, the directory fsynced). A new file
// gets mode 0644; an existing file keeps its permission bits; the parent
// directory must exist (see RunDir.MkdirAll). On any error the target is
// left as it was and the error names path.
func WriteFileAtomic(path string, data []byte) error { return fileio.WriteAtomic(path, data) }

// ReplaceFile replaces the file at path with data as WriteFileAtomic does
// but without fsyncs (fileio.ReplaceAtomic): for a marker a crash may lose,
// never for results.
func ReplaceFile(path string, data []byte) error { return fileio.ReplaceAtomic(path, data) }
