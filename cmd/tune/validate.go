package main

import (
	"context"
	"fmt"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// validation is the match of the tuned vector against the opponent, written
// to validation.json.
type validation struct {
	Opponent string                 `json:"opponent"`
	Pairs    int                    `json:"pairs"`
	Depth    int                    `json:"depth"`
	Width    int                    `json:"width"`
	Games    stats.WDL              `json:"games"`    // the tuned vector's view
	AsBlack  stats.WDL              `json:"as_black"` // games the tuned vector had Black
	AsWhite  stats.WDL              `json:"as_white"`
	Penta    []int                  `json:"pentanomial"` // [LL, LD, WL+DD, WD, WW]
	Estimate stats.Estimate         `json:"estimate"`
	SPRT     *tournament.SPRTStatus `json:"sprt,omitempty"`
	Seconds  float64                `json:"seconds"`
	plots    []plotRef
}

// validationSeed separates the validation openings from the run's.
const validationSeed = 0x76616c6964 // "valid"

func (j *job) validate(ctx context.Context) (*validation, error) {
	v := j.cfg.Validation
	bestFile, err := engine.LoadWeightFile(j.dir.Path(fileBest))
	if err != nil {
		return nil, err
	}
	opp, oppName, err := opponentWeights(v.Opponent)
	if err != nil {
		return nil, err
	}
	depth, width := v.Depth, v.Width
	if depth == 0 {
		depth = j.cfg.Engine.Depth
	}
	if width == 0 {
		width = j.cfg.Engine.Width
	}
	s := engineSettings(j.cfg, depth, width)
	// Distinct openings for every pair: a repeated opening replays a game.
	openings, _, err := tournament.SuiteFor(v.Pairs, j.cfg.Seed^validationSeed)
	if err != nil {
		return nil, err
	}
	r := &tournament.Runner{
		Entrants: []tournament.Entrant{
			{Name: "tuned", Weights: bestFile.Weights(), Settings: s},
			{Name: oppName, Weights: opp, Settings: s},
		},
		Openings:    openings,
		MaxMoves:    j.cfg.Engine.MaxMoves,
		Concurrency: j.cfg.Concurrency,
		Progress:    j.prog.Update,
	}
	if v.SPRT != "" {
		sp, err := stats.ParseSPRT(v.SPRT)
		if err != nil {
			return nil, fmt.Errorf("validation.sprt: %w", err)
		}
		r.SPRT = &sp
	}
	fmt.Fprintf(j.opts.Stdout, "validation: tuned vs %s, %d game pairs at depth %d, width %d\n", oppName, v.Pairs, depth, width)
	start := time.Now()
	j.prog.Begin("validation", 2*v.Pairs)
	table, err := r.Run(ctx, tournament.HeadToHead(0, 1, v.Pairs))
	j.prog.End()
	if err != nil {
		return nil, err
	}
	mu, ok := table.Lookup(0, 1)
	if !ok {
		return nil, fmt.Errorf("no games were played")
	}
	est, err := mu.Estimate()
	if err != nil {
		return nil, err
	}
	val := &validation{
		Opponent: oppName, Pairs: mu.Pairs.N(), Depth: depth, Width: width,
		Games: mu.Games, AsBlack: mu.AsBlack, AsWhite: mu.AsWhite,
		Penta: mu.Pairs.Counts(), Estimate: est, SPRT: table.SPRT,
		Seconds: time.Since(start).Seconds(),
	}
	if _, err := j.dir.MkdirAll(dirGames); err != nil {
		return nil, err
	}
	if err := results.WriteJSONL(j.dir.Path(dirGames, "validation.jsonl"), table.Games); err != nil {
		return nil, err
	}
	if err := results.WriteJSONAtomic(j.dir.Path(fileValidation), val); err != nil {
		return nil, err
	}
	fmt.Fprintf(j.opts.Stdout, "validation: %s\n", val.line())
	if val.plots, err = val.charts(j.dir.Path(dirPlots), table); err != nil {
		return nil, err
	}
	return val, nil
}

// score is the tuned vector's raw share of the points, in [0, 1]
// (Estimate.Score is fishtest's, with zero counts regularised).
func (v *validation) score() float64 {
	return (float64(v.Games.W) + 0.5*float64(v.Games.D)) / float64(max(v.Games.N(), 1))
}

func (v *validation) line() string {
	s := fmt.Sprintf("%d games W/D/L %d/%d/%d, score %.1f%%, Elo %+.1f ± %.1f, LOS %.1f%%",
		v.Games.N(), v.Games.W, v.Games.D, v.Games.L, 100*v.score(), v.Estimate.Elo, v.Estimate.EloCI, 100*v.Estimate.LOS)
	if v.SPRT != nil {
		s += fmt.Sprintf(", SPRT LLR %.2f [%.2f, %.2f] %s", v.SPRT.LLR, v.SPRT.Lower, v.SPRT.Upper, v.SPRT.Decision)
	}
	return s
}

// charts draws the win-rate bar with its 95% interval and, for an SPRT
// match, the LLR after every completed game pair.
func (v *validation) charts(dir string, table *tournament.Table) ([]plotRef, error) {
	half := 50.0
	lo, hi := 0.0, 100.0
	bar := results.BarChart{
		Title:  fmt.Sprintf("Validation: tuned vs %s (%d games)", v.Opponent, v.Games.N()),
		YLabel: "score of the tuned vector (%)",
		Bars: []results.Bar{{
			Label: "tuned vs " + v.Opponent,
			Value: 100 * v.score(),
			Lo:    100 * max(0, min(v.score(), v.Estimate.ScoreLo)),
			Hi:    100 * min(1, max(v.score(), v.Estimate.ScoreHi)),
		}},
		RefLine: &results.HLine{Name: "50%", Y: half},
		YMin:    &lo, YMax: &hi,
	}
	ref, err := savePlot(dir, "validation", bar, "Validation match: score with 95% interval")
	if err != nil {
		return nil, err
	}
	refs := []plotRef{ref}
	if v.SPRT == nil {
		return refs, nil
	}
	// LLR after each completed pair, in pair order (as the runner decides).
	var penta stats.Pentanomial
	first := map[int]float64{}
	var xs, ys []float64
	for _, g := range table.Games {
		s := g.Result.Score(colourOf(g, 0))
		if f, ok := first[g.Pair]; ok {
			_ = penta.Add(f, s)
			llr, _, err := v.SPRT.SPRT.Test(penta.Counts())
			if err != nil {
				return nil, err
			}
			xs = append(xs, float64(2*penta.N()))
			ys = append(ys, llr)
		} else {
			first[g.Pair] = s
		}
	}
	if len(xs) == 0 {
		return refs, nil
	}
	llr := results.LineChart{
		Title: "SPRT: log-likelihood ratio against games", XLabel: "games", YLabel: "LLR",
		Series: []results.Series{{Name: "LLR", X: xs, Y: ys}},
		HLines: []results.HLine{{Name: "accept H1", Y: v.SPRT.Upper}, {Name: "accept H0", Y: v.SPRT.Lower}},
	}
	ref, err = savePlot(dir, "sprt", llr, "SPRT log-likelihood ratio")
	if err != nil {
		return nil, err
	}
	return append(refs, ref), nil
}

// colourOf is the colour entrant e had in game g.
func colourOf(g tournament.GameRecord, e int) engine.Color {
	if g.BlackIndex == e {
		return engine.Black
	}
	return engine.White
}
