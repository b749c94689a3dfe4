package ladder

import (
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/tournament"
)

// rung is a ladder rung with only what VerdictLine reads.
func rung(opp string, depth int, elo, ci float64, games int) Rung {
	return Rung{Opponent: opp, Depth: depth, Verdict: Verdict(elo, ci),
		Summary: tournament.Summary{Matchups: []tournament.MatchSummary{{A: "tuned", B: opp, Elo: elo, EloCI: ci, N: games}}}}
}

func TestVerdictLine(t *testing.T) {
	cases := []struct {
		name   string
		rungs  []Rung
		want   string
		detail []string
	}{
		{"stronger at both depths, inconclusive against halfway",
			[]Rung{rung("zhou2015", 2, 54, 23, 200), rung("zhou2015", 3, 40.4, 25, 200), rung("halfway", 2, 31, 20, 200), rung("halfway", 3, 5, 30, 200)},
			"verdict: stronger on 3 of 4 rungs, inconclusive on 1 (Elo +5 to +54)",
			[]string{"zhou2015: stronger at depth 2 (+54 ± 23 Elo, 200 games) and depth 3 (+40 ± 25)",
				"halfway: stronger at depth 2 (+31 ± 20 Elo, 200 games); inconclusive at depth 3 (+5 ± 30 Elo, 200 games: the 95% interval contains 0)"}},
		{"weaker, then inconclusive at two depths",
			[]Rung{rung("chen2010-ga30", 1, -80, 30, 40), rung("zhou2015", 1, -10, 30, 40), rung("zhou2015", 2, 12, 40, 36)},
			"verdict: inconclusive on 2 of 3 rungs, weaker on 1 (Elo -80 to +12)",
			[]string{"chen2010-ga30: weaker at depth 1 (-80 ± 30 Elo, 40 games)",
				"zhou2015: inconclusive at depth 1 (-10 ± 30 Elo, 40 games) and depth 2 (+12 ± 40, 36 games: the 95% intervals contain 0)"}},
		{"a tie leads with the cautious word", []Rung{rung("zhou2015", 2, 80, 20, 100), rung("zhou2015", 3, -60, 20, 100)},
			"verdict: weaker on 1 of 2 rungs, stronger on 1 (Elo -60 to +80)",
			[]string{"zhou2015: stronger at depth 2 (+80 ± 20 Elo, 100 games); weaker at depth 3 (-60 ± 20 Elo, 100 games)"}},
		{"all stronger", []Rung{rung("zhou2015", 2, 80, 20, 100), rung("zhou2015", 3, 60, 20, 100)},
			"verdict: stronger on all 2 rungs (Elo +60 to +80)",
			[]string{"zhou2015: stronger at depth 2 (+80 ± 20 Elo, 100 games) and depth 3 (+60 ± 20)"}},
		{"interval touching 0 is inconclusive", []Rung{rung("zhou2015", 2, 20, 20, 100)},
			"verdict: inconclusive on 1 of 1 rung (Elo +20)",
			[]string{"zhou2015: inconclusive at depth 2 (+20 ± 20 Elo, 100 games: the 95% interval contains 0)"}},
		{"no rungs", nil, "verdict: none (no verification ladder was played)", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := VerdictLine(tc.rungs); got != tc.want {
				t.Fatalf("got\n%s\nwant\n%s", got, tc.want)
			}
			if got := VerdictDetail(tc.rungs); !slices.Equal(got, tc.detail) {
				t.Fatalf("detail\n%q\nwant\n%q", got, tc.detail)
			}
		})
	}
	if Verdict(5, 30) != "inconclusive" || Verdict(31, 30) != "stronger" || Verdict(-31, 30) != "weaker" {
		t.Fatal("Verdict")
	}
}

// TestSectionMarkdown: the report's verification section has the
// verdict, a row per rung with its Elo cell kept whole, the word
// "inconclusive" explained when an interval contains 0, and, without
// rungs, the arena command for the in-process engine only.
func TestSectionMarkdown(t *testing.T) {
	s := Section{Rungs: []Rung{rung("zhou2015", 3, 93.7, 24.0, 600), rung("chen2010-pso15", 3, 10.4, 20.4, 600)},
		Notes: []string{`"halfway" was skipped`}, Best: "runs/x/best.json", Validation: "validation.json"}
	md := s.Markdown()
	for _, want := range []string{"## Verification", `Note: "halfway" was skipped.`, VerdictLine(s.Rungs),
		"| zhou2015 ", "+93.7\u00a0±\u00a024.0", "| inconclusive |", "**Inconclusive** where the 95% interval contains 0", "`validation.json` the first"} {
		if !strings.Contains(md, want) {
			t.Errorf("section lacks %q:\n%s", want, md)
		}
	}
	strong := Section{Rungs: s.Rungs[:1], Validation: "validation.json"}
	if md := strong.Markdown(); strings.Contains(md, "**Inconclusive**") {
		t.Errorf("a conclusive ladder explains inconclusive:\n%s", md)
	}
	none := Section{Best: "runs/x/best.json"}
	if md := none.Markdown(); !strings.Contains(md, "arena -sprt 0,20 -pairs 500 runs/x/best.json zhou2015") {
		t.Errorf("no ladder: %s", md)
	}
	none.External = "depth 2 (its argument -depth 2)"
	if md := none.Markdown(); strings.Contains(md, "arena") || !strings.Contains(md, "No verification ladder was played") {
		t.Errorf("no ladder, external engine: %s", md)
	}
}

// TestNoInterval: only a match whose complete pairs all ended alike has
// no interval; its text says why.
func TestNoInterval(t *testing.T) {
	for _, tc := range []struct {
		penta [5]int
		want  string
	}{
		{[5]int{0, 0, 150, 0, 0}, "+0.0, no interval: all 150 game pairs split 1–1"},
		{[5]int{0, 0, 0, 0, 1}, "+0.0, no interval: all 1 game pair were won 2–0"},
		{[5]int{0, 1, 148, 1, 0}, "+0.0 ± 0.5"},
	} {
		n := 0
		for _, c := range tc.penta {
			n += c
		}
		m := tournament.MatchSummary{Pentanomial: tc.penta, Pairs: n, EloCI: 0.5}
		if got := EloText(m, 1); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.penta, got, tc.want)
		}
	}
}
