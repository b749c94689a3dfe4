package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/tournament"
)

// openingsArgs is a small, fast build: 6 candidates of radius 1, three
// references at depth 1 (18 pairs, 36 games).
func openingsArgs(extra ...string) []string {
	return append([]string{"openings", "-radius", "1", "-depth", "1", "-width", "4",
		"-ref", "zhou2015", "-ref", tbl, "-random", "1", "-black-lo", "0", "-black-hi", "1", "-max-decided", "1"}, extra...)
}

// openingLines returns the non-comment lines of an opening file.
func openingLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "#") && strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

func TestOpeningsWritesSuite(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "suite.txt")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), openingsArgs("-o", out, "-concurrency", "1"), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	for _, want := range []string{"radius 1, seed 1 (6 openings)", "36 games", "before", "after", "kept 6 of 6 openings (100.0%)", "Wrote " + out} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, stdout.String())
		}
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# command: arena openings -radius 1 -depth 1", "# date: ", "# candidates: generated 3-stone suite, radius 1, seed 1 (6 openings)",
		"#   zhou2015 (zhou2015) symmetric[S1=20", "#   qi2018-table3-1 (", "#   random-1-1 (seed 1) symmetric[",
		"(default settings, depth 1, width 4)", "# kept: colour-decided fraction ≤ 1 and Black score in [0, 1]: 6 of 6 (100.0%)",
		"# Black score: before ", "# colour-decided fraction: before ",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("file lacks %q:\n%s", want, data)
		}
	}
	atConc1 := openingLines(t, out)
	suite, err := tournament.LoadOpenings(out)
	if err != nil || len(suite) != 6 {
		t.Fatalf("the written suite: %d openings, %v", len(suite), err)
	}

	// The same build at concurrency 2 keeps the same openings with the
	// same records; an existing -o is refused (exit 2, file unchanged)
	// unless -force.
	stdout.Reset()
	stderr.Reset()
	if code := Main(context.Background(), openingsArgs("-o", out, "-concurrency", "2"), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), "exists: not replaced without -force") {
		t.Errorf("existing -o: exit %d, %q", code, stderr.String())
	}
	if again, _ := os.ReadFile(out); !bytes.Equal(again, data) {
		t.Error("the refused run changed the file")
	}
	if code := Main(context.Background(), openingsArgs("-o", out, "-concurrency", "2", "-force"), &stdout, &stderr); code != 0 {
		t.Fatalf("-force: exit %d: %s", code, stderr.String())
	}
	if atConc2 := openingLines(t, out); strings.Join(atConc2, "\n") != strings.Join(atConc1, "\n") {
		t.Errorf("concurrency 2 differs from 1:\n%q\n%q", atConc2, atConc1)
	}
}

func TestOpeningsJSONAndFilter(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"openings", "-json", "-radius", "2", "-depth", "1", "-width", "4", "-ref", "zhou2015", "-ref", "qi2018-dual", "-random", "1"}
	if code := Main(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		Candidates, Kept, Games int
		References              []string
		Before, After           tournament.SuiteBias
		Criteria                tournament.BalanceCriteria
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	if rep.Candidates != 44 || rep.Games != 44*6 || rep.Kept < 1 || rep.Kept > 44 || len(rep.References) != 3 ||
		rep.Criteria != tournament.DefaultBalanceCriteria() || rep.After.Openings != rep.Kept {
		t.Errorf("report %+v", rep)
	}
	if rep.After.ColourDecided > 0.5 || rep.After.BlackScore < 0.25 || rep.After.BlackScore > 0.75 {
		t.Errorf("kept suite outside the criteria: %+v", rep.After)
	}
}

func TestOpeningsUsageErrors(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.txt")
	os.WriteFile(existing, []byte("JJ KJJK\n"), 0o644)
	two := filepath.Join(dir, "two.txt")
	os.WriteFile(two, []byte("# two openings\nJJ KJJK\nJJ KKLL\n"), 0o644)
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("JJ KJJK\nJJ JJKK\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-bogus"}, "-bogus"},
		{[]string{"-radius", "0"}, "flag -radius: must be 1..9, not 0"},
		{[]string{"-settings", "fast"}, `flag -settings: must be default or play, not "fast"`},
		{[]string{"-radius", "3", "-candidates", two}, "exclude each other"},
		{[]string{"-depth", "0"}, "flag -depth: must be at least 1, not 0"},
		{[]string{"-width", "0"}, "flag -width: must be at least 1, not 0"},
		{[]string{"-random", "-1"}, "flag -random: must be 0 or more, not -1"},
		{[]string{"-min", "0"}, "flag -min: must be at least 1, not 0"},
		{[]string{"-concurrency", "0"}, "flag -concurrency: must be at least 1, not 0"},
		{[]string{"-max-decided", "1.5"}, "-max-decided 1.5"},
		{[]string{"-black-lo", "0.8", "-black-hi", "0.2"}, "-black-lo 0.8, -black-hi 0.2"},
		{[]string{"-force"}, "flag -force: needs -o"},
		{[]string{"-o", existing}, "exists: not replaced without -force"},
		{[]string{"zhou2015"}, "unexpected argument"},
		{[]string{"-ref", "zhou2015"}, "1 reference players: want at least 2"},
		{[]string{"-ref", "none", "-random", "1"}, "1 reference players: want at least 2"},
		{[]string{"-ref", "none", "-ref", "zhou2015", "-random", "1"}, "-ref none excludes"},
		{[]string{"-ref", "zhou2015", "-ref", zhou}, "the same weights as zhou2015"},
		{[]string{"-ref", "zhou2016", "-ref", "zhou2015"}, "not a baseline"},
		{[]string{"-candidates", bad, "-ref", "zhou2015", "-random", "1"}, "bad.txt:2"},
		{[]string{"-candidates", two, "-min", "3", "-ref", "zhou2015", "-random", "1"}, "2 candidate openings, fewer than -min 3"},
	} {
		var stdout, stderr bytes.Buffer
		code := Main(context.Background(), append([]string{"openings"}, c.args...), &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
	if b, _ := os.ReadFile(existing); string(b) != "JJ KJJK\n" {
		t.Error("a refused run touched the existing file")
	}
}

// TestOpeningsTooFewKept: a suite below -min is a failure (exit 1) that
// prints the report and writes nothing.
func TestOpeningsTooFewKept(t *testing.T) {
	out := filepath.Join(t.TempDir(), "suite.txt")
	var stdout, stderr bytes.Buffer
	args := []string{"openings", "-radius", "1", "-depth", "1", "-width", "4", "-ref", "zhou2015", "-random", "1",
		"-max-decided", "0", "-black-lo", "0.5", "-black-hi", "0.5", "-min", "6", "-o", out}
	code := Main(context.Background(), args, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "fewer than the minimum 6") || !strings.Contains(stdout.String(), "before") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed build wrote its file")
	}
}

func TestOpeningsHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := Main(context.Background(), []string{"openings", "-h"}, &out, &errb); code != 0 || !strings.Contains(errb.String(), "usage: arena openings") {
		t.Fatalf("-h: exit %d, %q", code, errb.String())
	}
}
