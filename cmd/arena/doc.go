// Command arena plays matches between Connect6 players — weight vectors on
// the in-process roadtune engine and external engines speaking the
// Cloudict/ConnectMore protocol — and reports W/D/L, Elo ± 95% interval,
// LOS, pentanomial pair counts and optionally an SPRT.
//
//	arena [flags] [WEIGHTS ...] [-engine key=value ...] [-each key=value ...]
//	arena -resume DIR
//	arena openings [flags]
//
// Each WEIGHTS is an embedded baseline's name (zhou2015, qi2018-table3-1, …;
// see configs.WeightNames) or a weight file's path, e.g.
// `arena zhou2015 qi2018-table3-1`. -engine takes cutechess-cli style
// options (name=, cmd=, dir=, arg=, initstr=, proto=, st=, tc=,
// timemargin=, or weights=, depth=, width= for the in-process engine), e.g.
// `arena -engine name=Cloudict dir=DIR cmd=./gameEngine initstr="depth 2"
// -engine weights=tuned.json depth=6 width=20`. Two players play a
// head-to-head match, more a round robin, or -tournament gauntlet|knockout.
// Run `arena -h` for the flags. Exit status: 0 done, 1 a failure while
// playing or writing, 2 bad flags, arguments or input files (an external
// engine's program that cannot be started included, refused before
// anything is written), 3 an internal error (a panic: please report it),
// 130 stopped by
// SIGINT or SIGTERM (the table of the completed game pairs is still
// written; continue with -resume).
package main
