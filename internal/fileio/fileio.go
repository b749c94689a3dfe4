package fileio

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Kind is a kind of input file: its name in errors ("weight file") and
// the largest size read, in bytes.
type Kind struct {
	Name string
	Max  int64
}

// The kinds of input files and their caps, in bytes. The caps are far
// above what roadtune writes (a weight file is under 2 KB, a config under
// 10 KB, a checkpoint of a 40-particle swarm about 100 KB, the balanced
// opening suite 20 KB) and far below what would hurt memory.
var (
	// Weights: a weight file (JSON), 1 MiB.
	Weights = Kind{"weight file", MaxWeights}
	// Config: a TOML config, a chain's chain.json, an arena match's
	// command.json, a ladder.json, 1 MiB.
	Config = Kind{"config", 1 << 20}
	// Openings: an opening file (one opening per line), 16 MiB.
	Openings = Kind{"opening file", 16 << 20}
	// Checkpoint: a tuning run's checkpoint.json, 32 MiB.
	Checkpoint = Kind{"checkpoint", 32 << 20}
	// Records: a tuning run's generations.jsonl, read whole, 2 GiB. A
	// record takes a few KB (SPSA's, with its per-gene metrics), and a
	// run by the clock writes as many as its hours allow: a night of
	// short SPSA iterations is hundreds of MB, which a run must read back
	// for its ladder and resume.
	Records = Kind{"records file", 2 << 30}
	// Report: a run's report.md, compare.md or a chart's SVG, 16 MiB.
	Report = Kind{"report", 16 << 20}
	// Secret: a cluster's token file, a TLS certificate, key or CA
	// file (PEM), 1 MiB.
	Secret = Kind{"token or certificate file", 1 << 20}
	// Positions: a gzip positions file (read line by line), 4 GiB.
	Positions = Kind{"positions file", 4 << 30}
	// GameLog: a games log (JSON Lines, read line by line), 16 GiB.
	GameLog = Kind{"games log", 16 << 30}
	// RunFile: any file of a run or match directory a web page serves
	// as it is (read in pieces), 16 GiB.
	RunFile = Kind{"file of a run", 16 << 30}
)

// MaxWeights is the largest weight file, in bytes (Weights).
const MaxWeights = 1 << 20

// MaxLine is the longest line, in bytes, of a file read line by line (a
// games log, a positions file): a game record is about 2 KB.
const MaxLine = 1 << 20

// Error is a bad input file: Path and, when known, the 1-based Line, and
// what is wrong. Its text is "PATH: what" or "PATH:LINE: what"; with an
// empty Path, Err alone (an error that already names its file).
// Commands exit with status 2 for it (see IsInput).
type Error struct {
	Path string
	Line int
	Err  error
}

func (e *Error) Error() string {
	switch {
	case e.Path == "":
		return e.Err.Error()
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %v", e.Path, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Bad marks err (which names its file already, e.g. "f.json:3: field
// \"values\": …") as a bad input file; nil stays nil. Its text is err's.
func Bad(err error) error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Err: err}
}

// IsInput reports whether err is (or wraps) a bad input file.
func IsInput(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// Open opens path for reading if it is a regular file of at most k.Max
// bytes, and returns it with its size. The kind is checked before the file
// is opened, so that a named pipe (FIFO), which blocks an open until a
// writer comes, is refused at once like a device, a socket or a directory;
// the file is then opened without blocking where the platform allows it
// and checked again, so that a file swapped for a pipe between the check
// and the open cannot hang the reader either. Errors are *Error: a file
// that does not exist or cannot be opened (wrapping the fs error, so
// errors.Is with fs.ErrNotExist works), a file that is not regular, or one
// too large.
func Open(path string, k Kind) (*os.File, int64, error) {
	return open(path, k, os.Stat, func() (*os.File, error) { return os.OpenFile(path, os.O_RDONLY|nonBlocking, 0) })
}

// OpenIn is Open for the file name inside root (a run directory a web
// page serves): the name cannot leave root, and its kind is checked
// before it is opened, as Open does. Errors name the file as name.
func OpenIn(root *os.Root, name string, k Kind) (*os.File, int64, error) {
	return open(name, k, root.Stat, func() (*os.File, error) { return root.OpenFile(name, os.O_RDONLY|nonBlocking, 0) })
}

// open is Open with the stat and open of a file system: the kind and size
// checked by stat, then the file opened by openFile and checked again.
func open(path string, k Kind, stat func(string) (fs.FileInfo, error), openFile func() (*os.File, error)) (*os.File, int64, error) {
	fi, err := stat(path)
	if err == nil {
		err = k.check(path, fi)
	}
	if err != nil {
		return nil, 0, pathError(path, err)
	}
	f, err := openFile()
	if err != nil {
		return nil, 0, pathError(path, err)
	}
	if fi, err = f.Stat(); err == nil {
		err = k.check(path, fi)
	}
	if err != nil {
		f.Close()
		return nil, 0, pathError(path, err)
	}
	return f, fi.Size(), nil
}

// pathError is err as an *Error naming path, an fs.PathError's text cut
// to its cause (the path is named once).
func pathError(path string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Error{Path: path, Err: err}
}

// ErrNotRegular is what an input file that is not a regular file (a
// device, a named pipe, a socket, a directory) is: errors.Is(err,
// ErrNotRegular) tells it from a missing or unreadable file.
var ErrNotRegular = errors.New("not a regular file")

// notRegular is ErrNotRegular for a file of kind k that is what.
type notRegular struct {
	what string
	k    Kind
}

func (e notRegular) Error() string {
	return fmt.Sprintf("not a regular file (%s): %s is read only from a regular file", e.what, e.k.article())
}

func (e notRegular) Is(target error) bool { return target == ErrNotRegular }

// check refuses fi, the file at path, unless it is a regular file of at
// most k.Max bytes.
func (k Kind) check(path string, fi fs.FileInfo) error {
	m := fi.Mode()
	if !m.IsRegular() {
		what := "a device"
		switch {
		case m.IsDir():
			what = "a directory"
		case m&fs.ModeNamedPipe != 0:
			what = "a named pipe"
		case m&fs.ModeSocket != 0:
			what = "a socket"
		}
		return &Error{Path: path, Err: notRegular{what, k}}
	}
	if fi.Size() > k.Max {
		return tooLarge(path, k)
	}
	return nil
}

func tooLarge(path string, k Kind) error {
	return &Error{Path: path, Err: fmt.Errorf("larger than %s, the most %s may have", Size(k.Max), k.article())}
}

// article is k's name after "a" or "an".
func (k Kind) article() string {
	if k.Name != "" && strings.ContainsRune("aeiou", rune(k.Name[0])) {
		return "an " + k.Name
	}
	return "a " + k.Name
}

// ReadFile reads the whole of path, a regular file of at most k.Max bytes
// (see Open). A file that grows past k.Max while read is refused too.
func ReadFile(path string, k Kind) ([]byte, error) {
	f, size, err := Open(path, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, size, path, k)
}

// ReadFileIn is ReadFile for the file name inside root (see OpenIn).
func ReadFileIn(root *os.Root, name string, k Kind) ([]byte, error) {
	f, size, err := OpenIn(root, name, k)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, size, name, k)
}

// readAll reads f, the file at path of size bytes, to its end, refusing it
// once it has grown past k.Max.
func readAll(f *os.File, size int64, path string, k Kind) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, size+1))
	if _, err := buf.ReadFrom(io.LimitReader(f, k.Max+1)); err != nil {
		return nil, &Error{Path: path, Err: err}
	}
	if int64(buf.Len()) > k.Max {
		return nil, tooLarge(path, k)
	}
	return buf.Bytes(), nil
}

// Size writes a byte count for people: "1 MiB", "16 GiB", "512 bytes".
func Size(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}

// LineReader reads a file line by line, refusing a line longer than
// MaxLine without reading the rest of it.
type LineReader struct {
	path string
	r    *bufio.Reader
	line int
	buf  []byte
}

// NewLineReader reads the lines of r; path names it in errors.
func NewLineReader(path string, r io.Reader) *LineReader {
	return &LineReader{path: path, r: bufio.NewReaderSize(r, 64<<10)}
}

// Next returns the next line without its newline, its 1-based number and
// whether it ended with a newline (false for a last line cut short). At
// the end it returns io.EOF. A line longer than MaxLine is an *Error
// naming the file and the line. The line is valid until the next call.
func (l *LineReader) Next() (line []byte, number int, terminated bool, err error) {
	l.buf = l.buf[:0]
	l.line++
	for {
		chunk, err := l.r.ReadSlice('\n')
		l.buf = append(l.buf, chunk...)
		if n := len(l.buf); n > MaxLine && !(n == MaxLine+1 && err == nil) {
			return nil, l.line, false, &Error{Path: l.path, Line: l.line, Err: fmt.Errorf("line longer than %s", Size(MaxLine))}
		}
		switch {
		case err == nil:
			return l.buf[:len(l.buf)-1], l.line, true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(l.buf) == 0 {
				return nil, l.line, false, io.EOF
			}
			return l.buf, l.line, false, nil
		default:
			return nil, l.line, false, &Error{Path: l.path, Line: l.line, Err: err}
		}
	}
}

// IsTemp reports whether a file name is the temporary file of an atomic
// write that was interrupted: ".NAME.tmp-*" (WriteAtomic's; ".NAME.tmp*"
// from roadtune before every room wrote through WriteAtomic).
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp")
}

// RemoveTemps removes the temporary files of interrupted atomic writes
// (IsTemp) in dir and in every directory below it, and returns how many it
// removed. It follows no symbolic link. Errors name the file.
func RemoveTemps(dir string) (int, error) {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && IsTemp(d.Name()) {
			if err := os.Remove(p); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	return n, err
}

// JSONLine is one line of a JSON Lines stream as ScanJSONL gives it.
type JSONLine struct {
	Text   []byte // without its newline; valid during the call only
	Number int    // 1-based line number
	Offset int64  // byte offset of its first byte from the stream's start
	// Terminated reports that the line ends with a newline: only a last
	// line cut short (a write in flight, or torn by a crash) does not.
	Terminated bool
}

// ScanJSONL is roadtune's one reader of JSON Lines files (generations,
// games logs, results' JSONL): it calls fn with each line of r that is
// not blank, in order, and stops at fn's first error, which it returns.
// path names r in errors; a line longer than MaxLine is an *Error naming
// it. Decoding stays with the caller, because the files differ: records
// decode strictly (DecodeJSON), games logs leniently so logs of earlier
// versions read; and so does the policy for a last line without its
// newline (skip it as a write in flight, or refuse it as torn).
func ScanJSONL(path string, r io.Reader, fn func(JSONLine) error) error {
	lr := NewLineReader(path, r)
	var off int64
	for {
		text, n, terminated, err := lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		line := JSONLine{Text: text, Number: n, Offset: off, Terminated: terminated}
		off += int64(len(text))
		if terminated {
			off++
		}
		if len(bytes.TrimSpace(text)) == 0 {
			continue
		}
		if err := fn(line); err != nil {
			return err
		}
	}
}
