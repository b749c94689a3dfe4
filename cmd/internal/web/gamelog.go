package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/tournament"
)

// gameLog is the index of one games log (JSON Lines of
// tournament.GameRecord) of a run, read incrementally: it remembers where
// each complete line starts and how far the file was read, so a poll
// reads only what was appended since. A log replaced by another file (an
// atomic rewrite) or cut shorter is read again from the start. An arena
// log also feeds its table.
type gameLog struct {
	rel     string      // path inside the run directory, slash-separated
	fi      os.FileInfo // the file as last read
	end     int64       // bytes read: the end of the last complete line
	offsets []int64     // start of each game's line
	table   *liveTable  // arena: the table of the games read; nil otherwise
}

// logFor returns r's index of the log at rel, made on first use. Call with
// r.mu held.
func (r *run) logFor(rel string) *gameLog {
	g := r.logs[rel]
	if g == nil {
		g = &gameLog{rel: rel}
		if r.kind == kindArena && rel == arenaGameLog {
			g.table = &liveTable{}
		}
		r.logs[rel] = g
	}
	return g
}

// isGameLog reports whether rel may name a games log of a run of kind:
// arena's games.jsonl, or a tune run's games/*.jsonl.
func isGameLog(kind, rel string) bool {
	if !validRel(rel) || !strings.HasSuffix(rel, ".jsonl") {
		return false
	}
	if kind == kindArena {
		return rel == arenaGameLog
	}
	return path.Dir(rel) == "games"
}

// errForbidden is a log that cannot be opened for another reason than
// being absent: outside the run directory (a link), or unreadable.
var errForbidden = errors.New("forbidden path")

// update reads what was appended to the log since the last call. A
// missing log is an empty one (fs.ErrNotExist is not an error).
func (g *gameLog) update(root *os.Root) error {
	f, _, err := fileio.OpenIn(root, g.rel, fileio.GameLog)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		g.reset(nil)
		return nil
	case errors.Is(err, fileio.ErrNotRegular):
		return fmt.Errorf("%s is not a file", g.rel)
	case err != nil:
		return fmt.Errorf("%s: %w (%v)", g.rel, errForbidden, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if g.fi == nil || !os.SameFile(g.fi, fi) || fi.Size() < g.end {
		g.reset(fi)
	}
	g.fi = fi
	if fi.Size() == g.end {
		return nil
	}
	if _, err := f.Seek(g.end, io.SeekStart); err != nil {
		return err
	}
	base := g.end
	err = fileio.ScanJSONL(g.rel, io.LimitReader(f, fi.Size()-g.end), func(l fileio.JSONLine) error {
		if !l.Terminated {
			return errPartial // a line without its newline is still being written
		}
		g.offsets = append(g.offsets, base+l.Offset)
		g.end = base + l.Offset + int64(len(l.Text)) + 1
		if g.table != nil {
			g.table.add(l.Text, root, g)
		}
		return nil
	})
	var fe *fileio.Error
	switch {
	case errors.Is(err, errPartial):
		return nil
	case errors.As(err, &fe): // a line longer than any game record: not a games log
		return fmt.Errorf("%s: the line after game %d is longer than %s", g.rel, len(g.offsets), fileio.Size(fileio.MaxLine))
	}
	return err
}

// errEnough stops a read of a games log once the games asked for are read.
var errEnough = errors.New("enough games")

// errPartial stops a read of a games log at a line still being written.
var errPartial = errors.New("partial line")

// reset forgets what was read.
func (g *gameLog) reset(fi os.FileInfo) {
	g.fi, g.end, g.offsets = fi, 0, nil
	if g.table != nil {
		g.table = &liveTable{}
	}
}

// games reads the records of games [from, to) of the log (to clipped to
// the games read), in file order.
func (g *gameLog) games(root *os.Root, from, to int) ([]tournament.GameRecord, error) {
	to = min(to, len(g.offsets))
	if from >= to {
		return nil, nil
	}
	f, _, err := fileio.OpenIn(root, g.rel, fileio.GameLog)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(g.offsets[from], io.SeekStart); err != nil {
		return nil, err
	}
	out := make([]tournament.GameRecord, 0, to-from)
	err = fileio.ScanJSONL(g.rel, io.LimitReader(f, g.end-g.offsets[from]), func(l fileio.JSONLine) error {
		var rec tournament.GameRecord
		if err := json.Unmarshal(l.Text, &rec); err != nil {
			return fmt.Errorf("%s: game %d: %w", g.rel, from+len(out), err)
		}
		if out = append(out, rec); len(out) == to-from {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return out, err
	}
	return out, nil
}
