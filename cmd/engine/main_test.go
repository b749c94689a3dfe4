package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
	"github.com/roadtune/roadtune/internal/fixture/cmdlinetest"
)

var pairReply = regexp.MustCompile(`^move [A-S]{4}$`)

// writeWeights writes a valid asymmetric weight file into dir.
func writeWeights(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "asym.json")
	err := engine.WriteWeightFile(path, &engine.WeightFile{
		Name: "asym", Schema: engine.Asymmetric,
		Values:     []float64{1, 15, 30, 50, 50, 1, 10, 15, 35, 25},
		Provenance: engine.Provenance{Tool: "cmd/engine test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// writeBad writes a weight file with one gene too few.
func writeBad(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "short.json")
	data := `{"name":"short","schema":"symmetric","values":[20,80,150,800],"provenance":{"tool":"t"}}`
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunFlags(t *testing.T) {
	dir := t.TempDir()
	good, bad := writeWeights(t, dir), writeBad(t, dir)
	cases := []struct {
		args       []string
		code       int
		stdout     string // exact
		stderrHas  string
		stdin      string
		stderrNone bool
	}{
		{args: nil, stdin: "name\nquit\n", code: 0, stdout: "name roadtune\n", stderrHas: `"roadtune-tempo" (tempo)`},
		{args: []string{"-name", "tuned", "-weights", good, "-depth", "1", "-width", "3", "-vcf=false"},
			stdin: "name\nprint\nquit\n", code: 0, stderrHas: `"asym" (asymmetric) depth 1 width 3 vcf false`},
		{args: []string{"-weights", "zhou2015", "-depth", "1"}, stdin: "name\nquit\n", code: 0, stdout: "name roadtune\n", stderrHas: `"zhou2015" (symmetric) depth 1`},
		{args: []string{"-weights", "qi2018-table3-1"}, stdin: "quit\n", code: 0, stderrHas: `"qi2018-table3-1" (asymmetric)`},
		{args: []string{"-weights", cmdlinetest.HandWeights(t, dir), "-depth", "1"}, stdin: "quit\n", code: 0, stderrHas: `"hand" (tempo) depth 1`},
		{args: []string{"-weights", "zhou2016"}, code: 2, stderrHas: `"zhou2016": not a baseline and not a readable file (did you mean "zhou2015"?): open zhou2016: no such file or directory; the baselines are chen2010-ga15, `},
		{args: []string{"-weights", filepath.Join(dir, "none.json")}, code: 2, stderrHas: "none.json"},
		{args: []string{"-weights", bad}, code: 2, stderrHas: "short.json"},
		{args: []string{"-depth", "0"}, code: 2, stderrHas: "engine: flag -depth: must be at least 1, not 0\n"},
		{args: []string{"-width", fmt.Sprint(protocol.MaxWidth + 1)}, code: 2, stderrHas: fmt.Sprintf("engine: flag -width: must be at most %d, not %d\n", protocol.MaxWidth, protocol.MaxWidth+1)},
		{args: []string{"-movetime", "-1s"}, code: 2, stderrHas: "engine: flag -movetime: must be 0 or more, not -1s\n"},
		{args: []string{"-threatdepth", "17"}, code: 2, stderrHas: "engine: flag -threatdepth: must be at most 16, not 17\n"},
		{args: []string{"-threatdepth", "0"}, code: 2, stderrHas: "engine: flag -threatdepth: must be at least 1, not 0\n"},
		{args: []string{"-threatnodes", "0"}, code: 2, stderrHas: "engine: flag -threatnodes: must be at least 1, not 0\n"},
		{args: []string{"-defendwide", "-1"}, code: 2, stderrHas: "engine: flag -defendwide: must be 0 or more, not -1\n"},
		{args: []string{"-defendwide", "0", "-depth", "1"}, stdin: "quit\n", code: 0, stderrHas: "depth 1 width 15"},
		{args: []string{"-threatdepth", "4", "-threatnodes", "8000", "-depth", "1"}, stdin: "quit\n", code: 0, stderrHas: "depth 1 width 15"},
		// A clock: the depth becomes 12 unless given.
		{args: []string{"-time", "move 0.05"}, stdin: "print\nquit\n", code: 0, stderrHas: "depth 12 width 15 vcf true time move 0.05\n"},
		{args: []string{"-time", "game 60 0.5", "-depth", "3"}, stdin: "quit\n", code: 0, stderrHas: "depth 3 width 15 vcf true time game 60 0.5\n"},
		{args: []string{"-time", "off"}, stdin: "quit\n", code: 0, stderrHas: "depth 2 width 15 vcf true time off\n"},
		{args: []string{"-time", "left 5"}, code: 2, stderrHas: `flag -time: "left 5": time left needs a game clock`},
		{args: []string{"-time", "move 0"}, code: 2, stderrHas: `flag -time: "move 0": bad command: time move: SECONDS "0"`},
		{args: []string{"-time", "soon"}, code: 2, stderrHas: `flag -time: "soon": bad command: time takes move SECONDS`},
		{args: []string{"-name", "two words"}, code: 2, stderrHas: "engine name"},
		{args: []string{"-bogus"}, code: 2, stderrHas: "engine: flag -bogus: no such flag; engine -h lists the flags\n"},
		{args: []string{"extra"}, code: 2, stderrHas: `unexpected argument "extra"`},
		{args: []string{"-h"}, code: 0, stderrHas: "usage: engine"},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		code := run(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
		if code != tc.code {
			t.Errorf("run %q: exit %d, want %d; stderr:\n%s", tc.args, code, tc.code, stderr.String())
			continue
		}
		if tc.stdout != "" && stdout.String() != tc.stdout {
			t.Errorf("run %q: stdout %q, want %q", tc.args, stdout.String(), tc.stdout)
		}
		if tc.code != 0 && stdout.Len() != 0 {
			t.Errorf("run %q: exit %d but stdout %q", tc.args, tc.code, stdout.String())
		}
		if !strings.Contains(stderr.String(), tc.stderrHas) {
			t.Errorf("run %q: stderr %q, want it to contain %q", tc.args, stderr.String(), tc.stderrHas)
		}
		if tc.code == 0 && tc.args != nil && tc.args[0] == "-name" && !strings.HasPrefix(stdout.String(), "name tuned\n") {
			t.Errorf("run %q: stdout %q", tc.args, stdout.String())
		}
	}
	// The weights field at fault is named.
	var stderr bytes.Buffer
	run([]string{"-weights", bad}, strings.NewReader(""), &bytes.Buffer{}, &stderr)
	if !strings.Contains(stderr.String(), "values") {
		t.Errorf("bad weight file: stderr %q does not name the field", stderr.String())
	}
}

// TestBinary builds cmd/engine and plays a short conversation through pipes.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "engine")
	build := exec.Command(gobin, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	cmd := exec.Command(bin, "-depth", "2", "-width", "6")
	cmd.Stdin = strings.NewReader("name\r\nnew black\nmove KJJK\n\ndepth 1\nmove JJAA\nmove AAAS\nbogus\nquit\nname\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("engine: %v\nstderr:\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	if len(lines) != 7 {
		t.Fatalf("stdout %q: want 7 protocol lines", lines)
	}
	checks := []func(string) bool{
		func(l string) bool { return l == "name roadtune" },
		func(l string) bool { return l == "move JJ" },
		pairReply.MatchString,
		func(l string) bool { return l == "depth 1" },
		func(l string) bool { return strings.HasPrefix(l, "error move JJAA") },
		pairReply.MatchString,
		func(l string) bool { return l == `error bad command: "bogus" is not a command (try help)` },
	}
	for i, ok := range checks {
		if !ok(lines[i]) {
			t.Errorf("stdout line %d = %q", i+1, lines[i])
		}
	}
	if !strings.Contains(stderr.String(), "info black JJ") {
		t.Errorf("stderr lacks the search diagnostics:\n%s", stderr.String())
	}

	// A bad weight file: exit status 2, the file named on stderr, nothing on stdout.
	stdout.Reset()
	stderr.Reset()
	bad := exec.Command(bin, "-weights", writeBad(t, dir))
	bad.Stdout, bad.Stderr = &stdout, &stderr
	err = bad.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("bad -weights: %v, want exit status 2", err)
	}
	if !strings.Contains(stderr.String(), "short.json") || stdout.Len() != 0 {
		t.Fatalf("bad -weights: stdout %q stderr %q", stdout.String(), stderr.String())
	}

	// A hand-written file of a schema and its values plays: named after
	// the file, no provenance asked for.
	stdout.Reset()
	stderr.Reset()
	hand := exec.Command(bin, "-weights", cmdlinetest.HandWeights(t, dir), "-depth", "1")
	hand.Stdin = strings.NewReader("name\nquit\n")
	hand.Stdout, hand.Stderr = &stdout, &stderr
	if err := hand.Run(); err != nil || stdout.String() != "name roadtune\n" || !strings.Contains(stderr.String(), `"hand" (tempo)`) {
		t.Fatalf("-weights hand.json: %v, stdout %q stderr %q", err, stdout.String(), stderr.String())
	}
}

// TestRunPositionAnyOrder drives run with black/white lines out of turn
// order, as Cloudict accepts them: the engine sets the position up, answers
// for the side the counts give, refuses an impossible line without losing
// the position, and reports a finished game with a result line.
func TestRunPositionAnyOrder(t *testing.T) {
	in := strings.Join([]string{
		"new xxx",
		"white KKLL", // before Black's first stone: waits for it
		"next",       // not a position yet
		"black JJ",
		"white MM", // one stone of White's next pair, before Black's move
		"white NN",
		"white OO",   // a fifth white stone to one black: impossible
		"black HHII", // now 3 black and 4 white: Black to move
		"next",
		"new xxx", // a finished game set up White first
		"white AAAB", "black JJ", "white ACAD", "black KKLL", "white AEAF", "black MMNN",
		"next",
		"move SSSR",
		"white SS",
		"quit",
	}, "\n") + "\n"
	var stdout, stderr bytes.Buffer
	if code := run([]string{"-depth", "1", "-width", "4"}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	want := []string{
		"error next: 0 black and 2 white stones are 1 black stone(s) short of a position a game reaches; send them with black/white, or new",
		"error white OO: 1 black and 5 white stones: no game reaches these counts, nor with one more move of one colour",
		"", // Black's move, checked below
		"result white",
		"result white",
		"error white SS: the game is over (white); send new",
	}
	if len(lines) != len(want) {
		t.Fatalf("stdout %q: want %d lines", lines, len(want))
	}
	for i, w := range want {
		if w != "" && lines[i] != w {
			t.Errorf("stdout line %d = %q, want %q", i+1, lines[i], w)
		}
	}
	if !pairReply.MatchString(lines[2]) {
		t.Fatalf("next for Black: %q, want a two-stone move", lines[2])
	}
	taken := map[string]bool{"JJ": true, "HH": true, "II": true, "KK": true, "LL": true, "MM": true, "NN": true}
	if a, b := lines[2][5:7], lines[2][7:9]; taken[a] || taken[b] || a == b {
		t.Errorf("next for Black: %s plays on an occupied point", lines[2])
	}
	if !strings.Contains(stderr.String(), "info black "+lines[2][5:]) {
		t.Errorf("stderr lacks the search line for Black's move:\n%s", stderr.String())
	}
}

// TestQuitDuringLongSearch: `quit` sent while the engine searches depth 12
// at width 15 (minutes for this move) ends the program at once, after the
// move found so far. The bound is generous for a loaded machine; the
// latency measured is logged (well under 100 ms).
func TestQuitDuringLongSearch(t *testing.T) {
	inR, inW := io.Pipe()
	var stdout, stderr bytes.Buffer // read only after run returns
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"-weights", "zhou2015", "-depth", "12", "-width", "15"}, inR, &stdout, &stderr)
	}()
	if _, err := io.WriteString(inW, "new white\nmove JJ\n"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	if _, err := io.WriteString(inW, "quit\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		t.Logf("quit ended the engine in %s", time.Since(start))
		if c != 0 {
			t.Fatalf("exit %d; stderr:\n%s", c, stderr.String())
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the engine still runs 2 s after quit")
	}
	inW.Close()
	if !pairReply.MatchString(strings.TrimSuffix(stdout.String(), "\n")) {
		t.Fatalf("stdout %q, want one move", stdout.String())
	}
	if !strings.Contains(stderr.String(), "quit read during the search: cut it short") || strings.Contains(stderr.String(), " depth 12 nodes") {
		t.Fatalf("the search was not cut short:\n%s", stderr.String())
	}
}
