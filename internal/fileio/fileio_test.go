package fileio

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hugeFile makes a sparse file of size bytes (nothing is written to disk).
func hugeFile(t *testing.T, size int64) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "huge")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestReadFile: a regular file within its cap is read whole; /dev/zero, a
// directory, a missing file and a file over the cap are *Error values
// naming the file, refused at once without reading it.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	os.WriteFile(small, []byte(`{"x": 1}`), 0o644)
	if data, err := ReadFile(small, Weights); err != nil || string(data) != `{"x": 1}` {
		t.Fatalf("small file: %q, %v", data, err)
	}
	big := hugeFile(t, 100<<20)
	edge := hugeFile(t, Weights.Max)
	if data, err := ReadFile(edge, Weights); err != nil || int64(len(data)) != Weights.Max {
		t.Errorf("file of exactly the cap: %d bytes, %v", len(data), err)
	}
	over := hugeFile(t, Weights.Max+1)
	for _, c := range []struct {
		name, path, want string
		notExist         bool
	}{
		{"device", "/dev/zero", "/dev/zero: not a regular file (a device): a weight file is read only from a regular file", false},
		{"directory", dir, dir + ": not a regular file (a directory)", false},
		{"missing", filepath.Join(dir, "none.json"), filepath.Join(dir, "none.json") + ": no such file or directory", true},
		{"100 MB", big, big + ": larger than 1 MiB, the most a weight file may have", false},
		{"one byte over", over, over + ": larger than 1 MiB", false},
	} {
		start := time.Now()
		_, err := ReadFile(c.path, Weights)
		if took := time.Since(start); took > 500*time.Millisecond {
			t.Errorf("%s: refused after %v", c.name, took)
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !IsInput(err) {
			t.Errorf("%s: %v, want a bad-input error starting %q", c.name, err, c.want)
		}
		if errors.Is(err, fs.ErrNotExist) != c.notExist {
			t.Errorf("%s: errors.Is(err, fs.ErrNotExist) = %t", c.name, !c.notExist)
		}
	}
	if _, err := ReadFile(big, Openings); err == nil || !strings.Contains(err.Error(), "the most an opening file may have") {
		t.Errorf("opening file: %v", err)
	}
}

// TestLineReader: lines come back numbered, with or without their newline;
// a line longer than MaxLine is refused with its number, before the rest of
// a 100 MB file is read.
func TestLineReader(t *testing.T) {
	lr := NewLineReader("log", strings.NewReader("a\n\nbc\nd"))
	var got []string
	for {
		line, n, term, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Repeat("+", n)+string(line)+map[bool]string{true: "$", false: "!"}[term])
	}
	if want := "+a$ ++$ +++bc$ ++++d!"; strings.Join(got, " ") != want {
		t.Errorf("lines %q, want %q", strings.Join(got, " "), want)
	}
	exact := strings.Repeat("x", MaxLine) + "\n"
	if line, _, term, err := NewLineReader("log", strings.NewReader(exact)).Next(); err != nil || len(line) != MaxLine || !term {
		t.Errorf("a line of MaxLine bytes: %d bytes, %v", len(line), err)
	}
	f, err := os.Open(hugeFile(t, 100<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lr = NewLineReader("huge", io.MultiReader(strings.NewReader("ok\n"), f))
	lr.Next()
	_, _, _, err = lr.Next()
	if err == nil || err.Error() != "huge:2: line longer than 1 MiB" || !IsInput(err) {
		t.Errorf("long line: %v", err)
	}
	if pos, _ := f.Seek(0, io.SeekCurrent); pos > 2*MaxLine {
		t.Errorf("read %d bytes of a 100 MB file to refuse its first line", pos)
	}
}

// TestRemoveTemps removes the temporary files of atomic writes in a
// directory and below it, and nothing else.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "sgf", "deep"), 0o755)
	files := map[string]bool{ // name: a temporary file
		"summary.json": false, ".summary.json.tmp-123": true, "sgf/game-000001.sgf": false,
		"sgf/.game-000002.sgf.tmp-9": true, "sgf/deep/.best.json.tmp77": true, ".hidden": false, "a.tmp": false,
	}
	for name := range files {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	n, err := RemoveTemps(dir)
	if err != nil || n != 3 {
		t.Fatalf("removed %d, %v; want 3", n, err)
	}
	for name, temp := range files {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) == temp {
			t.Errorf("%s: exists %t", name, err == nil)
		}
	}
}

// TestBad keeps the text of an error that names its file and marks it as
// bad input; nil stays nil.
func TestBad(t *testing.T) {
	if Bad(nil) != nil {
		t.Error("Bad(nil) is not nil")
	}
	err := Bad(errors.New("f.json:3: field \"values\": missing"))
	if !IsInput(err) || err.Error() != "f.json:3: field \"values\": missing" {
		t.Errorf("%v", err)
	}
	if e := (&Error{Path: "g.jsonl", Line: 7, Err: errors.New("field \"result\" missing")}); e.Error() != "g.jsonl:7: field \"result\" missing" {
		t.Errorf("%v", e)
	}
	if IsInput(errors.New("disk full")) {
		t.Error("an I/O error taken for bad input")
	}
}
