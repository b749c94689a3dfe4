// Package ga is the adaptive genetic algorithm with grouped tournament fitness
// of Chen 2010 §4: a population of weight vectors (genes) is shuffled into
// groups, each group plays a round robin, the group champions play an elite
// round robin, fitness is normalised across groups (eq. 4.5), the champions
// pass unchanged into the next generation and the rest of it is bred by
// roulette-wheel selection, uniform crossover with an adaptive rate (eq. 4.3)
// and multiplicative mutation (fixed rate, or eq. 4.4).
//
// The GA never sees an engine: it hands batches of matches to an
// optimize.Referee and gets optimize.Outcomes back. *GA implements
// optimize.Method, one Step a generation numbered from 0, and Spec describes
// it to a job runner (options as the [ga] table of a tuning config). Every
// random choice draws from the *rand.PCG given to New, which the GA keeps and
// whose state is part of State, so a run is reproducible from its seed and
// resumable from any checkpoint.
//
// Chen's original tournament (§4.4.2.1: start 0, win +1, loss −1, only the
// champions breed) is kept as FitnessOriginal for comparison.
package ga
