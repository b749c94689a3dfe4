// Package tournament plays Connect6 games and matches between players: the
// in-process roadtune engine (EnginePlayer) and external engines speaking
// the Cloudict / ConnectMore text protocol (ExternalPlayer).
//
// One file per concern (after CounterGo's internal/arena and
// fastchess's matchmaking):
//   - engine.go: Engine, the one description of an engine (the in-process
//     engine with its weights and settings, or an external program with
//     its directory, init strings and limits; its time control) that a
//     tuning config, arena's -engine lists, the referee and the cluster's
//     workers pass on as it is;
//   - player.go, external.go: the Player interface, the in-process and the
//     external players, forfeits; process.go: the supervision of an
//     engine process;
//   - processpool.go: ProcessPool, external engine processes kept between
//     games and runs and lent game by game (Runner.Processes), the
//     entrants' setup lines carrying what differs between them;
//   - probe.go: conversations with an engine before a run: its options
//     (ProbeOptions) and whether it takes a run's lines (CheckSetup);
//   - game.go: the referee (PlayGame) and the game record;
//   - opening.go: opening suites, generated from a seed or read from a file
//     (connect6.md "Openings and fair pairs");
//   - balance.go: the colour bias of openings against reference players
//     and balanced suites cut from candidates by it (the analogue of
//     pruning an opening book);
//   - suitefile.go: a balanced suite's random reference players and the
//     opening file it is written as;
//   - schedule.go, knockout.go: head-to-head, round robin, grouped round
//     robin (Chen 2010 §4.4.2.2), gauntlet and knockout schedules of game
//     pairs (each opening played twice, colours swapped);
//   - pool.go: the Runner, a worker pool over all scheduled games
//     (errgroup: a feeder, N workers owning their players, a collector),
//     with an optional SPRT stop for head-to-head matches;
//   - table.go: results tables (W/D/L per pairing, split by colour,
//     pentanomial pair counts, both tournament/wdl's counts; statistics
//     from tournament/stats);
//   - summary.go: Summary, the one JSON shape of a finished match
//     (MatchSummary per pairing from A's view, standings, SPRT), written
//     by arena and by the tuning job's verification;
//   - record.go: SGF game records and the JSON Lines games log.
//   - matchdir.go: a match directory growing game by game (arena -out):
//     the table of its completed game pairs, an undecided SPRT's state,
//     the replay of its games log on resume.
//
// Package tournament/enginespec reads a player's cutechess-cli style
// option list (arena's -engine) into the in-process or an external player.
//
// Of roadtune it imports engine, tournament/stats and the counts of
// tournament/wdl only (besides the standard library and golang.org/x/sync;
// internal/depstest checks): the optimizers' referee, which turns their
// matches into games, lives in package referee, and output files beyond
// game records in package results.
package tournament
