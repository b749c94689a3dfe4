package tune

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/resumetest"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tune/ladder"
)

func TestParseValidationKeys(t *testing.T) {
	cases := []struct {
		name, doc string
		opponents []string
		depths    []int
		eloEvery  int
		eloPairs  int
	}{
		{"defaults", "", []string{"zhou2015", Halfway}, []int{}, 0, 20},
		{"lists", "[validation]\nopponents = [\"chen2010-ga30\", \"halfway\", \"zhou2015\"]\ndepths = [3, 1]\nelo_every = 4\nelo_pairs = 6\n",
			[]string{"chen2010-ga30", Halfway, "zhou2015"}, []int{3, 1}, 4, 6},
		{"older opponent", "[validation]\nopponent = \"qi2018-dual\"\n", []string{"qi2018-dual"}, []int{}, 0, 20},
		{"older empty opponent", "[validation]\nopponent = \"\"\n", []string{}, []int{}, 0, 20},
		{"older depth", "[validation]\ndepth = 3\n", []string{"zhou2015", Halfway}, []int{3}, 0, 20},
		{"no ladder", "[validation]\nopponents = []\n", []string{}, []int{}, 0, 20},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse("cfg.toml", []byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			v := c.Validation
			if !reflect.DeepEqual(v.Opponents, tc.opponents) || !reflect.DeepEqual(v.Depths, tc.depths) ||
				v.EloEvery != tc.eloEvery || v.EloPairs != tc.eloPairs || v.Opponent != "" || v.Depth != 0 {
				t.Fatalf("got %+v", v)
			}
			// The resolved config reads back the same, in the new keys only.
			data, err := c.Encode()
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(data, []byte("\nopponent =")) || bytes.Contains(data, []byte("\ndepth = 0")) {
				t.Fatalf("the older keys are encoded:\n%s", data)
			}
			back, err := Parse("config.toml", data)
			if err != nil || !reflect.DeepEqual(back.Validation, v) {
				t.Fatalf("read back %+v, %v", back.Validation, err)
			}
		})
	}
	c, _ := Parse("cfg.toml", []byte("[engine]\ndepth = 3\n[validation]\ndepths = [0, 5]\n"))
	if d, w := c.ladderDepths(); !reflect.DeepEqual(d, []int{3, 5}) || w != 10 {
		t.Fatalf("depths [0, 5] at engine depth 3: %v, width %d", d, w)
	}
	c, _ = Parse("cfg.toml", []byte("[engine]\ndepth = 4\nwidth = 7\n"))
	if d, w := c.ladderDepths(); !reflect.DeepEqual(d, []int{4, 5}) || w != 7 {
		t.Fatalf("default depths at engine depth 4: %v, width %d", d, w)
	}
	// A flag may set the older key: it replaces the list.
	c, err := Parse("cfg.toml", []byte("[validation]\nopponents = [\"zhou2015\", \"halfway\"]\n"),
		Override{Key: "validation.opponent", Value: `"chen2010-pso15"`, Source: "flag -x"})
	if err != nil || !reflect.DeepEqual(c.Validation.Opponents, []string{"chen2010-pso15"}) {
		t.Fatalf("override of the older key: %v %v", c.Validation.Opponents, err)
	}
}

// TestValidateRefusesTheOlderFieldsFromGo: Parse and Set fold the older
// keys in; a program that sets the fields itself is told so.
func TestValidateRefusesTheOlderFieldsFromGo(t *testing.T) {
	// From Go, the older fields are refused by Validate, naming them.
	c := DefaultConfig()
	c.Validation.Opponent = "zhou2015"
	var ce *ConfigError
	if err := c.Validate(); !errors.As(err, &ce) || ce.Key != "validation.opponent" {
		t.Fatalf("Opponent set from Go: %v", err)
	}
}

// tinyWith is the tiny config of the method with keys set (Config.Set).
func tinyWith(t *testing.T, method string, kv ...string) Config {
	t.Helper()
	c := tiny(t, method)
	for i := 0; i+1 < len(kv); i += 2 {
		if err := c.Set(kv[i], kv[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	return c
}

// ladderRun runs a tiny GA of some generations with a ladder of the
// opponents (TOML list items) at the depths; it returns the run directory,
// the log and the games Events.Verify announced.
func ladderRun(t *testing.T, generations int, opponents, depths string) (dir, log string, verify int) {
	t.Helper()
	cfg := tinyWith(t, "ga", "ga.generations", fmt.Sprint(generations),
		"validation.opponents", "["+opponents+"]", "validation.depths", "["+depths+"]")
	dir = filepath.Join(t.TempDir(), "run")
	var buf bytes.Buffer
	j, err := Start(cfg, dir, Options{Log: &buf, Events: Events{Verify: func(g int) { verify += g }}})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir, buf.String(), verify
}

func readLadder(t *testing.T, dir string) []ladder.Rung {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, ladder.File))
	if err != nil {
		t.Fatal(err)
	}
	var rungs []ladder.Rung
	if err := json.Unmarshal(data, &rungs); err != nil {
		t.Fatal(err)
	}
	return rungs
}

func TestLadderEndToEnd(t *testing.T) {
	dir, log, verify := ladderRun(t, 3, `"chen2010-ga30", "halfway"`, "1, 2")
	if verify != 2*2*2*2 {
		t.Fatalf("Events.Verify told of %d games, want the ladder's 16", verify)
	}
	rungs := readLadder(t, dir)
	want := []struct {
		opp   string
		depth int
	}{{"chen2010-ga30", 1}, {"chen2010-ga30", 2}, {Halfway, 1}, {Halfway, 2}}
	if len(rungs) != len(want) {
		t.Fatalf("%d rungs, want %d", len(rungs), len(want))
	}
	for i, w := range want {
		r := rungs[i]
		m := r.Match()
		if r.Opponent != w.opp || r.Depth != w.depth || r.Width != 4 || r.Summary.Depth != w.depth || m.A != "tuned" || m.B != w.opp {
			t.Fatalf("rung %d: %s d%d w%d, %s vs %s; want %s at depth %d", i, r.Opponent, r.Depth, r.Width, m.A, m.B, w.opp, w.depth)
		}
		if m.N != 4 || m.Pairs != 2 || r.Verdict != ladder.Verdict(m.Elo, m.EloCI) {
			t.Fatalf("rung %d: %d games, %d pairs, verdict %q for %+.1f ± %.1f", i, m.N, m.Pairs, r.Verdict, m.Elo, m.EloCI)
		}
		games := filepath.Join(dir, DirGames, fmt.Sprintf("ladder-%s-d%d.jsonl", w.opp, w.depth))
		if data, err := os.ReadFile(games); err != nil || bytes.Count(data, []byte("\n")) != 4 {
			t.Fatalf("%s: %v", games, err)
		}
	}
	// Halfway is the best vector after step ⌊(3−1)/2⌋ = 1.
	r, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if src := rungs[2].Summary.Players[1].Source; !strings.Contains(src, "generation 1 of 3") {
		t.Fatalf("halfway's source %q", src)
	}
	if len(r.Records) != 3 || rungs[0].Summary.Openings == rungs[1].Summary.Openings {
		t.Fatal("every rung should have its own openings")
	}
	// validation.json is the first rung's summary.
	var first tournament.Summary
	data, _ := os.ReadFile(filepath.Join(dir, FileValidation))
	if err := json.Unmarshal(data, &first); err != nil || !reflect.DeepEqual(first, rungs[0].Summary) {
		t.Fatalf("validation.json is not the first rung: %v", err)
	}
	for _, ext := range []string{".png", ".svg"} {
		f, err := os.Open(filepath.Join(dir, DirPlots, "ladder"+ext))
		if err != nil {
			t.Fatal(err)
		}
		if ext == ".png" {
			img, err := png.Decode(f)
			if err != nil || img.Bounds().Dx() < 200 {
				t.Fatalf("ladder.png: %v", err)
			}
		}
		f.Close()
	}
	line := ladder.VerdictLine(rungs)
	report, _ := os.ReadFile(filepath.Join(dir, FileReport))
	for _, s := range []string{line, "pentanomial", "plots/ladder.png", ladder.File} {
		if !strings.Contains(string(report), s) {
			t.Errorf("report.md lacks %q", s)
		}
	}
	for _, row := range [][]string{{"opponent", "depth", "games", "W/D/L"}, {"chen2010-ga30", "2", "4"}, {"halfway", "1", "4"}} {
		if !hasRow(string(report), row) {
			t.Errorf("report.md has no table row starting %q", row)
		}
	}
	if !strings.Contains(log, line+"\n") {
		t.Errorf("the log lacks the verdict line %q:\n%s", line, log)
	}
}

// TestLadderPlaysTheNewBaselinesAndSkipsHalfwayOfOneStep runs one
// generation: the three Chen 2010 vectors play, halfway is skipped with a
// note.
func TestLadderPlaysTheNewBaselinesAndSkipsHalfwayOfOneStep(t *testing.T) {
	dir, log, verify := ladderRun(t, 1, `"chen2010-ga15", "chen2010-ga30", "chen2010-pso15", "halfway"`, "1")
	if verify != 3*2*2 {
		t.Fatalf("Events.Verify told of %d games, want 12", verify)
	}
	rungs := readLadder(t, dir)
	var opps []string
	for _, r := range rungs {
		opps = append(opps, r.Opponent)
		if m := r.Match(); m.N != 4 || m.Games.Wins+m.Games.Draws+m.Games.Losses != 4 {
			t.Fatalf("%s: %+v", r.Opponent, m)
		}
	}
	if !slices.Equal(opps, []string{"chen2010-ga15", "chen2010-ga30", "chen2010-pso15"}) {
		t.Fatalf("rungs against %v", opps)
	}
	report, _ := os.ReadFile(filepath.Join(dir, FileReport))
	for _, out := range []string{log, string(report)} {
		if !strings.Contains(out, `"halfway" was skipped: the run has only 1 generation`) {
			t.Fatalf("no note on the skipped halfway:\n%s", out)
		}
	}
}

func TestEloEveryMeasuresTheExpectedStepsAndResumesIdentically(t *testing.T) {
	t.Parallel() // long and independent (its own directories): uses the second core
	// Every 2 of 5 generations, against zhou2015 (the first opponent that
	// is not halfway).
	cfg := tinyWith(t, "ga", "ga.generations", "5", "validation.opponents", `["halfway", "zhou2015"]`,
		"validation.depths", "[1]", "validation.pairs", "1", "validation.elo_every", "2", "validation.elo_pairs", "2")
	dir, want := runStraight(t, cfg)
	r, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	var measured []int
	for _, rec := range r.Records {
		e, ok := rec.Metrics[MetricElo]
		_, okCI := rec.Metrics[MetricEloCI]
		g, okG := rec.Metrics[MetricEloGames]
		if ok != okCI || ok != okG {
			t.Fatalf("step %d: metrics %v", rec.Step, rec.Metrics)
		}
		if ok {
			measured = append(measured, rec.Step)
			if g != 4 || e < -2000 || e > 2000 {
				t.Fatalf("step %d: elo %v over %v games", rec.Step, e, g)
			}
		}
	}
	// After steps K−1 = 1, 2K−1 = 3, and the last, 4.
	if !slices.Equal(measured, []int{1, 3, 4}) {
		t.Fatalf("Elo measured after steps %v, want [1 3 4]", measured)
	}
	f, err := os.Open(filepath.Join(dir, DirPlots, "elo.png"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	report, _ := os.ReadFile(filepath.Join(dir, FileReport))
	if !strings.Contains(string(report), "plots/elo.png") {
		t.Fatal("report.md lacks the Elo chart")
	}

	// Stopped between steps and at random moments of the fitness games,
	// then resumed: the same records, Elo included.
	total := 0
	for _, rec := range r.Records {
		total += rec.Games
	}
	rng := rand.New(rand.NewPCG(11, 5))
	stopped := 0
	for k := range 3 {
		run := filepath.Join(t.TempDir(), "run")
		j, err := Start(cfg, run, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Steps(context.Background(), 2+k); err != nil {
			t.Fatal(err)
		}
		for stops := 0; ; stops++ {
			ctx, cancel := context.WithCancel(context.Background())
			gc := &resumetest.GameCounter{N: 1 + rng.IntN(total), Cancel: cancel}
			if stops > 4 {
				gc.N = 100 * total
			}
			j, err = Resume(run, Options{Events: Events{Games: gc.Games}})
			if err != nil {
				t.Fatal(err)
			}
			err = j.Run(ctx)
			cancel()
			var ie *InterruptedError
			if err == nil {
				break
			}
			if !errors.As(err, &ie) {
				t.Fatal(err)
			}
			stopped++
		}
		want.Equal(t, resumetest.ReadOutcome(t, run), fmt.Sprintf("resumed run %d", k))
	}
	if stopped == 0 {
		t.Fatal("no run was stopped")
	}
}

// hasRow reports whether a Markdown table in doc has a row whose first
// cells are cells.
func hasRow(doc string, cells []string) bool {
	for _, l := range strings.Split(doc, "\n") {
		parts := strings.Split(strings.Trim(strings.TrimSpace(l), "|"), "|")
		if len(parts) < len(cells) {
			continue
		}
		ok := true
		for i, c := range cells {
			ok = ok && strings.TrimSpace(parts[i]) == c
		}
		if ok {
			return true
		}
	}
	return false
}
