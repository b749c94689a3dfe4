package main

import (
	"bufio"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/roadtune/roadtune/tournament"
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

// TestBrowser drives the live page of `tune -http` in headless Chromium
// on a small running job: the page loads without console errors, shows the
// status and the charts, the status changes after a step, and the game
// viewer steps through a logged game and shows its stones. A screenshot of
// the run page and one of the viewer go to the test's temp directory (or
// to ROADTUNE_SCREENSHOTS).
// Without a browser it skips, unless ROADTUNE_BROWSER_TEST=1 (CI) demands
// one.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no browser test")
	}
	browser := findBrowser()
	if browser == "" {
		if os.Getenv("ROADTUNE_BROWSER_TEST") == "1" {
			t.Fatal("ROADTUNE_BROWSER_TEST=1 but no chromium, chromium-browser or google-chrome on PATH (set ROADTUNE_BROWSER)")
		}
		t.Skip("no Chromium or Chrome found (install Debian's chromium or set ROADTUNE_BROWSER)")
	}
	start := time.Now()
	tmp := t.TempDir()
	// Screenshots go to the temp directory, or to ROADTUNE_SCREENSHOTS to
	// keep them.
	shots := tmp
	if d := os.Getenv("ROADTUNE_SCREENSHOTS"); d != "" {
		shots = d
	}

	bin := filepath.Join(tmp, "tune")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cfgPath := filepath.Join(tmp, "browser.toml")
	if err := os.WriteFile(cfgPath, []byte(browserConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(tmp, "run")
	cmd := exec.Command(bin, "-config", cfgPath, "-out", runDir, "-quiet", "-concurrency", "1", "-http", "127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	// The command prints the page's address.
	urlRe := regexp.MustCompile(`http://127\.0\.0\.1:\d+/\S*`)
	found := make(chan string, 1)
	var logMu sync.Mutex
	var logLines []string
	go func() {
		sc := bufio.NewScanner(stderr)
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
	var page string
	select {
	case page = <-found:
	case <-time.After(60 * time.Second):
		logMu.Lock()
		defer logMu.Unlock()
		t.Fatalf("tune -http printed no address:\n%s", strings.Join(logLines, "\n"))
	}
	booted := time.Since(start)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
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
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	// Console errors and uncaught exceptions, collected while the test
	// runs (chromedp.Console subscribes before the first navigation).
	var errMu sync.Mutex
	var consoleErrors []string
	messages := chromedp.Console(bctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				errMu.Lock()
				consoleErrors = append(consoleErrors, fmt.Sprintf("%s:%d %s", m.URL, m.Line+1, m))
				errMu.Unlock()
			}
		}
	}()
	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		for _, a := range actions {
			if err := chromedp.Do(bctx, a); err != nil {
				t.Fatalf("%s: %v", what, err)
			}
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return s
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(bctx, chromedp.Evaluate[int](fmt.Sprintf("document.querySelectorAll(%q).length", sel)))
		if err != nil {
			t.Fatalf("count %s: %v", sel, err)
		}
		return n
	}
	screenshot := func(name string) {
		t.Helper()
		shot, err := chromedp.Run(bctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// The run page: status and charts appear.
	t0 := time.Now()
	do("run page "+page, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS("#status")), chromedp.WaitVisible(chromedp.CSS("#status-step")))
	loaded := time.Since(t0)
	firstStep := text("#status-step")
	// The status changes after a step, without a reload.
	t1 := time.Now()
	step := firstStep
	for step == firstStep {
		if time.Since(t1) > 90*time.Second {
			t.Fatalf("status stayed %q for 90 s", firstStep)
		}
		time.Sleep(200 * time.Millisecond)
		step = text("#status-step")
	}
	changed := time.Since(t1)
	do("charts", chromedp.WaitVisible(chromedp.CSS(".chart svg")))
	charts := count(".chart svg")
	screenshot("run-page.png")

	// The game viewer: from the run page's first game log, open the list
	// of its games, then the first game; step, go to its last move and
	// count the stones on the board against the game's record.
	do("game log", chromedp.WaitVisible(chromedp.CSS(`#logs a[href*="/games?log="]`)))
	list, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector('#logs a[href*="/games?log="]').href`))
	if err != nil {
		t.Fatal(err)
	}
	do("games of "+list, chromedp.Navigate(list), chromedp.WaitVisible(chromedp.CSS("a.game-link")))
	href, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("a.game-link").href`))
	if err != nil {
		t.Fatal(err)
	}
	want := stonesOfLinkedGame(t, runDir, href)
	t2 := time.Now()
	do("viewer", chromedp.Navigate(href), chromedp.WaitVisible(chromedp.CSS("#board")), chromedp.WaitVisible(chromedp.CSS("#next")))
	do("first", chromedp.Click(chromedp.CSS("#first")))
	atStart := count("#board .stone")
	do("next", chromedp.Click(chromedp.CSS("#next")))
	if n := count("#board .stone"); n <= atStart || n > atStart+2 {
		t.Errorf("one move forward from %d stones shows %d", atStart, n)
	}
	do("last", chromedp.Click(chromedp.CSS("#last")))
	stones := count("#board .stone")
	moveNo := text("#move-no")
	if stones != want.stones {
		t.Errorf("viewer at the last move shows %d stones, the game has %d", stones, want.stones)
	}
	if !strings.Contains(moveNo, strconv.Itoa(want.moves)) {
		t.Errorf("move counter %q, the game has %d moves", moveNo, want.moves)
	}
	do("prev", chromedp.Click(chromedp.CSS("#prev")))
	if back := count("#board .stone"); back >= stones || back < stones-2 {
		t.Errorf("one move back shows %d stones after %d", back, stones)
	}
	if r := text("#result"); r == "" {
		t.Error("the viewer shows no result")
	}
	screenshot("viewer.png")
	viewer := time.Since(t2)

	errMu.Lock()
	defer errMu.Unlock()
	if len(consoleErrors) > 0 {
		t.Errorf("console errors:\n%s", strings.Join(consoleErrors, "\n"))
	}
	t.Logf("timings: tune -http up %v, run page loaded %v, status changed after %v (%q → %q), viewer %v; %d charts; %d stones; screenshots in %s",
		booted.Round(time.Millisecond), loaded.Round(time.Millisecond), changed.Round(time.Millisecond), firstStep, step, viewer.Round(time.Millisecond), charts, stones, shots)
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
