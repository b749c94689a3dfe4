package tournament

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/results"
)

// SGF returns the game as an SGF FF[4] record (connect6.md "Game records").
//
// Root node: FF[4] CA[UTF-8] AP[roadtune] SZ[19] GM[4] RU[Connect6] PB PW
// RE, and two private properties: XOPENING (the opening in protocol
// notation, empty for the empty board) and XREASON (why the game ended:
// six, full-board, move-limit, forfeit:<kind>). SGF has no registered GM
// number for Connect6; GM[4] (the Gomoku/Renju family, whose board and
// stones are the same) lets general viewers draw the game, and RU[Connect6]
// states the rules. A forfeit's detail goes into the root comment C. Then
// one node per stone in the order placed, ";B[jj];W[kj];W[jk];…", lowercase
// a–s, column first (a is the left column, the top row); the opening's
// stones are ordinary move nodes. Property values are escaped (\ before ]
// and \).
func (g GameRecord) SGF() string {
	var sb strings.Builder
	esc := func(s string) string {
		return strings.NewReplacer(`\`, `\\`, `]`, `\]`).Replace(s)
	}
	fmt.Fprintf(&sb, "(;FF[4]CA[UTF-8]AP[roadtune]SZ[%d]GM[4]RU[Connect6]\nPB[%s]PW[%s]RE[%s]\nXOPENING[%s]XREASON[%s]",
		engine.Size, esc(g.Black), esc(g.White), g.Result, esc(g.Opening), esc(g.Reason))
	if g.Detail != "" {
		fmt.Fprintf(&sb, "C[%s]", esc(g.Detail))
	}
	sb.WriteByte('\n')
	for i, m := range g.Moves {
		c := "B"
		if MoveColor(i) == engine.White {
			c = "W"
		}
		for _, p := range []engine.Point{m.A, m.B} {
			if p == engine.NoPoint {
				continue
			}
			fmt.Fprintf(&sb, ";%s[%c%c]", c, 'a'+p.Col(), 'a'+p.Row())
		}
	}
	sb.WriteString(")\n")
	return sb.String()
}

// SGFName is the file name of a game's SGF record: "game-000123.sgf".
func (g GameRecord) SGFName() string { return fmt.Sprintf("game-%06d.sgf", g.Game) }

// WriteSGF writes the game's SGF record into dir (created if needed) as
// SGFName, atomically; it returns the path.
func WriteSGF(dir string, g GameRecord) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, g.SGFName())
	if err := results.WriteFileAtomic(path, []byte(g.SGF())); err != nil {
		return "", err
	}
	return path, nil
}

// AppendGameLog appends one game to a JSON Lines games log (one object per
// line, see GameRecord.MarshalJSON), with fsync, so a log survives an
// interrupted match.
func AppendGameLog(path string, g GameRecord) error {
	return results.AppendJSONL(path, g)
}

// ReadGameLog reads a JSON Lines games log; errors name the file and line.
// BuildTable rebuilds the table from it.
func ReadGameLog(path string) ([]GameRecord, error) {
	return results.ReadJSONL[GameRecord](path)
}
