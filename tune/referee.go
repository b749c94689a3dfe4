package tune

import (
	"context"
	"fmt"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// VectorReferee plays matches between weight vectors for the optimizers
// (it implements optimize.Referee) with the in-process engine.
//
// A match is Pairs game pairs, colours swapped within each pair. The
// openings of a batch are drawn by its seed: the first Pairs openings of
// the generated 3-stone suite shuffled by the seed (tournament.SuiteFor:
// the smallest radius ≥ 3 with a distinct opening per pair, or radius
// OpeningRadius when set), or of Openings shuffled by the seed
// (tournament.ShuffleOpenings) when a suite is given; every match of the
// batch uses the same openings, so matches of a batch are comparable. All
// games of a batch go through one worker pool (tournament.Runner), so every
// core stays busy across matches, and the outcomes depend only on the seed,
// the matches and the settings, not on the concurrency (Settings must then
// have no MoveTime). The engines and their tables are allocated by the
// first batch and reused by the next ones; use a VectorReferee by pointer.
type VectorReferee struct {
	Schema   engine.Schema
	Settings engine.Settings
	// Pairs is the number of game pairs per match (default 1).
	Pairs int
	// OpeningRadius is the Chebyshev radius of White's stones in the
	// generated suite; 0 picks the smallest radius ≥ 3 with at least Pairs
	// openings (tournament.SuiteFor), so no opening of a match repeats.
	OpeningRadius int
	// Openings, when not empty, replaces the generated suite.
	Openings []tournament.Opening
	// MaxMoves adjudicates a draw after this many moves (0 = none).
	MaxMoves int
	// Concurrency is the number of games at once (default GOMAXPROCS).
	Concurrency int
	// Progress, when set, is told the games done and the games of the batch.
	Progress func(done, total int)
	// GameLog, when set, receives every game of the batch in game order;
	// matches are named "m<index>.A" and "m<index>.B". An error stops the
	// batch.
	GameLog func(tournament.GameRecord) error

	engines tournament.EnginePool // engines kept between batches
}

var _ optimize.Referee = (*VectorReferee)(nil)

// BatchOpenings returns the openings a batch with this seed plays, pair k
// of every match from opening k.
func (r *VectorReferee) BatchOpenings(seed uint64) ([]tournament.Opening, error) {
	pairs := max(r.Pairs, 1)
	var suite []tournament.Opening
	if len(r.Openings) > 0 {
		suite = append([]tournament.Opening(nil), r.Openings...)
		tournament.ShuffleOpenings(suite, seed)
	} else if r.OpeningRadius == 0 {
		// The smallest suite (radius ≥ 3) with a distinct opening per pair.
		var err error
		if suite, _, err = tournament.SuiteFor(pairs, seed); err != nil {
			return nil, err
		}
	} else {
		var err error
		if suite, err = tournament.GenerateOpenings(r.OpeningRadius, seed); err != nil {
			return nil, err
		}
	}
	out := make([]tournament.Opening, pairs)
	for k := range out {
		out[k] = suite[k%len(suite)]
	}
	return out, nil
}

// Play plays every match and returns their outcomes from A's view, in the
// order of matches. Errors: a vector with the wrong number of genes or a
// NaN/Inf gene (naming the match), a cancelled ctx (wrapping ctx.Err()), a
// GameLog error.
func (r *VectorReferee) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	if len(matches) == 0 {
		return nil, nil
	}
	openings, err := r.BatchOpenings(seed)
	if err != nil {
		return nil, err
	}
	entrants := make([]tournament.Entrant, 0, 2*len(matches))
	for i, m := range matches {
		wa, err := engine.NewWeights(r.Schema, m.A)
		if err != nil {
			return nil, fmt.Errorf("match %d, vector A: %w", i, err)
		}
		wb, err := engine.NewWeights(r.Schema, m.B)
		if err != nil {
			return nil, fmt.Errorf("match %d, vector B: %w", i, err)
		}
		entrants = append(entrants,
			tournament.Entrant{Name: fmt.Sprintf("m%d.A", i), Weights: wa, Settings: r.Settings},
			tournament.Entrant{Name: fmt.Sprintf("m%d.B", i), Weights: wb, Settings: r.Settings})
	}
	pairs := max(r.Pairs, 1)
	fixtures := make([]tournament.Fixture, 0, pairs*len(matches))
	for k := range pairs {
		for i := range matches {
			fixtures = append(fixtures, tournament.Fixture{A: 2 * i, B: 2*i + 1, Opening: k})
		}
	}
	run := tournament.Runner{
		Entrants:    entrants,
		Openings:    openings,
		MaxMoves:    r.MaxMoves,
		Concurrency: r.Concurrency,
		Progress:    r.Progress,
		OnGame:      r.GameLog,
		Engines:     &r.engines,
	}
	t, err := run.Run(ctx, fixtures)
	if err != nil {
		return nil, err
	}
	out := make([]optimize.Outcome, len(matches))
	for i := range matches {
		m, ok := t.Lookup(2*i, 2*i+1)
		if !ok {
			return nil, fmt.Errorf("tune: match %d has no games", i)
		}
		out[i] = optimize.Outcome{Wins: m.Games.W, Draws: m.Games.D, Losses: m.Games.L}
	}
	return out, nil
}
