package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/tournament"
)

func TestSplitEngineArgs(t *testing.T) {
	args := []string{"-pairs", "3", "-engine", "name=A", "cmd=./x y", "arg=-depth", "arg=2", "initstr=depth 2", "zhou2015",
		"-each", "tc=60+1", "timemargin=50", "-engine", "prog --flag 'a b'", "-openings", "file=f.txt", "order=random", "start=3", "-json"}
	rest, engines, each, openings, err := splitEngineArgs(args)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"-pairs", "3", "zhou2015", "-json"}; !reflect.DeepEqual(rest, want) {
		t.Errorf("rest %q, want %q", rest, want)
	}
	if len(engines) != 2 || !reflect.DeepEqual(engines[0].Opts["arg"], []string{"-depth", "2"}) || engines[0].Opts["initstr"][0] != "depth 2" {
		t.Fatalf("engines %+v", engines)
	}
	if !reflect.DeepEqual(engines[1].Opts["cmd"], []string{"prog"}) || !reflect.DeepEqual(engines[1].Opts["arg"], []string{"--flag", "a b"}) {
		t.Errorf("short form %+v", engines[1].Opts)
	}
	if each == nil || each.Opts["tc"][0] != "60+1" {
		t.Errorf("each %+v", each)
	}
	if !reflect.DeepEqual(openings, []string{"file=f.txt", "order=random", "start=3"}) {
		t.Errorf("openings %q", openings)
	}
}

// TestGauntletAndKnockout: the library's schedules through the command
// line.
func TestGauntletAndKnockout(t *testing.T) {
	t.Parallel()
	run := func(args ...string) tournament.Summary {
		t.Helper()
		var stdout, stderr bytes.Buffer
		args = append([]string{"-json", "-pairs", "1", "-depth", "1", "-width", "4", "-ratinginterval", "0"}, args...)
		if code := Main(context.Background(), args, &stdout, &stderr); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr.String())
		}
		var sum tournament.Summary
		if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
			t.Fatalf("%v\n%s", err, stdout.String())
		}
		return sum
	}
	g := run("-tournament", "gauntlet", "zhou2015", "qi2018-table3-1", "chen2010-ga15", "chen2010-pso15")
	if g.Schedule != "gauntlet" || len(g.Matchups) != 3 || g.Games != 6 {
		t.Fatalf("gauntlet %+v", g)
	}
	for _, m := range g.Matchups {
		if m.A != "zhou2015" || m.N != 2 {
			t.Errorf("gauntlet matchup %s vs %s, %d games", m.A, m.B, m.N)
		}
	}
	k := run("-tournament", "knockout", "zhou2015", "qi2018-table3-1", "chen2010-ga15")
	// Three seeds: the top seed has a bye, then a final: 2 matches, 4 games.
	if k.Schedule != "knockout" || k.Champion == "" || k.Games != 4 || len(k.Matchups) != 2 {
		t.Fatalf("knockout %+v", k)
	}
}

// TestEmptyBoardOpenings: -openings empty starts every game from the empty
// board.
func TestEmptyBoardOpenings(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "m")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"-pairs", "1", "-depth", "1", "-openings", "empty", "-out", out, "zhou2015", "chen2010-ga15"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	recs, err := tournament.ReadGameLog(filepath.Join(out, "games.jsonl"))
	if err != nil || len(recs) != 2 {
		t.Fatal(recs, err)
	}
	for _, g := range recs {
		if g.Opening != "" || g.Moves[0].String() != "JJ" {
			t.Errorf("game %d: opening %q, first move %v", g.Game, g.Opening, g.Moves[0])
		}
	}
}

// matchGames reads the games log of the match in dir.
func matchGames(t *testing.T, dir string) []tournament.GameRecord {
	t.Helper()
	recs, err := tournament.ReadGameLog(filepath.Join(dir, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// noTimes clears what differs between two runs of the same games.
func noTimes(recs []tournament.GameRecord) []tournament.GameRecord {
	for i := range recs {
		recs[i].Time = [2]time.Duration{}
	}
	return recs
}

// TestResumeEqualsUninterrupted stops a match part way (as Ctrl-C does),
// checks the interrupted report, resumes it and compares the games and the
// table with the same match played in one go.
func TestResumeEqualsUninterrupted(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	args := func(out string) []string {
		return []string{"-json", "-pairs", "40", "-depth", "2", "-concurrency", "2", "-ratinginterval", "0", "-out", out, "zhou2015", "qi2018-table3-1"}
	}
	full := filepath.Join(base, "full")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), args(full), &stdout, &stderr); code != 0 {
		t.Fatalf("full: exit %d: %s", code, stderr.String())
	}
	var want tournament.Summary
	json.Unmarshal(stdout.Bytes(), &want)

	cut := filepath.Join(base, "cut")
	ctx, cancel := context.WithCancel(context.Background())
	go cancelAfter(ctx, cancel, cut, 7) // an odd number: a half pair
	stdout.Reset()
	stderr.Reset()
	code := Main(ctx, args(cut), &stdout, &stderr)
	cancel()
	if code != exitInterrupted {
		t.Fatalf("interrupted: exit %d, want %d: %s", code, exitInterrupted, stderr.String())
	}
	var part tournament.Summary
	if err := json.Unmarshal(stdout.Bytes(), &part); err != nil {
		t.Fatal(err)
	}
	if !part.Interrupted || part.Games%2 != 0 || part.Games >= want.Games || !strings.Contains(stderr.String(), "arena -resume "+cut) {
		t.Fatalf("interrupted summary: %d games, interrupted %v; stderr %s", part.Games, part.Interrupted, stderr.String())
	}
	if data, err := os.ReadFile(filepath.Join(cut, "summary.json")); err != nil || !bytes.Contains(data, []byte(`"interrupted": true`)) {
		t.Fatalf("summary.json after the interruption: %v %s", err, data)
	}
	stdout.Reset()
	stderr.Reset()
	if code := Main(context.Background(), []string{"-resume", cut}, &stdout, &stderr); code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr.String())
	}
	var got tournament.Summary
	json.Unmarshal(stdout.Bytes(), &got)
	if got.Resumed == 0 || got.Games != want.Games || !reflect.DeepEqual(got.Matchups, want.Matchups) {
		t.Errorf("resumed %d games; summary %+v\nwant %+v", got.Resumed, got.Matchups, want.Matchups)
	}
	a, b := matchGames(t, full), matchGames(t, cut)
	if !reflect.DeepEqual(noTimes(a), noTimes(b)) {
		t.Errorf("games log of the resumed match differs from the uninterrupted one (%d vs %d games)", len(b), len(a))
	}
	sgfs, _ := filepath.Glob(filepath.Join(cut, "sgf", "*.sgf"))
	if len(sgfs) != want.Games {
		t.Errorf("%d SGF files, want %d", len(sgfs), want.Games)
	}
	// Resuming a finished match plays nothing more.
	stdout.Reset()
	if code := Main(context.Background(), []string{"-resume", cut}, &stdout, &stderr); code != 0 {
		t.Fatalf("second resume: exit %d", code)
	}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil || got.Resumed != want.Games {
		t.Errorf("second resume: %d resumed, %v", got.Resumed, err)
	}
	for _, bad := range [][]string{{"-resume"}, {"-resume", cut, "-pairs", "3"}, {"-resume", base}} {
		stderr.Reset()
		if code := Main(context.Background(), bad, &stdout, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want 2", bad, code)
		}
	}
}

// TestExternalEngineByOptions plays roadtune's own protocol engine as an
// external engine given by options (name, cmd, arg, initstr, st,
// timemargin) against the in-process engine given by -engine weights=,
// with a transcript.
func TestExternalEngineByOptions(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../../../engine").CombinedOutput(); err != nil {
		t.Fatalf("build cmd/engine: %v\n%s", err, out)
	}
	dir := t.TempDir()
	logFile := filepath.Join(dir, "transcript.log")
	var stdout, stderr bytes.Buffer
	args := []string{"-json", "-pairs", "2", "-ratinginterval", "2", "-log", logFile,
		"-engine", "cmd=" + bin, "arg=-depth", "arg=1", "initstr=width 4", "st=5", "timemargin=100",
		"-engine", "name=inproc", "weights=zhou2015", "depth=1", "width=4",
		"-each", "tc=60+1"}
	if code := Main(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var sum tournament.Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Games != 4 || sum.Players[0].Name != "roadtune" || sum.Players[1].Name != "inproc" {
		t.Fatalf("summary %+v", sum)
	}
	for reason := range sum.Reasons {
		if strings.HasPrefix(reason, "forfeit") {
			t.Errorf("forfeit: %v", sum.Reasons)
		}
	}
	if !strings.Contains(sum.Players[0].Settings, "st=5") || !strings.Contains(sum.Players[1].Settings, "tc=60+1") {
		t.Errorf("settings %q / %q", sum.Players[0].Settings, sum.Players[1].Settings)
	}
	if !strings.Contains(stderr.String(), "Score of roadtune vs inproc: ") {
		t.Errorf("no live score line: %s", stderr.String())
	}
	log, err := os.ReadFile(logFile)
	if err != nil || !bytes.Contains(log, []byte("width 4")) || !bytes.Contains(log, []byte("name roadtune")) {
		t.Errorf("transcript: %v\n%.2000s", err, log)
	}
}

// cancelAfter cancels the match in dir once n games are in its games log.
func cancelAfter(ctx context.Context, cancel context.CancelFunc, dir string, n int) {
	for ctx.Err() == nil {
		if data, err := os.ReadFile(filepath.Join(dir, "games.jsonl")); err == nil && bytes.Count(data, []byte{'\n'}) >= n {
			cancel()
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestClockMakesDepthAMaximum: an in-process player with st= or tc=
// searches up to depth 12 unless -depth or depth= says otherwise; one
// without a clock keeps -depth.
func TestClockMakesDepthAMaximum(t *testing.T) {
	for _, c := range []struct {
		args []string
		want [2]int
	}{
		{[]string{"-engine", "weights=zhou2015", "st=0.01", "-engine", "weights=zhou2015"}, [2]int{12, 2}},
		{[]string{"-depth", "3", "-engine", "weights=zhou2015", "tc=10+0.1", "-engine", "weights=zhou2015"}, [2]int{3, 3}},
		{[]string{"-engine", "weights=zhou2015", "st=0.01", "depth=5", "-engine", "weights=zhou2015", "depth=4"}, [2]int{5, 4}},
	} {
		var stderr bytes.Buffer
		o, err := parseFlags(c.args, &stderr)
		if err != nil {
			t.Fatal(err)
		}
		m, err := setup(context.Background(), o, &stderr)
		if err != nil {
			t.Fatal(err)
		}
		if got := [2]int{m.r.Entrants[0].Settings.Depth, m.r.Entrants[1].Settings.Depth}; got != c.want {
			t.Errorf("%q: depths %v, want %v", c.args, got, c.want)
		}
	}
}
