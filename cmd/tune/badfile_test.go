package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// TestBadInputFilesExit2: every file tune reads — -config, -start,
// -openings, the cluster's token, certificate, key and CA files (a
// worker's too), and a run's checkpoint.json, config.toml and
// generations.jsonl behind -resume, export and compare — exits 2 at once,
// naming the file, for /dev/zero, a 100 MB file, a directory and a named
// pipe; records
// lacking their fields exit 2 naming file and line.
func TestBadInputFilesExit2(t *testing.T) {
	t.Parallel()
	run := filepath.Join(t.TempDir(), "run")
	cfg := writeConfig(t, "spsa", 3)
	if code, _, stderr := runTune(t, "-config", cfg, "-out", run, "-quiet"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	broken := func(file string, replace func(path string)) string {
		d := fileiotest.Copy(t, run)
		replace(filepath.Join(d, file))
		return d
	}
	type tc struct {
		name, want string
		args       []string
	}
	var cases []tc
	out := func() string { return filepath.Join(t.TempDir(), "out") }
	for _, h := range fileiotest.Files(t) {
		cases = append(cases,
			tc{"-config " + h.Name, h.Path + ":", []string{"-config", h.Path, "-out", out(), "-quiet"}},
			tc{"-start " + h.Name, h.Path, []string{"-config", cfg, "-start", h.Path, "-out", out(), "-quiet"}}, // a directory is a run: its best.json
			tc{"-openings " + h.Name, h.Path + ":", []string{"-config", cfg, "-openings", h.Path, "-out", out(), "-quiet"}},
			tc{"-token-file " + h.Name, h.Path + ":", []string{"-config", cfg, "-listen", "127.0.0.1:0", "-token-file", h.Path, "-out", out(), "-quiet"}},
			tc{"-tls-cert " + h.Name, h.Path + ":", []string{"-config", cfg, "-listen", "127.0.0.1:0", "-tls-cert", h.Path, "-tls-key", h.Path, "-out", out(), "-quiet"}},
			tc{"-tls-ca " + h.Name, h.Path + ":", []string{"-config", cfg, "-nats", "nats://127.0.0.1:1", "-tls-ca", h.Path, "-out", out(), "-quiet"}},
			tc{"worker -token-file " + h.Name, h.Path + ":", []string{"worker", "-connect", "nats://127.0.0.1:1", "-token-file", h.Path}},
			tc{"worker -tls-ca " + h.Name, h.Path + ":", []string{"worker", "-connect", "nats://127.0.0.1:1", "-tls-ca", h.Path}},
		)
		for _, f := range []string{"checkpoint.json", "config.toml", "generations.jsonl"} {
			cases = append(cases,
				tc{"-resume, " + f + " " + h.Name, f + ":", []string{"-resume", fileiotest.CopyWith(t, run, f, h.Path), "-quiet"}},
				tc{"export, " + f + " " + h.Name, f + ":", []string{"export", fileiotest.CopyWith(t, run, f, h.Path)}},
				tc{"compare, " + f + " " + h.Name, f + ":", []string{"compare", "-o", out(), fileiotest.CopyWith(t, run, f, h.Path), run}},
			)
		}
	}
	data, err := os.ReadFile(filepath.Join(run, "generations.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	records := func(second string) func(string) {
		return func(p string) {
			os.WriteFile(p, []byte(lines[0]+second+strings.Join(lines[2:], "")), 0o644)
		}
	}
	noBest := strings.Replace(lines[1], `"best":`, `"was_best":`, 1)
	emptyStart := filepath.Join(t.TempDir(), "empty.json")
	os.WriteFile(emptyStart, []byte("{}"), 0o644)
	cases = append(cases,
		tc{"-start {}", emptyStart + `: field "schema": missing`, []string{"-config", cfg, "-start", emptyStart, "-out", out(), "-quiet"}},
		tc{"export, an empty record", "generations.jsonl:2: ", []string{"export", broken("generations.jsonl", records(strings.Repeat(" ", len(lines[1])-3)+"{}\n"))}},
		tc{"export, a record without best", "generations.jsonl:2: ", []string{"export", broken("generations.jsonl", records(noBest))}},
	)
	for _, c := range cases {
		start := time.Now()
		code, _, stderr := runTune(t, c.args...)
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: took %v", c.name, took)
		}
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.name, code, stderr, c.want)
		}
	}
}
