// Package suggest guesses the word a user meant: the nearest of the known
// names by edit distance, for "unknown key (did you mean …?)" errors of
// configs, flags and subcommands. It is a standard-library-only leaf that
// the library rooms (configs, tune) and the commands share.
package suggest
