package tournament

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestRandomReferenceSeeded(t *testing.T) {
	a, _ := RandomReference(1, 1)
	b, _ := RandomReference(1, 1)
	c, _ := RandomReference(1, 2)
	d, _ := RandomReference(2, 1)
	if a.String() != b.String() || a.String() == c.String() || a.String() == d.String() {
		t.Errorf("random references %v %v %v %v", a, b, c, d)
	}
	for _, g := range a.Genes {
		if g < 0 || g > 4000 || g != float64(int(g)) {
			t.Errorf("gene %v outside the integers of [0, 4000]", g)
		}
	}
}

// TestBalancedSuiteFileReadsBack: the file of a balanced suite reads back
// as the kept openings in their order; its header and each opening's
// record are comments.
func TestBalancedSuiteFileReadsBack(t *testing.T) {
	cands, err := GenerateOpenings(1, 5)
	if err != nil {
		t.Fatal(err)
	}
	rep := &BalanceReport{Candidates: len(cands), Criteria: DefaultBalanceCriteria()}
	var kept []Opening
	for i, op := range cands {
		ob := OpeningBias{Opening: op, Index: i, Games: 4, Pairs: 2, BlackWins: i % 5, WhiteWins: 4 - i%5, BlackBoth: i % 2}
		rep.PerOpening = append(rep.PerOpening, ob)
		if i%3 == 0 {
			kept = append(kept, op)
		}
	}
	rep.Kept = len(kept)
	data := BalancedSuiteFile([]string{"made by a test", "  ref a"}, kept, rep)
	back, err := ReadOpenings("suite", bytes.NewReader(data))
	if err != nil || !reflect.DeepEqual(back, kept) {
		t.Fatalf("read back %v, %v\nwant %v\n%s", back, err, kept, data)
	}
	text := string(data)
	if !strings.HasPrefix(text, "# made by a test\n#   ref a\n# kept: ") {
		t.Errorf("header:\n%s", text)
	}
	ob := rep.PerOpening[3]
	want := kept[1].String()
	if line := strings.Split(text, "\n")[8]; !strings.HasPrefix(line, want) || !strings.HasSuffix(line, " # Black 0.750, colour-decided 0.500") || ob.Opening.String() != want {
		t.Errorf("opening line %q, want %s with Black 0.750, colour-decided 0.500", line, want)
	}
}
