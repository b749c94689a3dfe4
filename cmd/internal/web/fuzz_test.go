package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzURLPath requests arbitrary URLs of a server whose run directory
// holds symbolic links out of it (to a file, to its parent, by a relative
// and an absolute path) beside secret files outside the run: no panic, and
// no answer ever carries a secret.
func FuzzURLPath(f *testing.F) {
	base := f.TempDir()
	secret := make([]byte, 16)
	rand.Read(secret)
	token := "SECRET-" + hex.EncodeToString(secret)
	runs := filepath.Join(base, "runs")
	match := filepath.Join(runs, "match")
	arenaDir(f, match, 2)
	for _, p := range []string{filepath.Join(base, "secret.txt"), filepath.Join(runs, "secret.txt")} {
		if err := os.WriteFile(p, []byte(token+"\n"), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	// A games log outside the run, so a log= parameter reaching it would
	// show its players' names.
	if err := os.WriteFile(filepath.Join(base, "games.jsonl"), []byte(`{"game":0,"black":"`+token+`","white":"x","black_index":0,"white_index":1,"moves":["JJ"],"result":"1-0"}`+"\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	for name, target := range map[string]string{
		"leak.txt":    "../../secret.txt",
		"abs.txt":     filepath.Join(base, "secret.txt"),
		"up":          "..",
		"top":         base,
		"leak.jsonl":  "../../games.jsonl",
		"near.txt":    "../secret.txt",
		"inside.json": "command.json", // a link that stays inside: fine to serve
	} {
		if err := os.Symlink(target, filepath.Join(match, name)); err != nil {
			f.Fatal(err)
		}
	}
	s, err := New([]string{runs}, Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	h := s.Handler()
	for _, p := range []string{
		"/", "/runs.json", "/run/match/", "/run/match/status.json", "/run/match/events",
		"/run/match/files/leak.txt", "/run/match/files/abs.txt", "/run/match/files/up/secret.txt",
		"/run/match/files/top/secret.txt", "/run/match/files/..%2f..%2fsecret.txt", "/run/match/files/inside.json",
		"/run/match/files/%2e%2e/secret.txt", "/run/match/files//etc/passwd", "/run/match/files/near.txt",
		"/run/match/games?log=leak.jsonl", "/run/match/games?log=../../games.jsonl&from=0",
		"/run/match/game?log=top/games.jsonl&n=0", "/run/match/game.json?log=up/../../games.jsonl&n=0",
		"/run/match/game.json?log=games.jsonl&n=1", "/run/match/chart/fitness.svg",
		"/static/", "/static/../secret.txt", "/static/%2e%2e/runs/secret.txt", "/run/..%2fsecret.txt/",
		"/run/match/files/games.jsonl", "/run/match/game?n=-1", "/run/match/games?from=99999999999999999999",
	} {
		f.Add(p)
	}
	// The routes the targets aim at do serve what is inside the run: a
	// file through a link that stays inside, and a game's players.
	for p, want := range map[string]string{"/run/match/files/inside.json": "zhou2015", "/run/match/game.json?log=games.jsonl&n=1": "qi2018"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, p, nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
			f.Fatalf("GET %s: %d %.200s, want 200 with %q", p, rec.Code, rec.Body.String(), want)
		}
	}
	done, cancel := context.WithCancel(context.Background())
	cancel() // the event stream answers its first event and returns
	f.Fuzz(func(t *testing.T, path string) {
		if !strings.HasPrefix(path, "/") {
			path = "/" + path
		}
		req, err := http.NewRequestWithContext(done, http.MethodGet, "http://roadtune.test"+path, nil)
		if err != nil {
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if strings.Contains(rec.Body.String(), token) || strings.Contains(strings.Join(rec.Header().Values("Location"), " "), token) {
			t.Fatalf("GET %s (%d) answered a secret from outside the run:\n%.400s", path, rec.Code, rec.Body.String())
		}
	})
}
