package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHoursBadInputExit2: -hours that is not a positive number, given
// with a step budget flag (or with budget in the config and -steps), with
// -seeds, with -listen or with -resume, or too short for one step and the
// ladder, exits 2 with one line naming the flag (and the config's key and
// line), before anything is written.
func TestHoursBadInputExit2(t *testing.T) {
	cfg := writeConfig(t, "ga", 3)
	budgeted := filepath.Join(t.TempDir(), "budgeted.toml")
	data, _ := os.ReadFile(cfg)
	if err := os.WriteFile(budgeted, append([]byte("budget = \"2h\"\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-config", cfg, "-hours", "0"}, `tune: flag -hours: must be a positive number of hours (e.g. 8 or 0.5), not "0"`},
		{[]string{"-config", cfg, "-hours", "-2"}, `tune: flag -hours: must be a positive number of hours (e.g. 8 or 0.5), not "-2"`},
		{[]string{"-config", cfg, "-hours", "eight"}, `tune: flag -hours: must be a positive number of hours (e.g. 8 or 0.5), not "eight"`},
		{[]string{"-config", cfg, "-hours", "2", "-steps", "5"}, "tune: flag -steps: cannot be combined with flag -hours: the budget sizes ga.generations by the clock; give one or the other"},
		{[]string{"-config", cfg, "-generations", "5", "-hours", "2"}, "tune: flag -generations: cannot be combined with flag -hours"},
		{[]string{"-config", budgeted, "-steps", "5"}, `tune: flag -steps: cannot be combined with budget = "2h" (` + budgeted + `:1)`},
		{[]string{"-config", cfg, "-hours", "2", "-seeds", "1,2"}, "cannot be combined with -seeds"},
		{[]string{"-config", cfg, "-hours", "2", "-listen", "127.0.0.1:0"}, "cannot be combined with a cluster (-listen, -nats)"},
		{[]string{"-resume", t.TempDir(), "-hours", "2"}, "tune: flag -hours: cannot be given with -resume"},
	} {
		out := filepath.Join(t.TempDir(), "out")
		code, _, stderr := runTune(t, append(tc.args, "-out", out, "-quiet")...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("tune %v: exit %d, %q, want exit 2 and %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("tune %v wrote %s", tc.args, out)
		}
	}
	// Too short: calibrated, then refused with the least measured.
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, stderr := runTune(t, "-config", cfg, "-hours", "0.000001", "-out", out, "-quiet")
	if code != 2 || !strings.HasPrefix(stderr, "tune: flag -hours: 1e-06 is too short: one generation and the ladder take at least ") ||
		!strings.Contains(stderr, " on this machine (the calibration's ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("-hours 0.000001: exit %d, %q %q", code, stderr, stdout)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a budget too short wrote %s", out)
	}
}
