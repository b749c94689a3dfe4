package tournament

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"
)

// transcriptTextMax is how many bytes of a line a transcript keeps; longer
// lines are cut and end with a note of their length.
const transcriptTextMax = 1024

// Transcript records the conversation of external engines (the arena's
// -log FILE): one line per line sent to or received from an engine and per
// driver event, in the form
//
//	2006-01-02T15:04:05.999999999Z07:00 Cloudict[1234] > move JJKK
//
// that is an RFC 3339 timestamp with nanoseconds, the engine's label (its
// Engine.Name, else its program's base name, and the process id, which is
// also its process group), the direction ('>' sent, '<' received, '!' a driver event: start,
// handshake, forfeit, quit, exit status, kill) and the text. Texts over
// 1 KiB are cut, with a note of their length. Forfeit details of external
// players name the label and the transcript line of the forfeit.
//
// A Transcript is safe for concurrent use by many players. It buffers its
// output and flushes it at every driver event, so the lines up to a forfeit
// are written when it is recorded; Flush or Close write the rest. The
// Transcript does not close w.
type Transcript struct {
	mu     sync.Mutex
	w      *bufio.Writer
	lines  int   // lines written so far
	err    error // first write error
	closed bool
}

// NewTranscript returns a transcript that writes to w.
func NewTranscript(w io.Writer) *Transcript {
	return &Transcript{w: bufio.NewWriterSize(w, 32<<10)}
}

// log writes one line and returns its number (1-based), or 0 when t is nil
// or closed. dir is '>', '<' or '!'; events ('!') are flushed at once.
func (t *Transcript) log(label string, dir byte, text string) int {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return 0
	}
	var stamp [64]byte
	b := time.Now().AppendFormat(stamp[:0], time.RFC3339Nano)
	t.w.Write(b)
	t.w.WriteByte(' ')
	t.w.WriteString(label)
	t.w.WriteByte(' ')
	t.w.WriteByte(dir)
	t.w.WriteByte(' ')
	if len(text) > transcriptTextMax {
		t.w.WriteString(text[:transcriptTextMax])
		t.w.WriteString(" …[cut: " + strconv.Itoa(len(text)) + " bytes]")
	} else {
		t.w.WriteString(text)
	}
	if err := t.w.WriteByte('\n'); err != nil && t.err == nil {
		t.err = err
	}
	t.lines++
	if dir == '!' {
		if err := t.w.Flush(); err != nil && t.err == nil {
			t.err = err
		}
	}
	return t.lines
}

// logf is log with a format; it formats nothing when t is nil.
func (t *Transcript) logf(label string, format string, args ...any) int {
	if t == nil {
		return 0
	}
	return t.log(label, '!', fmt.Sprintf(format, args...))
}

// Flush writes the buffered lines; it returns the first write error so far.
func (t *Transcript) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		if err := t.w.Flush(); err != nil && t.err == nil {
			t.err = err
		}
	}
	return t.err
}

// Close flushes the transcript; later lines are dropped. It returns the
// first write error, and an error when called twice.
func (t *Transcript) Close() error {
	if err := t.Flush(); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errors.New("transcript: already closed")
	}
	t.closed = true
	return nil
}
