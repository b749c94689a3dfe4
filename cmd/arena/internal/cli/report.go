package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// wdl is a W/D/L count in the summary.
type wdl struct {
	W int `json:"w"`
	D int `json:"d"`
	L int `json:"l"`
}

func toWDL(r stats.WDL) wdl { return wdl{W: r.W, D: r.D, L: r.L} }

// matchupSummary is one pairing from A's view. Elo figures come from the
// pentanomial counts of complete game pairs (statistics.md); they are
// omitted when there are no games.
type matchupSummary struct {
	A           string  `json:"a"`
	B           string  `json:"b"`
	Games       wdl     `json:"games"`
	AsBlack     wdl     `json:"a_as_black"`
	AsWhite     wdl     `json:"a_as_white"`
	Pentanomial [5]int  `json:"pentanomial"` // [LL, LD, WL+DD, WD, WW], A's view
	N           int     `json:"n"`           // games
	Score       float64 `json:"score"`       // A's points / games
	ScoreLo     float64 `json:"score_lo"`    // 95% interval of the score
	ScoreHi     float64 `json:"score_hi"`
	Elo         float64 `json:"elo"`    // A minus B
	EloCI       float64 `json:"elo_ci"` // ± half-width of the 95% interval
	LOS         float64 `json:"los"`    // likelihood of superiority of A
}

type standingSummary struct {
	Name    string  `json:"name"`
	Games   wdl     `json:"games"`
	Points  float64 `json:"points"`
	Score   float64 `json:"score"`    // points / games
	ScoreLo float64 `json:"score_lo"` // 95% interval of the score (trinomial, all games)
	ScoreHi float64 `json:"score_hi"`
}

type sprtSummary struct {
	Elo0     float64 `json:"elo0"`
	Elo1     float64 `json:"elo1"`
	Alpha    float64 `json:"alpha"`
	Beta     float64 `json:"beta"`
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	Decision string  `json:"decision"` // continue, H0, H1
	Pairs    int     `json:"pairs"`
}

type summary struct {
	Schedule  string            `json:"schedule"` // head-to-head or round-robin
	Players   []player          `json:"players"`
	Pairs     int               `json:"pairs"` // game pairs per pairing scheduled
	Openings  string            `json:"openings"`
	Depth     int               `json:"depth"`
	Width     int               `json:"width"`
	MaxMoves  int               `json:"max_moves"`
	MoveTime  string            `json:"move_time"`
	Games     int               `json:"games"`
	Seconds   float64           `json:"seconds"`
	Reasons   map[string]int    `json:"reasons"` // games by end reason
	Matchups  []matchupSummary  `json:"matchups"`
	Standings []standingSummary `json:"standings,omitempty"`
	SPRT      *sprtSummary      `json:"sprt,omitempty"`
}

// finite maps NaN and ±Inf (which JSON cannot hold) and −0 to 0.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return 0
	}
	return x
}

func summarize(o *options, schedule string, players []player, r *tournament.Runner, tab *tournament.Table, el time.Duration) summary {
	s := summary{
		Schedule: schedule, Players: players, Pairs: o.pairs,
		Depth: o.depth, Width: o.width, MaxMoves: o.maxMoves, MoveTime: o.moveTime.String(),
		Games: len(tab.Games), Seconds: el.Seconds(), Reasons: map[string]int{},
	}
	if o.openings != "" {
		s.Openings = fmt.Sprintf("file %s (%d openings)", o.openings, len(r.Openings))
	} else {
		s.Openings = fmt.Sprintf("generated 3-stone suite, radius %d, seed %d (%d openings)", o.radius, o.seed, len(r.Openings))
	}
	for _, g := range tab.Games {
		s.Reasons[g.Reason]++
	}
	for _, m := range tab.Matchups {
		ms := matchupSummary{
			A: tab.Players[m.A], B: tab.Players[m.B],
			Games: toWDL(m.Games), AsBlack: toWDL(m.AsBlack), AsWhite: toWDL(m.AsWhite),
			Pentanomial: m.Pairs, N: m.Games.N(),
		}
		if ms.N > 0 {
			ms.Score = m.Score() / float64(ms.N)
		}
		if e, err := m.Estimate(); err == nil {
			ms.ScoreLo, ms.ScoreHi = finite(e.ScoreLo), finite(e.ScoreHi)
			ms.Elo, ms.EloCI, ms.LOS = finite(e.Elo), finite(e.EloCI), finite(e.LOS)
		}
		s.Matchups = append(s.Matchups, ms)
	}
	if len(players) > 2 {
		for _, st := range tab.Standings() {
			ss := standingSummary{Name: st.Name, Games: toWDL(st.Games), Points: st.Score()}
			if n := st.Games.N(); n > 0 {
				ss.Score = st.Score() / float64(n)
			}
			if e, err := stats.EstimateCounts(st.Games.Counts()); err == nil {
				ss.ScoreLo, ss.ScoreHi = finite(e.ScoreLo), finite(e.ScoreHi)
			}
			s.Standings = append(s.Standings, ss)
		}
	}
	if t := tab.SPRT; t != nil {
		s.SPRT = &sprtSummary{
			Elo0: t.SPRT.Elo0, Elo1: t.SPRT.Elo1, Alpha: t.SPRT.Alpha, Beta: t.SPRT.Beta,
			LLR: finite(t.LLR), Lower: t.Lower, Upper: t.Upper, Decision: t.Decision, Pairs: t.Pairs,
		}
		if s.SPRT.Alpha == 0 {
			s.SPRT.Alpha = 0.05
		}
		if s.SPRT.Beta == 0 {
			s.SPRT.Beta = 0.05
		}
	}
	return s
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func fmtWDL(r wdl) string { return fmt.Sprintf("%d-%d-%d", r.W, r.D, r.L) }

// printTable writes the human report.
func printTable(w io.Writer, s summary) {
	fmt.Fprintf(w, "%s, %d games in %.2fs; openings: %s; depth %d, width %d", s.Schedule, s.Games, s.Seconds, s.Openings, s.Depth, s.Width)
	if s.MaxMoves > 0 {
		fmt.Fprintf(w, ", draw after %d moves", s.MaxMoves)
	}
	fmt.Fprintln(w)
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
		parts[i] = fmt.Sprintf("%s %d", k, s.Reasons[k])
	}
	fmt.Fprintf(w, "\nend of games: %s\n", strings.Join(parts, ", "))
}

// winRateChart plots, with 95% intervals and the 50% line, A's score of
// each pairing (head-to-head) or each player's score against the field
// (round robin).
func winRateChart(s summary) results.BarChart {
	c := results.BarChart{
		Title:   fmt.Sprintf("arena: %s, %d games", s.Schedule, s.Games),
		YLabel:  "score of A (%), 95% interval",
		RefLine: &results.HLine{Name: "50%", Y: 50},
	}
	lo, hi := 0.0, 100.0
	c.YMin, c.YMax = &lo, &hi
	if len(s.Standings) > 0 {
		c.YLabel = "score against the field (%), 95% interval"
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
