package optimizetest

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/roadtune/roadtune/optimize"
)

// LogisticSampler is a synthetic optimize.Sampler for testing methods that
// fit the evaluation to game results (Texel tuning) without an engine.
//
// Positions: every game has PerGame positions (0 means 10), each returned
// from both sides' view. Gene d's feature is round(Spread[d]·N(0,1))
// (Spread nil means 2 for every gene; a difference of small road counts),
// or always 0 where Zero[d] is true; Tempo is ±1 with even odds; Y is a
// win with probability σ(K·Σ_d Truth[d]·X[d] + Tempo·Tempo), the logistic
// model with the hidden truth; the other side's view is (−X, −Tempo,
// 1 − Y). So a fit to the positions recovers K·Truth, not Truth: the
// positions fix the evaluation's direction, its scale is the fit's gauge.
// Positions do not depend on the vectors that played.
//
// Outcomes: A wins a game with probability 1/(1+exp((dA − dB)/Temperature))
// (Temperature 0 means 0.1), where dX = Direction(X) is the distance between
// the unit vectors of X and of Truth: the closer in direction to the
// truth, the more often a vector wins, whatever its scale (a search does
// not care about the evaluation's scale). Each match lasts 2·Pairs games
// (Pairs 0 means 1), numbered i·2·Pairs + j within the batch for match i,
// game j.
//
// Everything is drawn from PCGs seeded by the batch seed and the match
// index, so Sample depends only on its seed and matches, and its outcomes
// are Play's. Games counts the games played and Calls the Play and Sample
// calls.
type LogisticSampler struct {
	Truth       []float64
	K           float64
	Tempo       float64
	Spread      []float64
	Zero        []bool
	PerGame     int
	Temperature float64
	Pairs       int
	Games       int
	Calls       int
}

// Direction is the distance between the unit vectors of x and of Truth
// (0 to 2; 1 for a zero x).
func (s *LogisticSampler) Direction(x []float64) float64 {
	nx, nt := norm(x), norm(s.Truth)
	if nx == 0 || nt == 0 {
		return 1
	}
	d := 0.0
	for i := range x {
		e := x[i]/nx - s.Truth[i]/nt
		d += e * e
	}
	return math.Sqrt(d)
}

func norm(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s)
}

// Play implements optimize.Referee.
func (s *LogisticSampler) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.Calls++
	temp := s.Temperature
	if temp <= 0 {
		temp = 0.1
	}
	games := 2 * max(s.Pairs, 1)
	out := make([]optimize.Outcome, len(matches))
	for i, m := range matches {
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		pA := 1 / (1 + math.Exp((s.Direction(m.A)-s.Direction(m.B))/temp))
		for range games {
			if rng.Float64() < pA {
				out[i].Wins++
			} else {
				out[i].Losses++
			}
		}
		s.Games += games
	}
	return out, nil
}

// Sample implements optimize.Sampler.
func (s *LogisticSampler) Sample(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, []optimize.Position, error) {
	out, err := s.Play(ctx, seed, matches)
	if err != nil {
		return nil, nil, err
	}
	per := s.PerGame
	if per <= 0 {
		per = 10
	}
	games := 2 * max(s.Pairs, 1)
	pos := make([]optimize.Position, 0, len(matches)*games*per*2)
	for i := range matches {
		rng := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, uint64(i)))
		for j := range games {
			game := i*games + j
			for range per {
				p := s.position(rng)
				p.Game = game
				q := optimize.Position{X: make([]float64, len(p.X)), Tempo: -p.Tempo, Y: 1 - p.Y, Game: game}
				for d, v := range p.X {
					q.X[d] = -v
				}
				pos = append(pos, p, q)
			}
		}
	}
	return out, pos, nil
}

// position draws one position from the logistic model.
func (s *LogisticSampler) position(rng *rand.Rand) optimize.Position {
	x := make([]float64, len(s.Truth))
	eta := 0.0
	for d := range x {
		spread := 2.0
		if s.Spread != nil {
			spread = s.Spread[d]
		}
		if s.Zero != nil && s.Zero[d] {
			continue
		}
		x[d] = math.Round(spread * rng.NormFloat64())
		eta += s.Truth[d] * x[d]
	}
	t := 1.0
	if rng.IntN(2) == 1 {
		t = -1
	}
	eta = s.K*eta + s.Tempo*t
	y := 0.0
	if rng.Float64() < 1/(1+math.Exp(-eta)) {
		y = 1
	}
	return optimize.Position{X: x, Tempo: t, Y: y}
}

var _ optimize.Sampler = (*LogisticSampler)(nil)
