package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/roadtune/roadtune/internal/fixture/runfixture"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/ladder"
)

// browserConfig is a GA run long enough (about a second a generation, 40
// generations; the test stops it when done) for a page to see it move,
// with its fitness games logged for the viewer.
const browserConfig = `
method = "ga"
seed = 3
[engine]
depth = 2
width = 6
[match]
pairs = 2
[ga]
population = 8
groups = 2
generations = 40
[output]
games = true
[validation]
opponents = ["zhou2015"]
depths = [1]
pairs = 2
`

// findBrowser returns a Chromium or Chrome executable, or "".
func findBrowser() string {
	if p := os.Getenv("ROADTUNE_BROWSER"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// noBrowser is why a browser test skips on a machine without one.
const noBrowser = "no Chromium or Chrome found (install Debian's chromium or set ROADTUNE_BROWSER)"

// skippedBrowser counts the browser tests skipped for want of a browser;
// TestMain says so where a user sees it (skipNotice).
var skippedBrowser atomic.Int32

// skipNotice writes, when n browser tests skipped for want of a browser,
// the line that says so: go test ./... shows a passing package's output
// only with -v, so without it TestMain writes this to the terminal.
func skipNotice(w io.Writer, n int32) {
	if n > 0 {
		fmt.Fprintf(w, "cmd/tune: %d browser test(s) of tune's pages skipped: %s\n", n, noBrowser)
	}
}

// announceSkips says that the browser tests skipped, after the run: on
// the terminal (/dev/tty) unless -v shows the skips already, else (no
// terminal: CI, an editor) on standard error, which go test shows when
// the package fails or with -v.
func announceSkips() {
	n := skippedBrowser.Load()
	if n == 0 || testing.Verbose() {
		return
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		skipNotice(tty, n)
		tty.Close()
		return
	}
	skipNotice(os.Stderr, n)
}

// TestBrowserSkipIsAnnounced: without a browser (an empty PATH, no
// ROADTUNE_BROWSER) a browser test skips, is counted, and the notice
// names the count and what to install.
func TestBrowserSkipIsAnnounced(t *testing.T) {
	if testing.Short() {
		t.Skip("-short skips the browser tests before looking for a browser")
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("ROADTUNE_BROWSER", "")
	t.Setenv("ROADTUNE_BROWSER_TEST", "")
	before := skippedBrowser.Load()
	t.Run("no browser", func(t *testing.T) { newBrowser(t, t.TempDir()) })
	if got := skippedBrowser.Load(); got != before+1 {
		t.Fatalf("skipped browser tests: %d, want %d", got, before+1)
	}
	skippedBrowser.Add(-1) // not a browser test of the pages
	var b strings.Builder
	skipNotice(&b, 2)
	if want := "cmd/tune: 2 browser test(s) of tune's pages skipped: " + noBrowser + "\n"; b.String() != want {
		t.Errorf("notice %q, want %q", b.String(), want)
	}
	b.Reset()
	if skipNotice(&b, 0); b.Len() != 0 {
		t.Errorf("a notice with nothing skipped: %q", b.String())
	}
}

// browser is a headless Chromium driven by a test, with the console
// errors and uncaught exceptions of its pages collected.
type browser struct {
	t     *testing.T
	ctx   context.Context
	shots string // where screenshots go

	mu     sync.Mutex
	errors []string
}

// newBrowser starts Chromium for the test (profile under tmp) or skips
// it: under -short, or without a browser unless ROADTUNE_BROWSER_TEST=1
// (CI) demands one. Screenshots go to tmp, or to ROADTUNE_SCREENSHOTS to
// keep them.
func newBrowser(t *testing.T, tmp string) *browser {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: no browser test")
	}
	path := findBrowser()
	if path == "" {
		if os.Getenv("ROADTUNE_BROWSER_TEST") == "1" {
			t.Fatal("ROADTUNE_BROWSER_TEST=1 but no chromium, chromium-browser or google-chrome on PATH (set ROADTUNE_BROWSER)")
		}
		skippedBrowser.Add(1)
		t.Skip(noBrowser)
	}
	b := &browser{t: t, shots: tmp}
	if d := os.Getenv("ROADTUNE_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		b.shots = d
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(filepath.Join(tmp, "profile")),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-sync", true),
		chromedp.WindowSize(1200, 1600),
		chromedp.Flag("no-first-run", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(cancelBrowser)
	b.ctx = bctx
	// chromedp.Console subscribes before the first navigation.
	messages := chromedp.Console(bctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.errors = append(b.errors, fmt.Sprintf("%s:%d %s", m.URL, m.Line+1, m))
				b.mu.Unlock()
			}
		}
	}()
	return b
}

func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	for _, a := range actions {
		if err := chromedp.Do(b.ctx, a); err != nil {
			b.t.Fatalf("%s: %v", what, err)
		}
	}
}

// text is the text of the first element sel matches.
func (b *browser) text(sel string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// count is how many elements sel matches now.
func (b *browser) count(sel string) int {
	b.t.Helper()
	return b.evalInt(fmt.Sprintf("document.querySelectorAll(%q).length", sel))
}

func (b *browser) evalInt(js string) int {
	b.t.Helper()
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return n
}

func (b *browser) evalString(js string) string {
	b.t.Helper()
	s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return s
}

// allCharts waits until every chart of the page has its SVG (the page
// fetches them after it loads) and returns how many there are.
func (b *browser) allCharts() int {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		divs, svgs := b.count(".chart"), b.count(".chart svg")
		if divs > 0 && svgs == divs {
			return divs
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%d of the page's %d charts rendered after 30 s", svgs, divs)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (b *browser) screenshot(name string) {
	b.t.Helper()
	shot, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, name), shot, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// noConsoleErrors fails the test when a page logged an error.
func (b *browser) noConsoleErrors() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.errors) > 0 {
		b.t.Errorf("console errors:\n%s", strings.Join(b.errors, "\n"))
	}
}

// startServing starts a command that prints the address of its pages
// (tune -http, tune serve) and returns that address; the command is
// killed when the test ends.
func startServing(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	urlRe := regexp.MustCompile(`http://127\.0\.0\.1:\d+/\S*`)
	found := make(chan string, 1)
	var logMu sync.Mutex
	var logLines []string
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			logMu.Lock()
			logLines = append(logLines, sc.Text())
			logMu.Unlock()
			if u := urlRe.FindString(sc.Text()); u != "" {
				select {
				case found <- u:
				default:
				}
			}
		}
	}()
	select {
	case u := <-found:
		return u
	case <-time.After(60 * time.Second):
		logMu.Lock()
		defer logMu.Unlock()
		t.Fatalf("%s printed no address:\n%s", filepath.Base(bin), strings.Join(logLines, "\n"))
	}
	return ""
}

// TestBrowser drives the live page of `tune -http` in headless Chromium
// on a small running job: the page loads without console errors, shows the
// status and every chart the page lists, the status changes after a step,
// and the game viewer steps through a logged game and shows its stones. A
// screenshot of the run page and one of the viewer go to the test's temp
// directory (or to ROADTUNE_SCREENSHOTS).
// Without a browser it skips, unless ROADTUNE_BROWSER_TEST=1 (CI) demands
// one.
func TestBrowser(t *testing.T) {
	start := time.Now()
	tmp := t.TempDir()
	b := newBrowser(t, tmp)
	bin := buildCmd(t, "tune")
	cfgPath := filepath.Join(tmp, "browser.toml")
	if err := os.WriteFile(cfgPath, []byte(browserConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(tmp, "run")
	page := startServing(t, bin, "-config", cfgPath, "-out", runDir, "-quiet", "-concurrency", "1", "-http", "127.0.0.1:0")
	booted := time.Since(start)

	// The run page: status and charts appear.
	t0 := time.Now()
	b.do("run page "+page, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("#status")), chromedp.WaitVisible(chromedp.CSS("#status-step")))
	loaded := time.Since(t0)
	firstStep := b.text("#status-step")
	// The status changes after a step, without a reload.
	t1 := time.Now()
	step := firstStep
	for step == firstStep {
		if time.Since(t1) > 90*time.Second {
			t.Fatalf("status stayed %q for 90 s", firstStep)
		}
		time.Sleep(200 * time.Millisecond)
		step = b.text("#status-step")
	}
	changed := time.Since(t1)
	// A GA run's charts: its genes, fitness and diversity, all drawn.
	b.do("charts", chromedp.WaitVisible(chromedp.CSS(".chart svg")))
	charts := b.allCharts()
	if charts < 3 {
		t.Errorf("the run page draws %d charts, want the GA's genes, fitness and diversity at least", charts)
	}
	b.screenshot("run-page.png")

	// The game viewer: from the run page's first game log, open the list
	// of its games, then the first game; step, go to its last move and
	// count the stones on the board against the game's record.
	b.do("game log", chromedp.WaitVisible(chromedp.CSS(`#logs a[href*="/games?log="]`)))
	list := b.evalString(`document.querySelector('#logs a[href*="/games?log="]').href`)
	b.do("games of "+list, chromedp.Navigate(list), chromedp.WaitVisible(chromedp.CSS("a.game-link")))
	href := b.evalString(`document.querySelector("a.game-link").href`)
	want := stonesOfLinkedGame(t, runDir, href)
	t2 := time.Now()
	b.do("viewer", chromedp.Navigate(href), chromedp.WaitVisible(chromedp.CSS("#board")), chromedp.WaitVisible(chromedp.CSS("#next")))
	b.do("first", chromedp.Click(chromedp.CSS("#first")))
	atStart := b.count("#board .stone")
	b.do("next", chromedp.Click(chromedp.CSS("#next")))
	if n := b.count("#board .stone"); n <= atStart || n > atStart+2 {
		t.Errorf("one move forward from %d stones shows %d", atStart, n)
	}
	b.do("last", chromedp.Click(chromedp.CSS("#last")))
	stones := b.count("#board .stone")
	moveNo := b.text("#move-no")
	if stones != want.stones {
		t.Errorf("viewer at the last move shows %d stones, the game has %d", stones, want.stones)
	}
	if !strings.Contains(moveNo, strconv.Itoa(want.moves)) {
		t.Errorf("move counter %q, the game has %d moves", moveNo, want.moves)
	}
	b.do("prev", chromedp.Click(chromedp.CSS("#prev")))
	if back := b.count("#board .stone"); back >= stones || back < stones-2 {
		t.Errorf("one move back shows %d stones after %d", back, stones)
	}
	if r := b.text("#result"); r == "" {
		t.Error("the viewer shows no result")
	}
	b.screenshot("viewer.png")
	viewer := time.Since(t2)
	b.noConsoleErrors()
	t.Logf("timings: tune -http up %v, run page loaded %v, status changed after %v (%q → %q), viewer %v; %d charts; %d stones; screenshots in %s",
		booted.Round(time.Millisecond), loaded.Round(time.Millisecond), changed.Round(time.Millisecond), firstStep, step, viewer.Round(time.Millisecond), charts, stones, b.shots)
}

// TestBrowserServe opens `tune serve` over a directory holding a finished
// run, a chain stopped in its second stage and an arena match with an
// SPRT: the runs list shows every run and stage with its true phase (the
// stopped stage and its chain "interrupted"), the chain's page reaches
// both stages, the finished run's page draws all its charts, and the
// match's page draws its LLR chart. Screenshots: runs-list.png,
// chain-page.png, finished-run.png, arena-page.png.
func TestBrowserServe(t *testing.T) {
	start := time.Now()
	tmp := t.TempDir()
	b := newBrowser(t, tmp)
	tuneBin, arenaBin := buildCmd(t, "tune"), buildCmd(t, "arena")
	runs := filepath.Join(tmp, "runs")
	runfixture.Finished(t, filepath.Join(runs, "main"), "ga")
	runfixture.InterruptedChain(t, runs)
	match := filepath.Join(runs, "match")
	if out, err := exec.Command(arenaBin, "-depth", "1", "-width", "4", "-pairs", "8", "-sprt", "0,20", "-out", match, "zhou2015", "chen2010-pso15").CombinedOutput(); err != nil {
		t.Fatalf("arena: %v\n%s", err, out)
	}
	site := startServing(t, tuneBin, "serve", "-http", "127.0.0.1:0", runs)
	prepared := time.Since(start)

	// The runs list: every run and stage, each with its true phase, the
	// stages right under their chain.
	t0 := time.Now()
	b.do("runs list", chromedp.Navigate(site), chromedp.WaitVisible(chromedp.CSS("#run-list")))
	rows := b.evalString(`Array.from(document.querySelectorAll('#run-list tr.run')).map(r => r.dataset.id + '=' + r.dataset.phase + (r.dataset.group ? ' in ' + r.dataset.group : '')).join('; ')`)
	want := "chain=interrupted; chain_stage-1-ga=done in chain; chain_stage-2-spsa=interrupted in chain; main=done; match=done"
	if rows != want {
		t.Errorf("runs list:\n got %s\nwant %s", rows, want)
	}
	b.screenshot("runs-list.png")

	// The chain's page reaches both stages; the stopped one says so.
	b.do("chain", chromedp.Click(chromedp.CSS(`a.run-link[href="/run/chain/"]`)), chromedp.WaitVisible(chromedp.CSS("#run-list")))
	if n := b.count(`#run-list a.run-link[href^="/run/chain_stage-"]`); n != 2 {
		t.Errorf("the chain's page links %d stages, want 2", n)
	}
	b.screenshot("chain-page.png")
	b.do("stage 2", chromedp.Click(chromedp.CSS(`a.run-link[href="/run/chain_stage-2-spsa/"]`)), chromedp.WaitVisible(chromedp.CSS("#status-phase")))
	if p := b.text("#status-phase"); p != "interrupted" {
		t.Errorf("stage 2's page: phase %q, want interrupted", p)
	}
	b.do("stage 1", chromedp.Navigate(strings.TrimSuffix(site, "/")+"/run/chain_stage-1-ga/"), chromedp.WaitVisible(chromedp.CSS("#status-phase")))
	if p := b.text("#status-phase"); p != "done" {
		t.Errorf("stage 1's page: phase %q, want done", p)
	}

	// The finished run's page: genes, fitness, diversity and the ladder.
	b.do("finished run", chromedp.Navigate(strings.TrimSuffix(site, "/")+"/run/main/"), chromedp.WaitVisible(chromedp.CSS("#ladder")))
	if n := b.allCharts(); n < 4 {
		t.Errorf("the finished run's page draws %d charts, want genes, fitness, diversity and ladder at least", n)
	}
	var rungs []ladder.Rung
	if err := results.ReadJSON(filepath.Join(runs, "main", ladder.File), &rungs); err != nil {
		t.Fatal(err)
	}
	if n := b.evalInt(`Array.from(document.querySelectorAll('#ladder tbody tr')).filter(r => r.cells.length === 11).length`); n != len(rungs) || n == 0 {
		t.Errorf("the finished run's ladder table shows %d rungs, its ladder.json %d", n, len(rungs))
	}
	b.screenshot("finished-run.png")

	// The match's page: its LLR chart, with the test's bounds.
	b.do("arena page", chromedp.Navigate(strings.TrimSuffix(site, "/")+"/run/match/"), chromedp.WaitVisible(chromedp.CSS("#table")))
	charts := b.allCharts()
	llr := b.count("figure.llr .chart svg")
	if llr != 1 {
		t.Errorf("the arena page draws %d LLR charts, want 1 (of %d charts)", llr, charts)
	}
	if svg := b.evalString(`document.querySelector('figure.llr .chart svg').outerHTML`); !strings.Contains(svg, "accept H1") || !strings.Contains(svg, "log-likelihood") {
		t.Errorf("the LLR chart lacks its bounds or axis: %.200s", svg)
	}
	b.screenshot("arena-page.png")
	b.noConsoleErrors()
	t.Logf("timings: runs and tune serve ready %v, pages %v; screenshots in %s", prepared.Round(time.Millisecond), time.Since(t0).Round(time.Millisecond), b.shots)
}

// ladderConfig is a run whose optimisation is over at once and whose
// ladder takes a few seconds (three rungs at depth 6): long enough for a
// page to see it fill.
const ladderConfig = `
method = "ga"
seed = 3
[engine]
depth = 1
width = 8
[match]
pairs = 1
[ga]
population = 6
groups = 2
generations = 2
[validation]
opponents = ["zhou2015", "qi2018-table3-1", "chen2010-pso15"]
depths = [6]
pairs = 2
`

// TestBrowserLiveLadder: the live page of `tune -http` fills the ladder
// table rung by rung while the ladder plays (its ladder.json is written
// only at the end), says which rung is in play, and gives the ladder an
// ETA. Screenshot: live-ladder.png, with a rung done and one in play.
func TestBrowserLiveLadder(t *testing.T) {
	tmp := t.TempDir()
	b := newBrowser(t, tmp)
	bin := buildCmd(t, "tune")
	cfgPath := filepath.Join(tmp, "ladder.toml")
	if err := os.WriteFile(cfgPath, []byte(ladderConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	page := startServing(t, bin, "-config", cfgPath, "-out", filepath.Join(tmp, "run"), "-quiet", "-concurrency", "1", "-http", "127.0.0.1:0")
	b.do("run page "+page, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("#ladder")))
	// Poll the page as it updates itself: the rungs in the table (rows
	// of 11 cells), the row of the rung in play, the phase and the ETA.
	const probe = `(() => {
		const rungs = Array.from(document.querySelectorAll('#ladder tbody tr')).filter(r => r.cells.length === 11).length;
		const playing = document.getElementById('rung-playing');
		return [document.getElementById('status-phase').textContent, rungs, playing ? playing.textContent : '', document.getElementById('status-eta').textContent].join('|');
	})()`
	var seen []string
	partial, eta := false, false
	deadline := time.Now().Add(90 * time.Second)
	for !partial || !eta {
		if time.Now().After(deadline) {
			t.Fatalf("after 90 s: rungs filled while playing %v, ladder ETA %v; states seen:\n%s", partial, eta, strings.Join(seen, "\n"))
		}
		s, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](probe))
		if err != nil {
			break // tune ended and its pages with it
		}
		if len(seen) == 0 || seen[len(seen)-1] != s {
			seen = append(seen, s)
		}
		f := strings.Split(s, "|")
		if f[0] == "verify" && f[3] != "—" && f[3] != "" {
			eta = true
		}
		if f[0] == "verify" && f[1] != "0" && f[1] != "3" && strings.Contains(f[2], "of 3 is being played") {
			if !partial {
				b.screenshot("live-ladder.png")
			}
			partial = true
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !partial || !eta {
		t.Errorf("rungs filled while playing %v, ladder ETA %v; states seen:\n%s", partial, eta, strings.Join(seen, "\n"))
	}
	b.noConsoleErrors()
	t.Logf("states seen: %s", strings.Join(seen, "; "))
}

type gameSize struct{ moves, stones int }

// stonesOfLinkedGame reads the game a viewer link points at from the run
// directory: the link's log= (a path in the run) and n= (the game index).
func stonesOfLinkedGame(t *testing.T, runDir, href string) gameSize {
	t.Helper()
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	n, err := strconv.Atoi(q.Get("n"))
	if err != nil || q.Get("log") == "" {
		t.Fatalf("game link %q: want log=PATH&n=K", href)
	}
	recs, err := tournament.ReadGameLog(filepath.Join(runDir, filepath.FromSlash(q.Get("log"))))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range recs {
		if g.Game == n {
			s := 0
			for _, m := range g.Moves {
				s += m.Len()
			}
			return gameSize{moves: len(g.Moves), stones: s}
		}
	}
	t.Fatal(fmt.Sprintf("game %d not in %s", n, q.Get("log")))
	return gameSize{}
}
