// Package pso is the focus-distance particle swarm of Chen 2010 §5, played
// with games instead of a fitness function.
//
// A particle's position x_i is a weight vector (one gene per tunable weight of
// the schema), v_i its velocity, p_i its personal best and g the global best.
// The swarm never sees a fitness value: it only asks an optimize.Referee which
// of two vectors wins a match (Chen 2010 §5.3). Outcome.AWins decides, and
// the incumbent (the survivor of the knockout, the personal best, the global
// best) is always played as B, so it keeps its place on a tied match.
//
// *PSO implements optimize.Method: one Step is one iteration of Chen 2010
// §5.3 steps ④–⑦, iterations numbered from 0, and iteration 0 also runs the
// knockout of step ③. Spec describes the swarm to a job runner (options as
// the [pso] table of a tuning config). A Step goes:
//
//  1. knockout (iteration 0 only): particle 0 meets particle 1, the winner
//     meets particle 2, and so on; each match is its own Play call, the
//     current survivor is B. The last survivor's position is g.
//  2. move (eq. 5-2): x ← x + v, then the bound mode: "clamp" clamps the gene
//     and zeroes that velocity component, "reflect" folds the gene back with
//     optimize.Bounds.Reflect and negates that velocity component, "off"
//     leaves both alone (positions may leave the initial range, as Chen saw).
//  3. every particle's new position plays its personal best, all in one Play
//     call (A = x_i, B = p_i); a winner's position becomes p_i. Every
//     particle plays, even one whose position equals its personal best.
//  4. the winners of step 3 challenge g in particle order, one Play call
//     each (A = x_i, B = g); a challenger that wins becomes g at once, so a
//     later winner must beat the already-updated g. Several winners in one
//     iteration are thus settled by games in particle order: the last to win
//     its challenge holds g.
//  5. the focus distances of the updated bests give k (eq. 5-3..5-5) and,
//     with r ~ U[0,1], the inertia weight w (eq. 5-6); then every velocity is
//     updated by eq. 5-1 with fresh r1, r2 ~ U[0,1] per particle and per gene,
//     and limited to ±VMax[d] if set. The next Step moves with it.
//
// So the very first move is eq. 5-2 alone with the initial velocities
// (uniform in [VelLo, VelHi]), exactly as Chen orders it: no inertia weight
// is needed before the first match results exist.
//
// Random draws, all from the one *rand.PCG given to New, in this order:
// initial positions (optimize.UniformPopulation),
// initial velocities (particle by particle, gene by gene); then per Step:
// one seed per knockout match (iteration 0 only), one seed for the personal
// best batch, one seed per global best challenge, r, then r1, r2 per particle
// and gene. The swarm keeps the *rand.PCG (the caller must not use it after
// New). The same settings, problem and seed therefore give the same run, and
// Restore(State) continues it draw for draw.
//
// # The robust variant
//
// With variant = "robust" in the [pso] table, Spec starts a RobustPSO
// instead: the same particles, velocities and focus-distance inertia
// weight, judged in a way that survives game noise. Chen's swarm decides
// each personal and global best by one match of a few games, where a
// 95% Elo interval is hundreds of Elo wide, so its bests are mostly the
// luckiest draws. The robust swarm instead plays, each iteration, every
// position and every personal best against a common pool (by default the
// personal bests' centroid; optimize.NoiseOptions.Pool) in one batch on
// the same openings per opponent (common random numbers,
// optimize.PoolMatches); keeps for each personal best a fitness memory of
// all its games since it was found, decayed by memory per iteration
// (optimize.Tally: re-evaluation of survivors, Diaz & Handl 2015); lets a
// position replace its personal best only when its own score beats that
// memory; takes g as the personal best with the best memory; moves the
// swarm by Chen 2010 eq. 5-1, 5-2 with w of eq. 5-3..5-6, the bound mode
// and the velocity limit as above, and with norm > 0 keeps every vector
// on the sphere of that norm (road weights are scale-free). Its answer
// (Best) is never a single sample: the mean of the elite (μ) personal
// bests with the best memory, as nevergrad's TBPSA recommends the mean
// of the μ parents (after Hellwig & Beyer 2016; Hansen's CMA-ES
// recombines the same way), averaged over the latest `average`
// iterations, and on the last iteration raced against the best personal
// bests (optimize.Race, after F-race, Birattari et al. 2002) when
// race_budget > 0. A start vector (Problem.Start) is a warm start: the
// swarm is drawn around it (optimize.AroundStart with warm_spread);
// Chen's variant refuses one. See RobustPSO for the order of a Step and
// of its random draws.
package pso
