package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/launch"
)

// TestLaunchCommandLine: the command line's values resolve to a launch
// (the key flags override the config; -resume takes only -concurrency and
// the free flags), and bad input is a *InputError or *ConfigError naming
// the flag or file.
func TestLaunchCommandLine(t *testing.T) {
	now := time.Date(2026, 11, 25, 8, 30, 0, 0, time.UTC)
	// newLaunch is the new launch of the values (the test's shorthand).
	newLaunch := func(path string, keys map[string]string, out, seeds string, now time.Time) (*launch.Launch, error) {
		l, _, err := launchCommandLine(commandLine{Config: path, Keys: keys, Out: out, Seeds: seeds}, now)
		return l, err
	}
	l, err := newLaunch("", map[string]string{"method": "spsa", "depth": "3"}, "", "", now)
	if err != nil || l.Config().Method != "spsa" || l.Config().Engine.Depth != 3 || l.Dir != filepath.Join("runs", "20261125-083000-spsa") {
		t.Fatalf("newLaunch: %+v, %v", l, err)
	}
	l, err = newLaunch("", nil, "out", "4, 2", now)
	if err != nil || l.Kind != launch.KindSweep || l.Dir != "out" {
		t.Fatalf("newLaunch with -seeds: %+v, %v", l, err)
	}
	var ie *tune.InputError
	var ce *tune.ConfigError
	if _, err := newLaunch("", map[string]string{"seed": "3"}, "", "1,2", now); !errors.As(err, &ie) || !strings.Contains(err.Error(), "-seed and -seeds") {
		t.Errorf("-seed with -seeds: %v", err)
	}
	if _, err := newLaunch(filepath.Join(t.TempDir(), "none.toml"), nil, "", "", now); !errors.As(err, &ie) {
		t.Errorf("missing config: %v", err)
	}
	if _, err := newLaunch("", map[string]string{"depth": "0"}, "", "", now); !errors.As(err, &ce) || !strings.Contains(err.Error(), "-depth") {
		t.Errorf("bad -depth: %v", err)
	}
	if _, err := newLaunch("", nil, "", "1,1", now); !errors.As(err, &ie) || !strings.Contains(err.Error(), "seed 1 is listed twice") {
		t.Errorf("repeated seed: %v", err)
	}

	dir := t.TempDir()
	l, conc, err := launchCommandLine(commandLine{Resume: dir, Keys: map[string]string{"concurrency": "3"},
		Given: []string{"resume", "concurrency", "quiet"}, Free: []string{"quiet", "http"}}, now)
	if err != nil || !l.Resume || l.Dir != dir || conc == nil || *conc != 3 {
		t.Fatalf("-resume -concurrency 3 -quiet: %+v, %v, %v", l, conc, err)
	}
	if _, _, err := launchCommandLine(commandLine{Resume: dir, Keys: map[string]string{"depth": "3"},
		Given: []string{"resume", "depth"}, Free: []string{"quiet", "http"}}, now); !errors.As(err, &ie) ||
		!strings.Contains(err.Error(), "-depth") || !strings.Contains(err.Error(), "only -concurrency, -quiet, -http may change") {
		t.Errorf("-resume -depth: %v", err)
	}
	if _, _, err := launchCommandLine(commandLine{Resume: filepath.Join(dir, "none"), Given: []string{"resume"}}, now); !errors.As(err, &ie) || !strings.Contains(err.Error(), "-resume") {
		t.Errorf("-resume of no directory: %v", err)
	}
	for _, bad := range []string{"x", "-1"} {
		if _, _, err := launchCommandLine(commandLine{Keys: map[string]string{"concurrency": bad}}, now); !errors.As(err, &ie) || !strings.Contains(err.Error(), "-concurrency") {
			t.Errorf("-concurrency %s: %v", bad, err)
		}
	}
}

// TestHoursOverride: -hours takes a positive number of hours, as a
// budget the config reads as a duration; anything else is refused naming
// the flag.
func TestHoursOverride(t *testing.T) {
	for _, h := range []string{"0", "-1", "x", "", "NaN", "Inf", "1e9"} {
		if _, err := hoursOverride(h); err == nil || !strings.Contains(err.Error(), "flag -hours: must be a positive number of hours") {
			t.Errorf("-hours %q: %v", h, err)
		}
	}
	if o, err := hoursOverride("2.5"); err != nil || o.Value != `"2h30m0s"` {
		t.Errorf("-hours 2.5: %+v %v", o, err)
	}
}
