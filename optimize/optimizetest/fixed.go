package optimizetest

import (
	"context"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// FixedReferee answers Outcome for every match, whatever the vectors. It
// counts its Play calls and keeps the seed and a copy of the matches of the
// last one. Err, when set, is returned instead (the call is not counted).
// It is for checking an optimizer's arithmetic against a hand-worked step,
// and for benchmarks that should play no games.
type FixedReferee struct {
	Outcome optimize.Outcome
	Err     error
	Calls   int
	Seed    uint64
	Matches []optimize.Match
}

// Play implements optimize.Referee.
func (r *FixedReferee) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.Err != nil {
		return nil, r.Err
	}
	r.Calls++
	r.Seed = seed
	r.Matches = r.Matches[:0]
	out := make([]optimize.Outcome, len(matches))
	for i, m := range matches {
		r.Matches = append(r.Matches, optimize.Match{A: slices.Clone(m.A), B: slices.Clone(m.B)})
		out[i] = r.Outcome
	}
	return out, nil
}

var _ optimize.Referee = (*FixedReferee)(nil)
