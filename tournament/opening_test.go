package tournament

import (
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
)

func TestParseOpening(t *testing.T) {
	o, err := ParseOpening("  jj KJJK\tLLMM ")
	if err != nil {
		t.Fatal(err)
	}
	if got := o.String(); got != "JJ KJJK LLMM" {
		t.Errorf("String() = %q", got)
	}
	if len(o.Moves) != 3 || o.Moves[0].Len() != 1 || o.Moves[1].Len() != 2 {
		t.Errorf("moves = %v", o.Moves)
	}
	for _, bad := range []struct{ in, want string }{
		{"JJ JJKK", "move 2"},      // occupied
		{"JJKK", "move 1"},         // Black's first move is one stone
		{"JJ KK", "move 2"},        // White needs two stones
		{"JJ KJJK Z9AA", "move 3"}, // off board
		{"JJ KKKK", "move 2"},      // same point twice (single form where two are due)
	} {
		_, err := ParseOpening(bad.in)
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("ParseOpening(%q) error %v, want it to name %q", bad.in, err, bad.want)
		}
	}
}

func TestReadOpeningsErrorsNameLine(t *testing.T) {
	good := "# suite\n\nJJ KJJK  # a comment\nJJ IIKK\nempty # the empty board\n"
	ops, err := ReadOpenings("good.txt", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 3 || ops[1].String() != "JJ IIKK" || len(ops[2].Moves) != 0 {
		t.Fatalf("openings = %v", ops)
	}
	for _, c := range []struct{ text, want string }{
		{"JJ KJJK\n# x\nJJ JJKK\n", "bad.txt:3:"},
		{"\n\nJJ KJJK\nJJ KJJK QQ\n", "bad.txt:4:"},
		{"JJ KJJK\nhello\n", "bad.txt:2:"},
		{"# only comments\n\n", "bad.txt: no openings"},
	} {
		_, err := ReadOpenings("bad.txt", strings.NewReader(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadOpenings(%q) error %v, want %q", c.text, err, c.want)
		}
	}
	if _, err := LoadOpenings("testdata/no-such-file"); err == nil {
		t.Error("missing file: no error")
	}
}

// canonicalKey is a slow, independent statement of symmetry equivalence:
// the sorted set of the 8 images of White's stone pair as strings.
func canonicalKey(m engine.Move) string {
	var keys []string
	for k := range 8 {
		var pts []string
		for _, p := range []engine.Point{m.A, m.B} {
			c, r := p.Col(), p.Row()
			if k&4 != 0 {
				c, r = r, c
			}
			if k&1 != 0 {
				c = 18 - c
			}
			if k&2 != 0 {
				r = 18 - r
			}
			pts = append(pts, engine.PointAt(c, r).String())
		}
		slices.Sort(pts)
		keys = append(keys, strings.Join(pts, ""))
	}
	slices.Sort(keys)
	return keys[0]
}

func TestGenerateOpenings(t *testing.T) {
	// Burnside over the dihedral group of order 8 acting on White's pair:
	// radius 1: (28+4+4·4)/8 = 6; radius 2: (276+12+4·16)/8 = 44;
	// radius 3: (1128+24+4·36)/8 = 162.
	for _, c := range []struct{ radius, want int }{{1, 6}, {2, 44}, {3, 162}} {
		ops, err := GenerateOpenings(c.radius, 7)
		if err != nil {
			t.Fatal(err)
		}
		if len(ops) != c.want {
			t.Errorf("radius %d: %d openings, want %d", c.radius, len(ops), c.want)
		}
		seen := map[string]bool{}
		for _, o := range ops {
			if _, err := ParseOpening(o.String()); err != nil {
				t.Fatalf("generated opening %q illegal: %v", o, err)
			}
			if o.Moves[0] != engine.Single(engine.PointAt(9, 9)) {
				t.Errorf("%q does not start at JJ", o)
			}
			for _, p := range []engine.Point{o.Moves[1].A, o.Moves[1].B} {
				if d := max(abs(p.Col()-9), abs(p.Row()-9)); d > c.radius || d == 0 {
					t.Errorf("%q: %s at distance %d", o, p, d)
				}
			}
			k := canonicalKey(o.Moves[1])
			if seen[k] {
				t.Errorf("radius %d: %q duplicates another opening under symmetry", c.radius, o)
			}
			seen[k] = true
		}
	}
	a, _ := GenerateOpenings(3, 1)
	b, _ := GenerateOpenings(3, 1)
	c, _ := GenerateOpenings(3, 2)
	if !slices.EqualFunc(a, b, func(x, y Opening) bool { return x.String() == y.String() }) {
		t.Error("same seed, different suites")
	}
	if slices.EqualFunc(a, c, func(x, y Opening) bool { return x.String() == y.String() }) {
		t.Error("seeds 1 and 2 give the same order")
	}
	if _, err := GenerateOpenings(0, 1); err == nil {
		t.Error("radius 0 accepted")
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestSuiteForCoversPairsWithoutRepeats(t *testing.T) {
	for _, tc := range []struct{ pairs, radius int }{{1, 3}, {162, 3}, {163, 4}, {300, 4}} {
		suite, radius, err := SuiteFor(tc.pairs, 7)
		if err != nil {
			t.Fatal(err)
		}
		if radius != tc.radius || len(suite) < tc.pairs {
			t.Fatalf("%d pairs: radius %d with %d openings, want radius %d", tc.pairs, radius, len(suite), tc.radius)
		}
		seen := map[string]bool{}
		for _, o := range suite {
			if seen[o.String()] {
				t.Fatalf("radius %d: opening %s twice", radius, o)
			}
			seen[o.String()] = true
		}
	}
}
