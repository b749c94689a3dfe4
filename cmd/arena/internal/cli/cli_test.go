package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/internal/fixture/cmdlinetest"
	"github.com/roadtune/roadtune/tournament"
)

var (
	zhou = filepath.Join("..", "..", "..", "..", "configs", "weights", "zhou2015.json")
	dual = filepath.Join("..", "..", "..", "..", "configs", "weights", "qi2018-dual.json")
	tbl  = filepath.Join("..", "..", "..", "..", "configs", "weights", "qi2018-table3-1.json")
)

func TestMainEndToEnd(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"-pairs", "1", "-depth", "1", "-out", out, zhou, dual, "-concurrency", "2"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "zhou2015") || !strings.Contains(stdout.String(), "qi2018-dual") {
		t.Errorf("table:\n%s", stdout.String())
	}
	// How the games ended, in words (it read "end of games: six 2").
	if !regexp.MustCompile(`\nhow the games ended: \d+ (by|on|at) [a-z ]+`).MatchString(stdout.String()) || strings.Contains(stdout.String(), "six 2") {
		t.Errorf("the table's last line does not say in words how the games ended:\n%s", stdout.String())
	}
	var sum tournament.Summary
	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Games != 2 || len(sum.Matchups) != 1 || sum.Matchups[0].N != 2 || sum.Matchups[0].Pairs != 1 || sum.Schedule != "head-to-head" {
		t.Errorf("summary %+v", sum)
	}
	checkPlan(t, out, sum, 2)
	log, _ := os.ReadFile(filepath.Join(out, "games.jsonl"))
	if n := strings.Count(string(log), "\n"); n != 2 {
		t.Errorf("games.jsonl has %d lines", n)
	}
	sgfs, _ := filepath.Glob(filepath.Join(out, "sgf", "*.sgf"))
	if len(sgfs) != 2 {
		t.Errorf("%d SGF files", len(sgfs))
	}
	for _, f := range []string{"winrate.png", "winrate.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() < 100 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// A second run into the same directory is refused and changes nothing.
	stdout.Reset()
	stderr.Reset()
	if code := Main(context.Background(), []string{"-pairs", "1", "-depth", "1", "-out", out, zhou, dual}, &stdout, &stderr); code != 2 {
		t.Errorf("non-empty -out: exit %d", code)
	}
	again, _ := os.ReadFile(filepath.Join(out, "summary.json"))
	if !bytes.Equal(again, data) {
		t.Error("summary.json changed by the refused run")
	}
}

func TestMainJSONRoundRobin(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"-json", "-pairs", "1", "-depth", "1", "-maxmoves", "30", "-random-openings", "4", "-seed", "9", zhou, dual, tbl}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var sum tournament.Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("stdout is not the JSON summary: %v\n%s", err, stdout.String())
	}
	if sum.Schedule != "round-robin" || sum.Games != 6 || len(sum.Matchups) != 3 || len(sum.Standings) != 3 {
		t.Errorf("summary %+v", sum)
	}
	var points float64
	for _, s := range sum.Standings {
		points += s.Points
	}
	if points != 6 {
		t.Errorf("standings hold %g points for 6 games", points)
	}
}

// TestMainBaselineNames: a WEIGHTS argument may be an embedded baseline's
// name; the player's source records what was given.
func TestMainBaselineNames(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"-json", "-pairs", "2", "-depth", "1", "-width", "4", "zhou2015", "qi2018-table3-1", tbl}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var sum tournament.Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatalf("stdout is not the JSON summary: %v\n%s", err, stdout.String())
	}
	want := []tournament.PlayerInfo{
		{Name: "zhou2015", Kind: "weights", Source: "zhou2015", Settings: "depth 1, width 4"},
		{Name: "qi2018-table3-1", Kind: "weights", Source: "qi2018-table3-1", Settings: "depth 1, width 4"},
		{Name: "qi2018-table3-1#2", Kind: "weights", Source: tbl, Settings: "depth 1, width 4"},
	}
	if !reflect.DeepEqual(sum.Players, want) {
		t.Errorf("players %+v, want %+v", sum.Players, want)
	}
	if sum.Games != 12 || len(sum.Matchups) != 3 {
		t.Errorf("summary %+v", sum)
	}
	for _, m := range sum.Matchups {
		if m.N != 4 || m.Pairs != 2 {
			t.Errorf("matchup %s vs %s: %d games, %d pairs; want 4 and 2", m.A, m.B, m.N, m.Pairs)
		}
	}
	// The baseline by name and by path are the same deterministic player:
	// each game pair replays one game with colours swapped, one point each.
	if m := sum.Matchups[2]; m.A != "qi2018-table3-1" || m.B != "qi2018-table3-1#2" || m.Pentanomial != [5]int{0, 0, 2, 0, 0} {
		t.Errorf("name vs path: %+v", m)
	}
}

// TestHandWrittenWeights: a weight file of a schema and its values alone
// (no name, no provenance) plays, named after its file.
func TestHandWrittenWeights(t *testing.T) {
	var stdout, stderr bytes.Buffer
	hand := cmdlinetest.HandWeights(t, t.TempDir())
	code := Main(context.Background(), []string{"-json", "-pairs", "1", "-depth", "1", "-width", "4", hand, "zhou2015"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var sum tournament.Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil || len(sum.Players) != 2 || sum.Players[0].Name != "hand" || sum.Games != 2 {
		t.Errorf("summary %+v (%v): want hand.json as the player \"hand\" and 2 games", sum, err)
	}
}

func TestMainUsageErrors(t *testing.T) {
	dir := t.TempDir()
	badWeights := filepath.Join(dir, "bad.json")
	os.WriteFile(badWeights, []byte(`{"name":"x","schema":"symmetric","values":[1,2],"provenance":{"tool":"t"}}`), 0o644)
	badOpenings := filepath.Join(dir, "openings.txt")
	os.WriteFile(badOpenings, []byte("JJ KJJK\n\nJJ JJKK\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-bogus", zhou, dual}, "-bogus"},
		{[]string{"-pairs", "0", zhou, dual}, "flag -pairs: must be at least 1, not 0"},
		{[]string{"-pairs", "x", zhou, dual}, "-pairs"},
		{[]string{zhou}, "at least two players"},
		{[]string{zhou, badWeights}, "bad.json"},
		{[]string{zhou, filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"zhou2015", "zhou2016"}, `"zhou2016": not a baseline and not a readable file (did you mean "zhou2015"?): open zhou2016: no such file or directory; the baselines are chen2010-ga15, `},
		{[]string{"-sprt", "5", zhou, dual}, "-sprt"},
		{[]string{"-sprt", "0,5", zhou, dual, tbl}, "two players"},
		{[]string{"-openings", badOpenings, zhou, dual}, "openings.txt:3"},
		{[]string{"-openings", badOpenings, "-random-openings", "3", zhou, dual}, "exclude"},
		{[]string{"-random-openings", "100000", zhou, dual}, "more than the generated openings"},
		{[]string{"-engine", "fake 'x", zhou}, "quote"},
		{[]string{"-movetime", "0s", zhou, dual}, "-movetime"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), c.args, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"-h"}, &out, &errb); code != 0 {
		t.Fatalf("-h: exit %d, want 0; stderr %q", code, errb.String())
	}
	if strings.Contains(errb.String(), "help requested") || !strings.Contains(errb.String(), "usage: arena") {
		t.Fatalf("-h printed %q", errb.String())
	}
}

func TestWarnsWhenOpeningsRepeat(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "two.txt")
	if err := os.WriteFile(file, []byte("JJ KJJK\nJJ KKLL\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	zhou := filepath.Join("..", "..", "..", "..", "configs", "weights", "zhou2015.json")
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"-pairs", "3", "-depth", "1", "-width", "4", "-openings", file, zhou, zhou}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "2 openings for 3 game pairs: openings repeat") {
		t.Fatalf("no repeat warning: %q", errb.String())
	}
}

// TestDefaultSuiteIsTheLadders: without -openings a match plays the
// balanced suite shuffled by -seed, named as the tuning job's ladder names
// it; a match saved before that default resumes on the generated suite it
// started with.
func TestDefaultSuiteIsTheLadders(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"-json", "-pairs", "1", "-depth", "1", "-width", "4", "-seed", "7", "zhou2015", "chen2010-pso15"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var sum tournament.Summary
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	if want := "suite balanced, shuffled by seed 7 (375 openings)"; sum.Openings != want {
		t.Errorf("openings %q, want %q", sum.Openings, want)
	}

	dir := t.TempDir()
	old := `{"args": ["-pairs", "1", "zhou2015", "zhou2015"]}`
	if err := os.WriteFile(filepath.Join(dir, commandFile), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	args, err := readCommand(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(args, " "); got != "-pairs 1 zhou2015 zhou2015 -openings generated" {
		t.Errorf("a version-0 match resumes with %q", got)
	}
	for _, saved := range []string{
		`{"args": ["-openings=empty", "zhou2015", "zhou2015"]}`,
		`{"args": ["-pairs", "1", "zhou2015", "zhou2015"], "version": 1}`,
	} {
		os.WriteFile(filepath.Join(dir, commandFile), []byte(saved), 0o644)
		args, err := readCommand(dir)
		if err != nil || slices.Contains(args, "generated") {
			t.Errorf("%s resumes with %q, %v: want its own arguments", saved, args, err)
		}
	}
}

// TestMainSPRTChart: a match with -sprt writes its SPRT chart,
// plots/llr.png and .svg, whose last point is the summary's LLR; a match
// without -sprt writes none (TestMainEndToEnd's has no plots/).
func TestMainSPRTChart(t *testing.T) {
	out := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), []string{"-pairs", "3", "-depth", "1", "-sprt", "0,20", "-out", out, zhou, dual}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "plots/llr.png, plots/llr.svg") {
		t.Errorf("the Wrote line names no LLR chart:\n%s", stdout.String())
	}
	for _, f := range []string{"llr.png", "llr.svg"} {
		if st, err := os.Stat(filepath.Join(out, "plots", f)); err != nil || st.Size() < 100 {
			t.Errorf("plots/%s: %v", f, err)
		}
	}
	var sum tournament.Summary
	data, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sum); err != nil || sum.SPRT == nil {
		t.Fatalf("summary.json: %v, SPRT %v", err, sum.SPRT)
	}
	checkPlan(t, out, sum, 6)
	games, err := tournament.ReadGameLog(filepath.Join(out, "games.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	xs, ys, err := tournament.LLRHistory(games, sum.SPRT.Test())
	if err != nil || len(xs) != sum.SPRT.Pairs || math.Abs(ys[len(ys)-1]-sum.SPRT.LLR) > 1e-9 {
		t.Errorf("replayed LLR %v over %v games (%v), summary: LLR %g after %d pairs", ys, xs, err, sum.SPRT.LLR, sum.SPRT.Pairs)
	}
}
