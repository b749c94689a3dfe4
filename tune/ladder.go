package tune

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/report"
)

// ladderResult is the ladder of a run: its rungs, notes on opponents that
// were not played, and its charts.
type ladderResult struct {
	Rungs []ladder.Rung
	Notes []string
	plots []report.Plot
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
		o.slug = ladder.Slug(given)
		if o.other != nil {
			o.slug = ladder.Slug(o.name)
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
	lr := &ladderResult{Rungs: []ladder.Rung{}, Notes: notes}
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
			r := ladder.Rung{Opponent: o.given, Depth: d, Width: width, Clock: a.tc.String(), Summary: sum, Verdict: ladder.Verdict(m.Elo, m.EloCI)}
			lr.Rungs = append(lr.Rungs, r)
			name := ladder.LogName(o.slug, r)
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
			j.logf("verification: vs %s at %s: %s\n", m.B, at, r.Line())
			if j.opts.Events.Rung != nil {
				j.opts.Events.Rung(r, len(lr.Rungs), len(opps)*len(ats))
			}
			c, err := ladder.LLRChart(o.slug, r, table.Games)
			if err != nil {
				return nil, err
			}
			if c != nil {
				ref, err := report.SavePlot(dir, c.Name, c.Chart, c.Title)
				if err != nil {
					return nil, err
				}
				lr.plots = append(lr.plots, ref)
			}
		}
	}
	if err := results.WriteJSONAtomic(j.dir.Path(ladder.File), lr.Rungs); err != nil {
		return nil, err
	}
	lc := ladder.Chart(lr.Rungs)
	ref, err := report.SavePlot(dir, lc.Name, lc.Chart, lc.Title)
	if err != nil {
		return nil, err
	}
	lr.plots = append([]report.Plot{ref}, lr.plots...)
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
		return fmt.Sprintf("tuned vs %s at depth %s%s, width %d", vs, joinInts(depths), ladder.ClocksText(clocks), width)
	}
	s := fmt.Sprintf("tuned (%s) vs %s, the external engine at %s", j.cfg.tunedText(), vs, j.cfg.External.search())
	if slices.ContainsFunc(opps, func(o opponent) bool { return !o.external && o.other == nil }) {
		s += fmt.Sprintf(", roadtune's in-process engine at depth %d, width %d", j.cfg.Engine.Depth, width)
	}
	return s + ladder.ClocksText(clocks)
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
