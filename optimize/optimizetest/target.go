package optimizetest

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/roadtune/roadtune/optimize"
)

// TargetReferee decides each game by distance to Target: A wins a game with
// probability 1/(1+exp((dA−dB)/Temperature)), where dX is the Euclidean
// distance of X to Target after scaling gene d by 1/Scale[d] (Scale nil means
// 1). Games are drawn from a PCG seeded by the batch seed and the match
// index (a match with an OpeningSet k > 0: by the seed and k, so the matches
// of a set draw the same numbers, as the real referee's share openings and
// a stronger A then scores at least as well as a weaker one), so the
// outcomes depend only on seed and matches. Each match lasts
// 2·Pairs games (Pairs 0 means 1). Games counts the games played.
type TargetReferee struct {
	Target      []float64
	Scale       []float64
	Temperature float64
	Pairs       int
	Games       int
}

// Distance is the scaled distance of x to the target.
func (r *TargetReferee) Distance(x []float64) float64 {
	s := 0.0
	for d := range x {
		e := x[d] - r.Target[d]
		if r.Scale != nil {
			e /= r.Scale[d]
		}
		s += e * e
	}
	return math.Sqrt(s)
}

// Play implements optimize.Referee.
func (r *TargetReferee) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	return playByOdds(ctx, seed, matches, r.Pairs, r.Temperature, &r.Games, func(m optimize.Match) float64 {
		return r.Distance(m.B) - r.Distance(m.A)
	})
}

// playByOdds plays every match as 2·pairs games (pairs 0 means 1) that A
// wins with probability 1/(1+exp(−margin(match)/temp)) (temp ≤ 0 means
// 1), drawn from a PCG seeded by the batch seed and the match index, or
// by the seed and the match's OpeningSet (so the matches of a set draw
// the same numbers, as the real referee's share openings); games counts
// the games played.
func playByOdds(ctx context.Context, seed uint64, matches []optimize.Match, pairs int, temp float64, games *int, margin func(optimize.Match) float64) ([]optimize.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if temp <= 0 {
		temp = 1
	}
	pairs = max(pairs, 1)
	out := make([]optimize.Outcome, len(matches))
	for i, m := range matches {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		if m.OpeningSet > 0 {
			rng = rand.New(rand.NewPCG(seed^0x6f70656e73657473, uint64(m.OpeningSet)))
		}
		p := 1 / (1 + math.Exp(-margin(m)/temp))
		for range 2 * pairs {
			if rng.Float64() < p {
				out[i].Wins++
			} else {
				out[i].Losses++
			}
		}
		*games += 2 * pairs
	}
	return out, nil
}

var _ optimize.Referee = (*TargetReferee)(nil)
