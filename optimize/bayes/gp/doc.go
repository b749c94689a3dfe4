// Package gp is the Gaussian-process regression model behind Bayesian
// optimisation of noisy match results (package bayes): the model
// chess-tuning-tools fits to engine-tuning games.
//
// The inputs are points of the unit cube [0,1]^d (d from 1 to a few
// dozen; nothing here requires the cube, but the default length-scale
// bounds of Fit are in its units). The targets are observed match score
// fractions (0..1), each with its own known noise variance, measured
// from the games that produced it (heteroscedastic noise). Up to a
// couple of thousand observations are practical: conditioning is O(n³)
// in time and O(n²) in memory, a prediction O(n·d + n²).
//
// The model (Rasmussen & Williams 2006, "Gaussian Processes for Machine
// Learning", MIT Press; cited below as R&W):
//
//   - the prior of the latent score f is a Gaussian process with a
//     constant mean, the plain (unweighted) mean of the observed targets,
//     and the Matérn 5/2 covariance with automatic relevance
//     determination, one length scale per input dimension (R&W eq. 4.17);
//   - observation i is f(x_i) plus independent Gaussian noise of its own
//     known variance noise_i, so the covariance of the observations is
//     K + diag(noise) (R&W §2.2 with a diagonal in place of σ_n²·I);
//   - the posterior mean and variance at a point are R&W eq. 2.25–2.26,
//     computed with a Cholesky factor as in R&W Algorithm 2.1; the log
//     marginal likelihood is R&W eq. 2.30;
//   - the kernel hyperparameters (length scales and signal variance) are
//     chosen by maximising the log marginal likelihood (type-II maximum
//     likelihood, R&W §5.4.1) with its analytic gradient (R&W eq. 5.9),
//     within bounds, by Fit;
//   - the acquisition function offered is expected improvement (Jones,
//     Schonlau & Welch 1998, "Efficient Global Optimization of Expensive
//     Black-Box Functions", J. Global Optimization 13, eq. 15), for
//     maximisation.
//
// A GP is immutable once built: Add returns a new GP with one more
// observation, extending the Cholesky factor in O(n²) (for "kriging
// believer" batch proposals), and every method of a GP is safe for
// concurrent use. Nothing is random: a model and a fit are functions of
// their inputs.
package gp
