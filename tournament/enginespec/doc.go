// Package enginespec reads the option lists that describe a player of a
// match, after cutechess-cli's -engine: key=value words such as
// `name=Cloudict cmd=./gameEngine dir=DIR initstr="depth 2" st=1` for an
// external protocol engine, or `weights=tuned.json depth=6 width=20
// killers=true` for the in-process engine. Parse reads the words, With
// completes a list with shared options (arena's -each), Resolve checks it
// into a Player (the engine's tournament.Engine description and the
// in-process search's changes to the match's settings);
// Player.InProcess and Player.External make it a
// tournament.Entrant with its description for a match summary
// (tournament.PlayerInfo), and Player.Settings gives an in-process
// player's engine.Settings. SplitCommand splits an engine's command line
// without a shell.
package enginespec
