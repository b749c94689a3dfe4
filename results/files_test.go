package results

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// dirNames lists the entries of dir, sorted (os.ReadDir sorts).
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileAtomicReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "checkpoint.json")
	if err := WriteFileAtomic(path, []byte("first")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", st.Mode().Perm())
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("second, longer")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "second, longer" {
		t.Errorf("content %q, want %q", got, "second, longer")
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, want the old 0600", st.Mode().Perm())
	}
	if names := dirNames(t, dir); !reflect.DeepEqual(names, []string{"checkpoint.json"}) {
		t.Errorf("directory holds %v, want only checkpoint.json", names)
	}
}

func TestWriteFileAtomicErrors(t *testing.T) {
	dir := t.TempDir()
	// Missing parent directory.
	missing := filepath.Join(dir, "no", "such", "file.json")
	err := WriteFileAtomic(missing, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing dir: error %v, want one naming %s", err, missing)
	}
	// The target is a directory: refused, and the directory is untouched.
	sub := filepath.Join(dir, "plots")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(sub, []byte("x")); err == nil {
		t.Error("writing over a directory: no error")
	}
	if st, err := os.Stat(sub); err != nil || !st.IsDir() {
		t.Errorf("directory damaged: %v %v", st, err)
	}
	if err := WriteFileAtomic(dir+string(filepath.Separator), []byte("x")); err == nil {
		t.Error("path ending in a separator: no error")
	}
	if names := dirNames(t, dir); !reflect.DeepEqual(names, []string{"plots"}) {
		t.Errorf("after failures the directory holds %v, want only plots", names)
	}
}

type checkpoint struct {
	Generation int       `json:"generation"`
	Genes      []float64 `json:"genes"`
	Note       string    `json:"note,omitempty"`
}

func TestJSONRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ckpt.json")
	want := checkpoint{Generation: 7, Genes: []float64{100, 200, 400.5, 800, 1000}, Note: "a <b> & c"}
	if err := WriteJSONAtomic(path, want); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(raw), "{\n  \"generation\": 7,") || !strings.HasSuffix(string(raw), "}\n") {
		t.Errorf("not indented JSON with a final newline:\n%s", raw)
	}
	var got checkpoint
	if err := ReadJSON(path, &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v, want %+v", got, want)
	}
}

func TestReadJSONErrors(t *testing.T) {
	cases := []struct {
		name, content string
		line, col     int    // 0: not checked
		want          string // substring of the message
	}{
		{"syntax", "{\"generation\": 1,\n \"genes\": @}\n", 2, 11, "invalid character '@'"},
		{"type", "{\n  \"generation\": 1,\n  \"genes\": [1, \"x\\\"y\"]\n}\n", 3, 16, "genes"},
		{"unknown field", "{\"generation\": 1, \"genez\": []}", 0, 0, `unknown field "genez"`},
		{"trailing", "{\"generation\": 1}\n\n  {}\n", 3, 3, "data after the JSON value"},
		{"empty", "", 0, 0, "no JSON value"},
		{"truncated", "{\"generation\": 1,", 0, 0, "unexpected EOF"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.json")
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			var v checkpoint
			err := ReadJSON(path, &v)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q, want it to name %s and say %q", err, path, tc.want)
			}
			if tc.line > 0 {
				var le *LineError
				if !errors.As(err, &le) {
					t.Fatalf("error %v is not a *LineError", err)
				}
				if le.Line != tc.line || le.Column != tc.col {
					t.Errorf("at %d:%d, want %d:%d (%v)", le.Line, le.Column, tc.line, tc.col, err)
				}
			}
		})
	}
	var v checkpoint
	err := ReadJSON(filepath.Join(t.TempDir(), "missing.json"), &v)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("missing file: %v", err)
	}
}

type gameRecord struct {
	Pair    int    `json:"pair"`
	Opening string `json:"opening"`
	Result  string `json:"result"`
}

func TestJSONLRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	want := []gameRecord{{1, "J10", "1-0"}, {1, "J10", "0-1"}, {2, "K10 <x&y>", "1/2-1/2"}}
	if err := WriteJSONL(path, want); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if n := strings.Count(string(raw), "\n"); n != 3 || !strings.Contains(string(raw), "<x&y>") {
		t.Errorf("want 3 lines with unescaped text, got %d:\n%s", n, raw)
	}
	got, err := ReadJSONL[gameRecord](path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v, want %+v", got, want)
	}

	if err := WriteJSONL(path, []gameRecord{}); err != nil {
		t.Fatal(err)
	}
	got, err = ReadJSONL[gameRecord](path)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty file: %v, %v; want an empty slice", got, err)
	}
}

func TestReadJSONLBadLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	content := `{"pair":1,"opening":"J10","result":"1-0"}

{"pair":2,"opening":"J10","result":"0-1"}
{"pair":3,"opening":"J10","result":1}
{"pair":4,"opening":"J10","result":"0-1"}
`
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadJSONL[gameRecord](path)
	var le *LineError
	if !errors.As(err, &le) {
		t.Fatalf("error %v is not a *LineError", err)
	}
	if le.Line != 4 || le.Column != 36 || le.Unterminated {
		t.Errorf("at line %d col %d (unterminated %v), want line 4 col 36", le.Line, le.Column, le.Unterminated)
	}
	if !strings.Contains(err.Error(), path+":4:36") {
		t.Errorf("message %q does not name %s:4:36", err, path)
	}

	// An unknown field on a line is refused too.
	if err := os.WriteFile(path, []byte(`{"pair":1,"winner":"black"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadJSONL[gameRecord](path); err == nil || !strings.Contains(err.Error(), path+":1") {
		t.Errorf("unknown field: %v", err)
	}
}

func TestAppendJSONL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	want := []gameRecord{{1, "J10", "1-0"}, {1, "J10", "0-1"}, {2, "K9", "0-1"}}
	for _, r := range want {
		if err := AppendJSONL(path, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := ReadJSONL[gameRecord](path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %+v, want %+v", got, want)
	}

	// A crash in the middle of a line: reading reports it as unterminated,
	// and appending refuses rather than corrupt the next record.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"pair":3,"open`)
	f.Close()
	_, err = ReadJSONL[gameRecord](path)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 4 || !le.Unterminated {
		t.Errorf("partial last line: %v, want an unterminated *LineError on line 4", err)
	}
	err = AppendJSONL(path, gameRecord{Pair: 3})
	if !errors.As(err, &le) || !le.Unterminated {
		t.Errorf("append after a partial line: %v, want an unterminated *LineError", err)
	}

	if err := AppendJSONL(path, func() {}); err == nil {
		t.Error("appending an unencodable value: no error")
	}
}

func TestRunDir(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "runs", "2024-ga")
	r, err := CreateRunDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Path("plots", "fitness"); got != filepath.Join(dir, "plots", "fitness") {
		t.Errorf("Path = %s", got)
	}
	plots, err := r.MkdirAll("plots")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(plots); err != nil || !st.IsDir() {
		t.Fatalf("MkdirAll did not create %s: %v", plots, err)
	}
	if err := WriteFileAtomic(r.Path("config.toml"), []byte("seed = 1\n")); err != nil {
		t.Fatal(err)
	}

	// A second run into the same directory is refused and loses nothing.
	if _, err := CreateRunDir(dir); err == nil || !strings.Contains(err.Error(), dir) {
		t.Errorf("CreateRunDir on a non-empty dir: %v, want an error naming it", err)
	}
	if b, err := os.ReadFile(r.Path("config.toml")); err != nil || string(b) != "seed = 1\n" {
		t.Errorf("existing file changed: %q %v", b, err)
	}
	// An existing empty directory is fine; a file is not.
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	if _, err := CreateRunDir(empty); err != nil {
		t.Errorf("empty existing dir: %v", err)
	}
	if _, err := CreateRunDir(r.Path("config.toml")); err == nil {
		t.Error("CreateRunDir on a file: no error")
	}
	if _, err := CreateRunDir(""); err == nil {
		t.Error("CreateRunDir(\"\"): no error")
	}

	o, err := OpenRunDir(dir)
	if err != nil || o.Dir != dir {
		t.Errorf("OpenRunDir: %v %v", o, err)
	}
	if _, err := OpenRunDir(filepath.Join(root, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenRunDir on a missing dir: %v", err)
	}
	if _, err := OpenRunDir(r.Path("config.toml")); err == nil {
		t.Error("OpenRunDir on a file: no error")
	}
}

func TestMarkdownTable(t *testing.T) {
	got := MarkdownTable(
		[]string{"opponent", "games", "score", "Elo"},
		[][]string{
			{"baseline", "600", "74.8%", "+190 ± 31"},
			{"Qi 2018 | dual", "1200", "52.3%"},
			{"PSO\ngbest", "40", "58.0%", "+56 ± 110", "extra"},
		})
	want := "" +
		"| opponent        | games | score |       Elo |       |\n" +
		"| --------------- | ----: | ----: | --------: | ----- |\n" +
		"| baseline        |   600 | 74.8% | +190 ± 31 |       |\n" +
		"| Qi 2018 \\| dual |  1200 | 52.3% |           |       |\n" +
		"| PSO gbest       |    40 | 58.0% | +56 ± 110 | extra |\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if s := MarkdownTable(nil, nil); s != "" {
		t.Errorf("empty table: %q", s)
	}
}

// TestReadersRefuseHostileFiles: ReadJSON and ReadJSONL read only regular
// files within their caps, refusing /dev/zero, a pipe and a directory at
// once and a 100 MB file of no JSON (past ReadJSON's cap; ReadJSONL's, a
// records file's, is 2 GiB) with a bad-input error naming the file; a bad
// line is bad input too.
func TestReadersRefuseHostileFiles(t *testing.T) {
	for _, h := range fileiotest.Files(t) {
		var v map[string]any
		jerr := ReadJSON(h.Path, &v)
		_, lerr := ReadJSONL[map[string]any](h.Path)
		for _, err := range []error{jerr, lerr} {
			if err == nil || !strings.HasPrefix(err.Error(), h.Path+":") || !fileio.IsInput(err) {
				t.Errorf("%s: %v", h.Name, err)
			}
		}
	}
	p := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(p, []byte("{\"a\": 1}\n{\"a\": \n"), 0o644)
	_, err := ReadJSONL[map[string]any](p)
	var le *LineError
	if !fileio.IsInput(err) || !errors.As(err, &le) || le.Line != 2 {
		t.Errorf("bad line: %v", err)
	}
}
