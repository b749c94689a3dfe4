package engine

import (
	"fmt"
	"strings"
)

// Size is the side length of the Connect6 board (19×19).
const Size = 19

// NumPoints is the number of points on the board (Size·Size = 361).
const NumPoints = Size * Size

// Point is a board point as the flat index row·Size+col, 0..360. Row 0 is the
// top row (letter 'A'), column 0 the left column (letter 'A').
type Point int16

// NoPoint marks an absent point (the second stone of a one-stone move).
const NoPoint Point = -1

// PointAt returns the point at zero-based column col and row row. It does not
// check the range; use OnBoard for that.
func PointAt(col, row int) Point { return Point(row*Size + col) }

// Col returns the zero-based column (0 = 'A', the left column).
func (p Point) Col() int { return int(p) % Size }

// Row returns the zero-based row (0 = 'A', the top row).
func (p Point) Row() int { return int(p) / Size }

// OnBoard reports whether p is one of the 361 points.
func (p Point) OnBoard() bool { return p >= 0 && p < NumPoints }

// String writes p in protocol notation: column letter then row letter, "JJ"
// for the centre. NoPoint is "--"; any other off-board value is "??".
func (p Point) String() string {
	if p == NoPoint {
		return "--"
	}
	if !p.OnBoard() {
		return "??"
	}
	return string([]byte{byte('A' + p.Col()), byte('A' + p.Row())})
}

// ParsePoint reads a point in protocol notation: two letters A–S (either
// case), column first ("JJ" is the centre). The error quotes the bad text.
func ParsePoint(s string) (Point, error) {
	p, err := parsePoint(s)
	if err != nil {
		return NoPoint, fmt.Errorf("engine: %w", err)
	}
	return p, nil
}

// parsePoint is ParsePoint with errors that name no package, for
// ParseMove to wrap.
func parsePoint(s string) (Point, error) {
	if len(s) != 2 {
		return NoPoint, fmt.Errorf("point %q: want two letters A-S (column, row)", s)
	}
	col, okc := letter(s[0])
	row, okr := letter(s[1])
	if !okc || !okr {
		return NoPoint, fmt.Errorf("point %q: letters must be A-S", s)
	}
	return PointAt(col, row), nil
}

func letter(c byte) (int, bool) {
	switch {
	case c >= 'A' && c < 'A'+Size:
		return int(c - 'A'), true
	case c >= 'a' && c < 'a'+Size:
		return int(c - 'a'), true
	}
	return 0, false
}

// Color is the colour of a stone or of a side. Black moves first.
type Color int8

// The colours. Empty is the colour of a free point and "nobody" as a winner.
const (
	Empty Color = 0
	Black Color = 1
	White Color = 2
)

// Opponent returns the other side (Black↔White); Empty stays Empty.
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "black", "white" or "empty".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	case Empty:
		return "empty"
	}
	return fmt.Sprintf("Color(%d)", int8(c))
}

// Move is one turn: two stones A then B, or one stone with B == NoPoint
// (Black's first move, or a win completed by the first stone).
type Move struct{ A, B Point }

// Single returns the one-stone move p.
func Single(p Point) Move { return Move{A: p, B: NoPoint} }

// Pair returns the two-stone move a then b.
func Pair(a, b Point) Move { return Move{A: a, B: b} }

// Len returns the number of stones in m: 1 or 2 (0 for the zero-stone
// Move{NoPoint, NoPoint} that Search returns on a finished board).
func (m Move) Len() int {
	n := 0
	if m.A != NoPoint {
		n++
	}
	if m.B != NoPoint {
		n++
	}
	return n
}

// String writes m in protocol notation: "KLLK" for two stones, "JJ" for one.
func (m Move) String() string {
	if m.B == NoPoint {
		return m.A.String()
	}
	return m.A.String() + m.B.String()
}

// ParseMove reads a move in protocol notation: "JJ" (one stone), "JJJJ" (the
// doubled form ConnectMore sends for one stone) or "KLLK" (two stones). Case
// is ignored and surrounding blanks are trimmed. Errors quote the text.
func ParseMove(s string) (Move, error) {
	t := strings.TrimSpace(s)
	switch len(t) {
	case 2:
		p, err := parsePoint(t)
		if err != nil {
			return Move{NoPoint, NoPoint}, fmt.Errorf("engine: move %q: %w", s, err)
		}
		return Single(p), nil
	case 4:
		a, err := parsePoint(t[:2])
		if err != nil {
			return Move{NoPoint, NoPoint}, fmt.Errorf("engine: move %q: %w", s, err)
		}
		b, err := parsePoint(t[2:])
		if err != nil {
			return Move{NoPoint, NoPoint}, fmt.Errorf("engine: move %q: %w", s, err)
		}
		if a == b {
			return Single(a), nil
		}
		return Pair(a, b), nil
	}
	return Move{NoPoint, NoPoint}, fmt.Errorf("engine: move %q: want 2 or 4 letters A-S", s)
}
