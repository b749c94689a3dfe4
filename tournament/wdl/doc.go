// Package wdl counts a match's results from one player's view, A's: its
// games won, drawn and lost (Count) and its colour-swapped game pairs by
// A's points in the pair (Pentanomial), the two counts of fastchess's
// Stats (matchmaking/stats.hpp).
//
// It is the one count of a match from the referee to the report: the
// tournament's matchups, standings and summaries count their games in a
// Count; tournament/stats estimates Elo and runs the SPRT on their Counts;
// and optimize.Outcome, the result of every Referee.Play that the
// optimizers read, is a Count under the optimizers' name. The package
// links only the standard library, so every room may import it, the
// optimizers included (they see nothing of roadtune but package optimize
// and such leaves).
//
// JSON: a Count is {"wins": …, "draws": …, "losses": …}, its keys read
// without regard to case (so the {"Wins": …} that optimize.Outcome wrote
// before it was a Count reads too); embedded in a record it lays those
// three keys flat in the record (pso's match records, SPSA's iterations).
// Short is a Count written {"w": …, "d": …, "l": …}, the games of a match
// summary (tournament.MatchSummary). A Pentanomial is the array of its
// five counts.
package wdl
