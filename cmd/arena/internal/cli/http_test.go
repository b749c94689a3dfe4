package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/tunetest"
)

// TestHTTP serves a match's pages while it plays: the status is the live
// one and the table is built from the games so far.
func TestHTTP(t *testing.T) {
	out := filepath.Join(t.TempDir(), "match")
	var stdout, stderr tunetest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, []string{"-pairs", "500", "-depth", "1", "-concurrency", "1", "-ratinginterval", "0", "-out", out, "-http", "127.0.0.1:0", "zhou2015", "chen2010-ga15"}, &stdout, &stderr)
	}()
	re := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/`)
	var url string
	var st struct {
		Kind       string `json:"kind"`
		Live       bool   `json:"live"`
		Games      int    `json:"games"`
		TotalGames int    `json:"total_games"`
	}
	for deadline := time.Now().Add(8 * time.Second); time.Now().Before(deadline) && st.Games < 2; time.Sleep(20 * time.Millisecond) {
		if url = re.FindString(stderr.String()); url == "" {
			continue
		}
		resp, err := http.Get(url + "run/match/status.json")
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&st)
		resp.Body.Close()
	}
	if st.Kind != "arena" || !st.Live || st.Games < 2 || st.TotalGames != 1000 {
		t.Fatalf("status %+v (stderr %q)", st, stderr.String())
	}
	resp, err := http.Get(url + "run/match/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`id="table"`, "<td>zhou2015</td><td>chen2010-ga15</td>", "depth 1, width", `class="game-link"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("match page lacks %q", want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Errorf("exit %d, want %d; stderr %q", code, exitInterrupted, stderr.String())
		}
	case <-time.After(8 * time.Second):
		t.Fatal("arena did not stop")
	}
	if _, err := http.Get(url); err == nil {
		t.Error("the pages are still served after arena ended")
	}
}

func TestHTTPNeedsOut(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"-http", ":0", "zhou2015", "chen2010-ga15"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "-out") {
		t.Errorf("-http without -out: exit %d, stderr %q", code, stderr.String())
	}
	if code := Main(context.Background(), []string{"-http", "nonsense", "-out", t.TempDir(), "zhou2015", "chen2010-ga15"}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "nonsense") {
		t.Errorf("-http nonsense: exit %d, stderr %q", code, stderr.String())
	}
}
