package configs

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/tournament"
)

// TestBalancedOpenings: the shipped balanced suite parses, holds at least
// the 300 distinct openings a 300-pair verification needs, says how it was
// made, and is the file in configs/openings.
func TestBalancedOpenings(t *testing.T) {
	if !slices.Contains(OpeningNames(), "balanced") {
		t.Fatalf("OpeningNames() = %q: no balanced", OpeningNames())
	}
	data, err := Openings("balanced")
	if err != nil {
		t.Fatal(err)
	}
	disk, err := os.ReadFile(filepath.Join("openings", "balanced.txt"))
	if err != nil || !bytes.Equal(disk, data) {
		t.Fatalf("embedded suite differs from openings/balanced.txt (%v)", err)
	}
	suite, err := tournament.ReadOpenings("configs/openings/balanced.txt", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	distinct := map[string]bool{}
	for _, o := range suite {
		if len(o.Moves) != 2 {
			t.Errorf("%q: not a 3-stone opening", o)
		}
		distinct[o.String()] = true
	}
	if len(distinct) < 300 || len(distinct) != len(suite) {
		t.Errorf("%d openings, %d distinct: want at least 300, all distinct", len(suite), len(distinct))
	}
	for _, want := range []string{
		"# command: arena openings ", "# date: ", "# candidates: ", "# references (depth ",
		"# kept: colour-decided fraction ≤ ", "# Black score: before ", "# colour-decided fraction: before ",
	} {
		if !strings.Contains(string(data), "\n"+want) {
			t.Errorf("header lacks %q", want)
		}
	}
}

func TestOpeningsUnknown(t *testing.T) {
	for _, name := range []string{"", "nosuch", "../weights/zhou2015", "openings/balanced"} {
		_, err := Openings(name)
		if err == nil || !strings.Contains(err.Error(), "balanced") {
			t.Errorf("Openings(%q): %v, want an error listing balanced", name, err)
		}
	}
}

func TestLoadOpenings(t *testing.T) {
	suite, err := LoadOpenings("balanced")
	if err != nil || len(suite) < 300 {
		t.Fatalf("balanced: %d openings, %v", len(suite), err)
	}
	path := filepath.Join(t.TempDir(), "mine.txt")
	if err := os.WriteFile(path, []byte("# two openings\nJJ KJJK\nJJ HHKK\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s, err := LoadOpenings(path); err != nil || len(s) != 2 || s[1].String() != "JJ HHKK" {
		t.Errorf("file: %v %v", s, err)
	}
	if err := os.WriteFile(path, []byte("JJ KJJK\nJJ ZZ\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOpenings(path); err == nil || !strings.Contains(err.Error(), ":2") {
		t.Errorf("a bad line 2: %v", err)
	}
	if _, err := LoadOpenings("nosuch"); err == nil || !strings.Contains(err.Error(), "balanced") {
		t.Errorf("unknown name: %v", err)
	}
}
