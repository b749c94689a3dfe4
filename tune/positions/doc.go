// Package positions keeps a Texel run's training positions on disk, below
// the tuning job: Store is an optimize.Sampler that writes each Sample
// batch to a gzip-compressed CSV file under the run's Dir (named by the
// batch's seed, keyed by the SHA-256 of its matches) and reads it back
// instead of replaying the games, so a refit needs no replay and a
// resumed run samples exactly what it sampled before. Read reads one
// file; errors name it and its line.
package positions
