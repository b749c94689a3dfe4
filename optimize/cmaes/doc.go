// Package cmaes is the covariance matrix adaptation evolution strategy,
// the (μ/μ_w, λ)-CMA-ES of Hansen, "The CMA Evolution Strategy: A
// Tutorial" (arXiv:1604.00772, 2016), with the uncertainty handling of
// UH-CMA-ES (Hansen, Niederberger, Guzzella, Koumoutsakos, "A Method for
// Handling Uncertainty in Evolutionary Optimization With an Application to
// Feedback Control of Combustion", IEEE TEC 13(1), 2009), tuning road
// weights by games alone.
//
// # The strategy
//
// The search distribution is N(m, σ²C) over weight vectors (genes in the
// schema's order, weight units). Per generation g (from 0; the record's
// Step), as the tutorial's summary (Hansen 2016, Appendix A) has it:
//
//  1. sample λ candidates x_k = m + σ·y_k, y_k = B·D·z_k, z_k ~ N(0, I),
//     with C = B·D²·Bᵀ its eigendecomposition (gonum's mat.EigenSym,
//     computed afresh from C every generation);
//  2. play them (below) and rank them by fitness, higher is better, ties
//     by candidate index;
//  3. recombine the μ best with the weights w_i ∝ ln((λ+1)/2) − ln i:
//     ⟨y⟩_w = Σ w_i·y_{i:λ}, m ← m + c_m·σ·⟨y⟩_w with c_m = 1 (option
//     cmean; the tutorial: c_m < 1 "can be advantageous on noisy
//     functions"; the paths below learn from ⟨y⟩_w whatever c_m);
//  4. cumulative step-size adaptation (CSA): p_σ ← (1 − c_σ)·p_σ +
//     √(c_σ(2 − c_σ)μ_eff)·C^(−1/2)·⟨y⟩_w and
//     σ ← σ·exp((c_σ/d_σ)·(‖p_σ‖/E‖N(0, I)‖ − 1));
//  5. covariance: p_c ← (1 − c_c)·p_c + h_σ·√(c_c(2 − c_c)μ_eff)·⟨y⟩_w and
//     C ← (1 + c_1·δ(h_σ) − c_1 − c_μ)·C + c_1·p_c·p_cᵀ +
//     c_μ·Σ w_i·y_{i:λ}·y_{i:λ}ᵀ (rank-one and rank-μ updates);
//  6. roadtune's normalisation: with κ the largest eigenvalue of the new
//     C, (σ, C, p_c) ← (σ·√κ, C/κ, p_c/√κ). In exact arithmetic this
//     changes no sample and no later update (y and p_c shrink by √κ,
//     C^(−1/2)·y and p_σ do not change); it only fixes how the
//     distribution's scale is split between σ and C, so that σ is the
//     standard deviation along the longest axis, in weight units. Without
//     it the uncertainty treatment's σ increases were absorbed by C on the
//     synthetic referee (σ 10¹¹, C's eigenvalues 10⁻¹⁸ after 1,000
//     generations, C underflowing after 18,000).
//
// The constants are the tutorial's defaults (Hansen 2016, Table 1):
// λ = 4 + ⌊3 ln n⌋ for n genes (option lambda, 0 = this), μ = ⌊λ/2⌋,
// μ_eff = (Σw_i)²/Σw_i², c_σ = (μ_eff + 2)/(n + μ_eff + 5),
// d_σ = 1 + 2·max(0, √((μ_eff − 1)/(n + 1)) − 1) + c_σ,
// c_c = (4 + μ_eff/n)/(n + 4 + 2μ_eff/n), c_1 = 2/((n + 1.3)² + μ_eff),
// c_μ = min(1 − c_1, 2(μ_eff − 2 + 1/μ_eff)/((n + 2)² + μ_eff)),
// E‖N(0, I)‖ ≈ √n·(1 − 1/(4n) + 1/(21n²)), and h_σ = 1 exactly when
// ‖p_σ‖/√(1 − (1 − c_σ)^(2(g+1))) < (1.4 + 2/(n + 1))·E‖N(0, I)‖. Only
// the μ best get a weight (no negative weights: no active CMA).
//
// # Fitness from games
//
// There is no function value, only games. Every candidate plays the
// resolved pool (optimize.NoiseOptions.Pool; optimize.PoolVectors with
// "centroid" the current mean m and "best" the current answer), all in ONE
// Play call whose batch seed is drawn from the run's source; within it
// every candidate meets opponent j on the same openings (Match.OpeningSet,
// common random numbers). With r repeats (below) a candidate plays each
// opponent r times, repeat ρ on the OpeningSets ρ·|pool| + j + 1. Its
// score is its points over its games against the whole pool
// (optimize.PoolOutcomes): a fraction in [0, 1], ½ for no games. A
// generation's fitness is relative to that generation's pool.
//
// # Uncertainty handling (UH-CMA-ES)
//
// With noise_handling (the default) the first λ_reev = 2 + ⌊λ/20⌋
// candidates (pycma's NoiseHandler count, 2 + λ/20, floored rather than
// rounded at random so that a generation's games are known beforehand;
// the candidates are i.i.d., so the first ones are a random choice, as in
// the paper) play the pool a second time in the same batch on openings of
// their own: repeat ρ of the re-evaluation uses the OpeningSets
// (r + ρ)·|pool| + j + 1, which no first evaluation uses and which the
// re-evaluated candidates share. A re-evaluated candidate is ranked by the
// mean of its two scores.
//
// The rank-change measure s of Hansen et al. 2009 (its uncertainty
// measurement, as pycma's NoiseHandler.update_measure computes it)
// compares the two evaluations: the λ first scores L^old and the list
// L^new, which is L^old with the re-evaluated candidates' second scores
// in their places, are ranked together (2λ values). For re-evaluated
// candidate i,
//
//	Δ_i = |rank(L^new_i) − rank(L^old_i)| − 1,
//	s = (1/λ_reev)·Σ_i (2Δ_i − Δlim(R^new_i) − Δlim(R^old_i)),
//
// where R_i is the rank of L_i among the 2λ − 1 values other than its
// partner (the paper's rank(L_i) − 1{L_i > L_partner}), and Δlim(R) is
// the 100·θ/2 percentile of {|1 − R|, |2 − R|, …, |2λ − 1 − R|} with the
// paper's θ = 0.2 (percentiles as pycma's Mh.prctile: position
// p·N/100 − 0.5 in the sorted values, interpolated linearly). s is used as
// it is, without cumulation (the paper's c_s = 1). s > 0 says the noise
// reorders the candidates more than the θ limits allow.
//
// Scores are fractions of few games, so ties are common; the paper's
// values are continuous and tie-free. roadtune ranks with mid-ranks (a
// group of equal values shares its mean rank), which makes Δ_i the number
// of values strictly between the two scores plus half of those equal to
// either (the expected count under a random tie break), and counts a
// re-evaluation that returns exactly its first score as no change,
// Δ_i = 0, the least the paper's Δ_i can be. Without ties this is the
// paper's measure exactly.
//
// The treatment (Hansen et al. 2009, its σ and evaluation-time
// increase): when s > 0, σ ← α_σ·σ (option alpha_sigma, 0 = pycma
// NoiseHandler's 1 + 2/(n + 10)) and the repeats r double, up to
// max_repeats; when s < 0 they halve, down to 1. The referee fixes the
// game pairs of a match, so more repeats are roadtune's longer
// evaluation: each repeat is one more match per opponent on openings of
// its own. σ never exceeds max_sigma·σ0 (default 4; 0 = no cap, as in
// the paper): games are so noisy that s stays > 0 and the uncapped
// treatment raised σ to 10²² within 100 generations on the tempo schema,
// where every candidate was a random direction (pycma bounds σ the same
// way with its maxstd option). s, σ and r are recorded every generation. With noise_handling
// off there is no re-evaluation, s = 0 and r = 1 throughout.
//
// # The start
//
// Without Problem.Start the initial mean is drawn uniformly from
// InitLo..InitHi with the seeded source (experiments never start from a
// hand-set vector), and σ0 = sigma × the mean over genes of
// InitHi − InitLo (option sigma, default 0.3). With Problem.Start (a warm
// start, e.g. a chain's next stage) the mean is the start (drawn all the
// same, so the later draws do not depend on it) and
// σ0 = warm_spread·‖m0‖/√n, as optimize.AroundStart spreads a population.
// In both the mean is put inside the bounds and onto the norm's sphere
// (below) before σ0 is computed; with a norm and no start, σ0 is scaled
// by the factor that took the drawn mean onto the sphere, so that σ0
// relative to ‖m0‖ is as without a norm.
//
// # Norm and bounds
//
// Road weights are scale-free. With norm > 0 every candidate is scaled to
// that Euclidean norm (optimize.ScaleTo) before it plays, and the mean is
// scaled onto the same sphere after each update, so the mean, the
// centroid opponent and the answer all have that norm. The update learns
// from the steps as played, y_k = (x_k scaled − m)/σ (a repaired sample,
// as with the bounds below): with the unscaled steps, σ grew without
// bound on the tempo schema (3.9·10²¹ after 195 generations, noise
// handling off), because a mean scaled back onto the sphere every
// generation makes every consistent selection look like progress to
// CSA, and the candidates became random directions. A step as played is
// at most 2·norm long, so σ stays on the sphere's scale. Unless the problem's bound
// mode is "off", each sample is clamped to the bounds (in "reflect" mode
// too: CMA-ES always clamps) and the update learns from the clamped
// sample, y_k = (clamp(x_k) − m)/σ, so the mean, a weighted mean of
// clamped samples, stays inside the bounds by itself, and steps the
// bounds cut short shorten p_σ and so σ. (Updating from the unclamped
// samples and clamping the mean back let p_σ pile up against a bound and
// σ grow without end on the synthetic referee.) Clamping comes first,
// then the norm: with both, the norm wins and a vector the norm scales up
// may leave the bounds.
//
// # The answer
//
// The answer (Method.Best) is the mean m, never a single sample: under
// noise the mean is the better estimate (the CMA-ES tutorial's advice for
// noisy functions; nevergrad's TBPSA answers its mean too). With
// average > 1 (a shared noise option) it is the average of the latest
// average means, scaled to the norm (optimize.NoiseOptions.AverageOf,
// Polyak–Ruppert averaging: near the noise floor the mean wanders, the
// average of several wanders less). On the last generation, when
// race_budget > 0, the answer and the race_candidates best candidates of
// that generation (by the fitness they were ranked by) race (optimize.Race,
// names "mean", "best 1", …; with average > 1 "answer", then "mean", the
// latest mean, then "best 1", …) against the pool's vectors for the next
// generation (the centroid the new mean, best the answer), and the winner
// is the answer; the step's games include the race's, its record holds
// the RaceRecord. memory and prior, keys of the shared noise options, are unused:
// CMA-ES keeps no vectors from one generation to the next, only its
// distribution.
//
// # Why not gonum's optimize.CmaEsChol
//
// gonum has a CMA-ES (optimize.CmaEsChol, with a Cholesky factor), but
// its state is unexported, so a run cannot be checkpointed and resumed
// bit for bit as every roadtune Method must (MarshalState, Restore); it
// drives its own evaluation loop for a function value per point, where
// roadtune hands a whole generation of matches to a Referee at once; and
// it has no uncertainty handling.
//
// # Random draws and checkpoints
//
// Every random number comes from the one *rand.PCG given to New, in this
// order: the initial mean (gene by gene, drawn even with a start); then
// per generation z_1 … z_λ (candidate by candidate, gene by gene,
// rand.Rand.NormFloat64), the batch seed, and, on the last generation
// with a race, the race's round seeds. The State (mean, σ, C, the
// evolution paths, the repeats, the latest means, the answer, the games
// and the source)
// encodes as JSON that decodes back bit for bit, so Restore continues a
// run exactly as the uninterrupted run goes on. A Step that fails (the
// referee's error, a cancelled context, too few outcomes) leaves the
// state and the source exactly as they were.
package cmaes
