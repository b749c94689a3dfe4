package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// TestBadInputFilesExit2: every file arena reads — a weight file given as
// a player or as -engine weights=, an opening file (-openings, openings
// -candidates), a match's command.json and games.jsonl, the cluster's
// token, certificate, key and CA files — exits 2 at once, naming the
// file, for /dev/zero, a 100 MB file, a directory and a named pipe; a games log with an empty
// record or a record missing its result exits 2 naming file and line.
func TestBadInputFilesExit2(t *testing.T) {
	t.Parallel()
	// A finished match to break the files of.
	match := filepath.Join(t.TempDir(), "match")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"-pairs", "1", "-depth", "1", "-width", "4", "-out", match, "zhou2015", "qi2018-table3-1"}, &stdout, &stderr); code != 0 {
		t.Fatalf("match: exit %d: %s", code, stderr.String())
	}
	log, err := os.ReadFile(filepath.Join(match, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(log, []byte{'\n'})
	broken := func(replace func(dir string)) string {
		d := fileiotest.Copy(t, match)
		replace(d)
		return d
	}
	type tc struct {
		name, want string
		args       []string
	}
	var cases []tc
	for _, h := range fileiotest.Files(t) {
		cases = append(cases,
			tc{"player " + h.Name, h.Path + ":", []string{"-pairs", "1", "-depth", "1", h.Path, "zhou2015"}},
			tc{"-engine weights= " + h.Name, h.Path + ":", []string{"-pairs", "1", "-depth", "1", "-engine", "weights=" + h.Path, "-engine", "weights=zhou2015"}},
			tc{"-openings " + h.Name, h.Path + ":", []string{"-pairs", "1", "-depth", "1", "-openings", h.Path, "zhou2015", "zhou2015"}},
			tc{"command.json " + h.Name, "command.json:", []string{"-resume", fileiotest.CopyWith(t, match, "command.json", h.Path)}},
			tc{"games.jsonl " + h.Name, "games.jsonl:", []string{"-resume", fileiotest.CopyWith(t, match, "games.jsonl", h.Path)}},
			tc{"openings -candidates " + h.Name, h.Path + ":", []string{"openings", "-candidates", h.Path, "-depth", "1"}},
			tc{"-token-file " + h.Name, h.Path + ":", []string{"-pairs", "1", "-depth", "1", "-listen", "127.0.0.1:0", "-token-file", h.Path, "zhou2015", "zhou2015"}},
			tc{"-tls-cert " + h.Name, h.Path + ":", []string{"-pairs", "1", "-depth", "1", "-listen", "127.0.0.1:0", "-tls-cert", h.Path, "-tls-key", h.Path, "zhou2015", "zhou2015"}},
			tc{"-tls-ca " + h.Name, h.Path + ":", []string{"-pairs", "1", "-depth", "1", "-nats", "nats://127.0.0.1:1", "-tls-ca", h.Path, "zhou2015", "zhou2015"}},
		)
	}
	writeLog := func(content string) func(string) {
		return func(d string) { os.WriteFile(filepath.Join(d, "games.jsonl"), []byte(content), 0o644) }
	}
	noResult := strings.Replace(string(first), `"result":"`, `"was_result":"`, 1)
	cases = append(cases,
		tc{"games.jsonl with {}", "games.jsonl:2: fields \"game\"", []string{"-resume", broken(writeLog(string(first) + "\n{}\n"))}},
		tc{"games.jsonl without a result", "games.jsonl:1: ", []string{"-resume", broken(writeLog(noResult + "\n"))}},
		tc{"corrupt games.jsonl", "games.jsonl:2: ", []string{"-resume", broken(writeLog(string(first) + "\n{\"game\": 1,,}\n"))}},
		// issue 43, item 4: records that decode but are not the match's
		// games, or whose moves do not give their result.
		tc{"games.jsonl with a game twice", "games.jsonl:2: tournament: resumed game 0: given twice", []string{"-resume", broken(writeLog(string(first) + "\n" + string(first) + "\n"))}},
		tc{"games.jsonl with black_index 7", "games.jsonl:1: ", []string{"-resume", broken(writeLog(edit(t, first, "black_index", 7) + "\n"))}},
		tc{"games.jsonl with an unknown player", "games.jsonl:1: ", []string{"-resume", broken(writeLog(edit(t, first, "black", "nobody") + "\n"))}},
		tc{"games.jsonl with moves JJ JJJJ won by White", "games.jsonl:1: game 0: move 2 ", []string{"-resume", broken(writeLog(edit(t, []byte(edit(t, first, "opening", "")), "moves", []string{"JJ", "JJJJ"}) + "\n"))}},
		tc{"games.jsonl with the other result", "games.jsonl:1: game 0: result", []string{"-resume", broken(writeLog(edit(t, first, "result", other(t, first)) + "\n"))}},
	)
	for _, c := range cases {
		stdout.Reset()
		stderr.Reset()
		start := time.Now()
		code := Main(context.Background(), c.args, &stdout, &stderr)
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: took %v", c.name, took)
		}
		if code != exitUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.name, code, stderr.String(), exitUsage, c.want)
		}
	}
}

// edit is the JSON object line with field set to value.
func edit(t *testing.T, line []byte, field string, value any) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatal(err)
	}
	m[field] = value
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// other is the result a game record's line does not have: "W+" for
// "B+", else "B+".
func other(t *testing.T, line []byte) string {
	t.Helper()
	var m struct{ Result string }
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatal(err)
	}
	if m.Result == "B+" {
		return "W+"
	}
	return "B+"
}

// TestTokenFileNotEchoed: a token file given as -openings by mistake is
// refused naming the file, the line and the rule, without printing the
// token (issue 43, item 9: the bad line was quoted).
func TestTokenFileNotEchoed(t *testing.T) {
	const token = "s3cr3t-t0ken-4f9a"
	tok := filepath.Join(t.TempDir(), "token")
	os.WriteFile(tok, []byte(token+"\n"), 0o600)
	for _, args := range [][]string{
		{"-pairs", "1", "-depth", "1", "-openings", tok, "zhou2015", "zhou2015"},
		{"openings", "-candidates", tok, "-depth", "1"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), args, &stdout, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), tok+":1: ") || strings.Contains(stdout.String()+stderr.String(), "s3cr3t") {
			t.Errorf("%v: exit %d, stderr %q; want %d, the file and line named and no token", args[:2], code, stderr.String(), exitUsage)
		}
	}
}
