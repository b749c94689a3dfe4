package optimizetest

import (
	"context"
	"math"

	"github.com/roadtune/roadtune/optimize"
)

// BasinReferee is a deceptive problem with several basins: a vector's
// strength is u(x) = max_k (Heights[k] − dist(x, Peaks[k])/Widths[k]),
// dist the Euclidean distance (weight units), and A wins a game with
// probability 1/(1+exp((u(B)−u(A))/Temperature)). A broad low peak and a
// narrow high one make a run that starts in the broad basin converge to
// the weaker answer, as a weight vector in a weak basin does. Games are
// drawn as TargetReferee draws them (by the batch seed and the match
// index, or the OpeningSet), each match 2·Pairs games (Pairs 0 means 1);
// Games counts the games played.
type BasinReferee struct {
	Peaks       [][]float64
	Heights     []float64
	Widths      []float64
	Temperature float64
	Pairs       int
	Games       int
}

// Strength is u(x).
func (r *BasinReferee) Strength(x []float64) float64 {
	_, u := r.peak(x)
	return u
}

// Basin is the index of the peak whose term gives u(x).
func (r *BasinReferee) Basin(x []float64) int {
	k, _ := r.peak(x)
	return k
}

// peak is the peak whose term gives u(x), and u(x).
func (r *BasinReferee) peak(x []float64) (int, float64) {
	best, bu := 0, math.Inf(-1)
	for k, p := range r.Peaks {
		s := 0.0
		for d := range x {
			e := x[d] - p[d]
			s += e * e
		}
		if u := r.Heights[k] - math.Sqrt(s)/r.Widths[k]; u > bu {
			best, bu = k, u
		}
	}
	return best, bu
}

// Play implements optimize.Referee.
func (r *BasinReferee) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	return playByOdds(ctx, seed, matches, r.Pairs, r.Temperature, &r.Games, func(m optimize.Match) float64 {
		return r.Strength(m.A) - r.Strength(m.B)
	})
}

var _ optimize.Referee = (*BasinReferee)(nil)
