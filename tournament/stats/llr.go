package stats

import (
	"fmt"
	"math"
)

// neloPerT converts a normalised t-value to normalised Elo: 800/ln 10
// (fishtest LLRcalc.nelo_divided_by_nt).
const neloPerT = 800 / math.Ln10

// tValueIterations and tValueTol are fishtest's MLE_t_value fixed-point
// limits: at most 10 rounds, stop when no probability moves by 1e-9.
const (
	tValueIterations = 10
	tValueTol        = 1e-9
)

// LLRLogistic returns the generalised log-likelihood ratio of H1: Elo = elo1
// against H0: Elo = elo0 (logistic Elo, A minus B) for trinomial counts
// [L, D, W] or pentanomial counts [LL, LD, WL+DD, WD, WW] (fishtest
// LLRcalc.LLR_logistic; statistics.md "SPRT"). With s = L(elo) the expected
// score per game, the empirical distribution p̂ (zero counts regularised to
// 1e-3) is projected to the maximum likelihood distributions p0, p1 with
// expectation s0, s1 (MLE_expected), and LLR = N·Σ p̂ᵢ·(ln p1ᵢ − ln p0ᵢ),
// N the regularised number of games or pairs.
//
// All-zero counts give 0 (no evidence), where fishtest would evaluate the
// regularised 1e-3 prior. It returns an error for a count vector of the wrong
// length or with a negative entry.
func LLRLogistic(counts []int, elo0, elo1 float64) (float64, error) {
	n, err := checkCounts(counts)
	if err != nil || n == 0 {
		return 0, err
	}
	total, values, phat := resultsToPDF(counts)
	p0, err := mleExpected(values, phat, ScoreFromElo(elo0))
	if err != nil {
		return 0, fmt.Errorf("stats: LLR for counts %v at elo0 %g: %w", counts, elo0, err)
	}
	p1, err := mleExpected(values, phat, ScoreFromElo(elo1))
	if err != nil {
		return 0, fmt.Errorf("stats: LLR for counts %v at elo1 %g: %w", counts, elo1, err)
	}
	return total * llrPerSample(phat, p0, p1), nil
}

// LLRNormalized returns the generalised log-likelihood ratio of
// H1: nElo = nelo1 against H0: nElo = nelo0 in normalised Elo for trinomial
// or pentanomial counts (fishtest LLRcalc.LLR_normalized, statistic
// "t_value"). Normalised Elo is nElo = (800/ln 10)·(μ − ½)/σ_game; for pairs
// the hypotheses become t-values of the pair score scaled by √2
// (σ²_game = 2·σ²_pair). The maximum likelihood distributions with a given
// t-value are found by fishtest's fixed-point iteration MLE_t_value (at most
// 10 rounds, stop at 1e-9), so results agree with fishtest.
//
// The iteration starts from the uniform distribution and, as in fishtest,
// cannot reach |t| ≳ 0.94, i.e. |nElo| ≳ 330 for games or ≳ 230 for pairs;
// such hypotheses are an error (tuning bounds are a few nElo).
//
// All-zero counts give 0. It returns an error for a count vector of the wrong
// length or with a negative entry, or for a hypothesis out of reach.
func LLRNormalized(counts []int, nelo0, nelo1 float64) (float64, error) {
	n, err := checkCounts(counts)
	if err != nil || n == 0 {
		return 0, err
	}
	t0, t1 := nelo0/neloPerT, nelo1/neloPerT
	if len(counts) == 5 {
		t0, t1 = t0*math.Sqrt2, t1*math.Sqrt2
	}
	total, values, phat := resultsToPDF(counts)
	p0, err := mleTValue(values, phat, 0.5, t0)
	if err != nil {
		return 0, fmt.Errorf("stats: normalised LLR for counts %v at nelo0 %g: %w", counts, nelo0, err)
	}
	p1, err := mleTValue(values, phat, 0.5, t1)
	if err != nil {
		return 0, fmt.Errorf("stats: normalised LLR for counts %v at nelo1 %g: %w", counts, nelo1, err)
	}
	return total * llrPerSample(phat, p0, p1), nil
}

// resultsToPDF returns the regularised sample size, the outcome values
// i/(len−1) and the empirical probabilities (fishtest results_to_pdf).
func resultsToPDF(counts []int) (total float64, values, probs []float64) {
	r := regularize(counts)
	for _, c := range r {
		total += c
	}
	values = make([]float64, len(r))
	probs = make([]float64, len(r))
	for i, c := range r {
		values[i] = float64(i) / float64(len(r)-1)
		probs[i] = c / total
	}
	return total, values, probs
}

// llrPerSample is Σ p̂ᵢ·(ln p1ᵢ − ln p0ᵢ), the expected LLR jump per sample.
func llrPerSample(phat, p0, p1 []float64) float64 {
	s := 0.0
	for i, p := range phat {
		s += p * (math.Log(p1[i]) - math.Log(p0[i]))
	}
	return s
}

// meanVar returns the expectation and variance of a discrete distribution.
func meanVar(values, probs []float64) (mu, variance float64) {
	for i, v := range values {
		mu += probs[i] * v
	}
	for i, v := range values {
		d := v - mu
		variance += probs[i] * d * d
	}
	return mu, variance
}

// mleExpected returns the maximum likelihood distribution on values with
// expectation s given the empirical probabilities phat: pᵢ = p̂ᵢ/(1 + x·aᵢ),
// aᵢ = valueᵢ − s, x the root of the secular equation (fishtest
// MLE_expected; Van den Bergh, support_MLE_multinomial, Prop. 1.1).
func mleExpected(values, phat []float64, s float64) ([]float64, error) {
	a := make([]float64, len(values))
	for i, v := range values {
		a[i] = v - s
	}
	x, err := secular(a, phat)
	if err != nil {
		return nil, fmt.Errorf("expected score %g: %w", s, err)
	}
	p := make([]float64, len(values))
	for i := range p {
		p[i] = phat[i] / (1 + x*a[i])
	}
	return p, nil
}

// mleTValue returns the maximum likelihood distribution on values whose
// t-value (μ − ref)/σ equals t, given the empirical probabilities phat, by
// fishtest's fixed-point iteration MLE_t_value (Van den Bergh,
// normalized_elo_practical §4.1).
func mleTValue(values, phat []float64, ref, t float64) ([]float64, error) {
	n := len(values)
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	a := make([]float64, n)
	next := make([]float64, n)
	for range tValueIterations {
		mu, variance := meanVar(values, p)
		sigma := math.Sqrt(variance)
		for i, v := range values {
			z := (mu - v) / sigma
			a[i] = v - ref - t*sigma*(1+z*z)/2
		}
		x, err := secular(a, phat)
		if err != nil {
			return nil, fmt.Errorf("t-value %g: %w", t, err)
		}
		moved := 0.0
		for i := range next {
			next[i] = phat[i] / (1 + x*a[i])
			moved = math.Max(moved, math.Abs(next[i]-p[i]))
		}
		p, next = next, p
		if moved < tValueTol {
			break
		}
	}
	return p, nil
}

// secular solves Σ pᵢ·aᵢ/(1 + x·aᵢ) = 0 for x in (−1/max a, −1/min a), where
// the left side falls strictly from +∞ to −∞ (fishtest LLRcalc.secular, which
// uses Brent's method; here Newton's method safeguarded by bisection). The
// pᵢ must be positive. It fails if all aᵢ have the same sign, i.e. the
// hypothesis lies outside the outcomes' range.
func secular(a, p []float64) (float64, error) {
	lo, hi := math.Inf(1), math.Inf(-1) // min and max of a
	for _, ai := range a {
		lo = math.Min(lo, ai)
		hi = math.Max(hi, ai)
	}
	if !(lo < 0 && hi > 0) {
		return 0, fmt.Errorf("secular equation: outcome offsets span [%g, %g], want them on both sides of 0", lo, hi)
	}
	// Bracket (open): f > 0 just above left, f < 0 just below right.
	left, right := -1/hi, -1/lo
	x := 0.0
	for range 200 {
		f, df := 0.0, 0.0
		for i, ai := range a {
			q := 1 / (1 + x*ai)
			f += p[i] * ai * q
			df -= p[i] * ai * ai * q * q
		}
		if f == 0 {
			return x, nil
		}
		if f > 0 {
			left = x
		} else {
			right = x
		}
		next := x - f/df
		if !(next > left && next < right) {
			next = left + (right-left)/2
		}
		if math.Abs(next-x) <= 1e-15*(1+math.Abs(x)) {
			return next, nil
		}
		x = next
	}
	return 0, fmt.Errorf("secular equation: no convergence in 200 steps (bracket [%g, %g])", left, right)
}
