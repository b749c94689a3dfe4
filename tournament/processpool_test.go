package tournament

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
)

// optionSpec is the fake engine's options in these tests.
const optionSpec = "Width:int:15:1:100,DefendShare:float:0.7:0.01:0.9"

// recordLine is one line of the fake engine's -record file: one "new".
type recordLine = fakeenginetest.Record

// readRecord reads the fake engine's -record file.
func readRecord(t *testing.T, path string) []recordLine { return fakeenginetest.ReadRecords(t, path) }

// pids returns the distinct pids of the records, in order of appearance.
func pids(recs []recordLine) []int {
	var out []int
	for _, r := range recs {
		if !slices.Contains(out, r.PID) {
			out = append(out, r.PID)
		}
	}
	return out
}

// recordingFake is an external entrant of the fake engine with options,
// recording to record, with setup lines and the start hook log.
func recordingFake(t *testing.T, name, record string, log *pgidLog, setup ...string) Entrant {
	return Entrant{Engine: Engine{Name: name, Program: fakeBin(t), Args: []string{"-options", optionSpec, "-record", record}, InitStrings: []string{"param Width 3"}},
		External: ExternalOptions{QuitGrace: quick.QuitGrace, onStart: log.add}, Setup: setup}
}

// TestSetupLines: an entrant's setup lines reach its process before the
// "new" of every game, after the handshake and init strings of a fresh
// process, also of one restarted after a forfeit; with and without a
// process pool.
func TestSetupLines(t *testing.T) {
	t.Parallel()
	setup := []string{"setoption name Width value 20", "param DefendShare 0.5"}
	for _, pooled := range []bool{false, true} {
		for _, mode := range []string{"good", "crash"} {
			t.Run(fmt.Sprintf("pooled=%v/%s", pooled, mode), func(t *testing.T) {
				t.Parallel()
				record := filepath.Join(t.TempDir(), "record.jsonl")
				var log pgidLog
				fake := recordingFake(t, "fake", record, &log, setup...)
				fake.Args = append(fake.Args, "-mode", mode, "-after", "2")
				r := Runner{
					Entrants:    []Entrant{fake, {Engine: Engine{Name: "trivial"}, New: newFirstLegal}},
					Openings:    []Opening{{}, mustOpening(t, "JJ KJJK")},
					Concurrency: 1,
				}
				if pooled {
					r.Processes = &ProcessPool{}
				}
				tab, err := r.Run(context.Background(), HeadToHead(0, 1, 2))
				if err != nil {
					t.Fatal(err)
				}
				if mode == "crash" {
					checkReasons(t, tab, "forfeit:crash", "exited with status 3")
				} else {
					checkReasons(t, tab, "", "")
				}
				if r.Processes != nil {
					r.Processes.Close()
				}
				checkGroupsGone(t, log.all())
				recs := readRecord(t, record)
				if len(recs) != 4 {
					t.Fatalf("%d games recorded, want 4", len(recs))
				}
				wantProcs := map[string]int{"good": 1, "crash": 4}[mode]
				if n := len(pids(recs)); n != wantProcs {
					t.Errorf("%d processes, want %d", n, wantProcs)
				}
				fresh := map[int]bool{}
				for i, rec := range recs {
					n := len(rec.Sent)
					if n < 3 || !slices.Equal(rec.Sent[n-3:n-1], setup) || !strings.HasPrefix(rec.Sent[n-1], "new ") {
						t.Errorf("game %d: sent %q, want the setup lines and then new", i, rec.Sent)
					}
					if !fresh[rec.PID] {
						fresh[rec.PID] = true
						want := append([]string{"name", "param Width 3"}, setup...)
						if !slices.Equal(rec.Sent[:n-1], want) {
							t.Errorf("game %d, a fresh process: sent %q, want %q and new", i, rec.Sent, want)
						}
					}
					if rec.Values["Width"] != 20 || rec.Values["DefendShare"] != 0.5 {
						t.Errorf("game %d: values %v", i, rec.Values)
					}
				}
			})
		}
	}
}

// TestProcessPoolAcrossRuns: a pool keeps the processes of one run for
// the next, whose entrants have other names and setup lines; each game
// gets its entrant's values exactly; an entrant without setup lines gets
// a process that never had any; processes with another command are not
// shared; Close leaves nothing running.
func TestProcessPoolAcrossRuns(t *testing.T) {
	t.Parallel()
	record := filepath.Join(t.TempDir(), "record.jsonl")
	var log pgidLog
	pool := &ProcessPool{}
	const pairs = 3
	var seen []int // pids of the runs so far
	run := func(a, b Entrant, wantWidth map[float64]int, wantNewProcs func(n int) bool) {
		t.Helper()
		before := len(readRecord(t, record))
		r := Runner{Entrants: []Entrant{a, b}, Openings: []Opening{{}, mustOpening(t, "JJ KJJK")}, Concurrency: 2, Processes: pool}
		tab, err := r.Run(context.Background(), HeadToHead(0, 1, pairs))
		if err != nil {
			t.Fatal(err)
		}
		checkReasons(t, tab, "", "")
		recs := readRecord(t, record)[before:]
		widths := map[float64]int{}
		newProcs := 0
		for _, p := range pids(recs) {
			if !slices.Contains(seen, p) {
				newProcs++
				seen = append(seen, p)
			}
		}
		for _, rec := range recs {
			widths[rec.Values["Width"]]++
		}
		if !mapsEqual(widths, wantWidth) {
			t.Errorf("%s vs %s: games by Width %v, want %v", a.Name, b.Name, widths, wantWidth)
		}
		if !wantNewProcs(newProcs) {
			t.Errorf("%s vs %s: %d new processes (%d processes in all)", a.Name, b.Name, newProcs, len(seen))
		}
	}
	cand := func(name string, width int, share float64) Entrant {
		return recordingFake(t, name, record, &log, fmt.Sprintf("setoption name Width value %d", width), fmt.Sprintf("setoption name DefendShare value %g", share))
	}
	games := 2 * pairs
	// Concurrency 2: two workers, a process per colour each.
	run(cand("m0.A", 11, 0.1), cand("m0.B", 12, 0.2), map[float64]int{11: games, 12: games}, func(n int) bool { return n >= 2 && n <= 4 })
	if pool.Idle() == 0 {
		t.Fatal("no idle process kept after the run")
	}
	run(cand("m1.A", 21, 0.1), cand("m1.B", 22, 0.2), map[float64]int{21: games, 22: games}, func(n int) bool { return n == 0 })
	// Without setup lines: fresh processes at the init strings' width.
	defaults := recordingFake(t, "default", record, &log)
	run(cand("m2.A", 31, 0.1), defaults, map[float64]int{31: games, 3: games}, func(n int) bool { return n >= 1 })
	// Another command: never a process of the others.
	other := cand("m3.A", 41, 0.1)
	other.Args = append(other.Args, "-noise")
	before := slices.Clone(seen)
	run(other, cand("m3.B", 42, 0.2), map[float64]int{41: games, 42: games}, func(n int) bool { return n >= 1 })
	for _, rec := range readRecord(t, record) {
		if rec.Values["Width"] == 41 && slices.Contains(before, rec.PID) {
			t.Errorf("the entrant with -noise played on process %d of the others", rec.PID)
		}
	}
	if err := pool.Close(); err != nil {
		t.Fatal(err)
	}
	if pool.Idle() != 0 {
		t.Errorf("%d idle processes after Close", pool.Idle())
	}
	checkGroupsGone(t, log.all())
	r := Runner{Entrants: []Entrant{cand("late", 1, 0.1), {Engine: Engine{Name: "trivial"}, New: newFirstLegal}}, Processes: pool}
	if _, err := r.Run(context.Background(), HeadToHead(0, 1, 1)); err == nil || !strings.Contains(err.Error(), ErrProcessPoolClosed.Error()) {
		t.Errorf("a run after Close: %v", err)
	}
}

func mapsEqual(a, b map[float64]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestProcessPoolMaxIdle: idle processes beyond MaxIdle are ended, least
// recently used first.
func TestProcessPoolMaxIdle(t *testing.T) {
	t.Parallel()
	var log pgidLog
	pool := &ProcessPool{MaxIdle: 1}
	e := Entrant{Engine: Engine{Name: "fake", Program: fakeBin(t)}, External: ExternalOptions{QuitGrace: quick.QuitGrace, onStart: log.add}}
	key := processKey(&e)
	var ps []*ExternalPlayer
	for range 3 {
		p, err := pool.get(&e, key)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.NewGame(context.Background(), Opening{}, 1); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	for _, p := range ps {
		pool.put(p)
	}
	started := log.all()
	if len(started) != 3 || pool.Idle() != 1 {
		t.Fatalf("%d started, %d idle", len(started), pool.Idle())
	}
	checkGroupsGone(t, started[:2])
	if p, _ := pool.get(&e, key); p != ps[2] {
		t.Error("the idle process is not the last returned")
	} else {
		pool.put(p)
	}
	pool.Close()
	checkGroupsGone(t, started)
}

func TestProcessKey(t *testing.T) {
	t.Parallel()
	base := Entrant{Engine: Engine{Name: "a", Program: "eng", Args: []string{"-x"}, Dir: "d", InitStrings: []string{"vcf"}}}
	same := []func(e *Entrant){
		func(e *Entrant) { e.Name = "b" },
		func(e *Entrant) { e.Setup = []string{"setoption name W value 1"} },
		func(e *Entrant) { e.Time = TimeControl{PerMove: time.Second} },
		func(e *Entrant) { e.MoveTime = DefaultMoveTime },
		func(e *Entrant) { e.Handshake = DefaultHandshake },
		func(e *Entrant) { e.External.QuitGrace = DefaultQuitGrace },
		func(e *Entrant) { e.SHA256 = strings.Repeat("0", 64) },
	}
	other := []func(e *Entrant){
		func(e *Entrant) { e.Args = []string{"-y"} },
		func(e *Entrant) { e.Program, e.Args = "eng -x", nil },
		func(e *Entrant) { e.Dir = "" },
		func(e *Entrant) { e.InitStrings = []string{"vcf", "depth 2"} },
		func(e *Entrant) { e.InitStrings = nil },
		func(e *Entrant) { e.MoveTime = time.Second },
		func(e *Entrant) { e.Handshake = time.Second },
		func(e *Entrant) { e.External.QuitGrace = time.Millisecond },
	}
	k := processKey(&base)
	for i, f := range same {
		e := base
		f(&e)
		if processKey(&e) != k {
			t.Errorf("same %d: key %s, want %s", i, processKey(&e), k)
		}
	}
	for i, f := range other {
		e := base
		f(&e)
		if processKey(&e) == k {
			t.Errorf("other %d: the same key %s", i, k)
		}
	}
}

func TestSetupNeedsExternal(t *testing.T) {
	t.Parallel()
	r := Runner{Entrants: []Entrant{
		{Engine: Engine{Name: "a"}, New: newFirstLegal, Setup: []string{"param W 1"}},
		{Engine: Engine{Name: "b"}, New: newFirstLegal},
	}}
	if _, err := r.Run(context.Background(), HeadToHead(0, 1, 1)); err == nil || !strings.Contains(err.Error(), `entrant 0 ("a") has setup lines`) {
		t.Errorf("error %v", err)
	}
}
