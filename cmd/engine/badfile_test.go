package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// TestBadWeightFileExits2: engine -weights with /dev/zero, a 100 MB file,
// a directory, a named pipe, an empty object or a file missing a field
// exits 2 at once with an error naming the file; the protocol's `weights
// FILE` with each answers an error line at once and reads the next
// command (a named pipe once blocked it, and `quit` was never read).
func TestBadWeightFileExits2(t *testing.T) {
	dir := t.TempDir()
	cases := fileiotest.Files(t)
	for name, content := range map[string]string{
		"empty object":  `{}`,
		"missing field": `{"name":"x","schema":"symmetric","values":[1,2,3,4,5,6],"provenance":{}}`,
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".json")
		os.WriteFile(p, []byte(content), 0o644)
		cases = append(cases, fileiotest.Hostile{Name: name, Path: p})
	}
	for _, c := range cases {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		code := run([]string{"-weights", c.Path}, strings.NewReader("quit\n"), &stdout, &stderr)
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: took %v", c.Name, took)
		}
		if code != 2 || !strings.Contains(stderr.String(), c.Path+":") {
			t.Errorf("%s: exit %d, stderr %q; want 2 and the file named", c.Name, code, stderr.String())
		}
		stdout.Reset()
		stderr.Reset()
		start = time.Now()
		code = run(nil, strings.NewReader("weights "+c.Path+"\nquit\n"), &stdout, &stderr)
		if took := time.Since(start); took > time.Second {
			t.Errorf("weights %s: took %v", c.Name, took)
		}
		if code != 0 || !strings.Contains(stdout.String(), "error weights "+c.Path) {
			t.Errorf("weights %s: exit %d, stdout %q; want 0 and an error line naming the file", c.Name, code, stdout.String())
		}
	}
}
