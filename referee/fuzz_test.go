package referee

import (
	"strconv"
	"testing"
)

// FuzzParseEarlyStop parses arbitrary text as an early-stop rule: no
// panic; off and "" are off with no SPRT, decided is on with none; a rule
// with an SPRT is on, its SPRT passes Validate, and written back as
// "sprt:elo0,elo1,alpha,beta" parses to the same SPRT.
func FuzzParseEarlyStop(f *testing.F) {
	for _, s := range []string{"", "off", "decided", "sprt:0,5", "sprt:0,5,0.05,0.1", "sprt:", "sprt:5,0", "SPRT:0,5", "on", "decided "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rule string) {
		sprt, on, err := ParseEarlyStop(rule)
		if err != nil {
			if sprt != nil || on {
				t.Fatalf("%q: an error (%v) with a rule that is on", rule, err)
			}
			return
		}
		switch {
		case rule == "" || rule == "off":
			if on || sprt != nil {
				t.Fatalf("%q is not off", rule)
			}
			return
		case rule == "decided":
			if !on || sprt != nil {
				t.Fatalf("decided gives on %v, SPRT %v", on, sprt)
			}
			return
		}
		if !on || sprt == nil {
			t.Fatalf("%q: accepted as on %v with SPRT %v", rule, on, sprt)
		}
		if err := sprt.Validate(); err != nil {
			t.Fatalf("%q: its SPRT fails Validate: %v", rule, err)
		}
		g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
		text := "sprt:" + g(sprt.Elo0) + "," + g(sprt.Elo1) + "," + g(sprt.Alpha) + "," + g(sprt.Beta)
		back, on2, err := ParseEarlyStop(text)
		if err != nil || !on2 || back == nil || *back != *sprt {
			t.Fatalf("%q: SPRT %+v written back as %q: %+v, %v, %v", rule, *sprt, text, back, on2, err)
		}
	})
}
