package tune

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/internal/fixture/resumetest"
	"github.com/roadtune/roadtune/internal/tunetest"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/budget"
	"github.com/roadtune/roadtune/tune/ladder"
)

// budgeted is the tiny config of method with a budget.
func budgeted(t *testing.T, method, budget string) Config {
	t.Helper()
	c, err := Parse(method+".toml", []byte("budget = \""+budget+"\"\n"+tunetest.Tiny(method)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// clockOptions are a budgeted run's options on the fake clock.
func clockOptions(clock *resumetest.Clock, ref optimize.Referee, log *bytes.Buffer) Options {
	o := Options{Referee: ref, Clock: clock.Now, Events: Events{Games: clock.Games}}
	if log != nil {
		o.Log = log
	}
	return o
}

// TestBudgetEndsWithinIt: a budgeted run on a synthetic referee whose
// clock moves a fixed time per game (fitness, calibration and ladder
// games alike) sizes its steps to end within the budget, uses most of
// it, writes the steps and no budget into config.toml, the budget into
// the checkpoint, and ends within it (+5%), for a method with a fixed
// cost per step (GA), a single-vector one (SPSA) and Texel.
func TestBudgetEndsWithinIt(t *testing.T) {
	for _, method := range []string{"ga", "spsa", "texel"} {
		t.Run(method, func(t *testing.T) {
			const budget = 10 * time.Minute
			clock := resumetest.NewClock(time.Second)
			t0 := clock.Now()
			cfg := budgeted(t, method, budget.String())
			var log bytes.Buffer
			dir := filepath.Join(t.TempDir(), "run")
			j, err := Start(cfg, dir, clockOptions(clock, resumetest.NewClockReferee(clock), &log))
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			used := clock.Now().Sub(t0)
			t.Logf("%d %ss in %v of the %v budget", j.Status().Steps, j.spec.Unit, used, budget)
			if used > budget*105/100 || used < budget*80/100 {
				t.Errorf("the run took %v of its %v budget on the clock:\n%s", used, budget, log.String())
			}
			bs := resumetest.ReadBudget(t, dir)
			if math.Abs(bs.Elapsed-used.Seconds()) > 1 || bs.StoppedAt != nil || bs.Steps != j.Status().Steps || bs.Steps < 5 {
				t.Errorf("checkpoint budget %+v after %v on the clock, %d steps", bs, used, j.Status().Steps)
			}
			data, _ := os.ReadFile(filepath.Join(dir, FileConfig))
			if strings.Contains(string(data), "\nbudget") {
				t.Errorf("config.toml holds a budget:\n%s", data)
			}
			again, err := Parse("config.toml", data)
			if err != nil || again.Steps() != bs.Steps {
				t.Errorf("config.toml's steps %d, the budget resolved %d: %v", again.Steps(), bs.Steps, err)
			}
			for _, s := range []string{"budget 10m0s: calibrated in", "planned to end", "by the clock: "} {
				if !strings.Contains(log.String(), s) {
					t.Errorf("the log lacks %q:\n%s", s, log.String())
				}
			}
			rep, _ := os.ReadFile(filepath.Join(dir, FileReport))
			if !strings.Contains(string(rep), "| budget ") {
				t.Errorf("report.md has no budget row")
			}
		})
	}
}

// TestBudgetStoppedAndResumed: a budgeted run stopped in the middle of a
// step resumes with the budget left (its first line says so), keeps its
// resolved steps, and ends within the budget (+5%) counting the time of
// the step the stop lost.
func TestBudgetStoppedAndResumed(t *testing.T) {
	const budget = 10 * time.Minute
	clock := resumetest.NewClock(time.Second)
	t0 := clock.Now()
	cfg := budgeted(t, "ga", budget.String())
	ref := resumetest.NewClockReferee(clock)
	dir := filepath.Join(t.TempDir(), "run")
	ctx, cancel := context.WithCancel(context.Background())
	ref.StopAt, ref.Stop = 200, cancel
	j, err := Start(cfg, dir, clockOptions(clock, ref, nil))
	if err != nil {
		t.Fatal(err)
	}
	var ie *InterruptedError
	if err := j.Run(ctx); !errors.As(err, &ie) {
		t.Fatalf("the stopped run: %v", err)
	}
	steps := resumetest.ReadBudget(t, dir).Steps
	config, _ := os.ReadFile(filepath.Join(dir, FileConfig))
	clock.Play(3600) // an hour between the stop and the resume: not the run's
	t1 := clock.Now()
	var log bytes.Buffer
	j, err = Resume(dir, clockOptions(clock, ref, &log))
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(log.String(), "\n")
	if !strings.HasPrefix(first, "roadtune tune: resuming with ") || !strings.Contains(first, " of the 10m0s budget left; ") {
		t.Errorf("the resumed run's first line: %q", first)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	used := clock.Now().Sub(t1) + t1.Sub(t0) - time.Hour
	t.Logf("stopped after %d fitness games, resumed: %v of the %v budget; %s", ref.StopAt, used, budget, first)
	if used > budget*105/100 {
		t.Errorf("the stopped and resumed run took %v of its %v budget:\n%s", used, budget, log.String())
	}
	bs := resumetest.ReadBudget(t, dir)
	if after, _ := os.ReadFile(filepath.Join(dir, FileConfig)); bs.Steps != steps || !bytes.Equal(after, config) {
		t.Errorf("the resumed run's steps %d, resolved at the start %d (config.toml changed: %v)", bs.Steps, steps, !bytes.Equal(after, config))
	}
}

// TestBudgetSafetyValve: a run calibrated at one second a game whose games
// then take two (a machine loaded after the start) is stopped by the
// clock, says so in its log, checkpoint and report, verifies its vector,
// and still ends within its budget (+5%); resumed, it does not go on.
func TestBudgetSafetyValve(t *testing.T) {
	const limit = 10 * time.Minute
	clock := resumetest.NewClock(time.Second)
	t0 := clock.Now()
	cfg := budgeted(t, "ga", limit.String())
	var log bytes.Buffer
	dir := filepath.Join(t.TempDir(), "run")
	j, err := Start(cfg, dir, clockOptions(clock, resumetest.NewClockReferee(clock), &log))
	if err != nil {
		t.Fatal(err)
	}
	clock.SetPerGame(2 * time.Second)
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	used := clock.Now().Sub(t0)
	if used > limit*105/100 {
		t.Errorf("the run took %v of its %v budget:\n%s", used, limit, log.String())
	}
	bs := resumetest.ReadBudget(t, dir)
	if bs.StoppedAt != nil {
		t.Logf("%s, in %v of the %v budget", budget.StopLine("generation", *bs.StoppedAt, bs.Steps, ""), used, limit)
	}
	if bs.StoppedAt == nil || *bs.StoppedAt != j.Status().Steps || *bs.StoppedAt >= bs.Steps {
		t.Fatalf("not stopped by the clock: %+v, %d steps", bs, j.Status().Steps)
	}
	line := budget.StopLine("generation", *bs.StoppedAt, bs.Steps, "")
	rep, _ := os.ReadFile(filepath.Join(dir, FileReport))
	if !strings.Contains(log.String(), line) || !strings.Contains(string(rep), line) {
		t.Errorf("log or report lacks %q:\n%s", line, log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, ladder.File)); err != nil {
		t.Errorf("a run stopped by the clock is verified: %v", err)
	}
	j, err = Resume(dir, Options{Clock: clock.Now})
	if err != nil || !j.Done() || j.optimizing() {
		t.Fatalf("resumed: done %v, %v", j.Done(), err)
	}
}

// TestBudgetBadInput: a budget that is not a duration, not a string, not
// positive, given with a step budget flag, or too short for one step and
// the ladder is an error naming the file and line (or the flag), and
// nothing is written.
func TestBudgetBadInput(t *testing.T) {
	for _, tc := range []struct {
		doc  string
		over []Override
		want string
	}{
		{doc: "budget = 8\n", want: `cfg.toml:1: key "budget": must be a duration in quotes`},
		{doc: "budget = \"8 hours\"\n", want: `cfg.toml:1: key "budget": must be a duration in quotes such as "8h", "90m" or "2h30m", not "8 hours"`},
		{doc: "name = \"x\"\nbudget = \"-1h\"\n", want: `cfg.toml:2: key "budget": must be more than 0, not "-1h"`},
		{doc: "budget = \"0s\"\n", want: `must be more than 0`},
		{doc: "budget = \"2h\"\n", over: []Override{{Key: "@budget", Value: "3", Source: "flag -steps"}},
			want: `flag -steps: cannot be combined with budget = "2h" (cfg.toml:1): the budget sizes ga.generations by the clock`},
		{over: []Override{{Key: "@budget", Value: "3", Source: "flag -generations", Unit: "generation"}, mustHours(t, "2")},
			want: `flag -generations: cannot be combined with flag -hours`},
	} {
		_, err := Parse("cfg.toml", []byte(tc.doc+tunetest.Tiny("ga")), tc.over...)
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q %v: %v, want %q", tc.doc, tc.over, err, tc.want)
		}
	}
	// Too short, from the file and from the flag: the least measured,
	// nothing written.
	for _, tc := range []struct {
		over []Override
		want string
	}{
		{want: `cfg.toml:1: key "budget": "30s" is too short: one generation and the ladder take at least `},
		{over: []Override{mustHours(t, "0.001")}, want: "flag -hours: 0.001 is too short: one generation and the ladder take at least "},
	} {
		cfg, err := Parse("cfg.toml", []byte("budget = \"30s\"\n"+tunetest.Tiny("ga")), tc.over...)
		if err != nil {
			t.Fatal(err)
		}
		clock := resumetest.NewClock(time.Second)
		dir := filepath.Join(t.TempDir(), "run")
		_, err = Start(cfg, dir, clockOptions(clock, resumetest.NewClockReferee(clock), nil))
		var ce *ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), " on this machine (the calibration's ") || !strings.HasSuffix(err.Error(), "s included)") {
			t.Errorf("too short: %v, want %q", err, tc.want)
		}
		if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("a refused budget wrote %s", dir)
		}
	}
	// A cluster is refused (a sweep is refused by launch.Sweep).
	cfg := budgeted(t, "ga", "1h")
	var ie *InputError
	if _, err := Start(cfg, filepath.Join(t.TempDir(), "run"), Options{Remote: remoteStub{}}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "cluster") {
		t.Errorf("a budgeted run on a cluster: %v", err)
	}
}

// mustHours is -hours h's override, as the tune command makes it.
func mustHours(t *testing.T, h string) Override {
	return Override{Key: "budget", Value: resumetest.Hours(t, h), Source: "flag -hours"}
}

// remoteStub stands for a cluster's games (Options.Remote).
type remoteStub struct{}

func (remoteStub) PlayGames(context.Context, tournament.GameSet, []tournament.ScheduledGame) ([]tournament.GameRecord, error) {
	return nil, errors.New("no cluster here")
}
