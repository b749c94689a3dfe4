package stats

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseSPRT parses arbitrary text as arena's -sprt flag: no panic; an
// error quotes the text; a test that parses passes Validate, has its lower
// bound below 0 and its upper above, decides pentanomial counts without an
// error or a NaN, and written back as "elo0,elo1,alpha,beta" parses to the
// same test.
func FuzzParseSPRT(f *testing.F) {
	for _, s := range []string{"0,5", "-1.5, 3.5", "0,5,0.05,0.05", "0,20,0.1,0.2",
		"", "5,0", "0,5,0.5,0.5", "0,5,1,0.05", "NaN,1", "0,Inf", "0,5,", "1e308,-1e308", "0,1e-300", " 0 , 1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSPRT(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), strconv.Quote(s)) {
				t.Fatalf("error does not quote the text: %v", err)
			}
			return
		}
		if err := sp.Validate(); err != nil {
			t.Fatalf("%q parses to a test Validate refuses: %v", s, err)
		}
		lo, hi := sp.Bounds()
		if !(lo < 0 && 0 < hi) {
			t.Fatalf("%q: bounds [%g, %g] do not surround 0", s, lo, hi)
		}
		for _, counts := range [][]int{{0, 0, 0, 0, 0}, {1, 2, 3, 2, 1}, {0, 0, 0, 0, 7}, {5, 0, 0, 0, 0}} {
			llr, _, err := sp.Test(counts)
			if err != nil || math.IsNaN(llr) {
				t.Fatalf("%q: Test(%v) = %g, %v", s, counts, llr, err)
			}
		}
		g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
		text := strings.Join([]string{g(sp.Elo0), g(sp.Elo1), g(sp.Alpha), g(sp.Beta)}, ",")
		back, err := ParseSPRT(text)
		if err != nil || back != sp {
			t.Fatalf("%q parses to %+v; written back as %q: %+v, %v", s, sp, text, back, err)
		}
	})
}
