// Package protocol speaks the line-based Connect6 engine protocol of
// Cloudict and the ConnectMore GUI (connect6.md, "Engine text protocol";
// github.com/lang010/cloudict, src/game_engine.cc) over a reader and a
// writer, with roadtune's engine behind it.
//
// Replies. Only protocol replies go to the output, one line each:
//
//	name <Name>              to `name`
//	move <stones>            to `new black`, `move XXXX` and `next`: the engine's move, already placed
//	result black|white|draw  to `move XXXX` or `next` when the game is over and there is nothing to play
//	depth <d> / width <n>    confirmation of `depth d` / `width n`
//	time <...>               confirmation of a `time` command, in its canonical form (Command.String)
//	error <text>             one line for a malformed, unknown or illegal command; nothing changes
//	option ... / optionsok   to `options` (see "Options")
//
// Reply.String writes these lines and ParseReply reads them back, as
// Command.String and ParseCommand do for the commands: the driver of an
// external engine (tournament.ExternalPlayer) speaks with the same words.
//
// `print` and `help` answer with free text (no line of it starts with
// "move "). Everything else (`new white`, `new xxx`, `black`/`white`, `vcf`,
// `unvcf`, a good `weights FILE`, blank lines) answers nothing.
// `move XXXX` and `next` always answer exactly one line. Search information
// and error detail go to the diagnostic writer.
//
// Positions. `black` and `white` lines put stones down without search, in
// any order and one or two stones a line, as Cloudict takes them: `white
// KKLL` before `black JJ`, or `white KK` then `white LL`, set up the same
// position as ConnectMore's `black JJ`, `white KKLL`. The server checks what
// the lines add up to as a position, not as moves in turn order: every stone
// on its own empty point, and stone counts that a game reaches (Black's first
// move is one stone, then two stones a move alternately; a pair cut in half
// counts, see engine.ReachableCounts). The side to move, and whether it has
// one or two stones to place, follows from the counts. One colour may run at
// most one move ahead of the other: a line after which the counts are
// reachable with two more stones of one colour at the most is accepted and
// waits for the rest, and until the counts are reachable `move` and `next`
// answer an error line. A line that leaves the counts further off, such as
// `white MM` after `white KKLL` with no black stone, is an error. The engine's
// board is rebuilt from the stones as a game in turn order
// (engine.Board.SetUp).
//
// Errors change nothing: after an error line the position is the one before
// the line, and `next` moves for it.
//
// Time (roadtune). Without a clock the engine searches to its depth. With
// one it searches by iterative deepening up to its depth, which becomes a
// maximum (send `depth 12` to let the clock alone decide), within a budget
// the engine's time manager takes from the clock (engine.SearchClock,
// engine.TimeSettings):
//
//	time move SECONDS                   a fixed time per move, e.g. `time move 0.5`
//	time game SECONDS [INC [MOVES]]     a game clock of SECONDS, plus INC seconds after each
//	                                    move, refilled with SECONDS every MOVES moves (cutechess-cli's
//	                                    tc=MOVES/SECONDS+INC); the engine keeps it itself, charging
//	                                    each of its moves the time from the start of its search to
//	                                    its reply (never below 0: then it moves at once); `new` and
//	                                    `time game` start it full
//	time left SECONDS                   the game clock's remaining time, as the GUI counts it (only
//	                                    with `time game`)
//	time off                            no clock: search to depth (the default)
//
// Seconds are decimal (`2`, `0.25`), 0 < SECONDS ≤ MaxSeconds (`time left`
// and INC may be 0), MOVES 1..MaxMoves. A good `time` command is confirmed
// with its canonical line (`time move 0.5`); a malformed one, or `time left`
// without a game clock, gets an error line and changes nothing.
//
// Listening while searching (roadtune; Server.Run). The server reads its
// input while the engine searches, so that a driver can interrupt a long
// search (`depth 12` at width 15 can take minutes):
//
//	stop         the search in progress ends at once and its move is answered,
//	             the best found so far (UCI's stop): the last completed
//	             iteration's, or the root ordering's best before one completes;
//	             with no search running, stop does nothing and answers nothing
//	quit / exit  the same, and then the server ends without carrying out the
//	             lines read after the searched one
//
// A stop or quit interrupts only when it is the first line read during the
// search; the lines read meanwhile otherwise wait their turn and are carried
// out in order, a stop or quit among them in its turn. So a script piped in
// whole runs each search to its end except one followed directly by stop or
// quit, which is read at once (as in UCI engines): end such a script with
// the end of the input, which never cuts a search short. Every `move XXXX`
// and `next` still answers exactly one line.
//
// Options (roadtune; UCI's shape, so that a tuner can set any parameter of
// any engine that speaks them):
//
//	options                     one line per option, then `optionsok`:
//	                            option name NAME type spin default D min A max B   (an integer)
//	                            option name NAME type float default D min A max B  (a number)
//	setoption name NAME value V set option NAME to V; no reply on success, an
//	                            error line (and no change) for an unknown name or
//	                            a value that is not a number, is out of [A, B]
//	                            or is a fraction for a spin option
//
// The options are the engine's search and time settings (engine.Params:
// Width, DefendWide, DefendShare, … by their Go field names) and the genes
// of the loaded weight vector by their names (S1 … S5, or M1 … T2 for the
// tempo schema; engine.Schema.GeneNames), each gene within ±MaxGeneOption.
// Names are compared without regard to case; D is the value in force.
//
// The game over. A position with a six, whether made by `move`, by the
// engine or set up with `black`/`white` lines, or a full board is finished.
// Then `move XXXX` and `next` answer exactly one line, `result black`,
// `result white` or `result draw` (the stones of such a `move` are not
// placed), and `black`/`white` lines get an error line until `new`. A `move`
// whose own stones complete a six is answered the same way.
package protocol
