package ladder

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// File is the verification ladder of a finished run: a JSON list of
// Rung, one per opponent and depth, in the config's order (opponent by
// opponent, each at every depth). validation.json holds the first rung's
// summary, as it held the single verification match before the ladder.
const File = "ladder.json"

// Rung is one match of the verification ladder: the tuned vector against
// one opponent at one search depth.
type Rung struct {
	// Opponent is as configured: a baseline name, a weight-file path or
	// Halfway.
	Opponent string `json:"opponent"`
	// Depth and Width are the search of both sides.
	Depth int `json:"depth"`
	Width int `json:"width"`
	// Clock is the rung's time control in arena's notation ("st=0.05",
	// "tc=2+0.02"), Depth then the deepest iteration; "" for a rung at a
	// fixed depth.
	Clock string `json:"clock,omitempty"`
	// Summary is the match in the shape arena writes as summary.json; its
	// one matchup is the tuned vector's view.
	Summary tournament.Summary `json:"summary"`
	// Verdict is Verdict of the match's Elo and interval: "stronger",
	// "weaker" or "inconclusive".
	Verdict string `json:"verdict"`
}

// Match is the rung's matchup, the tuned vector's view.
func (r Rung) Match() tournament.MatchSummary { return r.Summary.Matchups[0] }

// At says what the rung plays at: "depth 3" or its clock ("st=0.05");
// "own search" for depth 0, an [external] run's engine searching as its
// args say.
func (r Rung) At() string {
	if r.Clock != "" {
		return r.Clock
	}
	if r.Depth == 0 {
		return "own search"
	}
	return fmt.Sprintf("depth %d", r.Depth)
}

// Tag is At in a file name or a label: "d3", or the clock without
// characters a file name should not hold ("st0.05", "tc2+0.02",
// "st0.05-timemargin50").
func (r Rung) Tag() string {
	if r.Clock == "" && r.Depth == 0 {
		return "own"
	}
	if r.Clock == "" {
		return fmt.Sprintf("d%d", r.Depth)
	}
	return strings.Map(func(c rune) rune {
		switch {
		case c == '=':
			return -1
		case c == ' ':
			return '-'
		case c == '/':
			return '_'
		}
		return c
	}, r.Clock)
}

// Verdict says in words what an Elo interval shows: "stronger" or "weaker"
// when the 95% interval excludes 0, "inconclusive" when it contains 0.
func Verdict(elo, ci float64) string {
	switch {
	case elo-ci > 0:
		return "stronger"
	case elo+ci < 0:
		return "weaker"
	}
	return "inconclusive"
}

// Slug is an opponent as a file-name part: a baseline name or Halfway as
// it is, a path by its base name without extension, other characters than
// letters, digits, '.', '_' and '-' replaced by '_'.
func Slug(given string) string {
	s := given
	if strings.ContainsAny(s, `/\`) || strings.HasSuffix(s, ".json") {
		s = strings.TrimSuffix(filepath.Base(s), filepath.Ext(s))
	}
	s = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, s)
	if s == "" {
		s = "opponent"
	}
	return s
}

// pairOutcomes are the outcomes of a game pair by A's points, in the
// order of tournament.MatchSummary.Pentanomial.
var pairOutcomes = [5]string{"were lost 0–2", "went ½–1½", "split 1–1", "went 1½–½", "were won 2–0"}

// NoInterval says why a match's Elo has no interval worth the name: when
// every complete game pair ended alike (all split 1–1, as colour-swapped
// pairs of deterministic twins do) the pairs have no spread, the
// pentanomial interval has zero width, and "± 0" would claim a precision
// the games do not have. It is "all 150 game pairs split 1–1", or "" for
// a match whose interval stands.
func NoInterval(m tournament.MatchSummary) string {
	if k, ok := m.PairsAlike(); ok {
		return fmt.Sprintf("all %d game pair%s %s", m.Pairs, plural(m.Pairs), pairOutcomes[k])
	}
	return ""
}

// EloText is a match's Elo with its 95% interval to prec decimals, "+34.9
// ± 12.0", or without one and why, "+0.0, no interval: all 150 game pairs
// split 1–1" (NoInterval).
func EloText(m tournament.MatchSummary, prec int) string {
	if why := NoInterval(m); why != "" {
		return fmt.Sprintf("%+.*f, no interval: %s", prec, m.Elo, why)
	}
	return fmt.Sprintf("%+.*f ± %.*f", prec, m.Elo, prec, m.EloCI)
}

// Line is the rung's console line: games, W/D/L, score, Elo ± 95%
// interval, LOS and verdict, then the SPRT's state when it played one.
func (r Rung) Line() string {
	m := r.Match()
	s := fmt.Sprintf("%d games W/D/L %d/%d/%d, score %.1f%%, Elo %s, LOS %.1f%% — %s",
		m.N, m.Games.Wins, m.Games.Draws, m.Games.Losses, 100*m.Score, EloText(m, 1), 100*m.LOS, r.Verdict)
	if t := r.Summary.SPRT; t != nil {
		s += fmt.Sprintf("; SPRT LLR %.2f [%.2f, %.2f] %s", t.LLR, t.Lower, t.Upper, t.Decision)
	}
	return s
}

// VerdictLine sums a ladder up in one short line: the verdicts counted
// over the rungs, the most common first (on a tie: inconclusive, then
// weaker, then stronger), with the range of the rungs' Elo, e.g.
// "verdict: stronger on 4 of 6 rungs, inconclusive on 2 (Elo -17 to
// +285)" or "verdict: stronger on all 3 rungs (Elo +40 to +54)". The
// word after "verdict: " is always stronger, weaker or inconclusive (a
// ladder was played) or none. VerdictDetail gives the figures.
func VerdictLine(rungs []Rung) string {
	if len(rungs) == 0 {
		return "verdict: none (no verification ladder was played)"
	}
	count := map[string]int{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rungs {
		count[r.Verdict]++
		lo, hi = math.Min(lo, r.Match().Elo), math.Max(hi, r.Match().Elo)
	}
	order := []string{"inconclusive", "weaker", "stronger"}
	slices.SortStableFunc(order, func(a, b string) int { return count[b] - count[a] })
	var parts []string
	for i, v := range order {
		switch {
		case count[v] == 0:
		case i == 0 && count[v] == len(rungs) && len(rungs) > 1:
			parts = append(parts, fmt.Sprintf("%s on all %d rungs", v, len(rungs)))
		case i == 0:
			parts = append(parts, fmt.Sprintf("%s on %d of %d rung%s", v, count[v], len(rungs), plural(len(rungs))))
		default:
			parts = append(parts, fmt.Sprintf("%s on %d", v, count[v]))
		}
	}
	elo := fmt.Sprintf("Elo %+.0f", lo)
	if len(rungs) > 1 {
		elo = fmt.Sprintf("Elo %+.0f to %+.0f", lo, hi)
	}
	return fmt.Sprintf("verdict: %s (%s)", strings.Join(parts, ", "), elo)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// VerdictDetail gives VerdictLine's figures, a line per opponent: its
// rungs grouped by verdict, with Elo ± the 95% half-width and games, e.g.
// "zhou2015: stronger at depth 2 (+54 ± 23 Elo, 200 games) and depth 3
// (+40 ± 25)" or "halfway: inconclusive at depth 3 (+5 ± 30 Elo, 200
// games: the 95% interval contains 0)". The word "inconclusive" stands
// wherever an interval contains 0. Nil without rungs.
func VerdictDetail(rungs []Rung) []string {
	var lines []string
	var opps []string
	groups := map[string][]string{}
	for i := 0; i < len(rungs); {
		r := rungs[i]
		k := i + 1
		for k < len(rungs) && rungs[k].Opponent == r.Opponent && rungs[k].Verdict == r.Verdict {
			k++
		}
		opp := r.Match().B
		var items []string
		games := r.Match().N
		intervals := 0
		for n, q := range rungs[i:k] {
			m := q.Match()
			fig := fmt.Sprintf("%+.0f ± %.0f", m.Elo, m.EloCI)
			why := NoInterval(m)
			if why != "" {
				fig = fmt.Sprintf("%+.0f", m.Elo)
			} else {
				intervals++
			}
			switch {
			case n == 0:
				fig += fmt.Sprintf(" Elo, %d games", m.N)
			case m.N != games:
				fig += fmt.Sprintf(", %d games", m.N)
			}
			if why != "" {
				fig += ", no interval: " + why
			}
			items = append(items, fmt.Sprintf("%s (%s)", q.At(), fig))
		}
		at := strings.Join(items[:len(items)-1], ", ")
		if at != "" {
			at += " and "
		}
		at += items[len(items)-1]
		if r.Verdict == "inconclusive" && intervals > 0 {
			contain := "the 95% interval contains 0"
			if k-i > 1 {
				contain = "the 95% intervals contain 0"
			}
			// "(… games)" → "(… games: the 95% interval contains 0)"
			at = strings.TrimSuffix(at, ")") + ": " + contain + ")"
		}
		if _, ok := groups[opp]; !ok {
			opps = append(opps, opp)
		}
		groups[opp] = append(groups[opp], fmt.Sprintf("%s at %s", r.Verdict, at))
		i = k
	}
	for _, o := range opps {
		lines = append(lines, o+": "+strings.Join(groups[o], "; "))
	}
	return lines
}

// Chart draws every rung's Elo with its 95% interval, the bars of
// an opponent grouped under its name, one colour per depth, and the 0 Elo
// line.
func Chart(rungs []Rung) results.NamedChart {
	bars := make([]results.Bar, len(rungs))
	for i, r := range rungs {
		m := r.Match()
		bars[i] = results.Bar{Label: fmt.Sprintf("%s %s", m.B, r.Tag()), Group: m.B, Series: r.At(),
			Value: m.Elo, Lo: m.Elo - m.EloCI, Hi: m.Elo + m.EloCI}
	}
	return results.NamedChart{Name: "ladder", Title: "Verification ladder: Elo with 95% interval per opponent and depth", Chart: results.BarChart{
		Title:   "Verification ladder: Elo of the tuned vector",
		YLabel:  "Elo",
		Bars:    bars,
		RefLine: &results.HLine{Name: "0 Elo", Y: 0},
	}}
}

// LLRChart is the chart of a rung's SPRT (results.LLRChart of
// tournament.LLRHistory over the rung's games): its log-likelihood ratio
// after each completed game pair, named "sprt-<opponent slug>-d<depth>";
// nil when the rung played no SPRT or completed no pair.
func LLRChart(slug string, r Rung, games []tournament.GameRecord) (*results.NamedChart, error) {
	t := r.Summary.SPRT
	if t == nil {
		return nil, nil
	}
	xs, ys, err := tournament.LLRHistory(games, t.Test())
	if err != nil || len(xs) == 0 {
		return nil, err
	}
	title := fmt.Sprintf("SPRT against %s at %s", r.Match().B, r.At())
	return &results.NamedChart{Name: fmt.Sprintf("sprt-%s-%s", slug, r.Tag()), Title: title + ": log-likelihood ratio",
		Chart: results.LLRChart(title+": log-likelihood ratio against games", t.Test().String(), xs, ys, t.Lower, t.Upper)}, nil
}

// Slugs are the opponents' slugs of a ladder's rungs, as the ladder
// named their game logs and charts: slug, numbered from 2 when two
// opponents share one.
func Slugs(rungs []Rung) []string {
	byGiven := map[string]string{}
	taken := map[string]bool{}
	out := make([]string, len(rungs))
	for i, r := range rungs {
		s, ok := byGiven[r.Opponent]
		if !ok {
			s = Slug(r.Opponent)
			for base, k := s, 2; taken[s]; k++ {
				s = fmt.Sprintf("%s-%d", base, k)
			}
			taken[s], byGiven[r.Opponent] = true, s
		}
		out[i] = s
	}
	return out
}

// LogName is the base name of a rung's games log under games/:
// "ladder-zhou2015-d3", "ladder-zhou2015-st0.05".
func LogName(slug string, r Rung) string {
	return fmt.Sprintf("ladder-%s-%s", slug, r.Tag())
}

// ClocksText is " and by the clock st=0.05, tc=2+0.02" for the ladder's
// timed rungs, "" for none.
func ClocksText(clocks []tournament.TimeControl) string {
	if len(clocks) == 0 {
		return ""
	}
	s := make([]string, len(clocks))
	for i, tc := range clocks {
		s[i] = tc.String()
	}
	return " and by the clock " + strings.Join(s, ", ")
}

// RemoteBatches is the number of batches of a verification match in
// flight on workers (Run.Remote): enough to keep several workers busy.
const RemoteBatches = 8

// entrantMatch is one head-to-head verification match of entrants: the
// tuned side (A) against an opponent (B) over Pairs game pairs of fixed
// openings (one per pair: a repeated opening would replay a game at a
// fixed depth), optionally stopped early by an SPRT.
type entrantMatch struct {
	A, B tournament.Entrant
	// InfoA and InfoB describe the sides in the Summary (name, kind,
	// source, how they play).
	InfoA, InfoB  tournament.PlayerInfo
	Openings      []tournament.Opening
	OpeningsLabel string // how the Summary names the openings
	// Pairs is the match's length in game pairs; Depth and Width the
	// search both sides play (for the Summary); MaxMoves the game's move
	// cap (0: tournament's default).
	Pairs, Depth, Width, MaxMoves int
	Concurrency                   int // games at once (0: one per core)
	SPRT                          *stats.SPRT
	Progress                      func(done, total int)
	// Remote, when set, plays the games elsewhere, in RemoteBatches
	// batches, when neither side is an external program (external
	// engines stay on this machine: tournament.GameSet).
	Remote tournament.Remote
}

// playEntrants plays m and summarises it in the one match shape
// (tournament.Summary, arena's summary.json), with the table of games.
// Errors: the runner's (a game that cannot be played, ctx cancelled), or
// a match that played no game.
func playEntrants(ctx context.Context, m entrantMatch) (tournament.Summary, *tournament.Table, error) {
	r := &tournament.Runner{
		Entrants:    []tournament.Entrant{m.A, m.B},
		Openings:    m.Openings,
		MaxMoves:    m.MaxMoves,
		Concurrency: m.Concurrency,
		Progress:    m.Progress,
		SPRT:        m.SPRT,
	}
	if m.Remote != nil && !m.A.IsExternal() && !m.B.IsExternal() {
		r.Remote, r.Concurrency = m.Remote, RemoteBatches
	}
	start := time.Now()
	table, err := r.Run(ctx, tournament.HeadToHead(0, 1, m.Pairs))
	if err != nil {
		return tournament.Summary{}, nil, err
	}
	sum := tournament.Summarize(table, tournament.Summary{
		Schedule: "head-to-head",
		Players:  []tournament.PlayerInfo{m.InfoA, m.InfoB},
		Pairs:    m.Pairs,
		Openings: m.OpeningsLabel,
		Depth:    m.Depth,
		Width:    m.Width,
		MaxMoves: m.MaxMoves,
		MoveTime: "0s",
		Seconds:  time.Since(start).Seconds(),
	})
	if len(sum.Matchups) != 1 {
		return tournament.Summary{}, nil, fmt.Errorf("no games were played")
	}
	return sum, table, nil
}
