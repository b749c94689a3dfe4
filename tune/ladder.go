package tune

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// FileLadder is the verification ladder of a finished run: a JSON list of
// Rung, one per opponent and depth, in the config's order (opponent by
// opponent, each at every depth). validation.json holds the first rung's
// summary, as it held the single verification match before the ladder.
const FileLadder = "ladder.json"

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

// tag is At in a file name or a label: "d3", or the clock without
// characters a file name should not hold ("st0.05", "tc2+0.02",
// "st0.05-timemargin50").
func (r Rung) tag() string {
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

// ladderResult is the ladder of a run: its rungs, notes on opponents that
// were not played, and its charts.
type ladderResult struct {
	Rungs []Rung
	Notes []string
	plots []plotRef
}

// opponent is a ladder opponent resolved to a vector, with the slug that
// names its game logs and charts.
type opponent struct {
	given string
	slug  string
	player
}

// opponents resolves the configured opponents: baselines and weight files
// by configs.LoadWeights, Halfway from the records (recs are the run's
// steps). An opponent that cannot be played is left out with a note.
func (j *Job) opponents(recs []optimize.Record) ([]opponent, []string, error) {
	var out []opponent
	var notes []string
	slugs := map[string]bool{}
	for _, given := range j.cfg.Validation.Opponents {
		o := opponent{given: given}
		if given == Halfway {
			if len(recs) < 2 {
				notes = append(notes, fmt.Sprintf("%q was skipped: the run has only %d %s, so its halfway vector is the tuned one", Halfway, len(recs), j.spec.Unit))
				continue
			}
			h := (len(recs) - 1) / 2
			p, err := j.runPlayer(Halfway, fmt.Sprintf("%s: the run's best vector after %s %d of %d", Halfway, j.spec.Unit, h, len(recs)), recs[h].Best)
			if err != nil {
				return nil, nil, fmt.Errorf("%s %d's best vector: %w", j.spec.Unit, h, err)
			}
			o.player = p
		} else if given == StartOpponent && j.cfg.External != nil {
			o.player = player{name: StartOpponent, vec: j.cfg.paramStarts(), external: true, source: "start: the [[param]] tables' starts"}
		} else if given == StartOpponent {
			genes, err := j.cfg.startVector()
			if err != nil {
				return nil, nil, fmt.Errorf("the start vector: %w", err)
			}
			if len(j.cfg.Params) > 0 {
				genes = append(genes, j.cfg.paramStarts()...)
			}
			w, err := j.vector(genes)
			if err != nil {
				return nil, nil, fmt.Errorf("the start vector: %w", err)
			}
			o.player = player{name: StartOpponent, weights: w, vec: genes, source: "start: " + j.cfg.Start}
		} else {
			p, err := j.fixedPlayer(given)
			if err != nil {
				return nil, nil, err
			}
			o.player = p
		}
		if o.name == "tuned" {
			o.name = "tuned#2"
		}
		o.slug = slug(given)
		if o.other != nil {
			o.slug = slug(o.name)
		}
		for base, k := o.slug, 2; slugs[o.slug]; k++ {
			o.slug = fmt.Sprintf("%s-%d", base, k)
		}
		slugs[o.slug] = true
		out = append(out, o)
	}
	return out, notes, nil
}

// baselinePlayer is a baseline name or weight-file path as an opponent,
// named by its file's name (or as given), never "tuned" (the tuned
// vector's name in every match).
func baselinePlayer(given string) (player, error) {
	wf, err := configs.LoadWeights(given)
	if err != nil {
		return player{}, err
	}
	p := player{name: wf.Name, source: given, weights: wf.Weights()}
	if p.name == "" {
		p.name = given
	}
	if p.name == "tuned" {
		p.name = "tuned#2"
	}
	return p, nil
}

// slug is an opponent as a file-name part: a baseline name or Halfway as
// it is, a path by its base name without extension, other characters than
// letters, digits, '.', '_' and '-' replaced by '_'.
func slug(given string) string {
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

// ladder plays the checkpoint's best vector against every opponent at
// every depth (Config.ladderDepths), each rung over its own fixed openings
// (a seed from the run's seed and the rung's number; rung 0 has the seed
// the single verification match had), optionally stopping each on the
// SPRT. It writes each rung's games (games/ladder-<opponent>-d<depth>.jsonl),
// ladder.json, validation.json (the first rung's summary) and the charts.
func (j *Job) ladder(ctx context.Context, recs []optimize.Record) (*ladderResult, error) {
	v := j.cfg.Validation
	tuned, err := j.tunedPlayer()
	if err != nil {
		return nil, err
	}
	opps, notes, err := j.opponents(recs)
	if err != nil {
		return nil, err
	}
	var play []opponent
	for _, o := range opps {
		if why := j.identical(tuned, o.player); why != "" {
			notes = append(notes, fmt.Sprintf("%q was skipped: identical settings: nothing to verify (%s)", o.given, why))
			continue
		}
		play = append(play, o)
	}
	opps = play
	for _, n := range notes {
		j.logf("verification: %s\n", n)
	}
	var sprt *stats.SPRT
	if v.SPRT != "" {
		sp, err := stats.ParseSPRT(v.SPRT)
		if err != nil {
			return nil, fmt.Errorf("validation.sprt: %w", err)
		}
		sprt = &sp
	}
	depths, width := j.cfg.ladderDepths()
	clocks, err := j.cfg.ladderClocks()
	if err != nil {
		return nil, err
	}
	lr := &ladderResult{Rungs: []Rung{}, Notes: notes}
	if len(opps) == 0 {
		return lr, nil
	}
	ats := j.cfg.rungAts(depths, clocks)
	j.logf("verification ladder: %s, %d game pairs a rung\n", j.ladderLine(opps, depths, clocks, width), v.Pairs)
	if j.opts.Events.Verify != nil {
		j.opts.Events.Verify(2 * v.Pairs * len(opps) * len(ats))
	}
	if _, err := j.dir.MkdirAll(DirGames); err != nil {
		return nil, err
	}
	dir := j.dir.Path(DirPlots)
	for _, o := range opps {
		for _, a := range ats {
			d := a.depth
			k := len(lr.Rungs)
			sum, table, err := j.play(ctx, match{
				a: tuned, b: o.player, depth: d, width: width, tc: a.tc, pairs: v.Pairs,
				seed: uint64(j.cfg.Seed) ^ verificationSeed ^ uint64(k)*seedMix,
				sprt: sprt, progress: j.opts.Events.Games,
			})
			if err != nil {
				return nil, err
			}
			m := sum.Matchups[0]
			r := Rung{Opponent: o.given, Depth: d, Width: width, Clock: a.tc.String(), Summary: sum, Verdict: Verdict(m.Elo, m.EloCI)}
			lr.Rungs = append(lr.Rungs, r)
			name := rungLogName(o.slug, r)
			if err := results.WriteJSONL(j.dir.Path(DirGames, name+".jsonl"), table.Games); err != nil {
				return nil, err
			}
			if k == 0 {
				if err := results.WriteJSONAtomic(j.dir.Path(FileValidation), sum); err != nil {
					return nil, err
				}
			}
			at := r.At()
			if j.cfg.External != nil && r.Depth == 0 && r.Clock == "" {
				at = j.cfg.External.search()
			}
			j.logf("verification: vs %s at %s: %s\n", m.B, at, rungLine(r))
			if j.opts.Events.Rung != nil {
				j.opts.Events.Rung(r, len(lr.Rungs), len(opps)*len(ats))
			}
			c, err := rungLLRChart(o.slug, r, table.Games)
			if err != nil {
				return nil, err
			}
			if c != nil {
				ref, err := savePlot(dir, c.Name, c.Chart, c.Title)
				if err != nil {
					return nil, err
				}
				lr.plots = append(lr.plots, ref)
			}
		}
	}
	if err := results.WriteJSONAtomic(j.dir.Path(FileLadder), lr.Rungs); err != nil {
		return nil, err
	}
	lc := ladderChart(lr.Rungs)
	ref, err := savePlot(dir, lc.Name, lc.Chart, lc.Title)
	if err != nil {
		return nil, err
	}
	lr.plots = append([]plotRef{ref}, lr.plots...)
	return lr, nil
}

// ladderLine is who the ladder plays and how they search: "tuned vs
// zhou2015, halfway at depth 2 and 3, width 10", or for an [external] run
// "tuned (the options Width and DefendWide of ./roadtune-engine) vs
// defaults, the external engine at depth 2 (its argument -depth 2)", with
// in-process baselines' depth and width when it plays any.
func (j *Job) ladderLine(opps []opponent, depths []int, clocks []tournament.TimeControl, width int) string {
	vs := strings.Join(names(opps), ", ")
	if j.cfg.External == nil {
		return fmt.Sprintf("tuned vs %s at depth %s%s, width %d", vs, joinInts(depths), clocksText(clocks), width)
	}
	s := fmt.Sprintf("tuned (%s) vs %s, the external engine at %s", j.cfg.tunedText(), vs, j.cfg.External.search())
	if slices.ContainsFunc(opps, func(o opponent) bool { return !o.external && o.other == nil }) {
		s += fmt.Sprintf(", roadtune's in-process engine at depth %d, width %d", j.cfg.Engine.Depth, width)
	}
	return s + clocksText(clocks)
}

// identical says why the tuned player and an opponent would play the
// same games, "" when they would not (or it cannot tell): the [external]
// engine with the same values as they reach it (the opponent at its
// defaults: the defaults it listed), or the in-process engine with the
// same road weights and search settings. Colour-swapped pairs of such
// deterministic twins split 1–1, and a match between them measures
// nothing: its interval would have zero width.
func (j *Job) identical(tuned, o player) string {
	c := j.cfg
	switch {
	case tuned.other != nil || o.other != nil || tuned.external != o.external:
		return ""
	case tuned.external:
		a, b := c.playedValues(tuned.vec), c.playedValues(o.vec)
		if a == nil || b == nil || !slices.Equal(a, b) {
			return ""
		}
		if o.vec == nil {
			return fmt.Sprintf("the tuned values %s are the engine's defaults", c.formatVector(tuned.vec))
		}
		return fmt.Sprintf("the tuned values %s are %s's", c.formatVector(tuned.vec), o.name)
	}
	sa, err := c.playerSettings(tuned.vec, c.Engine.Depth, c.Engine.Width)
	if err != nil {
		return ""
	}
	sb, err := c.playerSettings(o.vec, c.Engine.Depth, c.Engine.Width)
	if err != nil || sa != sb || tuned.weights.Schema != o.weights.Schema || !slices.Equal(tuned.weights.Genes, o.weights.Genes) {
		return ""
	}
	return fmt.Sprintf("the tuned vector has %s's road weights and search settings", o.name)
}

// rungAt is what a rung of an opponent plays at: a depth, or a clock
// with the engine depth as the deepest iteration.
type rungAt struct {
	depth int
	tc    tournament.TimeControl
}

// rungAts are the rungs of an opponent: each depth, then each clock at
// the engine depth as the deepest iteration.
func (c *Config) rungAts(depths []int, clocks []tournament.TimeControl) []rungAt {
	var ats []rungAt
	for _, d := range depths {
		ats = append(ats, rungAt{depth: d})
	}
	for _, tc := range clocks {
		ats = append(ats, rungAt{depth: c.Engine.Depth, tc: tc})
	}
	return ats
}

func names(opps []opponent) []string {
	out := make([]string, len(opps))
	for i, o := range opps {
		out[i] = o.name
	}
	return out
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " and ")
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

// rungLine is the console line of a rung.
func rungLine(r Rung) string {
	m := r.Match()
	s := fmt.Sprintf("%d games W/D/L %d/%d/%d, score %.1f%%, Elo %s, LOS %.1f%% — %s",
		m.N, m.Games.W, m.Games.D, m.Games.L, 100*m.Score, EloText(m, 1), 100*m.LOS, r.Verdict)
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

// ladderChart draws every rung's Elo with its 95% interval, the bars of
// an opponent grouped under its name, one colour per depth, and the 0 Elo
// line.
func ladderChart(rungs []Rung) results.NamedChart {
	bars := make([]results.Bar, len(rungs))
	for i, r := range rungs {
		m := r.Match()
		bars[i] = results.Bar{Label: fmt.Sprintf("%s %s", m.B, r.tag()), Group: m.B, Series: r.At(),
			Value: m.Elo, Lo: m.Elo - m.EloCI, Hi: m.Elo + m.EloCI}
	}
	return results.NamedChart{Name: "ladder", Title: "Verification ladder: Elo with 95% interval per opponent and depth", Chart: results.BarChart{
		Title:   "Verification ladder: Elo of the tuned vector",
		YLabel:  "Elo",
		Bars:    bars,
		RefLine: &results.HLine{Name: "0 Elo", Y: 0},
	}}
}

// rungLLRChart is the chart of a rung's SPRT (results.LLRChart of
// tournament.LLRHistory over the rung's games): its log-likelihood ratio
// after each completed game pair, named "sprt-<opponent slug>-d<depth>";
// nil when the rung played no SPRT or completed no pair.
func rungLLRChart(slug string, r Rung, games []tournament.GameRecord) (*results.NamedChart, error) {
	t := r.Summary.SPRT
	if t == nil {
		return nil, nil
	}
	xs, ys, err := tournament.LLRHistory(games, t.Test())
	if err != nil || len(xs) == 0 {
		return nil, err
	}
	title := fmt.Sprintf("SPRT against %s at %s", r.Match().B, r.At())
	return &results.NamedChart{Name: fmt.Sprintf("sprt-%s-%s", slug, r.tag()), Title: title + ": log-likelihood ratio",
		Chart: results.LLRChart(title+": log-likelihood ratio against games", t.Test().String(), xs, ys, t.Lower, t.Upper)}, nil
}

// rungSlugs are the opponents' slugs of a ladder's rungs, as the ladder
// named their game logs and charts: slug, numbered from 2 when two
// opponents share one.
func rungSlugs(rungs []Rung) []string {
	byGiven := map[string]string{}
	taken := map[string]bool{}
	out := make([]string, len(rungs))
	for i, r := range rungs {
		s, ok := byGiven[r.Opponent]
		if !ok {
			s = slug(r.Opponent)
			for base, k := s, 2; taken[s]; k++ {
				s = fmt.Sprintf("%s-%d", base, k)
			}
			taken[s], byGiven[r.Opponent] = true, s
		}
		out[i] = s
	}
	return out
}

// rungLogName is the base name of a rung's games log under games/:
// "ladder-zhou2015-d3", "ladder-zhou2015-st0.05".
func rungLogName(slug string, r Rung) string {
	return fmt.Sprintf("ladder-%s-%s", slug, r.tag())
}

// clocksText is " and by the clock st=0.05, tc=2+0.02" for the ladder's
// timed rungs, "" for none.
func clocksText(clocks []tournament.TimeControl) string {
	if len(clocks) == 0 {
		return ""
	}
	s := make([]string, len(clocks))
	for i, tc := range clocks {
		s[i] = tc.String()
	}
	return " and by the clock " + strings.Join(s, ", ")
}
