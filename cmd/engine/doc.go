// Command engine is roadtune's Connect6 engine as a program speaking the
// Cloudict/ConnectMore text protocol on stdin/stdout (see package
// engine/protocol), so that a tuned weight file can play in the ConnectMore
// GUI, against Cloudict, or in the arena as an external engine.
//
//	engine [-weights NAME|FILE] [-depth N] [-width N] [-vcf=true|false] [-defend N] [-quiet N] [-name S] [-time SPEC] [-movetime D]
//
// -weights takes an embedded baseline's name (zhou2015, qi2018-table3-1, …;
// see configs.WeightNames) or a weight file's path; without it the engine
// plays the roadtune-tempo baseline (docs/experiments.md, experiment 16),
// the strongest vector measured (docs/results.md).
//
// The engine plays engine.PlaySettings (the defensive check, a threat
// search of 6 attacker moves and 50,000 positions, killer moves, and under
// a clock the use of an unfinished iteration, with 70% of each move's hard
// limit kept for the defensive check) and, at White's first move after
// the opening, the quiet-attack check of its 60 best root moves
// (engine.PlayQuietSafe and PlayQuietMoves; -quiet 0 turns it off,
// -quietmoves K runs it at White's first K moves); the flags below override
// its depth, width, threat search and checks (-defend 0 -quiet 0
// -threatdepth 4 -threatnodes 8000 at a fixed depth play as tune's engine
// does). By default
// the engine searches to its depth (-depth, the `depth` command). -time makes it play by a clock from the start, in the words of
// the protocol's `time` command: -time 'move 0.5' (0.5 s per move), -time
// 'game 60 0.5' (a 60 s game clock plus 0.5 s a move, kept by the engine),
// -time 'game 120 0 40' (120 s per 40 moves), -time off (the default).
// With a clock the depth is a maximum; without -depth it is then 12 (the
// largest), so the clock alone decides. The commands `time move SECONDS`,
// `time game SECONDS [INC [MOVES]]`, `time left SECONDS` (the GUI's count of
// the engine's remaining time) and `time off` change the clock while
// playing; `help` lists them (see package engine/protocol). -movetime is a
// hard stop on every search, with or without a clock.
//
// The engine reads its input while it searches: `stop` ends the search in
// progress at once and the engine answers the best move found so far (UCI's
// stop), and `quit` does the same and ends the program, within a few
// milliseconds even in a search of minutes (`depth 12` at width 15). A stop
// with no search running does nothing. A stop or quit read after other
// lines waits its turn (see package engine/protocol, "Listening while
// searching"), so a script piped in ending `move XXXX`, `quit` has its last
// search cut short: end such a script with the end of the input instead.
//
// `black XXXX` and `white XXXX` lines may come in any order, one or two
// stones a line (`white KKLL` before `black JJ`); the engine checks the
// stones as a position and takes the side to move from the stone counts. A
// line that would make the position impossible (an occupied point, or one
// colour more than a move ahead of the other) is answered `error ...` and
// changes nothing. Once the game is over (a six, also one set up with
// black/white lines, or a full board) `move XXXX` and `next` answer the one
// line `result black`, `result white` or `result draw`.
//
// Protocol replies go to stdout, diagnostics to stderr. Bad flags or a bad
// weight file: a message on stderr naming the flag or the file and field,
// exit status 2. An I/O error while serving: exit status 1. An internal
// error (a panic): exit status 3, with a message asking for a report.
package main
