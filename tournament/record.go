package tournament

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fileio"
)

// SGF returns the game as an SGF FF[4] record (connect6.md "Game records").
//
// Root node: FF[4] CA[UTF-8] AP[roadtune] SZ[19] GM[4] RU[Connect6] PB PW
// RE, and two private properties: XOPENING (the opening in protocol
// notation, empty for the empty board) and XREASON (why the game ended:
// six, full-board, move-limit, forfeit:<kind>). SGF has no registered GM
// number for Connect6; GM[4] (the Gomoku/Renju family, whose board and
// stones are the same) lets general viewers draw the game, and RU[Connect6]
// states the rules. A forfeit's detail goes into the root comment C. Then
// one node per stone in the order placed, ";B[jj];W[kj];W[jk];…", lowercase
// a–s, column first (a is the left column, the top row); the opening's
// stones are ordinary move nodes. Property values are escaped (\ before ]
// and \).
func (g GameRecord) SGF() string {
	var sb strings.Builder
	esc := func(s string) string {
		return strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(s)
	}
	fmt.Fprintf(&sb, "(;FF[4]CA[UTF-8]AP[roadtune]SZ[%d]GM[4]RU[Connect6]\nPB[%s]PW[%s]RE[%s]\nXOPENING[%s]XREASON[%s]",
		engine.Size, esc(g.Black), esc(g.White), g.Result, esc(g.Opening), esc(g.Reason))
	if g.Detail != "" {
		fmt.Fprintf(&sb, "C[%s]", esc(g.Detail))
	}
	sb.WriteByte('\n')
	for i, m := range g.Moves {
		c := "B"
		if MoveColor(i) == engine.White {
			c = "W"
		}
		for _, p := range []engine.Point{m.A, m.B} {
			if p == engine.NoPoint {
				continue
			}
			fmt.Fprintf(&sb, ";%s[%c%c]", c, 'a'+p.Col(), 'a'+p.Row())
		}
	}
	sb.WriteString(")\n")
	return sb.String()
}

// SGFName is the file name of a game's SGF record: "game-000123.sgf".
func (g GameRecord) SGFName() string { return fmt.Sprintf("game-%06d.sgf", g.Game) }

// WriteSGF writes the game's SGF record into dir (created if needed) as
// SGFName, atomically (a temporary file in dir, synced, mode 0644, renamed
// over the name, then dir synced); it returns the path. Errors name the path.
func WriteSGF(dir string, g GameRecord) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("tournament: %w", err)
	}
	path := filepath.Join(dir, g.SGFName())
	if err := fileio.WriteAtomic(path, []byte(g.SGF())); err != nil {
		return "", err
	}
	return path, nil
}

// AppendGameLog appends one game to a JSON Lines games log (one object per
// line, see GameRecord.MarshalJSON), creating the file with mode 0644 if
// needed, and fsyncs it, so a log survives an interrupted match up to its
// last whole line. It refuses to append after a last line without a newline
// (a write cut short earlier) rather than glue the game onto it. Append from
// one goroutine (the Runner's OnGame is called from one). Errors name path.
func AppendGameLog(path string, g GameRecord) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(g); err != nil { // Encode ends the line with '\n'
		return fmt.Errorf("tournament: append %s: game %d: %w", path, g.Game, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("tournament: append %w", err)
	}
	fail := func(err error) error {
		f.Close()
		return fmt.Errorf("tournament: append %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	if size := st.Size(); size > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, size-1); err != nil {
			return fail(err)
		}
		if last[0] != '\n' {
			return fail(errors.New("last line has no newline (an interrupted write?): refusing to append after it; remove it first"))
		}
	}
	if _, err := f.Write(buf.Bytes()); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(fmt.Errorf("sync: %w", err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("tournament: append %s: close: %w", path, err)
	}
	return nil
}

// ReadGameLog reads a JSON Lines games log written by AppendGameLog, one
// GameRecord per non-blank line, in file order; an empty file gives an
// empty, non-nil slice. The log must be a regular file, each line at most
// fileio.MaxLine bytes. A line that does not decode, or lacks a field every
// record has (GameRecord.UnmarshalJSON), stops the read with a
// *fileio.Error naming the file and the 1-based line ("games.jsonl:7: …"),
// noting a last line without a newline (an interrupted append).
// BuildTable rebuilds the table from the records.
func ReadGameLog(path string) ([]GameRecord, error) {
	recs := []GameRecord{}
	err := scanGameLog(path, true, func(g GameRecord, _ int) error {
		recs = append(recs, g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return recs, nil
}

// scanGameLog calls fn with each record of the log at path and its
// 1-based line; a last line without a newline is an error with
// strictLast, else skipped.
func scanGameLog(path string, strictLast bool, fn func(GameRecord, int) error) error {
	f, _, err := fileio.Open(path, fileio.GameLog)
	if err != nil {
		return err
	}
	defer f.Close()
	return fileio.ScanJSONL(path, f, func(l fileio.JSONLine) error {
		if !l.Terminated && !strictLast {
			return nil // a last line without newline: not a whole record
		}
		var g GameRecord
		if err := json.Unmarshal(l.Text, &g); err != nil {
			if !l.Terminated {
				err = fmt.Errorf("%w (last line has no newline: an interrupted write?)", err)
			}
			return &fileio.Error{Path: path, Line: l.Number, Err: err}
		}
		return fn(g, l.Number)
	})
}

// GameLog appends game records to a JSON Lines games log kept open, for
// long matches (AppendGameLog opens, fsyncs and closes the file per game).
// Each Append reaches the operating system before it returns, so a stop of
// the process at any moment loses no appended game; Close fsyncs. Not safe
// for concurrent use (the Runner's OnGame is called from one goroutine).
type GameLog struct {
	path string
	f    *os.File
	buf  bytes.Buffer
	enc  *json.Encoder
}

// OpenGameLog opens path for appending, creating it (mode 0644) if needed.
// A last line without a newline — a write cut short by an interrupted
// match — is removed first (its game was not complete), and the number of
// bytes removed is returned. Errors name path; a path that is not a
// regular file, or whose unterminated last line is longer than any record
// (fileio.MaxLine: not a games log), is a *fileio.Error and nothing is cut.
func OpenGameLog(path string) (*GameLog, int64, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, 0, &fileio.Error{Path: path, Err: errors.New("not a regular file: a games log is read only from a regular file")}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, fmt.Errorf("tournament: games log %w", err)
	}
	fail := func(err error) (*GameLog, int64, error) {
		f.Close()
		return nil, 0, fmt.Errorf("tournament: games log %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	size := st.Size()
	keep, err := fileio.WholeLines(f, size, path)
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if keep < size {
		if err := f.Truncate(keep); err != nil {
			return fail(err)
		}
	}
	if _, err := f.Seek(keep, io.SeekStart); err != nil {
		return fail(err)
	}
	l := &GameLog{path: path, f: f}
	l.enc = json.NewEncoder(&l.buf)
	l.enc.SetEscapeHTML(false)
	return l, size - keep, nil
}

// Append writes one game as a line. Errors name the log and the game.
func (l *GameLog) Append(g GameRecord) error {
	l.buf.Reset()
	if err := l.enc.Encode(g); err != nil {
		return fmt.Errorf("tournament: games log %s: game %d: %w", l.path, g.Game, err)
	}
	if _, err := l.f.Write(l.buf.Bytes()); err != nil {
		return fmt.Errorf("tournament: games log %s: game %d: %w", l.path, g.Game, err)
	}
	return nil
}

// Close fsyncs and closes the log.
func (l *GameLog) Close() error {
	err := l.f.Sync()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("tournament: games log %s: %w", l.path, err)
	}
	return nil
}

// ScanGameLog calls fn with each record of a games log in file order,
// without holding the whole log in memory; errors are ReadGameLog's (a
// last line without a newline is skipped: an interrupted append that
// OpenGameLog removes). An error of fn is returned as is.
func ScanGameLog(path string, fn func(GameRecord) error) error {
	return scanGameLog(path, false, func(g GameRecord, _ int) error { return fn(g) })
}
