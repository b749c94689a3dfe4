package tournament

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
)

func TestExternalForfeits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode, after string
		reason      string
		detail      string
	}{
		{"crash", "0", "forfeit:crash", "simulated crash"},
		{"crash", "2", "forfeit:crash", "exited with status 3"},
		{"hang", "1", "forfeit:timeout", "no move within"},
		{"illegal", "0", "forfeit:illegal", "occupied"},
		{"garbage", "1", "forfeit:malformed", `"move ZZ9"`},
		{"empty", "0", "forfeit:malformed", `"move"`},
		{"exit", "0", "forfeit:exit", "exited with status 0"},
		{"single", "1", "forfeit:illegal", ""},
	}
	for _, c := range cases {
		t.Run(c.mode+"-after-"+c.after, func(t *testing.T) {
			t.Parallel()
			r := Runner{
				Entrants: []Entrant{
					{Engine: Engine{Name: "fake", Program: fakeBin(t), Args: []string{"-mode", c.mode, "-after", c.after, "-noise"}, MoveTime: 300 * time.Millisecond}, External: quick},
					{Engine: Engine{Name: "trivial"}, New: newFirstLegal},
				},
				Openings:    []Opening{mustOpening(t, "JJ KJJK"), {}},
				Concurrency: 2,
			}
			tab, err := r.Run(context.Background(), HeadToHead(0, 1, 2))
			if err != nil {
				t.Fatal(err)
			}
			if len(tab.Games) != 4 {
				t.Fatalf("%d games, want 4", len(tab.Games))
			}
			for _, g := range tab.Games {
				fakeColor := "black"
				if g.WhiteIndex == 0 {
					fakeColor = "white"
				}
				if g.Reason != c.reason || !strings.HasPrefix(g.Detail, fakeColor+": ") || !strings.Contains(g.Detail, c.detail) {
					t.Errorf("game %d: reason %q detail %q, want %q by %s with %q", g.Game, g.Reason, g.Detail, c.reason, fakeColor, c.detail)
				}
			}
			m, _ := tab.Lookup(0, 1)
			if m.Games.Losses != 4 {
				t.Errorf("fake lost %d of 4", m.Games.Losses)
			}
		})
	}
}

func TestExternalGoodEnginePlaysLegalGames(t *testing.T) {
	t.Parallel()
	// Two external fakes (noisy output interleaved) and an in-process
	// trivial player, from an opening (ConnectMore replay) and from the
	// empty board (Cloudict new black/new white).
	r := Runner{
		Entrants: []Entrant{
			{Engine: Engine{Name: "fake1", Program: fakeBin(t), Args: []string{"-noise"}}},
			{Engine: Engine{Name: "fake2", Program: fakeBin(t)}},
			{Engine: Engine{Name: "trivial"}, New: newFirstLegal},
		},
		Openings:    []Opening{{}, mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ IIKK LLMM")},
		Concurrency: 2,
	}
	tab, err := r.Run(context.Background(), RoundRobin(Indices(3), 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Games) != 18 {
		t.Fatalf("%d games", len(tab.Games))
	}
	for _, g := range tab.Games {
		if strings.HasPrefix(g.Reason, "forfeit") {
			t.Errorf("game %d (%s-%s): %s %s", g.Game, g.Black, g.White, g.Reason, g.Detail)
		}
		b := engine.NewBoard()
		for i, m := range g.Moves {
			if err := b.Play(m); err != nil {
				t.Fatalf("game %d move %d: %v", g.Game, i, err)
			}
		}
		if b.Winner() == engine.Empty && !b.Full() {
			t.Errorf("game %d ended without six or full board", g.Game)
		}
	}
	// The fake and the trivial player both play row-major first points,
	// so a fake-vs-trivial game equals the trivial-vs-trivial game.
	ref, _ := PlayGame(context.Background(), engine.NewBoard(), &firstLegal{}, &firstLegal{}, r.Openings[1], 0)
	g := tab.Games[2*4+0] // pair 4: round 1 (opening 1), pairing fake1-trivial; fake1 Black
	if g.Black != "fake1" || g.White != "trivial" || g.Opening != "JJ KJJK" {
		t.Fatalf("game 8 is %s-%s %q", g.Black, g.White, g.Opening)
	}
	if !equalMoves(g.Moves, ref.Moves) {
		t.Errorf("fake game %v\nwant %v", g.Moves, ref.Moves)
	}
}

func equalMoves(a, b []engine.Move) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestExternalStartFailureAbortsRun(t *testing.T) {
	r := Runner{Entrants: []Entrant{
		{Engine: Engine{Name: "missing", Program: "/nonexistent/engine"}},
		{Engine: Engine{Name: "trivial"}, New: newFirstLegal},
	}}
	_, err := r.Run(context.Background(), HeadToHead(0, 1, 1))
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/engine") {
		t.Errorf("error %v", err)
	}
}

func TestExternalCancelKillsProcess(t *testing.T) {
	p, err := NewExternalPlayer(fakeArgs(t, "-mode", "hang"), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = PlayGame(ctx, engine.NewBoard(), p, &firstLegal{}, Opening{}, 0)
	if err == nil || ctx.Err() == nil {
		t.Fatalf("err %v", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("cancel took %v", time.Since(start))
	}
	if p.proc != nil {
		t.Error("process not reaped after cancel")
	}
}

// TestExternalRoadtuneEngine drives the real protocol engine (cmd/engine)
// when it builds: with the same weights and settings it must play exactly
// the moves of the in-process engine, from the empty board (Cloudict) and
// from openings (ConnectMore replay).
func TestExternalRoadtuneEngine(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/engine").CombinedOutput(); err != nil {
		t.Fatalf("cmd/engine does not build: %v\n%s", err, out)
	}
	s := engine.DefaultSettings()
	s.Depth = 1
	w := baseline(t, "zhou2015")
	ops := []Opening{{}, mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ IIKK LLMM")}
	run := func(second Entrant) *Table {
		r := Runner{
			Entrants:    []Entrant{{Engine: Engine{Name: "inproc", Weights: w, Settings: s}}, second},
			Openings:    ops,
			MaxMoves:    60,
			Concurrency: 2,
		}
		tab, err := r.Run(context.Background(), HeadToHead(0, 1, len(ops)))
		if err != nil {
			t.Fatal(err)
		}
		return tab
	}
	// -defend 0 and the tuning threat bounds: the binary plays with the
	// defensive check and a deeper threat search by default, the
	// in-process default has neither; its default weights and width are
	// those of play (roadtune-tempo, 15), so both are given.
	ext := run(Entrant{Engine: Engine{Name: "other", Program: bin, Args: []string{"-depth", "1", "-defend", "0", "-threatdepth", "4", "-threatnodes", "8000", "-weights", "zhou2015", "-width", "10"},
		MoveTime: 20 * time.Second}})
	ref := run(Entrant{Engine: Engine{Name: "other", Weights: w, Settings: s}})
	for i, g := range ext.Games {
		if strings.HasPrefix(g.Reason, "forfeit") {
			t.Errorf("game %d: %s %s", i, g.Reason, g.Detail)
			continue
		}
		if !equalMoves(g.Moves, ref.Games[i].Moves) || g.Result != ref.Games[i].Result {
			t.Errorf("game %d (%q): external %v %v\nin-process %v %v", i, g.Opening, g.Result, g.Moves, ref.Games[i].Result, ref.Games[i].Moves)
		}
	}
}

// quick is the options of fake engines in tests: a short quit grace.
var quick = ExternalOptions{QuitGrace: 100 * time.Millisecond}

// fakeArgs is the fake engine's command with args (internal/fakeengine,
// built at the first call of the test binary).
func fakeArgs(tb testing.TB, args ...string) []string {
	return append([]string{fakeBin(tb)}, args...)
}

// fakeBin is the fake engine's program.
func fakeBin(tb testing.TB) string { return fakeenginetest.Build(tb) }

// pgidLog records the process groups started by external players.
type pgidLog struct {
	mu  sync.Mutex
	ids []int
}

func (l *pgidLog) add(pid int) {
	l.mu.Lock()
	l.ids = append(l.ids, pid)
	l.mu.Unlock()
}

func (l *pgidLog) all() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int(nil), l.ids...)
}

// runFake plays pairs game pairs of fake (named "fake"; QuitGrace 100 ms
// unless set) against the trivial player, from the empty board and from
// "JJ KJJK", and checks that no process of the match is left afterwards.
func runFake(t *testing.T, fake Entrant, pairs int) *Table {
	t.Helper()
	var log pgidLog
	fake.Name = "fake"
	if fake.External.QuitGrace == 0 {
		fake.External.QuitGrace = quick.QuitGrace
	}
	fake.External.onStart = log.add
	r := Runner{
		Entrants:    []Entrant{fake, {Engine: Engine{Name: "trivial"}, New: newFirstLegal}},
		Openings:    []Opening{{}, mustOpening(t, "JJ KJJK")},
		Concurrency: 2,
	}
	tab, err := r.Run(context.Background(), HeadToHead(0, 1, pairs))
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Games) != 2*pairs {
		t.Fatalf("%d games, want %d", len(tab.Games), 2*pairs)
	}
	checkGroupsGone(t, log.all())
	return tab
}

// checkReasons checks every game of the fake: reason "" means no forfeit,
// else the reason and a detail containing detail, by the fake.
func checkReasons(t *testing.T, tab *Table, reason, detail string) {
	t.Helper()
	for _, g := range tab.Games {
		if reason == "" {
			if strings.HasPrefix(g.Reason, "forfeit") {
				t.Errorf("game %d: %s %s", g.Game, g.Reason, g.Detail)
			}
			continue
		}
		fakeColor := "black: "
		if g.White == "fake" {
			fakeColor = "white: "
		}
		if g.Reason != reason || !strings.HasPrefix(g.Detail, fakeColor) || !strings.Contains(g.Detail, detail) {
			t.Errorf("game %d: reason %q detail %q, want %q by %s with %q", g.Game, g.Reason, g.Detail, reason, fakeColor, detail)
		}
	}
}

func TestParseLine(t *testing.T) {
	t.Parallel()
	jjkk, _ := engine.ParseMove("JJKK")
	jj, _ := engine.ParseMove("JJ")
	cases := []struct {
		line string
		kind lineKind
		move engine.Move
		text string
	}{
		{"move JJKK", lineMove, jjkk, ""},
		{"  MOVE jjkk \t", lineMove, jjkk, ""},
		{"move jj kk", lineMove, jjkk, ""},
		{"Move JJ", lineMove, jj, ""},
		{"move ZZ9", lineMalformed, NoMove, ""},
		{"move", lineMalformed, NoMove, ""},
		{"move ZZ 9", lineMalformed, NoMove, ""},
		{"move zz kk", lineMalformed, NoMove, ""},
		{"move XXXX   - tell the engine that the opponent take the move XXXX,", lineText, NoMove, ""},
		{"move JJ is the best so far", lineText, NoMove, ""},
		{"move ordering", lineText, NoMove, ""},
		{"moved on", lineText, NoMove, ""},
		{"", lineText, NoMove, ""},
		{"name Cloudict.Connect6", lineName, NoMove, "Cloudict.Connect6"},
		{"NAME my engine 2 ", lineName, NoMove, "my engine 2"},
		{"            name        - print the name of the Game Engine.", lineText, NoMove, ""},
		{"name - print the name", lineText, NoMove, ""},
		{"name", lineText, NoMove, ""},
		{"names are hard", lineText, NoMove, ""},
	}
	for _, c := range cases {
		kind, m, text := parseLine(c.line)
		if kind != c.kind || (kind == lineMove && m != c.move) || (kind == lineName && text != c.text) {
			t.Errorf("parseLine(%q) = %v %v %q, want %v %v %q", c.line, kind, m, text, c.kind, c.move, c.text)
		}
	}
}

func TestTranscript(t *testing.T) {
	t.Parallel()
	var nilT *Transcript
	if n := nilT.log("x", '!', "y"); n != 0 {
		t.Errorf("nil transcript line %d", n)
	}
	var buf bytes.Buffer
	tr := NewTranscript(&buf)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				tr.log(fmt.Sprintf("e%d[%d]", g, 100+g), "<>!"[i%3], fmt.Sprintf("line %d", i))
			}
		})
	}
	wg.Wait()
	if n := tr.log("long[1]", '<', strings.Repeat("z", 5000)); n != 401 {
		t.Errorf("line number %d, want 401", n)
	}
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	if tr.log("late[1]", '!', "dropped") != 0 || tr.Close() == nil {
		t.Error("transcript still open after Close")
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 401 {
		t.Fatalf("%d lines, want 401", len(lines))
	}
	re := regexp.MustCompile(`^(\S+) \S+\[\d+\] [<>!] `)
	for _, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %q", l)
		}
		if _, err := time.Parse(time.RFC3339Nano, m[1]); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
	}
	if last := lines[400]; len(last) > 1200 || !strings.HasSuffix(last, "[cut: 5000 bytes]") {
		t.Errorf("long line not cut: %d bytes, ends %q", len(last), last[len(last)-30:])
	}
}

func TestBoundDetail(t *testing.T) {
	t.Parallel()
	d := boundDetail(strings.Repeat("é", 3000), strings.Repeat("ü", 3000))
	if len(d) > detailMax || !utf8.ValidString(d) || !strings.Contains(d, "; stderr: …ü") {
		t.Errorf("detail of %d bytes, valid %v", len(d), utf8.ValidString(d))
	}
	if d := boundDetail("short", "tail"); d != "short; stderr: tail" {
		t.Errorf("detail %q", d)
	}
}

func TestExternalBannerNoiseSpaced(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	tr := NewTranscript(&buf)
	tab := runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: []string{"-banner", "-noise", "-spaced"}}, External: ExternalOptions{Transcript: tr}}, 2)
	checkReasons(t, tab, "", "")
	if err := tr.Close(); err != nil {
		t.Fatal(err)
	}
	log := buf.String()
	for _, want := range []string{"> name\n", "< name fakeengine\n", "< move XXXX   - tell the engine", "< move aa ba\n", "> quit\n", "exited with status 0; process group killed\n"} {
		if !strings.Contains(log, want) {
			t.Errorf("transcript lacks %q:\n%s", want, log)
		}
	}
	name, err := ProbeName(context.Background(), Engine{Program: fakeBin(t), Args: []string{"-banner"}}, quick)
	if name != "fakeengine" || err != nil {
		t.Errorf("ProbeName: %q, %v", name, err)
	}
}

func TestExternalNoNameReply(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	tr := NewTranscript(&buf)
	e := Engine{Program: fakeBin(t), Args: []string{"-noname"}, Handshake: 100 * time.Millisecond}
	o := ExternalOptions{Transcript: tr}
	checkReasons(t, runFake(t, Entrant{Engine: e, External: o}, 1), "", "")
	tr.Close()
	if !strings.Contains(buf.String(), "no reply to name within 100ms") {
		t.Errorf("transcript:\n%s", buf.String())
	}
	o.QuitGrace = quick.QuitGrace
	if name, err := ProbeName(context.Background(), e, o); err == nil || !strings.Contains(err.Error(), `no reply to "name" within 100ms`) {
		t.Errorf("ProbeName: %q, %v", name, err)
	}
}

func TestExternalWorkingDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "book.txt"), []byte("JJ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-needfile", "book.txt"}
	t.Run("dir", func(t *testing.T) {
		t.Parallel()
		checkReasons(t, runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: args, Dir: dir}}, 1), "", "")
	})
	t.Run("none", func(t *testing.T) {
		t.Parallel()
		checkReasons(t, runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: args}}, 1), "forfeit:crash", "before the reply to name; exited with status 4; stderr: fakeengine: cannot open book.txt")
	})
}

func TestExternalInitString(t *testing.T) {
	t.Parallel()
	args := []string{"-needinit", "depth 2"}
	t.Run("sent", func(t *testing.T) {
		t.Parallel()
		checkReasons(t, runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: args, InitStrings: []string{"vcf", "depth 2"}}}, 1), "", "")
	})
	t.Run("missing", func(t *testing.T) {
		t.Parallel()
		tr := NewTranscript(&bytes.Buffer{})
		tab := runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: args}, External: ExternalOptions{Transcript: tr}}, 1)
		checkReasons(t, tab, "forfeit:malformed", `line "move ZZ": `)
		checkReasons(t, tab, "forfeit:malformed", `(transcript: fake[`)
	})
}

func TestExternalIgnoresQuit(t *testing.T) {
	t.Parallel()
	checkReasons(t, runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: []string{"-mode", "stubborn"}}}, 1), "", "")

	var log pgidLog
	o := ExternalOptions{QuitGrace: 200 * time.Millisecond, onStart: log.add}
	p, err := NewExternal(Engine{Program: fakeBin(t), Args: []string{"-mode", "stubborn"}, MoveTime: time.Second}, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.NewGame(context.Background(), Opening{}, engine.Black); err != nil {
		t.Fatal(err)
	}
	if r, err := p.Play(context.Background(), engine.NewBoard(), NoMove); err != nil || r.Move.String() != "JJ" {
		t.Fatalf("Play: %v %v", r.Move, err)
	}
	start := time.Now()
	p.Close()
	if d := time.Since(start); d < o.QuitGrace || d > o.QuitGrace+time.Second {
		t.Errorf("Close took %v, want about %v", d, o.QuitGrace)
	}
	checkGroupsGone(t, log.all())
}

func TestExternalChildHoldsOutput(t *testing.T) {
	t.Parallel()
	t.Run("exit", func(t *testing.T) {
		t.Parallel()
		start := time.Now()
		tab := runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: []string{"-child", "-mode", "exit", "-after", "1"}, MoveTime: 10 * time.Second}}, 1)
		checkReasons(t, tab, "forfeit:exit", "exited with status 0")
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("match took %v: the exit was not noticed", d)
		}
	})
	t.Run("good", func(t *testing.T) {
		t.Parallel()
		checkReasons(t, runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: []string{"-child"}}}, 1), "", "")
	})
}

func TestExternalClock(t *testing.T) {
	t.Parallel()
	args := []string{"-mode", "slow", "-after", "1", "-delay", "1m"}
	for _, c := range []struct {
		name, detail string
		tc           TimeControl
	}{
		{"st", "no move within 250ms (st=200ms, margin 50ms)", TimeControl{PerMove: 200 * time.Millisecond, Margin: 50 * time.Millisecond}},
		{"tc", "(clock ", TimeControl{Base: 300 * time.Millisecond, Inc: 10 * time.Millisecond}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			tab := runFake(t, Entrant{Engine: Engine{Program: fakeBin(t), Args: args, MoveTime: time.Minute, Time: c.tc}}, 1)
			checkReasons(t, tab, "forfeit:timeout", c.detail)
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("match took %v", d)
			}
		})
	}
}

// TestExternalLongLine is not parallel: it measures the memory allocated
// while an engine writes a 2 MB line, or writes without end.
func TestExternalLongLine(t *testing.T) {
	for _, mode := range []string{"long", "endless"} {
		var log pgidLog
		o := quick
		o.onStart = log.add
		p, err := NewExternal(Engine{Program: fakeBin(t), Args: []string{"-mode", mode, "-after", "1"}, MoveTime: 5 * time.Second}, o)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		rec, err := PlayGame(context.Background(), engine.NewBoard(), p, &firstLegal{}, Opening{}, 0)
		runtime.ReadMemStats(&after)
		p.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Reason != "forfeit:malformed" || !strings.Contains(rec.Detail, "line too long (over 65536 bytes)") || len(rec.Detail) > detailMax+10 {
			t.Errorf("%s: %s %.300s (%d bytes)", mode, rec.Reason, rec.Detail, len(rec.Detail))
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %d bytes allocated during the game", mode, alloc)
		if alloc > 1<<20 {
			t.Errorf("%s: %d bytes allocated during the game", mode, alloc)
		}
		checkGroupsGone(t, log.all())
	}
}
