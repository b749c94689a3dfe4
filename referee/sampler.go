package referee

import (
	"context"
	"fmt"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// Sample plays the matches as Play does (the same games and outcomes) and
// returns the positions of every game for Texel tuning (optimize.Sampler):
// each position where a player takes over, from the end of the opening to
// the last move, seen from both sides (Tempo +1 for the side to move, −1
// for the other), labelled with that side's game result. Positions already
// decided are dropped (as the chessprogramming wiki's "Texel's Tuning Method"
// drops decided positions): the side to move has
// a live road of 4 or 5 stones (it completes six now), or its opponent has
// three or more threats (engine.Board.Threats: two stones cannot stop
// them). Positions where the opponent has one or two threats are kept, so
// the weights of 4- and 5-stone roads can be learned. Features are
// engine.Features of match A's vector (for the dual schema, A's judge picks
// the set).
func (r *VectorReferee) Sample(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, []optimize.Position, error) {
	return r.SampleRange(ctx, seed, Range{Total: len(matches)}, matches)
}

// SampleRange plays matches [rg.First, rg.First+len(matches)) of a batch
// of rg.Total matches as Sample plays them inside the whole batch (see
// Range) and returns their outcomes and the positions of their games, in
// game order, with Game numbered in the whole batch. The positions of a
// batch played in ranges, merged by a stable sort on Game, are Sample's of
// the whole batch. Errors: those of Sample, and a range that does not fit.
func (r *VectorReferee) SampleRange(ctx context.Context, seed uint64, rg Range, matches []optimize.Match) ([]optimize.Outcome, []optimize.Position, error) {
	if len(matches) == 0 {
		return nil, nil, nil
	}
	if r.External != nil {
		return nil, nil, fmt.Errorf("referee: positions are the road features of the in-process engine's vectors, and this referee tunes the external engine %s", r.External.Program)
	}
	if len(r.Params) > 0 || r.Fixed != nil {
		return nil, nil, fmt.Errorf("referee: positions are the road features of the vectors played, and this referee's vectors are search parameters")
	}
	t, games, err := r.run(ctx, seed, rg, matches, true)
	if err != nil {
		return nil, nil, err
	}
	out, err := outcomes(t, len(matches))
	if err != nil {
		return nil, nil, err
	}
	judges := make([]engine.Weights, len(matches))
	for i, m := range matches {
		if judges[i], err = engine.NewWeights(r.Schema, m.A); err != nil {
			return nil, nil, fmt.Errorf("match %d, vector A: %w", rg.First+i, err)
		}
	}
	var pos []optimize.Position
	b := engine.NewBoard()
	for _, g := range games {
		// Entrants 2i and 2i+1 are match i's A and B (batch indices).
		if pos, err = appendPositions(pos, b, g, judges[g.BlackIndex/2-rg.First]); err != nil {
			return nil, nil, fmt.Errorf("game %d: %w", g.Game, err)
		}
	}
	return out, pos, nil
}

// appendPositions replays g on b and appends its undecided positions after
// the opening, both sides' views, features from w.
func appendPositions(pos []optimize.Position, b *engine.Board, g tournament.GameRecord, w engine.Weights) ([]optimize.Position, error) {
	opening := 0
	if g.Opening != "" {
		o, err := tournament.ParseOpening(g.Opening)
		if err != nil {
			return pos, err
		}
		opening = len(o.Moves)
	}
	b.Reset()
	for i, m := range g.Moves {
		if i >= opening && !b.Over() {
			stm := b.ToMove()
			if h := b.Histogram(stm); h[4]+h[5] == 0 && b.Threats(stm.Opponent()) < 3 {
				y := g.Result.Score(stm)
				pos = append(pos,
					optimize.Position{X: engine.Features(nil, w, b, stm), Tempo: 1, Y: y, Game: g.Game},
					optimize.Position{X: engine.Features(nil, w, b, stm.Opponent()), Tempo: -1, Y: 1 - y, Game: g.Game})
			}
		}
		if err := b.Play(m); err != nil {
			return pos, fmt.Errorf("move %d %s: %w", i, m, err)
		}
	}
	return pos, nil
}
