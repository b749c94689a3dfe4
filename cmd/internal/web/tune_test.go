package web_test

// The pages of tuning runs, served with tuneweb.Runs: an external test
// package, since tuneweb imports web (export_test.go lends it
// web_test.go's helpers).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roadtune/roadtune/cmd/internal/web"
	"github.com/roadtune/roadtune/cmd/internal/web/tuneweb"
	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/runs"
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

func TestTuneRunPages(t *testing.T) {
	dir := finishedRun(t)
	_, ts := web.Serve(t, []string{dir}, web.Options{Tune: tuneweb.Runs{}})
	id := "tiny-ga"

	index := web.MustGet(t, ts.URL+"/", "text/html")
	web.WantIn(t, "index", index, `href="/run/tiny-ga/"`, "tune ga", "done", "step 3 of 3", "verdict:")

	var listed []web.Status
	if err := json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/runs.json", "application/json")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != 1 || listed[0].ID != id || listed[0].Kind != "tune" || listed[0].Step != 3 || listed[0].Steps != 3 || listed[0].Games == 0 {
		t.Errorf("runs.json = %+v", listed)
	}

	web.MustGet(t, ts.URL+"/run/"+id, "text/html") // redirected to /run/ID/
	page := web.MustGet(t, ts.URL+"/run/"+id+"/", "text/html")
	web.WantIn(t, "run page", page, `id="status"`, `id="status-step"`, "step 3 of 3", `id="status-method"`, ">ga<",
		`id="status-rate"`, `id="status-eta"`, `id="status-phase"`, `class="chart"`, `data-src="/run/tiny-ga/chart/genes.svg"`,
		`data-src="/run/tiny-ga/chart/ladder.svg"`, `id="ladder"`, `id="verdict"`, "verdict: ", "zhou2015",
		`/run/tiny-ga/files/best.json`, `/run/tiny-ga/files/config.toml`, `/run/tiny-ga/files/report.md`,
		`class="game-link"`, "ladder-zhou2015-d1", "generation-000", `data-events="/run/tiny-ga/events"`)
	// Every finished run has report.html, and the page links it.
	web.WantIn(t, "run page", page, `/run/tiny-ga/files/report.html`)

	var st web.Status
	if err := json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/run/"+id+"/status.json", "application/json")), &st); err != nil {
		t.Fatal(err)
	}
	if st.Phase != "done" || st.StepText != "step 3 of 3" || st.Method != "ga" || st.Version == "" || !strings.HasPrefix(st.Verdict, "verdict:") {
		t.Errorf("status = %+v", st)
	}

	res, err := runs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	charts, err := res.Charts()
	if err != nil || len(charts) < 3 {
		t.Fatalf("charts: %v, %v", charts, err)
	}
	for _, c := range charts {
		svg := web.MustGet(t, ts.URL+"/run/"+id+"/chart/"+c.Name+".svg", "image/svg+xml")
		web.WantIn(t, c.Name+".svg", svg, "<svg")
	}
	if code, _, _ := web.Get(t, ts.URL+"/run/"+id+"/chart/nosuch.svg"); code != http.StatusNotFound {
		t.Errorf("missing chart: %d, want 404", code)
	}

	best := web.MustGet(t, ts.URL+"/run/"+id+"/files/best.json", "application/json")
	want, _ := os.ReadFile(filepath.Join(dir, tune.FileBest))
	if best != string(want) {
		t.Error("best.json served differs from the file")
	}
	web.MustGet(t, ts.URL+"/run/"+id+"/files/config.toml", "text/plain")
	web.MustGet(t, ts.URL+"/run/"+id+"/files/plots/genes.svg", "image/svg+xml")
	if code, _, _ := web.Get(t, ts.URL+"/run/"+id+"/files/nosuch.json"); code != http.StatusNotFound {
		t.Errorf("missing file: %d, want 404", code)
	}
	if code, _, _ := web.Get(t, ts.URL+"/run/"+id+"/files/games"); code != http.StatusNotFound {
		t.Errorf("directory: %d, want 404", code)
	}

	list := web.MustGet(t, ts.URL+"/run/"+id+"/games?log=games/generation-001.jsonl", "text/html")
	if n := strings.Count(list, `class="game-link"`); n == 0 {
		t.Error("games page lists no game links")
	}

	log := "games/ladder-zhou2015-d1.jsonl"
	recs, err := tournament.ReadGameLog(filepath.Join(dir, log))
	if err != nil || len(recs) != 4 {
		t.Fatalf("ladder log: %d games, %v", len(recs), err)
	}
	rec := recs[1]
	game := web.MustGet(t, ts.URL+"/run/"+id+"/game?log="+log+"&n=1", "text/html")
	web.WantIn(t, "game page", game, `id="board"`, `id="prev"`, `id="next"`, `id="first"`, `id="last"`, `id="move-no"`,
		`id="result"`, `class="stone black opening"`, `class="stone white`, ">A</text>", ">S</text>", `id="game-data"`,
		rec.Black, rec.White, rec.Reason)
	n := len(rec.Moves)
	web.WantIn(t, "game page", game, fmt.Sprintf("move %d of %d", n, n))
	stones := 0
	for _, m := range rec.Moves {
		stones += m.Len()
	}
	if got := strings.Count(game, `<circle class="stone `); got != stones {
		t.Errorf("game page draws %d stones, the game has %d", got, stones)
	}

	var back tournament.GameRecord
	if err := json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/run/"+id+"/game.json?log="+log+"&n=1", "application/json")), &back); err != nil {
		t.Fatal(err)
	}
	if back.Game != rec.Game || len(back.Moves) != n {
		t.Errorf("game.json = game %d with %d moves, want game %d with %d", back.Game, len(back.Moves), rec.Game, n)
	}
	for _, bad := range []string{"?log=" + log + "&n=4", "?log=" + log + "&n=-1", "?log=config.toml&n=0", "?log=games/../config.toml&n=0", "?log=/etc/passwd&n=0"} {
		if code, _, _ := web.Get(t, ts.URL+"/run/"+id+"/game"+bad); code == http.StatusOK {
			t.Errorf("game%s: 200", bad)
		}
	}

	web.MustGet(t, ts.URL+"/static/app.js", "text/javascript")
	web.MustGet(t, ts.URL+"/static/style.css", "text/css")
	if code, _, _ := web.Get(t, ts.URL+"/run/nosuch/"); code != http.StatusNotFound {
		t.Errorf("unknown run: %d, want 404", code)
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
	_, ts := web.Serve(t, []string{run}, web.Options{Tune: tuneweb.Runs{}})
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

func TestEventsAfterStep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "live")
	job, err := tune.Start(tinyCfg(t), dir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, ts := web.Serve(t, []string{dir}, web.Options{Tune: tuneweb.Runs{}})
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
	st := web.ReadEvent(t, br)
	if st.Step != 0 || st.Steps != 3 || st.Phase != "optimize" || st.StepText != "step 0 of 3" {
		t.Fatalf("first event: %+v", st)
	}
	if err := job.Steps(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// The server may report the step's files as they appear (records
	// before the checkpoint): read on to the event of the checkpointed step.
	for st = web.ReadEvent(t, br); st.Step == 0; st = web.ReadEvent(t, br) {
	}
	if st.Step != 1 || st.Games == 0 || st.StepText != "step 1 of 3" || st.ETASeconds <= 0 {
		t.Fatalf("event after a step: %+v", st)
	}
	// The page shows the step's charts, rendered now.
	web.MustGet(t, ts.URL+"/run/live/chart/genes.svg", "image/svg+xml")
}

// TestPlannedEnd: a budgeted run's page and status show its planned end
// as a time of day, from its checkpoint and from the live tracker, while
// it runs.
func TestPlannedEnd(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "budgeted")
	c, err := tune.Parse("tiny.toml", []byte("budget = \"1h\"\n"+tinyConfig))
	if err != nil {
		t.Fatal(err)
	}
	job, err := tune.Start(c, dir, tune.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	res, err := runs.Open(dir)
	if err != nil || res.Clock == nil {
		t.Fatalf("open: %+v %v", res, err)
	}
	want := "planned end " + progress.TimeOfDay(res.Clock.End, time.Now())
	_, ts := web.Serve(t, []string{dir}, web.Options{Tune: tuneweb.Runs{}})
	var st web.Status
	json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/run/budgeted/status.json", "application/json")), &st)
	if st.EndText != want || !st.End.Equal(res.Clock.End) {
		t.Errorf("status from the files: end %v %q, want %q", st.End, st.EndText, want)
	}
	if page := web.MustGet(t, ts.URL+"/run/budgeted/", "text/html"); !strings.Contains(page, `data-status="end_text">`+want+`<`) {
		t.Errorf("the run's page lacks %q", want)
	}
	tr := web.NewTracker(dir)
	later := res.Clock.End.Add(90 * time.Minute)
	tuneweb.Events(tr, tune.Events{}).Plan(tune.Plan{Unit: "generation", End: later})
	_, ts = web.Serve(t, []string{dir}, web.Options{Tune: tuneweb.Runs{}, Live: tr.Live})
	json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/run/budgeted/status.json", "application/json")), &st)
	if want := "planned end " + progress.TimeOfDay(later, time.Now()); !st.Live || st.EndText != want {
		t.Errorf("live status: %+v, want %q", st, want)
	}
}

func TestLiveStatus(t *testing.T) {
	dir := finishedRun(t)
	tr := web.NewTracker(dir)
	ev := tuneweb.Events(tr, tune.Events{})
	ev.Plan(tune.Plan{Unit: "generation"})
	ev.Games(3, 14)
	_, ts := web.Serve(t, []string{dir}, web.Options{Tune: tuneweb.Runs{}, Live: tr.Live})
	var st web.Status
	json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/run/tiny-ga/status.json", "application/json")), &st)
	if !st.Live || st.BatchDone != 3 || st.BatchTotal != 14 || st.BatchText != "3/14" || st.Phase != "done" {
		t.Errorf("live status = %+v", st)
	}
	// A provider reporting on another run leaves this one to its files.
	other := web.NewTracker(t.TempDir())
	_, ts2 := web.Serve(t, []string{dir}, web.Options{Tune: tuneweb.Runs{}, Live: other.Live})
	json.Unmarshal([]byte(web.MustGet(t, ts2.URL+"/run/tiny-ga/status.json", "application/json")), &st)
	if st.Live {
		t.Errorf("status of another run's provider: %+v", st)
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
	s, ts := web.Serve(t, []string{sweep, filepath.Join(sweep, "seed-1")}, web.Options{Tune: tuneweb.Runs{}})
	ids := web.RunIDs(s)
	if strings.Join(ids, " ") != "sweep sweep_seed-1 sweep_seed-2" {
		t.Errorf("runs %v, want the sweep and its seeds sweep_seed-1 sweep_seed-2 (a run given twice is one run)", ids)
	}
	// A run that appears later is found, in the sweep's directory too.
	web.ArenaDir(t, filepath.Join(sweep, "seed-1-match"), 2)
	web.MustGet(t, ts.URL+"/run/sweep_seed-1-match/", "text/html")
	// Two runs of the same name get distinct IDs: the second gets its
	// parent's name in front.
	other := filepath.Join(t.TempDir(), "runs")
	web.ArenaDir(t, filepath.Join(other, "seed-1"), 2)
	more := filepath.Join(t.TempDir(), "more", "seed-1")
	web.ArenaDir(t, more, 2)
	s2, _ := web.Serve(t, []string{sweep, other, more}, web.Options{Tune: tuneweb.Runs{}})
	ids = web.RunIDs(s2)
	if strings.Join(ids, " ") != "sweep sweep_seed-1 sweep_seed-2 sweep_seed-1-match seed-1 more_seed-1" {
		t.Errorf("runs %v, want the matches seed-1 and more_seed-1 after the sweep's", ids)
	}
	if _, err := web.New([]string{filepath.Join(sweep, "nosuch")}, web.Options{Tune: tuneweb.Runs{}}); err == nil {
		t.Error("New of a missing directory: no error")
	}
	if _, err := web.New(nil, web.Options{Tune: tuneweb.Runs{}}); err == nil {
		t.Error("New of no directory: no error")
	}
}

func TestServeStops(t *testing.T) {
	dir := finishedRun(t)
	s, err := web.New([]string{dir}, web.Options{Tune: tuneweb.Runs{}})
	if err != nil {
		t.Fatal(err)
	}
	ln, url, err := web.Listen("127.0.0.1:0", io.Discard)
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
	web.ReadEvent(t, bufio.NewReader(resp.Body))
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

// TestChainAndInterrupted: serving a directory of runs lists a chain
// with its stages under it and their true phases (stage 1 done, stage 2
// interrupted: not done, and no process plays it), the chain has a page
// linking its stages, and a stage whose running.json names a live
// process is shown as in play.
func TestChainAndInterrupted(t *testing.T) {
	runs := t.TempDir()
	chain := runfixture.InterruptedChain(t, runs)
	if err := os.CopyFS(filepath.Join(runs, "single"), os.DirFS(finishedRun(t))); err != nil {
		t.Fatal(err)
	}
	_, ts := web.Serve(t, []string{runs}, web.Options{Tune: tuneweb.Runs{}})
	var list []web.Status
	if err := json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/runs.json", "application/json")), &list); err != nil {
		t.Fatal(err)
	}
	got := map[string]web.Status{}
	var order []string
	for _, st := range list {
		got[st.ID] = st
		order = append(order, st.ID)
	}
	want := map[string]string{"chain": "interrupted", "chain_stage-1-ga": "done", "chain_stage-2-spsa": "interrupted", "single": "done"}
	for id, phase := range want {
		if got[id].Phase != phase {
			t.Errorf("%s: phase %q, want %q (runs %v)", id, got[id].Phase, phase, order)
		}
	}
	if g := got["chain"]; g.Kind != "chain" || g.Method != "ga → spsa" || g.StepText != "stage 2 of 2" || strings.Join(g.Members, " ") != "chain_stage-1-ga chain_stage-2-spsa" {
		t.Errorf("chain status %+v", g)
	}
	if got["chain_stage-2-spsa"].Group != "chain" || got["chain_stage-2-spsa"].StepText != "step 1 of 4" {
		t.Errorf("stage 2 status %+v", got["chain_stage-2-spsa"])
	}
	index := web.MustGet(t, ts.URL+"/", "text/html")
	web.WantIn(t, "index", index, `data-id="chain_stage-1-ga" data-group="chain" data-phase="done"`,
		`data-id="chain_stage-2-spsa" data-group="chain" data-phase="interrupted"`, "chain ga → spsa")
	page := web.MustGet(t, ts.URL+"/run/chain/", "text/html")
	web.WantIn(t, "chain page", page, `href="/run/chain_stage-1-ga/"`, `href="/run/chain_stage-2-spsa/"`, "Stages", "/run/chain/files/chain.json")
	web.WantIn(t, "stage page", web.MustGet(t, ts.URL+"/run/chain_stage-2-spsa/", "text/html"), "tune spsa", ">interrupted<",
		"<code>tune -resume "+chain+"</code>")
	web.WantIn(t, "chain page", page, "<code>tune -resume "+chain+"</code>")

	// A stage played by a live process (this one) is in play; by a
	// process that is gone, interrupted.
	stage := filepath.Join(chain, "stage-2-spsa")
	mark := func(pid int) {
		t.Helper()
		host, _ := os.Hostname()
		data := fmt.Sprintf(`{"pid": %d, "host": %q, "started": "2026-01-01T00:00:00Z"}`, pid, host)
		if err := os.WriteFile(filepath.Join(stage, tune.FileRunning), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	phase := func() string {
		var st web.Status
		json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/run/chain_stage-2-spsa/status.json", "application/json")), &st)
		return st.Phase
	}
	mark(os.Getpid())
	if p := phase(); p != "optimize" {
		t.Errorf("stage played by a live process: phase %q, want optimize", p)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	mark(gone.Process.Pid)
	if p := phase(); p != "interrupted" {
		t.Errorf("stage left by a process that is gone: phase %q, want interrupted", p)
	}
}

// TestLiveLadder: while the ladder plays (tune -http), the page's ladder
// table fills rung by rung from the job's events, the status version
// changes with each rung (so the page reloads it), and the ETA is the
// ladder's own: its games left at the rate of its games so far.
func TestLiveLadder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "live")
	if _, err := tune.Start(tinyCfg(t), dir, tune.Options{}); err != nil {
		t.Fatal(err)
	}
	tr := web.NewTracker(dir)
	ev := tuneweb.Events(tr, tune.Events{})
	_, ts := web.Serve(t, []string{dir}, web.Options{Tune: tuneweb.Runs{}, Live: tr.Live})
	status := func() web.Status {
		var st web.Status
		json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/run/live/status.json", "application/json")), &st)
		return st
	}
	ev.Plan(tune.Plan{Unit: "generation"})
	ev.Verify(8) // two rungs of 2 pairs
	page := web.MustGet(t, ts.URL+"/run/live/", "text/html")
	web.WantIn(t, "page as the ladder starts", page, `id="rung-playing"`, "The first rung is being played")
	if strings.Contains(page, "The ladder is played when the optimisation ends") {
		t.Error("the page says the ladder comes later while it plays")
	}
	time.Sleep(20 * time.Millisecond)
	ev.Games(2, 4)
	st := status()
	// 2 games played of 8: 6 left at the ladder's rate.
	if st.Phase != "verify" || st.GamesPerSecond <= 0 || st.ETASeconds <= 0 || math.Abs(st.ETASeconds-6/st.GamesPerSecond) > 0.01 {
		t.Errorf("status during rung 1: %+v", st)
	}
	before := st.Version
	sum := tournament.Summary{Matchups: []tournament.MatchSummary{{A: "tuned", B: "zhou2015", N: 4, Elo: 12}}}
	ev.Games(4, 4)
	ev.Rung(ladder.Rung{Opponent: "zhou2015", Depth: 1, Width: 4, Summary: sum, Verdict: "inconclusive"}, 1, 2)
	st = status()
	if st.Version == before {
		t.Error("the status version did not change with a rung: the page would not reload its ladder")
	}
	if math.Abs(st.ETASeconds-4/st.GamesPerSecond) > 0.01 {
		t.Errorf("ETA after rung 1: %g s at %g games/s, want the 4 games left at that rate", st.ETASeconds, st.GamesPerSecond)
	}
	page = web.MustGet(t, ts.URL+"/run/live/", "text/html")
	web.WantIn(t, "page after rung 1", page, "<td>zhou2015</td><td>1</td><td>4</td>", "inconclusive", "Rung 2 of 2 is being played")
}

// TestBrokenRunServed: a run whose checkpoint.json holds a negative
// records_bytes (which panicked every page, the index included, issue 43
// item 2) shows as broken with the reason, and every page of the server,
// the good run's included, still answers.
func TestBrokenRunServed(t *testing.T) {
	runs := t.TempDir()
	for _, name := range []string{"good", "broken"} {
		if err := os.CopyFS(filepath.Join(runs, name), os.DirFS(finishedRun(t))); err != nil {
			t.Fatal(err)
		}
	}
	cp := filepath.Join(runs, "broken", tune.FileCheckpoint)
	data, err := os.ReadFile(cp)
	if err != nil {
		t.Fatal(err)
	}
	data = regexp.MustCompile(`"records_bytes": ?\d+`).ReplaceAll(data, []byte(`"records_bytes": -1`))
	os.WriteFile(cp, data, 0o644)
	_, ts := web.Serve(t, []string{runs}, web.Options{Tune: tuneweb.Runs{}})
	web.WantIn(t, "index", web.MustGet(t, ts.URL+"/", "text/html"), `href="/run/good/"`, `href="/run/broken/"`)
	var st web.Status
	json.Unmarshal([]byte(web.MustGet(t, ts.URL+"/run/broken/status.json", "application/json")), &st)
	if st.Phase != "broken" || !strings.Contains(st.Error, "checkpoint.json: records_bytes -1") {
		t.Errorf("broken run: phase %q, error %q", st.Phase, st.Error)
	}
	web.MustGet(t, ts.URL+"/run/broken/", "text/html")
	web.MustGet(t, ts.URL+"/run/good/", "text/html")
	web.MustGet(t, ts.URL+"/runs.json", "application/json")
}
