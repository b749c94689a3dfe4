package results

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/roadtune/roadtune/internal/fileio"
)

// LineError is a JSON error located in a file: ReadJSON, ReadJSONL and
// AppendJSONL return it (use errors.As) when the content, not the file system,
// is at fault.
type LineError struct {
	Path   string
	Line   int // 1-based line, 0 when the decoder gives no position
	Column int // 1-based byte column within Line, 0 when unknown
	// Unterminated is set by ReadJSONL and AppendJSONL when the bad line is
	// the last one and has no final newline: typically an append cut short
	// by a crash or a full disk.
	Unterminated bool
	Err          error
}

func (e *LineError) Error() string {
	var loc string
	switch {
	case e.Line > 0 && e.Column > 0:
		loc = fmt.Sprintf("%s:%d:%d", e.Path, e.Line, e.Column)
	case e.Line > 0:
		loc = fmt.Sprintf("%s:%d", e.Path, e.Line)
	default:
		loc = e.Path
	}
	msg := e.Err.Error()
	if e.Unterminated {
		msg += " (last line has no newline: an interrupted write?)"
	}
	return loc + ": " + msg
}

func (e *LineError) Unwrap() error { return e.Err }

// WriteJSONAtomic writes v as indented JSON (two spaces) followed by a newline,
// atomically (see WriteFileAtomic). Errors name path.
func WriteJSONAtomic(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("results: write %s: %w", path, err)
	}
	return WriteFileAtomic(path, append(data, '\n'))
}

// ReadJSON decodes the single JSON value in the file at path into v, refusing
// fields that v does not have (DisallowUnknownFields) and anything after the
// value. The file must be a regular file of at most 32 MiB
// (fileio.Checkpoint): anything else is a *fileio.Error, refused before it
// is read. A syntax or type error comes back as a *LineError with the line
// and column (wrapped in a *fileio.Error: bad input); a type error also
// names the field path (e.g. "Genes.3").
func ReadJSON(path string, v any) error {
	data, err := fileio.ReadFile(path, fileio.Checkpoint)
	if err != nil {
		return err
	}
	if err := fileio.DecodeJSON(data, v); err != nil {
		return fileio.Bad(locate(path, data, 0, err))
	}
	return nil
}

// WriteJSONL writes recs to path as JSON Lines (one compact JSON object per
// line, each ending in a newline), replacing the file atomically. An empty
// recs writes an empty file. Errors name path and the record index.
func WriteJSONL[T any](path string, recs []T) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for i := range recs {
		if err := enc.Encode(recs[i]); err != nil {
			return fmt.Errorf("results: write %s: record %d: %w", path, i, err)
		}
	}
	return WriteFileAtomic(path, buf.Bytes())
}

// ReadJSONL reads a JSON Lines file into a slice, one element per non-blank
// line, decoding strictly as ReadJSON does. A bad line stops the read with a
// *LineError naming path and the 1-based line (and column on syntax errors).
// An empty file gives an empty, non-nil slice. The file must be a regular
// file of at most 2 GiB (fileio.Records); errors are *fileio.Error values,
// wrapping the *LineError of a bad line.
func ReadJSONL[T any](path string) ([]T, error) {
	data, err := fileio.ReadFile(path, fileio.Records)
	if err != nil {
		return nil, err
	}
	recs := []T{}
	err = fileio.ScanJSONL(path, bytes.NewReader(data), func(l fileio.JSONLine) error {
		var rec T
		if err := fileio.DecodeJSON(l.Text, &rec); err != nil {
			le := locate(path, l.Text, l.Number, err)
			le.Unterminated = !l.Terminated
			return fileio.Bad(le)
		}
		recs = append(recs, rec)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return recs, nil
}

// AppendJSONL appends rec to the JSON Lines file at path as one compact line
// and fsyncs it, creating the file (mode 0644) if needed: the log of a match
// that grows game by game and survives a crash up to the last whole line.
//
// A single write call carries the whole line, but callers should still append
// to one file from one goroutine (the collector). If the file's last line has
// no newline (a write cut short earlier), AppendJSONL refuses with a
// *LineError rather than glue the new record onto it.
func AppendJSONL(path string, rec any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return fmt.Errorf("results: append %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("results: append %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("results: append %s: %w", path, err)
	}
	if keep, err := fileio.WholeLines(f, st.Size(), path); err != nil || keep < st.Size() {
		f.Close()
		if err != nil {
			return err
		}
		return &LineError{Path: path, Unterminated: true,
			Err: errors.New("refusing to append after a partial line; remove it first")}
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("results: append %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("results: append %s: sync: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("results: append %s: close: %w", path, err)
	}
	return nil
}

// locate turns a decoding error on data (the whole file when line0 is 0, else
// line line0 of it) into a *LineError with the line and column of the fault.
func locate(path string, data []byte, line0 int, err error) *LineError {
	le := &LineError{Path: path, Line: line0, Err: err}
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var tr *fileio.TrailingDataError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	case errors.As(err, &tr):
		off = tr.Offset + 1
	}
	if off < 0 {
		return le
	}
	off = min(off, int64(len(data)))
	// The decoder reports the offset just past the offending byte (syntax
	// errors) or value (type errors); point at its first byte.
	if off > 0 {
		off--
	}
	if te != nil && off < int64(len(data)) && data[off] == '"' {
		off = stringStart(data, off)
	}
	before := data[:off]
	nl := bytes.Count(before, []byte{'\n'})
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	if line0 > 0 {
		le.Line = line0 // a JSONL line has no newline inside
	} else {
		le.Line = nl + 1
	}
	le.Column = col
	return le
}

// stringStart returns the index of the opening quote of the JSON string whose
// closing quote is at data[end].
func stringStart(data []byte, end int64) int64 {
	for i := end - 1; i >= 0; i-- {
		if data[i] != '"' {
			continue
		}
		backslashes := 0
		for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return i
		}
	}
	return end
}
