package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/param"
)

// fakeExternalTOML tunes two options of the fake engine through setoption
// at "depth 1" (an init string the fake engine ignores), with r_end for both
// and the ladder's opponents given.
func fakeExternalTOML(t *testing.T, rEnd float64, opponents string) string {
	t.Helper()
	bin := fakeenginetest.Build(t)
	toml := strings.Replace(externalTOML(bin, ""), `args = ["-depth", "1", "-movetime", "0"]`,
		`args = ["-options=Width:int:15:1:100,DefendWide:int:60:0:100"]`+"\ninitstr = [\"depth 1\"]", 1)
	toml = strings.ReplaceAll(toml, "c_end = 2\n", fmt.Sprintf("c_end = 2\nr_end = %g\n", rEnd))
	toml = strings.ReplaceAll(toml, "c_end = 10\n", fmt.Sprintf("c_end = 10\nr_end = %g\n", rEnd))
	return strings.Replace(toml, "opponents = []", "opponents = "+opponents+"\npairs = 3", 1)
}

// runLogged runs cfg to the end in a new directory and returns it with
// the job's human lines.
func runLogged(t *testing.T, cfg Config) (string, string) {
	t.Helper()
	var log bytes.Buffer
	dir := filepath.Join(t.TempDir(), "run")
	j, err := Start(cfg, dir, Options{Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir, log.String()
}

// TestExternalIdenticalSkipped: an external run whose tuned values are
// the engine's defaults (steps too small to move an integer option) plays
// no rung against "defaults": the twins' colour-swapped pairs would all
// split and give an interval of zero width. The skip is a note of the
// log and the report; the run's start line and report say what was tuned
// and at which depth, and describe no road weights.
func TestExternalIdenticalSkipped(t *testing.T) {
	cfg, err := Parse("ext.toml", []byte(fakeExternalTOML(t, 1e-6, `["defaults"]`)))
	if err != nil {
		t.Fatal(err)
	}
	dir, log := runLogged(t, cfg)
	for _, want := range []string{
		"spsa on the options Width and DefendWide of " + cfg.External.Program + " at depth 1 (its init string \"depth 1\"), seed 7",
		`verification: "defaults" was skipped: identical settings: nothing to verify (the tuned values Width=15 DefendWide=60 are the engine's defaults)`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "verification ladder:") || strings.Contains(log, "± 0") {
		t.Errorf("a ladder was played:\n%s", log)
	}
	report, _ := os.ReadFile(filepath.Join(dir, FileReport))
	for _, want := range []string{"identical settings: nothing to verify", "| tuned ", "the options Width and DefendWide of ",
		"Width in [4, 20] from 15 (c_end 2, r_end 1e-06)", "searching at depth 1 (its init string \"depth 1\")", "No verification ladder was played"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.md lacks %q:\n%s", want, report)
		}
	}
	for _, not := range []string{"schema", "initial genes", "road weights", "Verify with"} {
		if strings.Contains(string(report), not) {
			t.Errorf("report.md of an external run says %q:\n%s", not, report)
		}
	}
}

// TestExternalAllPairsSplit: the fake engine plays the same moves whatever
// its values, so the tuned engine against another copy of it (an engine
// given by its option list, which roadtune cannot compare) splits every
// pair 1–1. The rung is played and says there is no interval and why,
// never "± 0"; the ladder's line names the options and the engine's depth.
func TestExternalAllPairsSplit(t *testing.T) {
	bin := fakeenginetest.Build(t)
	rival := fmt.Sprintf(`["name=rival cmd=%s arg=-options=Width:int:15:1:100"]`, bin)
	cfg, err := Parse("ext.toml", []byte(fakeExternalTOML(t, 1e-6, rival)))
	if err != nil {
		t.Fatal(err)
	}
	dir, log := runLogged(t, cfg)
	var rungs []ladder.Rung
	data, _ := os.ReadFile(filepath.Join(dir, ladder.File))
	if json.Unmarshal(data, &rungs) != nil || len(rungs) != 1 {
		t.Fatalf("ladder %s\n%s", data, log)
	}
	m := rungs[0].Match()
	if m.Pentanomial != [5]int{0, 0, 3, 0, 0} {
		t.Fatalf("the fake engine's pairs: %v (it should play the same moves whatever its values)", m.Pentanomial)
	}
	for _, want := range []string{
		"verification ladder: tuned (the options Width and DefendWide of " + cfg.External.Program + ") vs rival, the external engine at depth 1 (its init string \"depth 1\"), 3 game pairs a rung",
		"verification: vs rival at depth 1 (its init string \"depth 1\"): 6 games W/D/L 3/0/3, score 50.0%, Elo +0.0, no interval: all 3 game pairs split 1–1",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %q:\n%s", want, log)
		}
	}
	report, _ := os.ReadFile(filepath.Join(dir, FileReport))
	for _, text := range []string{log, string(report)} {
		if strings.Contains(text, "± 0.0") || strings.Contains(text, "±\u00a00.0") || strings.Contains(text, "± 0 ") {
			t.Errorf("a zero-width interval is printed:\n%s", text)
		}
	}
	if !strings.Contains(string(report), "rival: inconclusive at own search (+0 Elo, 6 games, no interval: all 3 game pairs split 1–1)") {
		t.Errorf("report.md's verdict detail:\n%s", report)
	}
}

// TestExternalSearch: the depth an external engine searches at, as its
// arguments or init strings set it, or the engine's own.
func TestExternalSearch(t *testing.T) {
	for _, tc := range []struct {
		args, init []string
		want       string
	}{
		{[]string{"-depth", "2", "-movetime", "0"}, nil, "depth 2 (its argument -depth 2)"},
		{[]string{"--depth=4"}, nil, "depth 4 (its argument --depth=4)"},
		{nil, []string{"depth 3"}, `depth 3 (its init string "depth 3")`},
		{[]string{"-depth", "x"}, []string{"time 5"}, "the engine's own search"},
		{[]string{"depth", "2"}, nil, "the engine's own search"},
		{nil, nil, "the engine's own search"},
	} {
		var x param.External
		x.Args, x.InitStrings = tc.args, tc.init
		if got := x.Search(); got != tc.want {
			t.Errorf("%q %q: %q, want %q", tc.args, tc.init, got, tc.want)
		}
	}
}
