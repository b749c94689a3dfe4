package tune

import (
	"context"
	"fmt"
	"time"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// verificationSeed separates the verification openings from the run's.
const verificationSeed = 0x76616c6964 // "valid"

// verification is the match of the tuned vector against the configured
// opponent: its summary (validation.json, the shape arena writes as
// summary.json) and its charts.
type verification struct {
	Summary tournament.Summary
	Match   tournament.MatchSummary // the tuned vector's view
	plots   []plotRef
}

// verify plays the checkpoint's best vector (never best.json, which a user
// may have edited) against the opponent over game pairs of fixed openings,
// at the verification depth and width, optionally stopping on the SPRT.
func (j *Job) verify(ctx context.Context) (*verification, error) {
	v := j.cfg.Validation
	schema, err := engine.ParseSchema(j.cfg.Schema)
	if err != nil {
		return nil, err
	}
	tuned, err := engine.NewWeights(schema, j.cp.Best)
	if err != nil {
		return nil, fmt.Errorf("the checkpoint's best vector: %w", err)
	}
	opp, err := configs.LoadWeights(v.Opponent)
	if err != nil {
		return nil, err
	}
	oppName := opp.Name
	if oppName == "" {
		oppName = v.Opponent
	}
	if oppName == "tuned" {
		oppName = "tuned#2"
	}
	depth, width := j.cfg.verifyDepthWidth()
	s := j.cfg.engineSettings(depth, width)
	// Distinct openings for every pair: a repeated opening replays a game.
	seed := uint64(j.cfg.Seed) ^ verificationSeed
	openings, radius, err := tournament.SuiteFor(v.Pairs, seed)
	if err != nil {
		return nil, err
	}
	r := &tournament.Runner{
		Entrants: []tournament.Entrant{
			{Name: "tuned", Weights: tuned, Settings: s},
			{Name: oppName, Weights: opp.Weights(), Settings: s},
		},
		Openings:    openings,
		MaxMoves:    j.cfg.Engine.MaxMoves,
		Concurrency: j.cfg.Concurrency,
		Progress:    j.opts.Events.Games,
	}
	if v.SPRT != "" {
		sp, err := stats.ParseSPRT(v.SPRT)
		if err != nil {
			return nil, fmt.Errorf("validation.sprt: %w", err)
		}
		r.SPRT = &sp
	}
	j.logf("verification: tuned vs %s, %d game pairs at depth %d, width %d\n", oppName, v.Pairs, depth, width)
	if j.opts.Events.Verify != nil {
		j.opts.Events.Verify(2 * v.Pairs)
	}
	start := time.Now()
	table, err := r.Run(ctx, tournament.HeadToHead(0, 1, v.Pairs))
	if err != nil {
		return nil, err
	}
	sum := tournament.Summarize(table, tournament.Summary{
		Schedule: "head-to-head",
		Players: []tournament.PlayerInfo{
			{Name: "tuned", Kind: "weights", Source: FileBest + " (the checkpoint's best vector)"},
			{Name: oppName, Kind: "weights", Source: v.Opponent},
		},
		Pairs:    v.Pairs,
		Openings: fmt.Sprintf("generated 3-stone suite, radius %d, seed %d (%d openings)", radius, seed, len(openings)),
		Depth:    depth,
		Width:    width,
		MaxMoves: j.cfg.Engine.MaxMoves,
		MoveTime: "0s",
		Seconds:  time.Since(start).Seconds(),
	})
	if len(sum.Matchups) != 1 {
		return nil, fmt.Errorf("no games were played")
	}
	val := &verification{Summary: sum, Match: sum.Matchups[0]}
	if _, err := j.dir.MkdirAll(DirGames); err != nil {
		return nil, err
	}
	if err := results.WriteJSONL(j.dir.Path(DirGames, "validation.jsonl"), table.Games); err != nil {
		return nil, err
	}
	if err := results.WriteJSONAtomic(j.dir.Path(FileValidation), sum); err != nil {
		return nil, err
	}
	j.logf("verification: %s\n", val.line())
	if val.plots, err = val.charts(j.dir.Path(DirPlots), table); err != nil {
		return nil, err
	}
	return val, nil
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

func (v *verification) line() string {
	m := v.Match
	verdict := Verdict(m.Elo, m.EloCI) + " than " + m.B
	if Verdict(m.Elo, m.EloCI) == "inconclusive" {
		verdict = "inconclusive: the 95% interval contains 0 (play more pairs, e.g. arena -sprt)"
	}
	s := fmt.Sprintf("%d games W/D/L %d/%d/%d, score %.1f%%, Elo %+.1f ± %.1f, LOS %.1f%% — %s",
		m.N, m.Games.W, m.Games.D, m.Games.L, 100*m.Score, m.Elo, m.EloCI, 100*m.LOS, verdict)
	if t := v.Summary.SPRT; t != nil {
		s += fmt.Sprintf("; SPRT LLR %.2f [%.2f, %.2f] %s", t.LLR, t.Lower, t.Upper, t.Decision)
	}
	return s
}

// charts draws the score bar with its 95% interval and, for an SPRT match,
// the LLR after every completed game pair.
func (v *verification) charts(dir string, table *tournament.Table) ([]plotRef, error) {
	m := v.Match
	lo, hi := 0.0, 100.0
	bar := results.BarChart{
		Title:  fmt.Sprintf("Verification: tuned vs %s (%d games)", m.B, m.N),
		YLabel: "score of the tuned vector (%)",
		Bars: []results.Bar{{
			Label: "tuned vs " + m.B,
			Value: 100 * m.Score,
			Lo:    100 * max(0, min(m.Score, m.ScoreLo)),
			Hi:    100 * min(1, max(m.Score, m.ScoreHi)),
		}},
		RefLine: &results.HLine{Name: "50%", Y: 50},
		YMin:    &lo, YMax: &hi,
	}
	ref, err := savePlot(dir, "validation", bar, "Verification match: score with 95% interval")
	if err != nil {
		return nil, err
	}
	refs := []plotRef{ref}
	if table.SPRT == nil {
		return refs, nil
	}
	// LLR after each completed pair, in pair order (as the runner decides).
	var penta stats.Pentanomial
	first := map[int]float64{}
	var xs, ys []float64
	for _, g := range table.Games {
		c := engine.White
		if g.BlackIndex == 0 {
			c = engine.Black
		}
		s := g.Result.Score(c)
		f, ok := first[g.Pair]
		if !ok {
			first[g.Pair] = s
			continue
		}
		if err := penta.Add(f, s); err != nil {
			return nil, err
		}
		llr, _, err := table.SPRT.SPRT.Test(penta.Counts())
		if err != nil {
			return nil, err
		}
		xs = append(xs, float64(2*penta.N()))
		ys = append(ys, llr)
	}
	if len(xs) == 0 {
		return refs, nil
	}
	llr := results.LineChart{
		Title: "SPRT: log-likelihood ratio against games", XLabel: "games", YLabel: "LLR",
		Series: []results.Series{{Name: "LLR", X: xs, Y: ys}},
		HLines: []results.HLine{{Name: "accept H1", Y: table.SPRT.Upper}, {Name: "accept H0", Y: table.SPRT.Lower}},
	}
	ref, err = savePlot(dir, "sprt", llr, "SPRT log-likelihood ratio")
	if err != nil {
		return nil, err
	}
	return append(refs, ref), nil
}
