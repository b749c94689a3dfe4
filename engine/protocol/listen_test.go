package protocol

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

// lockedBuffer is a bytes.Buffer safe to write from the search goroutine
// while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var infoDepth = regexp.MustCompile(`info (black|white) ([A-S]+) score \S+ depth (\d+)`)

// searchDepths are the depths of the searches logged in diag, in order.
func searchDepths(t *testing.T, diag string) []int {
	t.Helper()
	var ds []int
	for _, m := range infoDepth.FindAllStringSubmatch(diag, -1) {
		d, err := strconv.Atoi(m[3])
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	return ds
}

// A driver talking to Run over pipes: stop during a `depth 12` search at
// width 15 (minutes to finish) answers a legal move at once, and so does
// quit, after which Run returns.
func TestRunStopAndQuitDuringSearch(t *testing.T) {
	st := engine.DefaultSettings()
	st.Depth, st.Width, st.TableBits = engine.MaxDepth, engine.MaxWidth, 16
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var diag lockedBuffer
	s, err := NewServer(Config{Weights: testWeights(t), Settings: st}, outW, &diag)
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- s.Run(context.Background(), inR); outW.Close() }()
	replies := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			replies <- sc.Text()
		}
		close(replies)
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	reply := func(within time.Duration) (string, time.Duration) {
		t.Helper()
		start := time.Now()
		select {
		case l := <-replies:
			return l, time.Since(start)
		case <-time.After(within):
			t.Fatalf("no reply within %s; diagnostics:\n%s", within, diag.String())
		}
		return "", 0
	}
	send("new white")
	send("move JJ")
	time.Sleep(200 * time.Millisecond) // deep in the search
	send("stop")
	l, took := reply(2 * time.Second)
	t.Logf("stop answered in %s: %s", took, l)
	m, err := engine.ParseMove(strings.TrimPrefix(l, "move "))
	if !moveReply.MatchString(l) || err != nil || m.Len() != 2 || m.A == engine.PointAt(9, 9) || m.B == engine.PointAt(9, 9) {
		t.Fatalf("stop: reply %q, want White's two stones off JJ", l)
	}
	send("stop") // no search running: nothing
	send("name")
	if l, _ := reply(2 * time.Second); l != "name roadtune" {
		t.Fatalf("stop with no search, then name: %q", l)
	}

	send("next")
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	send("quit")
	send("name") // after quit: never carried out
	select {
	case err := <-ran:
		t.Logf("quit ended Run in %s", time.Since(start))
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Second):
		t.Fatalf("Run still running 2 s after quit; diagnostics:\n%s", diag.String())
	}
	var rest []string
	for l := range replies {
		rest = append(rest, l)
	}
	if len(rest) != 1 || !moveReply.MatchString(rest[0]) {
		t.Fatalf("after next and quit: replies %q, want the move only", rest)
	}
	ds := searchDepths(t, diag.String())
	if len(ds) != 2 || ds[0] >= engine.MaxDepth || ds[1] >= engine.MaxDepth {
		t.Fatalf("search depths %v: want two searches cut short of %d; diagnostics:\n%s", ds, engine.MaxDepth, diag.String())
	}
	for _, want := range []string{"line 3: stop read during the search: cut it short", "line 7: quit read during the search: cut it short"} {
		if !strings.Contains(diag.String(), want) {
			t.Errorf("diagnostics lack %q:\n%s", want, diag.String())
		}
	}
	inW.Close()
}

// Lines read during a search wait their turn: a stop after another line is
// no interruption, and a script without stop or quit right after a search
// runs every search to its depth. stop with no search running is harmless
// (in the first script the stop after `new black` may cut its instant
// opening move short, which is JJ all the same).
func TestRunStopInTurn(t *testing.T) {
	for _, tc := range []struct {
		in     string
		want   []string // "" is a move line
		depths []int
	}{
		{"stop\nname\nstop\nnew black\nstop\nstop\nname\nquit\n", []string{"name tester", "move JJ", "name tester"}, nil},
		{"depth 3\nnew white\nmove JJ\nprint\nstop\nname\nnext\n\nquit\n", nil, []int{3, 3}},
		{"stop\nexit\nname\n", nil, nil},
	} {
		var out, diag lockedBuffer
		err := Serve(strings.NewReader(tc.in), &out, &diag, Config{Name: "tester", Weights: testWeights(t), Settings: testSettings()})
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		got := splitLines(out.String())
		if strings.Contains(out.String(), "error") {
			t.Errorf("%q: replies %q carry an error", tc.in, got)
		}
		if tc.want != nil && len(got) != len(tc.want) {
			t.Fatalf("%q: replies %q, want %q", tc.in, got, tc.want)
		}
		for i, w := range tc.want {
			if (w == "" && !moveReply.MatchString(got[i])) || (w != "" && got[i] != w) {
				t.Errorf("%q: reply %d = %q, want %q", tc.in, i+1, got[i], w)
			}
		}
		if ds := searchDepths(t, diag.String()); tc.depths != nil && !slices.Equal(ds, tc.depths) {
			t.Errorf("%q: search depths %v, want %v; diagnostics:\n%s", tc.in, ds, tc.depths, diag.String())
		}
		if tc.depths != nil && strings.Contains(diag.String(), "cut it short") {
			t.Errorf("%q: a search was cut short:\n%s", tc.in, diag.String())
		}
	}
}
