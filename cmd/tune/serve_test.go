package main

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/tunetest"
)

var urlRE = regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/`)

func TestServe(t *testing.T) {
	dir := t.TempDir() + "/run"
	if code, _, errb := runTune(t, "-config", writeConfig(t, "ga", 2), "-out", dir, "-quiet", "-http", "127.0.0.1:0"); code != 0 || !urlRE.MatchString(errb) {
		t.Fatalf("tune -http: exit %d, stderr %q", code, errb)
	}
	var out, errb tunetest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "-http", "127.0.0.1:0", dir}, &out, &errb) }()
	var url string
	for deadline := time.Now().Add(5 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		url = urlRE.FindString(out.String())
	}
	if url == "" {
		cancel()
		t.Fatalf("tune serve printed no URL: %q %q", out.String(), errb.String())
	}
	resp, err := http.Get(url + "run/run/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "step 2 of 2") {
		t.Errorf("run page: %d %.200s", resp.StatusCode, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("tune serve: exit %d after Ctrl-C, want 0; stderr %q", code, errb.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("tune serve did not stop")
	}
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{
		{"serve"},
		{"serve", "-http", "nonsense", t.TempDir()},
		{"serve", t.TempDir() + "/nosuch"},
		{"-http", "nonsense", "-config", "x.toml"},
	} {
		if code, _, errb := runTune(t, args...); code != 2 || errb == "" {
			t.Errorf("tune %v: exit %d, stderr %q; want 2 and a message", args, code, errb)
		}
	}
}
