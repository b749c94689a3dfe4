package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/wdl"
)

// summarize is arena's summary: its header (schedule, players, openings,
// search settings, wall time) completed from the table by
// tournament.Summarize.
func summarize(o *options, m *match, tab *tournament.Table, el time.Duration) tournament.Summary {
	head := header(o, m)
	head.Seconds = el.Seconds()
	return tournament.Summarize(tab, head)
}

// header is a match's Summary header (Schedule … MoveTime): what the
// summary and plan.json (tournament.MatchPlan) say in the same words.
func header(o *options, m *match) tournament.Summary {
	return tournament.Summary{
		Schedule: o.schedule, Players: m.players, Pairs: o.pairs, Openings: m.openings,
		Depth: o.depth, Width: o.width, MaxMoves: o.maxMoves, MoveTime: o.moveTime.String(),
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func fmtWDL(r wdl.Short) string { return fmt.Sprintf("%d-%d-%d", r.Wins, r.Draws, r.Losses) }

// printTable writes the human report.
func printTable(w io.Writer, s tournament.Summary) {
	fmt.Fprintf(w, "%s, %d games in %.2fs; openings: %s", s.Schedule, s.Games, s.Seconds, s.Openings)
	if s.MaxMoves > 0 {
		fmt.Fprintf(w, ", draw after %d moves", s.MaxMoves)
	}
	if s.Resumed > 0 {
		fmt.Fprintf(w, "; %d games resumed from the log", s.Resumed)
	}
	if s.Interrupted {
		fmt.Fprint(w, "; INTERRUPTED: completed game pairs only")
	}
	fmt.Fprintln(w)
	for _, p := range s.Players {
		fmt.Fprintf(w, "  %s: %s %s", p.Name, p.Kind, p.Source)
		if p.Settings != "" {
			fmt.Fprintf(w, " (%s)", p.Settings)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "A\tB\tgames\tW-D-L\tscore\tElo\t±95%\tLOS\tpairs LL-LD-WL/DD-WD-WW\tA as Black\tA as White\t")
	for _, m := range s.Matchups {
		p := m.Pentanomial
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%.1f%%\t%+.1f\t%.1f\t%.1f%%\t%d-%d-%d-%d-%d\t%s\t%s\t\n",
			m.A, m.B, m.N, fmtWDL(m.Games), 100*m.Score, m.Elo, m.EloCI, 100*m.LOS,
			p[0], p[1], p[2], p[3], p[4], fmtWDL(m.AsBlack), fmtWDL(m.AsWhite))
	}
	tw.Flush()
	if len(s.Standings) > 0 {
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "rank\tplayer\tW-D-L\tpoints\tscore\t")
		for i, st := range s.Standings {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%.1f\t%.1f%%\t\n", i+1, st.Name, fmtWDL(st.Games), st.Points, 100*st.Score)
		}
		tw.Flush()
	}
	if t := s.SPRT; t != nil {
		fmt.Fprintf(w, "\nSPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f, bounds [%.3f, %.3f], %s after %d pairs\n",
			t.Elo0, t.Elo1, t.Alpha, t.Beta, t.LLR, t.Lower, t.Upper, t.Decision, t.Pairs)
	}
	reasons := make([]string, 0, len(s.Reasons))
	for k := range s.Reasons {
		reasons = append(reasons, k)
	}
	slices.Sort(reasons)
	parts := make([]string, len(reasons))
	for i, k := range reasons {
		parts[i] = fmt.Sprintf("%d %s", s.Reasons[k], tournament.ReasonWords(k))
	}
	fmt.Fprintf(w, "\nhow the games ended: %s\n", strings.Join(parts, ", "))
}

// winRateChart plots, with 95% intervals and the 50% line, A's score of
// each pairing (head-to-head) or each player's score against the field
// (round robin).
func winRateChart(s tournament.Summary) results.BarChart {
	c := results.BarChart{
		Title:   fmt.Sprintf("arena: %s, %d games at depth %d, width %d", s.Schedule, s.Games, s.Depth, s.Width),
		YLabel:  "score of the pairing's first player (%)",
		Note:    "Each bar is a score with its 95% interval; 50% is equal strength. Players given their own search (an -engine depth=, st= or tc=) play it instead of the depth and width of the title.",
		RefLine: &results.HLine{Name: "50%", Y: 50},
	}
	lo, hi := 0.0, 100.0
	c.YMin, c.YMax = &lo, &hi
	if len(s.Standings) > 0 {
		c.YLabel = "score against the field (%)"
		for _, st := range s.Standings {
			c.Bars = append(c.Bars, results.Bar{Label: st.Name, Value: 100 * st.Score, Lo: 100 * st.ScoreLo, Hi: 100 * st.ScoreHi})
		}
		return c
	}
	for _, m := range s.Matchups {
		c.Bars = append(c.Bars, results.Bar{
			Label: m.A + " vs " + m.B,
			Value: 100 * m.Score, Lo: 100 * m.ScoreLo, Hi: 100 * m.ScoreHi,
		})
	}
	return c
}
