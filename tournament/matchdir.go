// This file holds what a match directory that grows game by game needs
// (arena's -out, with -resume): the table of its completed game pairs as
// games arrive (PairTally), the state of an SPRT that has not decided
// (NewSPRTStatus), and the replay of its games log when it resumes
// (ResumeGames).

package tournament

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/roadtune/roadtune/internal/fileio"

	"github.com/roadtune/roadtune/tournament/stats"
)

// Bare is g without its moves, move times and detail: what a table
// counts and what Runner.Resume needs of a game already played.
func (g GameRecord) Bare() GameRecord {
	g.Moves, g.MoveTimes, g.Detail = nil, nil, ""
	return g
}

// PairTally is the table of a match's completed game pairs, built as the
// games arrive in game order (Runner.OnGame): a pair counts once both its
// games are in, so a match stopped between them shows only whole pairs.
// It holds no game records.
type PairTally struct {
	b       *TableBuilder
	half    *GameRecord // the first game of a pair, waiting for the second
	games   int
	reasons map[string]int
}

// NewPairTally returns an empty tally over the named players (entrant
// indices index players).
func NewPairTally(players []string) *PairTally {
	return &PairTally{b: NewTableBuilder(players, false), reasons: map[string]int{}}
}

// Add takes the next game in game order and counts it with its pair once
// the pair is complete. Errors: TableBuilder.Add's for either game of the
// pair.
func (t *PairTally) Add(g GameRecord) error {
	g = g.Bare()
	if t.half == nil || t.half.Pair != g.Pair {
		t.half = &g
		return nil
	}
	first := *t.half
	t.half = nil
	for _, r := range []GameRecord{first, g} {
		if err := t.b.Add(r); err != nil {
			return err
		}
		t.games++
		t.reasons[r.Reason]++
	}
	return nil
}

// Table is the table of the completed pairs so far (TableBuilder.Table).
func (t *PairTally) Table() *Table { return t.b.Table() }

// Games is the number of games counted: twice the completed pairs.
func (t *PairTally) Games() int { return t.games }

// Reasons counts the counted games by GameRecord.Reason (the tally's own
// map: copy it to keep it past the next Add).
func (t *PairTally) Reasons() map[string]int { return t.reasons }

// NewSPRTStatus is the state of s on tab's one pairing: its LLR over the
// table's complete game pairs and its decision, "continue" while no bound
// is crossed. A table with no single pairing (nil, or several), or pairs
// the test cannot take, leaves the LLR at 0 and the decision "continue".
func NewSPRTStatus(s stats.SPRT, tab *Table) *SPRTStatus {
	lo, hi := s.Bounds()
	st := &SPRTStatus{SPRT: s, Lower: lo, Upper: hi, Decision: stats.Continue.String()}
	if tab != nil && len(tab.Matchups) == 1 {
		p := tab.Matchups[0].Pairs
		if llr, dec, err := s.Test(p.Counts()); err == nil {
			st.LLR, st.Pairs, st.Decision = llr, p.N(), dec.String()
		}
	}
	return st
}

// ResumeGames replays the games log at path of a match to resume: each
// record's moves are replayed through the rules first (GameRecord.Replay),
// then fn gets the game, in log order, as Bare gives it (a last line
// without a newline is skipped, as ScanGameLog does). A game counts as
// played once its line is in the log, and its SGF file is written before
// that line; a game whose SGF is missing from sgfDir (a match directory of
// an older arena) has it written again (WriteSGF), and rebuilt counts
// those. Errors: ScanGameLog's, WriteSGF's, and a record Replay or fn
// refuses as a *fileio.Error naming path and the record's line
// ("games.jsonl:3: game 2: …"); nothing is written for a refused record.
func ResumeGames(path, sgfDir string, fn func(GameRecord) error) (rebuilt int, err error) {
	err = scanGameLog(path, false, func(g GameRecord, line int) error {
		if err := g.Replay(); err != nil {
			return &fileio.Error{Path: path, Line: line, Err: err}
		}
		if err := fn(g.Bare()); err != nil {
			return &fileio.Error{Path: path, Line: line, Err: err}
		}
		if _, err := os.Stat(filepath.Join(sgfDir, g.SGFName())); errors.Is(err, fs.ErrNotExist) {
			if _, err := WriteSGF(sgfDir, g); err != nil {
				return err
			}
			rebuilt++
		}
		return nil
	})
	return rebuilt, err
}
