package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// TestCorruptRunRefused: a run directory whose records contradict
// themselves — a negative or too large records_bytes (which panicked
// export and compare, issue 43 item 2), negative or impossible counts in
// checkpoint.json, a record's games negative or not adding up (item 3) —
// is refused by export, compare and -resume with exit 2, naming the file
// (and the line or the field), instead of being read as a good run.
func TestCorruptRunRefused(t *testing.T) {
	t.Parallel()
	run := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := runTune(t, "-config", writeConfig(t, "spsa", 3), "-out", run, "-quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	edit := func(file, pattern, repl string) string {
		d := fileiotest.Copy(t, run)
		p := filepath.Join(d, file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(pattern)
		if !re.Match(data) {
			t.Fatalf("%s holds no %s", file, pattern)
		}
		if repl == "same length" { // a number of as many digits: records_bytes still holds
			m := re.FindSubmatch(data)
			repl = "${1}" + regexp.MustCompile(`\d`).ReplaceAllString(string(m[0][len(m[1]):]), "9")
		}
		os.WriteFile(p, re.ReplaceAll(data, []byte(repl)), 0o644)
		return d
	}
	// The second record's games (the first of step 1).
	secondGames := `(?s)^([^\n]*\n[^\n]*?"games": ?)\d+`
	for _, c := range []struct {
		name, file, pattern, repl string
		want                      []string
	}{
		{"records_bytes -1", "checkpoint.json", `"records_bytes": ?\d+`, `"records_bytes": -1`, []string{"checkpoint.json: ", "records_bytes -1"}},
		{"records_bytes 1e9", "checkpoint.json", `"records_bytes": ?\d+`, `"records_bytes": 1000000000`, []string{"generations.jsonl: ", "1000000000 bytes"}},
		{"status.games -1", "checkpoint.json", `("status": ?\{[^}]*"games": ?)\d+`, `${1}-1`, []string{"checkpoint.json: ", "status.games -1"}},
		{"status.steps -1", "checkpoint.json", `("status": ?\{[^}]*"steps": ?)\d+`, `${1}-1`, []string{"checkpoint.json: ", "status.steps -1"}},
		{"a record of -5 games", "generations.jsonl", secondGames, `${1}-5`, []string{"generations.jsonl:2: ", `"games"`, "≥ 0"}},
		{"a record of 9… games", "generations.jsonl", secondGames, "same length", []string{"generations.jsonl: ", "checkpoint.json", "games"}},
	} {
		dir := edit(c.file, c.pattern, c.repl)
		for _, args := range [][]string{{"export", dir}, {"compare", "-o", filepath.Join(t.TempDir(), "cmp"), dir, run}, {"-resume", dir, "-quiet"}} {
			code, _, stderr := runTune(t, args...)
			ok := code == 2 && strings.Count(strings.TrimSpace(stderr), "\n") == 0
			for _, w := range c.want {
				ok = ok && strings.Contains(stderr, w)
			}
			if !ok {
				t.Errorf("%s, %s: exit %d, stderr %q; want 2 and one line with %q", c.name, args[0], code, stderr, c.want)
			}
		}
	}
}
