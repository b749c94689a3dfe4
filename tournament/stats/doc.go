// Package stats computes match statistics for engine-vs-engine results:
// score, logistic Elo with its 95% interval, likelihood of superiority (LOS),
// and the generalised sequential probability ratio test (SPRT) on trinomial
// game results or pentanomial game-pair results.
//
// The formulas are the ones computer-chess testing converged on:
//
//   - Elo, interval and LOS follow fishtest's stat_util.get_elo (also
//     cutechess Elo::errorMargin for the interval).
//   - The log-likelihood ratios follow fishtest's LLRcalc: LLRLogistic is
//     LLR_logistic (statistic "expectation", maximum likelihood distributions
//     from the secular equation of MLE_expected) and LLRNormalized is
//     LLR_normalized (statistic "t_value", MLE_t_value), after
//     M. Van den Bergh, "support_MLE_multinomial" and
//     "normalized_elo_practical" (cantate.be/Fishtest).
//   - Zero counts are regularised to 1e-3 before any computation, exactly as
//     fishtest's LLRcalc.regularize, so results agree with fishtest's own
//     numbers to about 1e-12 (see testdata/stats-vectors.json).
//
// Counts are outcome counts of equally spaced values in [0,1] from player
// A's view: trinomial [L, D, W] (values 0, ½, 1) per game, or pentanomial
// [LL, LD, WL+DD, WD, WW] (values 0, ¼, ½, ¾, 1) per colour-swapped game
// pair. Pairs are the honest unit in Connect6, where the first-player bias is
// large and draws are rare; prefer pentanomial counts whenever games are
// paired (cutechess issues #620, #681).
package stats
