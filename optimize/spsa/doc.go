// Package spsa is simultaneous perturbation stochastic approximation
// (Spall 1992, "Multivariate stochastic approximation using a simultaneous
// perturbation gradient approximation", IEEE TAC 37(3)) in the form
// fishtest's SPSA and OpenBench's tuner run it: the gradient of a match
// result is estimated from one match between two perturbed copies of the
// weight vector.
//
// θ is the weight vector (one gene per tunable weight of the schema, in
// weight units). Iteration k counts from 1 in the formulas; records and
// Steps count from 0, so iteration k is step k − 1. Per iteration:
//
//  1. draw Δ, one Rademacher ±1 per gene;
//  2. the gains c_k[d] = c[d]/k^γ and a_k[d] = a[d]/(A + k)^α;
//  3. play one match, θ + c_k·Δ (as A) against θ − c_k·Δ (as B), over
//     fresh openings (a new batch seed each iteration; the referee plays
//     Problem.Pairs game pairs);
//  4. with r = wins − losses of the plus side, in games,
//     θ_d ← θ_d + a_k[d]·r/c_k[d]·Δ_d, then the bound mode.
//
// The gains are parameterised by their values at the last iteration, as
// fishtest does: per gene c_end (the perturbation at iteration N) and
// r_end = a_end/c_end², so c = c_end·N^γ and a = r_end·c_end²·(A + N)^α for
// a budget of N iterations. Defaults (fishtest and OpenBench): α = 0.602,
// γ = 0.101, A = 0.1·N, c_end = range/20, r_end = 0.002.
//
// roadtune's choices:
//   - θ0 is drawn uniformly from the problem's initial range with the seeded
//     source (optimize.UniformPopulation, one vector), never set by hand, so
//     an experiment's starting point is a function of its seed.
//   - Bounds: with the bound mode "clamp" θ is clamped after each update,
//     with "reflect" it is folded back (optimize.Bounds.Reflect), with "off"
//     it is left alone. Whenever the bounds are on, the plus and minus
//     vectors are clamped before they play (as fishtest clips the values it
//     sends to workers), so a gene at its bound is perturbed on one side
//     only; the update still uses the nominal c_k.
//   - The range of c_end's default is Bounds.Hi − Bounds.Lo when the
//     problem has bounds (even with the bound mode off), else the initial
//     range; a gene with a zero range needs its c_end set.
//   - A, the option a_stability, is 0.1·N when left at 0.
//   - The estimate of the optimum (Best) is the current θ, not a
//     best-so-far: SPSA has no fitness to compare iterates by.
//
// A pool of opponents (Settings.Opponents, roadtune's addition) replaces
// step 3 when set: each iteration draws one entry; "self" is the match
// above, and a fixed opponent O (a vector the job runner resolves by name,
// optimize.Problem.Opponent) is played by θ + c_k·Δ and by θ − c_k·Δ over
// the same openings, with r the plus side's wins − losses less the minus
// side's. Its expectation is the same as self-play's for the same
// gradient, 8·pairs·c_k·∂score/∂θ, over twice the games; what it climbs
// is the score against the pool, which is what a ladder of fixed
// opponents measures. An opponent far weaker or far stronger than θ
// gives no signal (both sides win or lose every game).
//
// Random draws, all from the one *rand.PCG given to New, in this order:
// θ0 (gene by gene); then per Step Δ (gene by gene), the batch seed and,
// with a pool only, the entry (rand.Rand.IntN).
// The same settings, problem and seed therefore give the same run, and Restore(State)
// continues it draw for draw.
//
// Spec describes the method to a job runner (options as the [spsa] table
// of a tuning config). Its records carry the metric "theta_norm.<gene>",
// (θ_d − θ0_d)/c_end[d] for every gene, the way fishtest's SPSA charts
// normalise θ by c_end.
package spsa
