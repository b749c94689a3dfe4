// Command fakeengine is a test double for the packages that drive external
// engines (tournament, and the tuning of external engines above it): a
// tiny Connect6 protocol engine (Cloudict/ConnectMore commands) that plays
// the first empty points in row-major order, misbehaves on request, and
// can declare options and record what it was sent. Tests build it with
// package fakeenginetest. It imports the standard library only, so it
// reads the protocol independently of the code under test.
//
//	fakeengine [-mode good|crash|hang|illegal|garbage|empty|exit|single|slow|long|endless|stubborn]
//	           [-after N] [-delay D] [-noise] [-banner] [-spaced] [-noname]
//	           [-needfile F] [-needinit LINE] [-child]
//	           [-options SPEC] [--NAME=VALUE ...] [-valuesfile F] [-record FILE]
//
// After N good moves (default 0) the engine misbehaves on its next move:
// crash exits with status 3 after writing to stderr, hang never answers,
// illegal plays an occupied point (from the empty board it first plays
// JJ), garbage answers "move ZZ9", empty
// answers "move" without a move, exit ends with
// status 0, single answers one stone where two are due, slow sleeps D
// before each move, long writes a 2 MB line before the move, endless
// writes without a newline forever. stubborn plays well but ignores
// "quit" and the end of its input (it sleeps for an hour).
//
// -noise writes free-text lines before each move (they must be ignored by
// a driver, one of them begins "move JJ" and goes on). -banner writes a
// Cloudict-style help text at start (with "move XXXX   - ..." and
// "name - ..." lines). -spaced answers "move jj kk" (lower case, a blank
// between the stones). -noname does not answer "name". -needfile exits
// with status 4 at start unless file F is in its working directory.
// -needinit answers "move ZZ" until it has read the line LINE. -child
// starts a copy of itself that sleeps for an hour, holding the same
// standard output and error.
//
// Options. -options SPEC declares numeric options, SPEC a comma-separated
// list of NAME:int|float:DEFAULT:MIN:MAX, e.g.
// "Width:int:15:1:100,DefendShare:float:0.7:0.01:0.9". The engine then
// answers "options" with one line per option in the order declared, in
// the shape roadtune's engine writes (the value in force as the default),
// and "optionsok":
//
//	option name Width type spin default 15 min 1 max 100
//	option name DefendShare type float default 0.7 min 0.01 max 0.9
//	optionsok
//
// A value reaches an option (its name in any case) in four ways:
// "setoption name NAME value V" lines; "param NAME V" lines (init strings
// or setup lines); a file of "NAME V" lines (blank lines and lines
// starting with # skipped) named by -valuesfile F at start or by a line
// "valuesfile F"; and program arguments --NAME=V for declared names
// (taken out of the arguments before the flags are parsed). A line that
// sets a value answers nothing when it succeeds and "error LINE: WHY" when
// the name is unknown or the value is not a number, not a whole number
// for an int option, or out of range (the option keeps its value). A bad
// value at start (-valuesfile, --NAME=V) or a bad SPEC exits with status
// 2 and the reason on standard error. Without -options these lines are
// ignored, as every unknown command is.
//
// -record FILE: at every "new ..." line the engine appends one JSON line
// to FILE (opened with O_APPEND, each line one write, so processes can
// share the file):
//
//	{"pid":123,"argv":["fakeengine","-options","..."],"values":{"Width":15},"sent":["name","param Width 15","new black"]}
//
// values holds the options in force, sent the lines received since the
// previous "new" (or since start) up to and including this one.
package main
