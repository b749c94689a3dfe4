package ladder

import (
	"fmt"
	"strings"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
)

// Section is a run report's verification section: the rungs played, the
// notes on opponents left out, and what the text needs of the run.
type Section struct {
	Rungs []Rung
	Notes []string
	// External is how an [external] run's engine searches ("depth 2 (its
	// argument -depth 2)"); "" for the in-process engine.
	External string
	// Best is the path of the run's best.json, for the arena command a
	// run without a ladder is told to verify with; Validation names the
	// file holding the first rung's summary.
	Best, Validation string
}

// Markdown is the section in Markdown: the verdict line (VerdictLine) and
// its detail, a table of the rungs (W/D/L, score with its interval, Elo
// ± 95%, LOS, pentanomial counts, verdict), the openings and SPRT of
// each, the notes, and the word "inconclusive" explained when a rung's
// interval contains 0.
func (s Section) Markdown() string {
	var b strings.Builder
	b.WriteString("## Verification\n\n")
	for _, n := range s.Notes {
		fmt.Fprintf(&b, "Note: %s.\n\n", n)
	}
	if len(s.Rungs) == 0 && s.External != "" {
		b.WriteString("No verification ladder was played (`validation.opponents` is empty or left nothing to play).\n\n")
		return b.String()
	}
	if len(s.Rungs) == 0 {
		fmt.Fprintf(&b, "No verification ladder was played (`validation.opponents` is empty or left nothing to play). Verify with `go run ./cmd/arena -sprt 0,20 -pairs 500 %s zhou2015`.\n\n", s.Best)
		return b.String()
	}
	fmt.Fprintf(&b, "**%s**\n\n", VerdictLine(s.Rungs))
	for _, l := range VerdictDetail(s.Rungs) {
		fmt.Fprintf(&b, "- %s\n", l)
	}
	b.WriteString("\n")
	rows := make([][]string, len(s.Rungs))
	for i, r := range s.Rungs {
		m := r.Match()
		rows[i] = []string{
			m.B, strings.TrimPrefix(r.At(), "depth "), fmt.Sprint(m.N),
			fmt.Sprintf("%d/%d/%d", m.Games.Wins, m.Games.Draws, m.Games.Losses),
			// Non-breaking spaces keep a figure whole where a page wraps the cell.
			fmt.Sprintf("%.1f%% [%.1f,\u00a0%.1f]", 100*m.Score, 100*max(0, m.ScoreLo), 100*min(1, m.ScoreHi)),
			eloCell(m),
			fmt.Sprintf("%.1f%%", 100*m.LOS),
			fmt.Sprint(m.Pentanomial),
			r.Verdict,
		}
	}
	b.WriteString(results.MarkdownTable(
		[]string{"opponent", "depth", "games", "W/D/L", "score", "Elo ± 95%", "LOS", "pentanomial [LL, LD, WL+DD, WD, WW]", "verdict"}, rows))
	first := s.Rungs[0].Summary
	if s.External != "" {
		fmt.Fprintf(&b, "\nThe tuned settings (A) against each opponent, the external engine at %s, over game pairs (rung 1 openings: %s; every rung has its own seed). `%s` holds every rung; `%s` the first, in the shape of arena's summary.json. ", s.External, first.Openings, File, s.Validation)
	} else {
		fmt.Fprintf(&b, "\nThe tuned vector (A) against each opponent at each depth, width %d, over game pairs (rung 1 openings: %s; every rung has its own seed). `%s` holds every rung; `%s` the first, in the shape of arena's summary.json. ", first.Width, first.Openings, File, s.Validation)
	}
	for _, r := range s.Rungs {
		if t := r.Summary.SPRT; t != nil {
			fmt.Fprintf(&b, "SPRT against %s at %s (elo0 %g, elo1 %g): LLR %.2f in [%.2f, %.2f] after %d pairs, decision %s. ", r.Match().B, r.At(), t.Elo0, t.Elo1, t.LLR, t.Lower, t.Upper, t.Pairs, t.Decision)
		}
	}
	for _, r := range s.Rungs {
		if r.Verdict == "inconclusive" {
			b.WriteString("**Inconclusive** where the 95% interval contains 0: such a rung does not show the tuned vector stronger or weaker; play more pairs (`arena -sprt`).")
			break
		}
	}
	b.WriteString("\n\n")
	return b.String()
}

// eloCell is a rung's Elo and interval in the report's table, kept whole
// by non-breaking spaces where a page wraps the cell: "+34.9 ± 12.0", or
// "+0.0, no interval" when every pair ended alike (the verdict's detail
// and the pentanomial column say how).
func eloCell(m tournament.MatchSummary) string {
	if NoInterval(m) != "" {
		return fmt.Sprintf("%+.1f,\u00a0no\u00a0interval", m.Elo)
	}
	return fmt.Sprintf("%+.1f\u00a0±\u00a0%.1f", m.Elo, m.EloCI)
}
