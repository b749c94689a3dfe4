package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune"
)

// tinyConfig is a GA run of well under a second with every fitness game
// kept.
var tinyConfig = tunetest.Tiny("ga", "[output]\ngames = true\n")

func tinyCfg(t *testing.T) tune.Config {
	t.Helper()
	c, err := tune.Parse("tiny.toml", []byte(tinyConfig))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var (
	finished     string // a finished tiny run, shared by the tests
	finishedOnce sync.Once
	finishedErr  error
)

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "web-test-")
	if err != nil {
		panic(err)
	}
	finished = filepath.Join(tmp, "tiny-ga")
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// finishedRun returns the directory of a finished tiny tuning run.
func finishedRun(t *testing.T) string {
	t.Helper()
	finishedOnce.Do(func() {
		c, err := tune.Parse("tiny.toml", []byte(tinyConfig))
		if err != nil {
			finishedErr = err
			return
		}
		j, err := tune.Start(c, finished, tune.Options{})
		if err != nil {
			finishedErr = err
			return
		}
		finishedErr = j.Run(context.Background())
	})
	if finishedErr != nil {
		t.Fatal(finishedErr)
	}
	return finished
}

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

func TestTuneRunPages(t *testing.T) {
	dir := finishedRun(t)
	_, ts := serve(t, []string{dir}, Options{})
	id := "tiny-ga"

	index := mustGet(t, ts.URL+"/", "text/html")
	wantIn(t, "index", index, `href="/run/tiny-ga/"`, "tune ga", "done", "step 3 of 3", "verdict:")

	var runs []Status
	if err := json.Unmarshal([]byte(mustGet(t, ts.URL+"/runs.json", "application/json")), &runs); err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].ID != id || runs[0].Kind != "tune" || runs[0].Step != 3 || runs[0].Steps != 3 || runs[0].Games == 0 {
		t.Errorf("runs.json = %+v", runs)
	}

	mustGet(t, ts.URL+"/run/"+id, "text/html") // redirected to /run/ID/
	page := mustGet(t, ts.URL+"/run/"+id+"/", "text/html")
	wantIn(t, "run page", page, `id="status"`, `id="status-step"`, "step 3 of 3", `id="status-method"`, ">ga<",
		`id="status-rate"`, `id="status-eta"`, `id="status-phase"`, `class="chart"`, `data-src="/run/tiny-ga/chart/genes.svg"`,
		`data-src="/run/tiny-ga/chart/ladder.svg"`, `id="ladder"`, `id="verdict"`, "verdict: ", "zhou2015",
		`/run/tiny-ga/files/best.json`, `/run/tiny-ga/files/config.toml`, `/run/tiny-ga/files/report.md`,
		`class="game-link"`, "ladder-zhou2015-d1", "generation-000", `data-events="/run/tiny-ga/events"`)
	// Every finished run has report.html, and the page links it.
	wantIn(t, "run page", page, `/run/tiny-ga/files/report.html`)

	var st Status
	if err := json.Unmarshal([]byte(mustGet(t, ts.URL+"/run/"+id+"/status.json", "application/json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Phase != "done" || st.StepText != "step 3 of 3" || st.Method != "ga" || st.Version == "" || !strings.HasPrefix(st.Verdict, "verdict:") {
		t.Errorf("status = %+v", st)
	}

	res, err := tune.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	charts, err := res.Charts()
	if err != nil || len(charts) < 3 {
		t.Fatalf("charts: %v, %v", charts, err)
	}
	for _, c := range charts {
		svg := mustGet(t, ts.URL+"/run/"+id+"/chart/"+c.Name+".svg", "image/svg+xml")
		wantIn(t, c.Name+".svg", svg, "<svg")
	}
	if code, _, _ := get(t, ts.URL+"/run/"+id+"/chart/nosuch.svg"); code != http.StatusNotFound {
		t.Errorf("missing chart: %d, want 404", code)
	}

	best := mustGet(t, ts.URL+"/run/"+id+"/files/best.json", "application/json")
	want, _ := os.ReadFile(filepath.Join(dir, tune.FileBest))
	if best != string(want) {
		t.Error("best.json served differs from the file")
	}
	mustGet(t, ts.URL+"/run/"+id+"/files/config.toml", "text/plain")
	mustGet(t, ts.URL+"/run/"+id+"/files/plots/genes.svg", "image/svg+xml")
	if code, _, _ := get(t, ts.URL+"/run/"+id+"/files/nosuch.json"); code != http.StatusNotFound {
		t.Errorf("missing file: %d, want 404", code)
	}
	if code, _, _ := get(t, ts.URL+"/run/"+id+"/files/games"); code != http.StatusNotFound {
		t.Errorf("directory: %d, want 404", code)
	}

	list := mustGet(t, ts.URL+"/run/"+id+"/games?log=games/generation-001.jsonl", "text/html")
	if n := strings.Count(list, `class="game-link"`); n == 0 {
		t.Error("games page lists no game links")
	}

	log := "games/ladder-zhou2015-d1.jsonl"
	recs, err := tournament.ReadGameLog(filepath.Join(dir, log))
	if err != nil || len(recs) != 4 {
		t.Fatalf("ladder log: %d games, %v", len(recs), err)
	}
	rec := recs[1]
	game := mustGet(t, ts.URL+"/run/"+id+"/game?log="+log+"&n=1", "text/html")
	wantIn(t, "game page", game, `id="board"`, `id="prev"`, `id="next"`, `id="first"`, `id="last"`, `id="move-no"`,
		`id="result"`, `class="stone black opening"`, `class="stone white`, ">A</text>", ">S</text>", `id="game-data"`,
		rec.Black, rec.White, rec.Reason)
	n := len(rec.Moves)
	wantIn(t, "game page", game, fmt.Sprintf("move %d of %d", n, n))
	stones := 0
	for _, m := range rec.Moves {
		stones += m.Len()
	}
	if got := strings.Count(game, `<circle class="stone `); got != stones {
		t.Errorf("game page draws %d stones, the game has %d", got, stones)
	}

	var back tournament.GameRecord
	if err := json.Unmarshal([]byte(mustGet(t, ts.URL+"/run/"+id+"/game.json?log="+log+"&n=1", "application/json")), &back); err != nil {
		t.Fatal(err)
	}
	if back.Game != rec.Game || len(back.Moves) != n {
		t.Errorf("game.json = game %d with %d moves, want game %d with %d", back.Game, len(back.Moves), rec.Game, n)
	}
	for _, bad := range []string{"?log=" + log + "&n=4", "?log=" + log + "&n=-1", "?log=config.toml&n=0", "?log=games/../config.toml&n=0", "?log=/etc/passwd&n=0"} {
		if code, _, _ := get(t, ts.URL+"/run/"+id+"/game"+bad); code == http.StatusOK {
			t.Errorf("game%s: 200", bad)
		}
	}

	mustGet(t, ts.URL+"/static/app.js", "text/javascript")
	mustGet(t, ts.URL+"/static/style.css", "text/css")
	if code, _, _ := get(t, ts.URL+"/run/nosuch/"); code != http.StatusNotFound {
		t.Errorf("unknown run: %d, want 404", code)
	}
}

// game makes a game record of a pair between entrants 0 and 1 in which
// White makes six down column A.
func game(t *testing.T, names []string, n int) tournament.GameRecord {
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
func arenaDir(t *testing.T, dir string, games int) []string {
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
	return names
}

func appendGames(t *testing.T, dir string, names []string, from, to int) {
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
	recs, err := tournament.ReadGameLog(filepath.Join(dir, arenaGameLog))
	if err != nil {
		t.Fatal(err)
	}
	tab, err := tournament.BuildTable(names, recs)
	if err != nil {
		t.Fatal(err)
	}
	sum := tournament.Summarize(tab, tournament.Summary{Schedule: "head-to-head", Pairs: 2, Seconds: 2,
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

func TestRefusals(t *testing.T) {
	dir := finishedRun(t)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Links inside a copy of the run (the shared run stays as the job wrote it).
	run := filepath.Join(t.TempDir(), "linked")
	if err := os.CopyFS(run, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"leak.txt": secret, "out": outside, "games/leak.jsonl": secret} {
		if err := os.Symlink(target, filepath.Join(run, name)); err != nil {
			t.Skip("no symbolic links:", err)
		}
	}
	_, ts := serve(t, []string{run}, Options{})
	base := ts.URL + "/run/linked/"
	for _, p := range []string{
		"files/../../etc/passwd", "files/%2e%2e/%2e%2e/etc/passwd", "files/..%2f..%2fetc%2fpasswd", "files/%2e%2e%2fconfig.toml",
		"files/leak.txt", "files/out/secret.txt", "files//etc/passwd", "files/games/leak.jsonl",
		"game?log=games/leak.jsonl&n=0", "games?log=games/leak.jsonl", "game?log=../" + filepath.Base(outside) + "/secret.txt",
	} {
		req, err := http.NewRequest(http.MethodGet, base+p, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK || bytes.Contains(body, []byte("SECRET")) || bytes.Contains(body, []byte("root:")) {
			t.Errorf("GET %s: %d %.100s", p, resp.StatusCode, body)
		}
		if strings.Contains(p, "leak") || strings.Contains(p, "out/") {
			if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusNotFound {
				t.Errorf("GET %s through a link out of the run: %d, want 403 or 404", p, resp.StatusCode)
			}
		}
	}
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
		for _, p := range []string{"/", "/run/linked/", "/run/linked/files/best.json", "/nosuch"} {
			req, _ := http.NewRequest(m, ts.URL+p, strings.NewReader("x"))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
				t.Errorf("%s %s: %d (Allow %q), want 405", m, p, resp.StatusCode, resp.Header.Get("Allow"))
			}
		}
	}
	resp, err := http.Head(base + "files/best.json")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD best.json: %v %v", resp.StatusCode, err)
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

func TestEventsAfterStep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "live")
	job, err := tune.Start(tinyCfg(t), dir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, ts := serve(t, []string{dir}, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/run/live/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("events: Content-Type %q", ct)
	}
	br := bufio.NewReader(resp.Body)
	st := readEvent(t, br)
	if st.Step != 0 || st.Steps != 3 || st.Phase != "optimize" || st.StepText != "step 0 of 3" {
		t.Fatalf("first event: %+v", st)
	}
	if err := job.Steps(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// The server may report the step's files as they appear (records
	// before the checkpoint): read on to the event of the checkpointed step.
	for st = readEvent(t, br); st.Step == 0; st = readEvent(t, br) {
	}
	if st.Step != 1 || st.Games == 0 || st.StepText != "step 1 of 3" || st.ETASeconds <= 0 {
		t.Fatalf("event after a step: %+v", st)
	}
	// The page shows the step's charts, rendered now.
	mustGet(t, ts.URL+"/run/live/chart/genes.svg", "image/svg+xml")
}

func TestLiveStatus(t *testing.T) {
	dir := finishedRun(t)
	tr := NewTracker(dir)
	ev := tr.TuneEvents(tune.Events{})
	ev.Plan(tune.Plan{Unit: "generation"})
	ev.Games(3, 14)
	_, ts := serve(t, []string{dir}, Options{Live: tr.Live})
	var st Status
	json.Unmarshal([]byte(mustGet(t, ts.URL+"/run/tiny-ga/status.json", "application/json")), &st)
	if !st.Live || st.BatchDone != 3 || st.BatchTotal != 14 || st.BatchText != "3/14" || st.Phase != "done" {
		t.Errorf("live status = %+v", st)
	}
	// A provider reporting on another run leaves this one to its files.
	other := NewTracker(t.TempDir())
	_, ts2 := serve(t, []string{dir}, Options{Live: other.Live})
	json.Unmarshal([]byte(mustGet(t, ts2.URL+"/run/tiny-ga/status.json", "application/json")), &st)
	if st.Live {
		t.Errorf("status of another run's provider: %+v", st)
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

func TestDiscovery(t *testing.T) {
	dir := finishedRun(t)
	sweep := filepath.Join(t.TempDir(), "sweep")
	for _, sub := range []string{"seed-1", "seed-2"} {
		if err := os.CopyFS(filepath.Join(sweep, sub), os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(sweep, "compare"), 0o755) // not a run
	s, ts := serve(t, []string{sweep, filepath.Join(sweep, "seed-1")}, Options{})
	var ids []string
	for _, r := range s.list() {
		ids = append(ids, r.id)
	}
	if strings.Join(ids, " ") != "seed-1 seed-2" {
		t.Errorf("runs %v, want seed-1 seed-2 (a run given twice is one run)", ids)
	}
	// A run that appears later is found.
	arenaDir(t, filepath.Join(sweep, "seed-1-match"), 2)
	mustGet(t, ts.URL+"/run/seed-1-match/", "text/html")
	// Two runs of the same name get distinct IDs.
	other := filepath.Join(t.TempDir(), "runs")
	arenaDir(t, filepath.Join(other, "seed-1"), 2)
	s2, _ := serve(t, []string{sweep, other}, Options{})
	ids = nil
	for _, r := range s2.list() {
		ids = append(ids, r.id)
	}
	if len(ids) != 4 || ids[3] != "runs_seed-1" {
		t.Errorf("runs %v, want the second seed-1 as runs_seed-1", ids)
	}
	if _, err := New([]string{filepath.Join(sweep, "nosuch")}, Options{}); err == nil {
		t.Error("New of a missing directory: no error")
	}
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New of no directory: no error")
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
	ln, _, err = Listen("0.0.0.0:0", &stderr)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if !strings.Contains(stderr.String(), "warning") || !strings.Contains(stderr.String(), "no authentication") || !strings.Contains(stderr.String(), "read-only") {
		t.Errorf("0.0.0.0 bind warned %q", stderr.String())
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

func TestServeStops(t *testing.T) {
	dir := finishedRun(t)
	s, err := New([]string{dir}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ln, url, err := Listen("127.0.0.1:0", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	resp, err := http.Get(url + "run/tiny-ga/events")
	if err != nil {
		t.Fatal(err)
	}
	readEvent(t, bufio.NewReader(resp.Body))
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
	resp.Body.Close()
}

// TestAssetsSelfContained checks the pages load nothing from outside the
// server: no external URL in the embedded assets.
func TestAssetsSelfContained(t *testing.T) {
	fs.WalkDir(assets, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, _ := assets.ReadFile(p)
		text := strings.ReplaceAll(string(data), "'http://www.w3.org/2000/svg'", "") // the SVG namespace
		for _, bad := range []string{"http://", "https://", "//cdn", "import("} {
			if strings.Contains(text, bad) {
				t.Errorf("%s contains %q", p, bad)
			}
		}
		return nil
	})
}
