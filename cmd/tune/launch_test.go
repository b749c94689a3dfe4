package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
)

// TestLaunchFlags: the command line's values resolve to a launch (the
// key flags override the config), and bad input is a *tune.InputError or
// *tune.ConfigError naming the flag or file.
func TestLaunchFlags(t *testing.T) {
	now := time.Date(2026, 11, 25, 8, 30, 0, 0, time.UTC)
	l, err := launchFlags("", map[string]string{"method": "spsa", "depth": "3"}, "", "", now)
	if err != nil || l.Config().Method != "spsa" || l.Config().Engine.Depth != 3 || l.Dir != filepath.Join("runs", "20261125-083000-spsa") {
		t.Fatalf("launchFlags: %+v, %v", l, err)
	}
	l, err = launchFlags("", nil, "out", "4, 2", now)
	if err != nil || l.Kind != tune.LaunchSweep || l.Dir != "out" {
		t.Fatalf("launchFlags with -seeds: %+v, %v", l, err)
	}
	var ie *tune.InputError
	var ce *tune.ConfigError
	if _, err := launchFlags("", map[string]string{"seed": "3"}, "", "1,2", now); !errors.As(err, &ie) || !strings.Contains(err.Error(), "-seed and -seeds") {
		t.Errorf("-seed with -seeds: %v", err)
	}
	if _, err := launchFlags(filepath.Join(t.TempDir(), "none.toml"), nil, "", "", now); !errors.As(err, &ie) {
		t.Errorf("missing config: %v", err)
	}
	if _, err := launchFlags("", map[string]string{"depth": "0"}, "", "", now); !errors.As(err, &ce) || !strings.Contains(err.Error(), "-depth") {
		t.Errorf("bad -depth: %v", err)
	}
	if _, err := launchFlags("", nil, "", "1,1", now); !errors.As(err, &ie) || !strings.Contains(err.Error(), "seed 1 is listed twice") {
		t.Errorf("repeated seed: %v", err)
	}
}

// TestParseSeeds: -seeds takes comma-separated non-negative integers;
// anything else is a *tune.InputError naming the flag and the item.
func TestParseSeeds(t *testing.T) {
	var ie *tune.InputError
	for _, s := range []string{"1,x", "-2", "1,,2", ""} {
		if _, err := parseSeeds(s); !errors.As(err, &ie) || !strings.Contains(err.Error(), "-seeds") {
			t.Errorf("parseSeeds(%q): %v", s, err)
		}
	}
	if got, err := parseSeeds("4, 2,9"); err != nil || len(got) != 3 || got[0] != 4 || got[1] != 2 || got[2] != 9 {
		t.Errorf("parseSeeds: %v, %v", got, err)
	}
}

// fakeDisplay records a display's calls as text.
type fakeDisplay struct{ calls []string }

func (d *fakeDisplay) Plan(label string, total int) {
	d.calls = append(d.calls, fmt.Sprintf("plan %s %d", label, total))
}

func (d *fakeDisplay) Games(done, total int) {
	d.calls = append(d.calls, fmt.Sprintf("games %d/%d", done, total))
}

func (d *fakeDisplay) Step(label string, games, left int) {
	d.calls = append(d.calls, fmt.Sprintf("step %s %d %d", label, games, left))
}

// TestDisplayEvents: the bar is labelled with the unit and the steps done
// of the forecast's total, each step restarts it for the games left, and
// the ladder gets a bar of its own.
func TestDisplayEvents(t *testing.T) {
	d := &fakeDisplay{}
	ev := displayEvents(d)
	ev.Plan(tune.Plan{Unit: "generation", Status: optimize.Status{Steps: 2}, Forecast: optimize.Forecast{Steps: 3, Games: 300}})
	ev.Games(10, 100)
	ev.Step(optimize.Record{Games: 100}, optimize.Status{Steps: 3}, optimize.Forecast{Steps: 2, Games: 200})
	ev.Verify(40)
	want := "plan generation 2/5 300; games 10/100; step generation 3/5 100 200; plan verification 40"
	if got := strings.Join(d.calls, "; "); got != want {
		t.Errorf("display calls:\n got %s\nwant %s", got, want)
	}
}

// TestSummary: a chain names its stages, best vector and report (its last
// stage's); a run names its steps, games and best vector only when quiet,
// its progress lines having said the rest.
func TestSummary(t *testing.T) {
	out := &tune.Outcome{Dirs: []string{"c/stage-1", "c/stage-2"}, Status: optimize.Status{Steps: 4, Games: 96}}
	chain := &tune.Launch{Dir: "c", Kind: tune.LaunchChain}
	want := "chain done: 2 stages in c. Best vector: " + filepath.Join("c/stage-2", tune.FileBest) + "\nreport: " + filepath.Join("c/stage-2", tune.FileReport) + "\n"
	if got := summary(chain, out, true); got != want {
		t.Errorf("chain:\n got %q\nwant %q", got, want)
	}
	run := &tune.Launch{Dir: "c/stage-2", Kind: tune.LaunchRun}
	if got, want := summary(run, out, false), "done: 4 steps, 96 games. Best vector: "+filepath.Join("c/stage-2", tune.FileBest)+"\n"; got != want {
		t.Errorf("quiet run:\n got %q\nwant %q", got, want)
	}
	if got := summary(run, out, true); got != "" {
		t.Errorf("verbose run: %q, want nothing", got)
	}
}
