package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// scoreClamp bounds μ before the Elo transform (fishtest stat_util.elo).
const scoreClamp = 1e-3

// regularEps replaces zero counts (fishtest LLRcalc.regularize).
const regularEps = 1e-3

// EloFromScore returns the logistic Elo difference −400·log10(1/μ − 1) for an
// expected score μ per game in [0,1], with μ clamped to [1e-3, 1−1e-3] so the
// result stays within about ±1200 Elo (fishtest stat_util.elo;
// statistics.md "Score, Elo").
func EloFromScore(mu float64) float64 {
	mu = math.Max(mu, scoreClamp)
	mu = math.Min(mu, 1-scoreClamp)
	return -400 * math.Log10(1/mu-1)
}

// ScoreFromElo returns the expected score per game L(x) = 1/(1+10^(−x/400))
// for a logistic Elo difference x (fishtest LLRcalc.L_).
func ScoreFromElo(elo float64) float64 {
	return 1 / (1 + math.Pow(10, -elo/400))
}

// Estimate summarises a match result from player A's view.
type Estimate struct {
	N       int     // games (trinomial counts) or game pairs (pentanomial counts)
	Score   float64 // μ, expected score per game in [0,1]
	Elo     float64 // logistic Elo difference, A minus B
	EloCI   float64 // ± half-width of the 95% interval, in Elo: (EloHi − EloLo)/2
	EloLo   float64 // lower end of the 95% interval, in Elo
	EloHi   float64 // upper end of the 95% interval, in Elo
	ScoreLo float64 // lower end of the 95% interval of μ (not clamped)
	ScoreHi float64 // upper end of the 95% interval of μ (not clamped)
	LOS     float64 // likelihood of superiority Φ((μ−½)/(σ/√games)) in [0,1]
}

// String formats the estimate for logs, e.g.
// "N=100 score=0.550 Elo=+34.9 ±68.0 LOS=0.94".
func (e Estimate) String() string {
	return fmt.Sprintf("N=%d score=%.3f Elo=%+.1f ±%.1f LOS=%.2f", e.N, e.Score, e.Elo+0, e.EloCI, e.LOS) // +0 turns −0 into 0
}

// EstimateCounts computes score, Elo, its 95% interval and LOS from trinomial
// counts [L, D, W] (len 3) or pentanomial counts [LL, LD, WL+DD, WD, WW]
// (len 5), following fishtest stat_util.get_elo: zero counts are regularised
// to 1e-3; with games = N·(len−1)/2, μ = Σ cᵢ·(i/2)/games and the per-game
// variance σ² = Σ cᵢ·(i/2 − μ·(len−1)/2)²/games (for pairs this is half the
// variance of the pair total, statistics.md "Pentanomial"); the interval is
// μ ± Φ⁻¹(0.975)·σ/√games mapped through EloFromScore.
//
// It returns an error if counts has another length, holds a negative count,
// or sums to zero.
func EstimateCounts(counts []int) (Estimate, error) {
	n, err := checkCounts(counts)
	if err != nil {
		return Estimate{}, err
	}
	if n == 0 {
		return Estimate{}, fmt.Errorf("stats: counts %v: no games", counts)
	}
	r := regularize(counts)
	l := len(r)
	total := 0.0
	for _, c := range r {
		total += c
	}
	games := total * float64(l-1) / 2
	mu := 0.0
	for i, c := range r {
		mu += c * (float64(i) / 2)
	}
	mu /= games
	muPair := float64(l-1) / 2 * mu
	variance := 0.0
	for i, c := range r {
		d := float64(i)/2 - muPair
		variance += c * d * d
	}
	variance /= games
	se := math.Sqrt(variance) / math.Sqrt(games)

	lo := mu + distuv.UnitNormal.Quantile(0.025)*se
	hi := mu + distuv.UnitNormal.Quantile(0.975)*se
	e := Estimate{
		N:       n,
		Score:   mu,
		Elo:     EloFromScore(mu),
		EloLo:   EloFromScore(lo),
		EloHi:   EloFromScore(hi),
		ScoreLo: lo,
		ScoreHi: hi,
		LOS:     distuv.UnitNormal.CDF((mu - 0.5) / se),
	}
	e.EloCI = (e.EloHi - e.EloLo) / 2
	return e, nil
}

// checkCounts validates a trinomial or pentanomial count vector and returns
// its sum.
func checkCounts(counts []int) (int, error) {
	if len(counts) != 3 && len(counts) != 5 {
		return 0, fmt.Errorf("stats: counts has length %d, want 3 [L, D, W] or 5 [LL, LD, WL+DD, WD, WW]", len(counts))
	}
	n := 0
	for i, c := range counts {
		if c < 0 {
			return 0, fmt.Errorf("stats: counts[%d] = %d is negative", i, c)
		}
		n += c
	}
	return n, nil
}

// regularize converts counts to floats, replacing each zero by 1e-3
// (fishtest LLRcalc.regularize).
func regularize(counts []int) []float64 {
	r := make([]float64, len(counts))
	for i, c := range counts {
		if c == 0 {
			r[i] = regularEps
		} else {
			r[i] = float64(c)
		}
	}
	return r
}
