package tournament

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// records plays n short games between trivial players, numbered 0..n-1.
func records(t *testing.T, n int) []GameRecord {
	t.Helper()
	out := make([]GameRecord, n)
	for i := range out {
		g, err := PlayGame(context.Background(), engine.NewBoard(), &firstLegal{}, &firstLegal{}, mustOpening(t, "JJ KJJK"), 9)
		if err != nil {
			t.Fatal(err)
		}
		g.Game, g.Pair, g.Black, g.White, g.BlackIndex, g.WhiteIndex = i, i/2, "a", "b<&>", 0, 1
		g.Time = [2]time.Duration{}
		out[i] = g
	}
	return out
}

func TestWriteSGFAtomicMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sgf")
	g := records(t, 1)[0]
	for range 2 { // new, then replacing
		path, err := WriteSGF(dir, g)
		if err != nil {
			t.Fatal(err)
		}
		if path != filepath.Join(dir, "game-000000.sgf") {
			t.Errorf("path %s", path)
		}
		data, err := os.ReadFile(path)
		if err != nil || string(data) != g.SGF() {
			t.Fatalf("read back %q, %v", data, err)
		}
		st, _ := os.Stat(path)
		if runtime.GOOS != "windows" && st.Mode().Perm() != 0o644 {
			t.Errorf("mode %v, want 0644", st.Mode().Perm())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	// A directory that cannot be created is an error naming it.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := WriteSGF(filepath.Join(file, "sgf"), g); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("WriteSGF under a file: %v", err)
	}
}

func TestGameLogAppendRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	recs := records(t, 3)
	for _, g := range recs {
		if err := AppendGameLog(path, g); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(path)
	if strings.Count(string(data), "\n") != 3 {
		t.Errorf("log (one line per game):\n%s", data)
	}
	if st, _ := os.Stat(path); runtime.GOOS != "windows" && st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	back, err := ReadGameLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, recs) {
		t.Errorf("read back %+v\nwant %+v", back, recs)
	}

	// Blank lines are skipped; an empty file is an empty log.
	blank := filepath.Join(t.TempDir(), "blank.jsonl")
	os.WriteFile(blank, []byte("\n"+strings.Replace(string(data), "\n", "\n\n", 1)), 0o644)
	if back, err := ReadGameLog(blank); err != nil || len(back) != 3 {
		t.Errorf("with blank lines: %d records, %v", len(back), err)
	}
	empty := filepath.Join(t.TempDir(), "empty.jsonl")
	os.WriteFile(empty, nil, 0o644)
	if back, err := ReadGameLog(empty); err != nil || back == nil || len(back) != 0 {
		t.Errorf("empty log: %v, %v", back, err)
	}

	// Errors name the file and line.
	lines := strings.SplitAfter(string(data), "\n")
	for _, c := range []struct {
		name, content, want string
	}{
		{"syntax.jsonl", lines[0] + "{\"game\": 1,,}\n", "syntax.jsonl:2:"},
		{"move.jsonl", lines[0] + lines[1] + strings.Replace(lines[2], `"JJ"`, `"ZZ"`, 1), "move.jsonl:3: moves[0]"},
		{"trailing.jsonl", strings.TrimSuffix(lines[0], "\n") + " {}\n", "trailing.jsonl:1:"},
		{"cut.jsonl", lines[0] + lines[1][:20], "cut.jsonl:2:"},
	} {
		p := filepath.Join(t.TempDir(), c.name)
		os.WriteFile(p, []byte(c.content), 0o644)
		_, err := ReadGameLog(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to contain %q", c.name, err, c.want)
		}
		if c.name == "cut.jsonl" && (err == nil || !strings.Contains(err.Error(), "no newline")) {
			t.Errorf("%s: %v, want a note on the missing newline", c.name, err)
		}
	}
	if _, err := ReadGameLog(filepath.Join(t.TempDir(), "none.jsonl")); err == nil || !strings.Contains(err.Error(), "none.jsonl") {
		t.Errorf("missing log: %v", err)
	}

	// Appending after a line cut short is refused and leaves the file alone.
	cut := filepath.Join(t.TempDir(), "cut.jsonl")
	partial := lines[0] + lines[1][:20]
	os.WriteFile(cut, []byte(partial), 0o644)
	if err := AppendGameLog(cut, recs[2]); err == nil || !strings.Contains(err.Error(), "cut.jsonl") {
		t.Errorf("append after a partial line: %v", err)
	}
	if got, _ := os.ReadFile(cut); string(got) != partial {
		t.Error("refused append changed the file")
	}
}

func TestGameLogCutsTornLineAndScans(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	l, cut, err := OpenGameLog(path)
	if err != nil || cut != 0 {
		t.Fatal(err, cut)
	}
	g := GameRecord{Game: 0, Black: "a", White: "b", BlackIndex: 0, WhiteIndex: 1, Result: BlackWins, Reason: ReasonSix, Moves: []engine.Move{engine.Single(engine.PointAt(9, 9))}}
	if err := l.Append(g); err != nil {
		t.Fatal(err)
	}
	g.Game = 1
	if err := l.Append(g); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// A torn third line is skipped by ScanGameLog and cut by OpenGameLog.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"game":2,"pa`)
	f.Close()
	var games []int
	if err := ScanGameLog(path, func(r GameRecord) error { games = append(games, r.Game); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(games, []int{0, 1}) {
		t.Fatalf("scanned %v", games)
	}
	l, cut, err = OpenGameLog(path)
	if err != nil || cut != int64(len(`{"game":2,"pa`)) {
		t.Fatalf("reopen: cut %d, %v", cut, err)
	}
	g.Game = 2
	if err := l.Append(g); err != nil {
		t.Fatal(err)
	}
	l.Close()
	recs, err := ReadGameLog(path)
	if err != nil || len(recs) != 3 || recs[2].Game != 2 {
		t.Fatalf("after append: %d records, %v", len(recs), err)
	}
}

// TestGameLogRefusesHostileFiles: ReadGameLog, ScanGameLog and OpenGameLog
// refuse /dev/zero, a 100 MB file of one endless line and a directory at
// once, naming the file, and the readers refuse records missing their
// fields with file and line; nothing is cut from a file that is no log.
func TestGameLogRefusesHostileFiles(t *testing.T) {
	for _, h := range fileiotest.Files(t) {
		start := time.Now()
		_, rerr := ReadGameLog(h.Path)
		serr := ScanGameLog(h.Path, func(GameRecord) error { return nil })
		_, _, oerr := OpenGameLog(h.Path)
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: refused after %v", h.Name, took)
		}
		for _, err := range []error{rerr, serr, oerr} {
			if err == nil || !strings.Contains(err.Error(), h.Path) || !fileio.IsInput(err) {
				t.Errorf("%s: %v, want a bad-input error naming the file", h.Name, err)
			}
		}
		if st, err := os.Stat(h.Path); err == nil && st.Mode().IsRegular() && st.Size() != 100<<20 {
			t.Errorf("%s: cut to %d bytes", h.Name, st.Size())
		}
	}
	dir := t.TempDir()
	recs := records(t, 2)
	path := filepath.Join(dir, "games.jsonl")
	for _, g := range recs {
		if err := AppendGameLog(path, g); err != nil {
			t.Fatal(err)
		}
	}
	whole, _ := os.ReadFile(path)
	first, _, _ := strings.Cut(string(whole), "\n")
	for _, c := range []struct{ name, content, want string }{
		{"empty record", first + "\n{}\n", `games.jsonl:2: fields "game", "pair", "black", "white"`},
		{"no result", strings.Replace(first, `"result":"0",`, "", 1) + "\n", `games.jsonl:1: field "result" missing`},
		{"no players", regexp.MustCompile(`"(black|white)":"[^"]*",`).ReplaceAllString(first, "") + "\n", `games.jsonl:1: fields "black", "white" missing`},
	} {
		p := filepath.Join(dir, c.name, "games.jsonl")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c.content), 0o644)
		_, rerr := ReadGameLog(p)
		serr := ScanGameLog(p, func(GameRecord) error { return nil })
		for _, err := range []error{rerr, serr} {
			if err == nil || !strings.Contains(err.Error(), c.want) || !fileio.IsInput(err) {
				t.Errorf("%s: %v, want bad input containing %q", c.name, err, c.want)
			}
		}
	}
}
