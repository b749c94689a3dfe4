// Package texel is Texel tuning (chessprogramming wiki, "Texel's Tuning
// Method"): the road weights are fitted to the results of games, position
// by position, by logistic regression. roadtune's road score is linear in
// its weights, Σ_d g_d·X_d with X the road-count features of a position
// (for the symmetric schema X_n = N_my[n] − N_en[n], Chen 2010 eq. 3.1), so
// the fit is a convex problem with an exact, cheap gradient.
//
// *Texel implements optimize.Method, one Step a round, rounds numbered
// from 0; Spec describes it to a job runner (options as the [texel] table
// of a tuning config, the budget in "rounds"). Its referee must be an
// optimize.Sampler, which returns the positions of the games besides the
// outcomes. Fit is the fit alone, for a refit from stored positions
// without playing a game. A round goes:
//
//  1. θ0 (New) is uniform in the problem's initial range, drawn from the
//     seeded source, and clamped to the bounds unless BoundMode is "off".
//  2. In the first ExploreRounds rounds the matches are between vectors
//     uniform in the initial range (ExplorePairing: two independent draws,
//     one against itself, or one against a perturbed copy of it). After
//     them, by Pairing: θ against perturbed copies ("theta", below), two
//     perturbed copies against each other ("perturbed"), or a copy against
//     itself ("self"). θ plays, as A, Opponents perturbed copies of itself, as B: gene d of
//     a copy is θ_d·exp(σ·N(0,1)) (Opponents), clamped likewise. The
//     copies make the games, and so the positions, differ from one another
//     and from pure self-play; the perturbation is multiplicative so that
//     every gene keeps its sign and its order of magnitude (road weights
//     span orders of magnitude) and a zero gene stays zero.
//  3. The batch goes to Sampler.Sample with a seed from the source. While
//     the training positions are fewer than MinPositions, the same matches
//     are sampled again with a fresh seed (game indices offset so they stay
//     unique), up to MaxBatches batches; short of them then, the round
//     fails with the counts, rather than fit noise.
//  4. The positions of every game whose index is a multiple of
//     HoldoutEvery are held out. The split is by game, not by position:
//     the positions of one game share its result and much of its board, so
//     held-out positions of a game that was also trained on would flatter
//     the fit.
//  5. Fit on the training positions of this round and of the Window−1
//     rounds before it (Window 0: every round), starting from θ: the model is
//     p = σ(K·Σ_d g_d·X_d + b·Tempo), the loss the mean log-loss plus a
//     small ridge λ·mean_d((g_d − θ_d)/s_d)², s_d the width of gene d's
//     initial range. First K and b with g = θ, then g and b with K fixed
//     (see Fit).
//  6. θ ← θ + η·(fit − θ), η = Step (1 takes the fit).
//
// The choices, and why:
//
//   - Log-loss, not the mean squared error of the original Texel method:
//     it is the likelihood of the results under the logistic model, so the
//     fit is a maximum-likelihood logistic regression (convex, with
//     standard errors that tests can check against), and most later tuners
//     use it.
//   - K first, then the genes (as Texel's method does): the positions fix
//     only the product K·g, so K, fitted to θ's own evaluation, keeps the
//     fitted genes in θ's units. The scale of θ is therefore a gauge the
//     games cannot see: a θ0 poorly aligned with the results gives a small
//     K, and the first fit then comes out larger than θ0; later rounds keep
//     that scale. Bounds clamp it.
//   - A side-to-move term b·Tempo: the side to move places two stones, a
//     large advantage no road count shows; every position comes from both
//     sides' view, so b is fitted against the tempo alone.
//   - Scaled variables g_d/s_d in the fit, so that genes whose values
//     differ by orders of magnitude are equally well conditioned for
//     LBFGS.
//   - A gene whose feature is zero on every training position (a 4- or
//     5-stone road never seen, a dual schema's alert gene or a set the
//     judge never picked, the tempo schema's M4 and M5: a side to move with
//     such a road has won) is not fitted and keeps θ's value exactly: the
//     positions say nothing about it.
//   - Which positions are kept is the sampler's business: positions
//     already won or lost teach nothing, but those where the opponent has
//     one or two threats must stay, else the weights of 4- and 5-stone
//     roads cannot be learned.
//
// The static fit does not see how the search uses the weights (move
// ordering, the width cut), so a fitted vector is a candidate to confirm by
// games, like any other tuner's.
//
// Who plays (Settings.ExploreRounds, ExplorePairing, Pairing, Sigma) and
// which positions a fit uses (Settings.Window) decide the result more than
// the fit does. Fits on θ's own games with narrow perturbations drift,
// round after round, to S1..S3 ≤ 0 with S4 ≫ S5 — even from zhou2015 —
// and held-out log-loss improves all the while: the positions of weak
// play value what weak play converts. Diverse games (wide σ, pairs of
// perturbed copies, all rounds' positions) hold the fit near vectors that
// play well. One round's θ swings from the round before, so more rounds
// alone do not help; the mean of the latest rounds' θ (Settings.Average,
// Polyak–Ruppert averaging) does, and it is what the default job reports.
// How far a tuned vector is ahead depends on the opening suite it is
// measured over. The measurements behind these defaults (setups, games,
// Elo against zhou2015) are in docs/experiments/08-methods-compared.md,
// "How Texel's defaults were chosen".
//
// Random draws, all from the one *rand.PCG given to New, in this order:
// θ0 (New); then per round the opponents (copy by copy, gene by gene) and
// one seed per batch. A failed round leaves the source as it was, so the
// same settings, problem and seed give the same run and Restore(State) continues it
// draw for draw. The state holds no positions: a round's positions are a
// function of its seeds and matches (Round.Seeds, Round.Players,
// Round.Opponents), and a caller that keeps them can refit with Fit. For
// the window the State keeps the earlier rounds' seeds and matches
// (State.Past); a restored run samples them again on its next Step (a
// run's positions store answers from disk), so resuming equals not
// stopping.
package texel
