package web

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fileio/fileiotest"
)

// TestNamedPipesAnswerAtOnce: a named pipe (FIFO) inside a served match
// directory — a file asked for by /files/, the games log asked for by
// games?log=, summary.json and plan.json read for the status — gets an
// error at once and holds no thread, and every page still answers.
// Before, each request that opened a pipe waited for a writer for good,
// holding an OS thread (issue 43, item 8).
func TestNamedPipesAnswerAtOnce(t *testing.T) {
	parent := t.TempDir()
	pipes := filepath.Join(parent, "pipes") // games.jsonl, summary.json, plan.json and a file are pipes
	arenaDir(t, pipes, 0)
	if fileiotest.FIFO(t, pipes) == "" {
		t.Skip("no named pipes here")
	}
	for _, name := range []string{arenaGameLog, summaryFile, planFile, "notes.txt"} {
		fileiotest.Link(t, filepath.Join(pipes, "fifo"), filepath.Join(pipes, name))
	}
	arenaDir(t, filepath.Join(parent, "match"), 2)
	_, ts := serve(t, []string{parent}, Options{})
	client := &http.Client{Timeout: 5 * time.Second}
	ask := func(path string) int {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+path, nil)
		start := time.Now()
		resp, err := client.Do(req)
		if err != nil {
			t.Errorf("GET %s: %v", path, err)
			return 0
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if took := time.Since(start); took > time.Second {
			t.Errorf("GET %s: answered after %v", path, took)
		}
		return resp.StatusCode
	}
	threads := pprof.Lookup("threadcreate").Count()
	for range 20 {
		for _, path := range []string{"/run/pipes/files/notes.txt", "/run/pipes/files/fifo", "/run/pipes/games?log=games.jsonl", "/run/pipes/game?log=games.jsonl&n=0"} {
			if code := ask(path); code == http.StatusOK || code == 0 {
				t.Fatalf("GET %s: %d, want an error", path, code)
			}
		}
	}
	if n := pprof.Lookup("threadcreate").Count() - threads; n > 20 {
		t.Errorf("80 requests for named pipes made %d threads", n)
	}
	for _, path := range []string{"/", "/runs.json", "/run/pipes/", "/run/pipes/status.json", "/run/match/", "/run/match/games?log=games.jsonl"} {
		if code := ask(path); code != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", path, code)
		}
	}
}
