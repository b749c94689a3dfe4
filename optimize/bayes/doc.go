// Package bayes is Bayesian optimisation over match results, in the form
// chess-tuning-tools (kiudee) gives it for engine parameters: a Gaussian
// process models a weight vector's score against a fixed pool of
// opponents, each new point is the one the acquisition function values
// most, and the answer is the model's optimum, not the best single
// result.
//
// One iteration (one Step) plays Batch points:
//
//  1. each point is the next of the initial design (a Latin hypercube of
//     Initial points over the problem's initial range) while it lasts,
//     then the maximiser of expected improvement (Jones, Schonlau & Welch
//  1998. or of the upper confidence bound (Srinivas et al. 2010) over
//     the model of every point played, the batch's earlier points taken
//     at their posterior mean ("kriging believer", Ginsbourger, Le Riche
//     & Carraro 2010);
//  2. every point plays every entry of the pool Repeats matches (one
//     Play call, fresh openings from the run's source); its observation
//     is its mean score fraction;
//  3. the model (package gp: Matérn 5/2 with one length scale per gene,
//     a constant mean, each point's own noise variance) is conditioned on
//     all points; its kernel is fitted by maximum marginal likelihood at
//     the end of the initial design and every Refit iterations after;
//  4. the run's answer (Best) is the maximiser of the posterior mean,
//     recorded with its 95% credible interval as Elo against the pool.
//
// The noise of a point is the variance of one match's score, measured:
// pooled over the points' repeated matches (with Problem.Pairs = 1 a
// match is one game pair, so this is the pentanomial variance of a pair,
// which in Connect6, where most pairs split, is far below the variance of
// single games), divided by the point's matches.
//
// The search box is the problem's initial range, gene by gene, modelled
// as the unit cube; points are clamped into the bounds when the bound
// mode enforces them. With a start (a refinement, or a later stage of a
// chain) the box is the start's genes ± Spread of themselves and the
// start is the design's first point: a model needs an opponent whose
// results vary over its box, and from a random start a strong fixed
// opponent wins almost every game against almost every point, so the
// method is meant to refine a vector that already holds its own.
//
// roadtune's choices, where chess-tuning-tools differs: the noise model
// is pooled rather than per point (one pair a match gives a per-point
// variance of zero or of one outcome); the acquisition is maximised over
// a random candidate set refined by local Gaussian steps, all drawn from
// the run's seeded source, so a run is a function of its seed and its
// outcomes and resumes exactly; the model is not stored in the
// checkpoint, only its points and kernel, from which it is rebuilt.
package bayes
