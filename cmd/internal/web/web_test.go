package web

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
)

// serve starts a test server of dirs.
func serve(t *testing.T, dirs []string, o Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(dirs, o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { s.Close(); ts.Close() })
	return s, ts
}

// get fetches url and returns the status, content type and body.
func get(t *testing.T, url string) (int, string, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), string(body)
}

// mustGet fetches url, wanting 200 and a content type starting with ct,
// and returns the body.
func mustGet(t *testing.T, url, ct string) string {
	t.Helper()
	code, got, body := get(t, url)
	if code != http.StatusOK || !strings.HasPrefix(got, ct) {
		t.Fatalf("GET %s: %d %q, want 200 %q: %.300s", url, code, got, ct, body)
	}
	return body
}

func wantIn(t *testing.T, what, body string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(body, p) {
			t.Errorf("%s lacks %q", what, p)
		}
	}
}

// game makes a game record of a pair between entrants 0 and 1 in which
// White makes six down column A.
func game(t testing.TB, names []string, n int) tournament.GameRecord {
	t.Helper()
	var moves []engine.Move
	for _, s := range []string{"JJ", "AAAB", "KJLJ", "ACAD", "MJNJ", "AEAF"} {
		m, err := engine.ParseMove(s)
		if err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m)
	}
	res, _ := tournament.ParseResult("W+")
	b, w := 0, 1
	if n%2 == 1 {
		b, w = 1, 0
	}
	return tournament.GameRecord{Game: n, Pair: n / 2, Black: names[b], White: names[w], BlackIndex: b, WhiteIndex: w,
		Opening: "JJ", Moves: moves, Result: res, Reason: tournament.ReasonSix}
}

// arenaDir writes an arena -out directory: command.json for 2 pairs of a
// head-to-head match, and games games.
func arenaDir(t testing.TB, dir string, games int) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := `{"args": ["-pairs", "2", "-depth", "1", "-out", "` + dir + `", "zhou2015", "qi2018-table3-1"]}`
	if err := os.WriteFile(filepath.Join(dir, commandFile), []byte(cmd), 0o644); err != nil {
		t.Fatal(err)
	}
	names := []string{"zhou2015", "qi2018"}
	appendGames(t, dir, names, 0, games)
	// Played by this process, as far as the pages can tell.
	if err := (&results.RunDir{Dir: dir}).MarkRunning(); err != nil {
		t.Fatal(err)
	}
	return names
}

func appendGames(t testing.TB, dir string, names []string, from, to int) {
	t.Helper()
	log, _, err := tournament.OpenGameLog(filepath.Join(dir, arenaGameLog))
	if err != nil {
		t.Fatal(err)
	}
	for n := from; n < to; n++ {
		if err := log.Append(game(t, names, n)); err != nil {
			t.Fatal(err)
		}
	}
	if err := log.Close(); err != nil {
		t.Fatal(err)
	}
}

// summaryOf is the summary of the match in dir from its games log, with
// base's settings.
func summaryOf(t *testing.T, dir string, names []string, base tournament.Summary) tournament.Summary {
	t.Helper()
	recs, err := tournament.ReadGameLog(filepath.Join(dir, arenaGameLog))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := tournament.BuildTable(names, recs)
	if err != nil {
		t.Fatal(err)
	}
	return tournament.Summarize(tab, base)
}

func TestArenaPages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "match")
	names := arenaDir(t, dir, 2)
	s, ts := serve(t, []string{dir}, Options{})
	url := ts.URL + "/run/match/"

	var st Status
	json.Unmarshal([]byte(mustGet(t, url+"status.json", "application/json")), &st)
	if st.Kind != "arena" || st.Method != "head-to-head" || st.Games != 2 || st.TotalGames != 4 || st.Phase != "playing" || st.StepText != "game 2 of 4" {
		t.Errorf("status = %+v", st)
	}
	page := mustGet(t, url, "text/html")
	// Both games went to White: one each, so 1-0-1 from zhou2015's view.
	wantIn(t, "arena page", page, `id="table"`, `id="status"`, `id="status-step"`, "game 2 of 4", "<td>zhou2015</td><td>qi2018</td><td>2</td><td>1-0-1</td>",
		"live, from games.jsonl", `class="game-link"`, `/run/match/files/games.jsonl`, `/run/match/files/command.json`, "-pairs 2")

	// The table grows with the log, read from where it stopped.
	g := s.lookup("match").logs[arenaGameLog]
	end := g.end
	appendGames(t, dir, names, 2, 4)
	page = mustGet(t, url, "text/html")
	wantIn(t, "arena page after 4 games", page, "<td>zhou2015</td><td>qi2018</td><td>4</td><td>2-0-2</td>", "0-0-2-0-0")
	if g.end <= end || len(g.offsets) != 4 || g.table.err != "" {
		t.Errorf("log index: end %d → %d, %d games, err %q", end, g.end, len(g.offsets), g.table.err)
	}
	game := mustGet(t, ts.URL+"/run/match/game?n=3", "text/html")
	wantIn(t, "arena game", game, `id="board"`, "White wins (W&#43;, six)", "move 6 of 6")
	mustGet(t, ts.URL+"/run/match/games?log=games.jsonl", "text/html")
	if code, _, _ := get(t, ts.URL+"/run/match/game?log=command.json"); code != http.StatusForbidden {
		t.Errorf("game?log=command.json: %d, want 403", code)
	}

	// summary.json ends the match: the page shows it.
	sum := summaryOf(t, dir, names, tournament.Summary{Schedule: "head-to-head", Pairs: 2, Seconds: 2,
		Players: []tournament.PlayerInfo{{Name: "zhou2015", Kind: "weights", Source: "zhou2015", Settings: "depth 1, width 10"}, {Name: "qi2018", Kind: "weights", Source: "qi2018-table3-1"}}})
	if err := results.WriteJSONAtomic(filepath.Join(dir, summaryFile), sum); err != nil {
		t.Fatal(err)
	}
	page = mustGet(t, url, "text/html")
	wantIn(t, "finished arena page", page, "summary.json", "depth 1, width 10", "<td>4</td><td>2-0-2</td>")
	json.Unmarshal([]byte(mustGet(t, url+"status.json", "application/json")), &st)
	if st.Phase != "done" || st.Games != 4 || st.GamesPerSecond != 2 {
		t.Errorf("finished status = %+v", st)
	}
	wantIn(t, "index", mustGet(t, ts.URL+"/", "text/html"), "arena head-to-head", `href="/run/match/"`)
}

func TestArenaPlan(t *testing.T) {
	for _, c := range []struct {
		args     string
		schedule string
		total    int
	}{
		{"a b", "head-to-head", 20},
		{"-pairs 3 a b", "head-to-head", 6},
		{"-games=8 a b", "head-to-head", 8},
		{"-rounds 2 -out d a b c", "round-robin", 12},
		{"-tournament gauntlet -pairs 1 a b c d", "gauntlet", 6},
		{"-tournament knockout a b c d", "knockout", 0},
		{"-engine name=x cmd=./e st=1 -engine weights=w.json depth=2 -pairs 1", "head-to-head", 2},
		{"-json -engine './e -v' -openings file=o.txt order=random a -concurrency 4", "head-to-head", 20},
	} {
		args, _ := json.Marshal(strings.Fields(c.args))
		if strings.Contains(c.args, "'") {
			args, _ = json.Marshal([]string{"-json", "-engine", "./e -v", "-openings", "file=o.txt", "order=random", "a", "-concurrency", "4"})
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, commandFile), []byte(`{"args":`+string(args)+`}`), 0o644)
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		p := arenaPlan(root)
		root.Close()
		if p.schedule != c.schedule || p.total != c.total {
			t.Errorf("%s: %s %d games, want %s %d", c.args, p.schedule, p.total, c.schedule, c.total)
		}
	}
}

// readEvent reads the next "status" event of an event stream.
func readEvent(t *testing.T, br *bufio.Reader) Status {
	t.Helper()
	var st Status
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			if err := json.Unmarshal([]byte(data), &st); err != nil {
				t.Fatal(err)
			}
			return st
		}
	}
}

func TestTrackerArena(t *testing.T) {
	tr := NewTracker("x")
	tr.Games(10, 10, 100)
	time.Sleep(20 * time.Millisecond)
	tr.Games(10, 30, 100)
	l := tr.Live()
	if l.Games != 30 || l.BatchTotal != 100 || l.GamesPerSecond <= 0 || l.ETA <= 0 {
		t.Errorf("live = %+v", l)
	}
}

func TestListen(t *testing.T) {
	var stderr bytes.Buffer
	ln, url, err := Listen(":0", &stderr)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if !strings.HasPrefix(ln.Addr().String(), "127.0.0.1:") || !strings.HasPrefix(url, "http://127.0.0.1:") || stderr.Len() > 0 {
		t.Errorf(":0 bound %s (%s), stderr %q", ln.Addr(), url, stderr.String())
	}
	ln, _, err = Listen("localhost:0", &stderr)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if stderr.Len() > 0 {
		t.Errorf("localhost warned: %q", stderr.String())
	}
	ln, url, err = Listen("0.0.0.0:0", &stderr)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	if given := "0.0.0.0:" + port; !strings.Contains(stderr.String(), "warning: serving the run pages on "+given+",") || url != "http://"+given+"/" ||
		!strings.Contains(stderr.String(), "no authentication") || !strings.Contains(stderr.String(), "read-only") {
		t.Errorf("0.0.0.0 bind warned %q (url %s): want the address as given, %s", stderr.String(), url, given)
	}
	for _, bad := range []string{"8080", "127.0.0.1", "127.0.0.1:", ":99999", "nosuch.invalid:80", ""} {
		if ln, _, err := Listen(bad, io.Discard); err == nil {
			ln.Close()
			t.Errorf("Listen(%q): no error", bad)
		} else if !strings.Contains(err.Error(), bad) {
			t.Errorf("Listen(%q): %v does not name the address", bad, err)
		}
	}
}

// TestAssetsSelfContained checks the pages load nothing from outside the
// server: no external URL in the embedded assets.
func TestAssetsSelfContained(t *testing.T) {
	files := 0
	err := fs.WalkDir(assets, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		data, err := assets.ReadFile(p)
		if err != nil {
			return err
		}
		text := strings.ReplaceAll(string(data), "'http://www.w3.org/2000/svg'", "") // the SVG namespace
		for _, bad := range []string{"http://", "https://", "//cdn", "import("} {
			if strings.Contains(text, bad) {
				t.Errorf("%s contains %q", p, bad)
			}
		}
		return nil
	})
	if err != nil || files < 3 {
		t.Errorf("walked %d embedded files: %v", files, err)
	}
}

// TestEveryResponseHasACSPAndNoDirectoryIsListed: pages carry pageCSP,
// every other response (files, JSON, static assets, errors) baseCSP, and
// /static/ lists nothing.
func TestEveryResponseHasACSPAndNoDirectoryIsListed(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "match")
	arenaDir(t, dir, 2)
	_, ts := serve(t, []string{dir}, Options{})
	for _, tc := range []struct {
		path, csp string
		code      int
	}{
		{"/", pageCSP, http.StatusOK},
		{"/run/match/", pageCSP, http.StatusOK},
		{"/runs.json", baseCSP, http.StatusOK},
		{"/run/match/status.json", baseCSP, http.StatusOK},
		{"/run/match/files/games.jsonl", baseCSP, http.StatusOK},
		{"/static/app.js", baseCSP, http.StatusOK},
		{"/static/", baseCSP, http.StatusNotFound},
		{"/static/.", baseCSP, http.StatusNotFound},
		{"/static/nosuch.js", baseCSP, http.StatusNotFound},
		{"/run/nosuch/", baseCSP, http.StatusNotFound},
	} {
		resp, err := http.Get(ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || resp.Header.Get("Content-Security-Policy") != tc.csp {
			t.Errorf("GET %s: %d, CSP %q; want %d, %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Security-Policy"), tc.code, tc.csp)
		}
		if strings.Contains(string(body), "<a href=") && strings.HasPrefix(tc.path, "/static/") {
			t.Errorf("GET %s lists a directory: %.200s", tc.path, body)
		}
	}
}

// TestArenaLLRChart: a match with -sprt shows its SPRT chart (the LLR by
// games with the bounds) while it plays, from the saved command line, and
// once done, from summary.json; a match without -sprt has none.
func TestArenaLLRChart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "match")
	names := arenaDir(t, dir, 4)
	cmd := `{"args": ["-pairs", "4", "-sprt", "0,20", "-out", "` + dir + `", "zhou2015", "qi2018-table3-1"]}`
	if err := os.WriteFile(filepath.Join(dir, commandFile), []byte(cmd), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ts := serve(t, []string{dir}, Options{})
	page := mustGet(t, ts.URL+"/run/match/", "text/html")
	wantIn(t, "arena page with -sprt", page, `data-src="/run/match/chart/llr.svg"`, "SPRT: log-likelihood ratio")
	svg := mustGet(t, ts.URL+"/run/match/chart/llr.svg", "image/svg+xml")
	wantIn(t, "live LLR chart", svg, "<svg", "accept H1 (2.94)", "accept H0 (-2.94)", "zhou2015 vs qi2018")

	// Once summary.json is written, its test (here other bounds) draws it.
	sum := summaryOf(t, dir, names, tournament.Summary{Schedule: "head-to-head", Pairs: 4})
	sum.SPRT = &tournament.SPRTSummary{Elo0: 0, Elo1: 20, Alpha: 0.1, Beta: 0.1, Lower: -2.197, Upper: 2.197, Decision: "continue", Pairs: 2}
	if err := results.WriteJSONAtomic(filepath.Join(dir, summaryFile), sum); err != nil {
		t.Fatal(err)
	}
	wantIn(t, "final LLR chart", mustGet(t, ts.URL+"/run/match/chart/llr.svg", "image/svg+xml"), "accept H1 (2.20)")

	plain := filepath.Join(t.TempDir(), "plain")
	arenaDir(t, plain, 4)
	_, ts2 := serve(t, []string{plain}, Options{})
	if page := mustGet(t, ts2.URL+"/run/plain/", "text/html"); strings.Contains(page, "chart/llr.svg") {
		t.Error("a match without -sprt shows an LLR chart")
	}
	if code, _, _ := get(t, ts2.URL+"/run/plain/chart/llr.svg"); code != http.StatusNotFound {
		t.Errorf("llr.svg of a match without -sprt: %d, want 404", code)
	}
}
