package cmaes

import (
	"fmt"
	"math"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// config is a run's Settings resolved against its optimize.Problem
// (Settings.resolve): every automatic value resolved (Lambda,
// AlphaSigma), the problem copied and the pool resolved. It is internal: a
// run is made from Settings, CMA-ES's one options type, and a Problem
// (New).
type config struct {
	Settings
	// Problem is the run's own copy of the problem
	// (optimize.Problem.Clone), as CMA-ES reads it: n = len(Genes); the
	// uniform initial mean from InitLo..InitHi, whose mean width sets σ0;
	// Bounds, which candidates and the mean are clamped to, nil unless
	// BoundMode enforces them (CMA-ES clamps in both clamp and reflect);
	// Start, when not nil, the initial mean instead of the uniform draw;
	// Pairs, for Forecast and the race's planning, 0 read as 1 (pairs).
	optimize.Problem
	// Pool is the resolved pool of opponents (optimize.ResolvePool of
	// Settings.Pool, the names).
	Pool []optimize.PoolEntry
}

// pairs is Pairs with 0 read as 1.
func (c config) pairs() int { return max(c.Pairs, 1) }

// bounded reports whether candidates and the mean are clamped.
func (c config) bounded() bool { return c.BoundMode.Enforced() }

// reevaluations is λ_reev, the candidates played twice a generation:
// 2 + ⌊λ/20⌋ (pycma's NoiseHandler count, floored), at most λ; 0 without
// noise handling.
func (c config) reevaluations() int {
	if !c.NoiseHandling {
		return 0
	}
	return min(2+c.Lambda/20, c.Lambda)
}

// raceCandidates is the number of the generation's best candidates that
// race the answer.
func (c config) raceCandidates() int { return min(c.RaceCandidates, c.Lambda) }

// raceField is the number of vectors in the final race: the answer, the
// latest mean when the answer is an average of several, and the best
// candidates.
func (c config) raceField() int {
	if c.Average > 1 {
		return 2 + c.raceCandidates()
	}
	return 1 + c.raceCandidates()
}

// noise is the shared options' averaging, for AverageOf and Window.
func (c config) noise() optimize.NoiseOptions {
	return optimize.NoiseOptions{Average: c.Average, Norm: c.Norm}
}

// generationGames is the games of a generation at r repeats:
// (λ + λ_reev)·|pool|·r·2·Pairs.
func (c config) generationGames(r int) int {
	return (c.Lambda + c.reevaluations()) * len(c.Pool) * r * 2 * c.pairs()
}

// place puts a vector where it plays: clamped to the bounds (unless the
// mode is "off"), then scaled to Norm (when > 0), in place.
func (c config) place(x []float64) []float64 {
	if c.bounded() {
		c.Bounds.Clamp(x)
	}
	if c.Norm > 0 {
		optimize.ScaleTo(x, c.Norm)
	}
	return x
}

// clone deep-copies the problem and the pool so a run is not affected by
// later changes to the caller's settings or problem.
func (c config) clone() config {
	c.Problem = c.Problem.Clone()
	c.Pool = slices.Clone(c.Pool)
	for i := range c.Pool {
		c.Pool[i].Genes = slices.Clone(c.Pool[i].Genes)
	}
	return c
}

// Validate checks the settings; errors name the field, e.g.
// "cmaes: config field Lambda: ...".
func (c config) validate() error {
	bad := func(field, format string, args ...any) error {
		return fmt.Errorf("cmaes: config field %s: %s", field, fmt.Sprintf(format, args...))
	}
	// The problem's own fields were checked by Problem.Validate
	// (Settings.Validate calls it first); this checks what the settings
	// add and how they fit the problem.
	if c.Start != nil {
		if optimize.Norm(c.Start) == 0 {
			return bad("Start", "the zero vector gives σ0 = 0")
		}
		if !(c.WarmSpread > 0) || !finite(c.WarmSpread) {
			return bad("WarmSpread", "must be a finite number > 0 with a Start, not %g", c.WarmSpread)
		}
	} else if meanRange(c.InitLo, c.InitHi) <= 0 {
		return bad("InitLo", "the initial range is empty in every gene, so σ0 would be 0")
	}
	switch {
	case c.Generations < 1:
		return bad("Generations", "must be at least 1, not %d", c.Generations)
	case c.Lambda < 4:
		return bad("Lambda", "CMA-ES needs at least 4 candidates a generation, not %d", c.Lambda)
	case !finite(c.Sigma) || c.Sigma <= 0:
		return bad("Sigma", "must be a finite number > 0, not %g", c.Sigma)
	case c.MaxRepeats < 1:
		return bad("MaxRepeats", "must be at least 1, not %d", c.MaxRepeats)
	case !(c.CMean > 0 && c.CMean <= 1):
		return bad("CMean", "must be in (0, 1], not %g", c.CMean)
	case c.MaxSigma != 0 && !(finite(c.MaxSigma) && c.MaxSigma >= 1):
		return bad("MaxSigma", "must be 0 or a finite number ≥ 1, not %g", c.MaxSigma)
	case !finite(c.AlphaSigma) || c.AlphaSigma < 1:
		return bad("AlphaSigma", "must be a finite number ≥ 1, not %g", c.AlphaSigma)
	case len(c.Pool) == 0:
		return bad("Pool", "no opponents")
	case !finite(c.Norm) || c.Norm < 0:
		return bad("Norm", "must be a finite number ≥ 0, not %g", c.Norm)
	case c.RaceCandidates < 1:
		return bad("RaceCandidates", "must be at least 1, not %d", c.RaceCandidates)
	case c.Average < 0:
		return bad("Average", "must be 0 or more, not %d", c.Average)
	}
	for i, e := range c.Pool {
		if e.Own() {
			continue
		}
		if err := optimize.CheckVector(fmt.Sprintf("opponent %q", e.Name), e.Genes, len(c.Genes)); err != nil {
			return bad(fmt.Sprintf("Pool[%d]", i), "%v", err)
		}
	}
	if err := c.Race().Validate(optimize.RaceMeans+c.RaceCandidates, len(c.Pool), 2*c.pairs()); err != nil {
		return bad("Race", "%v", err)
	}
	return nil
}

// params are the strategy's constants for n genes and λ candidates
// (Hansen 2016, Table 1, positive weights only).
type params struct {
	n, lambda, mu int
	// w are the μ recombination weights, decreasing, summing to 1.
	w []float64
	// mueff is μ_eff = 1/Σw_i².
	mueff float64
	// cs, ds: CSA's learning rate c_σ and damping d_σ.
	cs, ds float64
	// cc, c1, cmu: the rates of the path p_c, of the rank-one and of the
	// rank-μ update.
	cc, c1, cmu float64
	// cm is the mean's learning rate c_m (Settings.CMean).
	cm float64
	// chiN is E‖N(0, I)‖ ≈ √n·(1 − 1/(4n) + 1/(21n²)).
	chiN float64
}

// strategy returns the tutorial's default constants for c's genes and λ.
func (c config) strategy() params {
	n, lambda := len(c.Genes), c.Lambda
	mu := lambda / 2
	p := params{n: n, lambda: lambda, mu: mu, w: make([]float64, mu), cm: c.CMean}
	sum, sq := 0.0, 0.0
	for i := range mu {
		p.w[i] = math.Log(float64(lambda+1)/2) - math.Log(float64(i+1))
		sum += p.w[i]
	}
	for i := range p.w {
		p.w[i] /= sum
		sq += p.w[i] * p.w[i]
	}
	p.mueff = 1 / sq
	nf := float64(n)
	p.cs = (p.mueff + 2) / (nf + p.mueff + 5)
	p.ds = 1 + 2*math.Max(0, math.Sqrt((p.mueff-1)/(nf+1))-1) + p.cs
	p.cc = (4 + p.mueff/nf) / (nf + 4 + 2*p.mueff/nf)
	const alphaCov = 2
	p.c1 = alphaCov / ((nf+1.3)*(nf+1.3) + p.mueff)
	p.cmu = math.Min(1-p.c1, alphaCov*(p.mueff-2+1/p.mueff)/((nf+2)*(nf+2)+alphaCov*p.mueff/2))
	p.chiN = math.Sqrt(nf) * (1 - 1/(4*nf) + 1/(21*nf*nf))
	return p
}
