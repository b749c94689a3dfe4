package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
)

// view is a game prepared for the viewer: its moves (one or two stones
// each, the opening's first) and the stones of the final position.
type view struct {
	Moves   []viewMove `json:"moves"`
	Opening int        `json:"opening"` // moves of the opening
	Margin  int        `json:"margin"`  // SVG coordinate of the first line
	Cell    int        `json:"cell"`    // distance between lines
	// For the page: the final position's stones, the star points, the
	// board's size, the last line's coordinate and the labels' offset,
	// and the last move in words.
	Stones   []stone `json:"-"`
	Stars    []stone `json:"-"`
	Size     int     `json:"-"`
	End      int     `json:"-"`
	Label    int     `json:"-"`
	LastText string  `json:"-"`
}

// viewMove is one move: its colour ("black", "white"), its stones as
// [column, row] from 0 (row 0 the top row, letter A) and its protocol
// notation.
type viewMove struct {
	Color  string   `json:"color"`
	Stones [][2]int `json:"stones"`
	Text   string   `json:"text"`
}

// stone is one stone of the board as drawn: its centre and its CSS
// classes ("stone black opening last").
type stone struct {
	X, Y  int
	Class string
	Title string
}

// newView prepares rec: move i is Black's when i is even (Black's first
// move is one stone, then two stones a turn; connect6.md); the opening's
// moves (as many as the opening's words) are marked "opening".
func newView(rec tournament.GameRecord) view {
	v := view{Opening: len(strings.Fields(rec.Opening)), Margin: margin, Cell: cell,
		Size: 2*margin + (boardSize-1)*cell, End: pos(boardSize - 1), Label: margin / 2}
	for _, c := range []int{3, 9, 15} {
		for _, r := range []int{3, 9, 15} {
			v.Stars = append(v.Stars, stone{X: pos(c), Y: pos(r)})
		}
	}
	for i, m := range rec.Moves {
		vm := viewMove{Color: "black", Text: m.String()}
		if i%2 == 1 {
			vm.Color = "white"
		}
		for _, p := range []engine.Point{m.A, m.B} {
			if p.OnBoard() {
				vm.Stones = append(vm.Stones, [2]int{p.Col(), p.Row()})
			}
		}
		v.Moves = append(v.Moves, vm)
	}
	if n := len(v.Moves); n > 0 {
		v.LastText = moveText(n-1, v.Moves[n-1], v.Opening)
	}
	for i, m := range v.Moves {
		class := "stone " + m.Color
		if i < v.Opening {
			class += " opening"
		}
		if i == len(v.Moves)-1 {
			class += " last"
		}
		for _, s := range m.Stones {
			v.Stones = append(v.Stones, stone{X: pos(s[0]), Y: pos(s[1]), Class: class,
				Title: string(rune('A'+s[0])) + string(rune('A'+s[1]))})
		}
	}
	return v
}

// json is the view for the page's script (a <script type="application/json">
// block; html/template escapes it for that context).
func (v view) json() template.JS {
	data, err := json.Marshal(v)
	if err != nil {
		return "{}"
	}
	return template.JS(data)
}

// moveText is move i in words: "move 5: Black KJJK", "(opening)" added
// for the opening's moves. The page's script writes the same.
func moveText(i int, m viewMove, opening int) string {
	s := fmt.Sprintf("move %d: %s %s", i+1, strings.ToUpper(m.Color[:1])+m.Color[1:], m.Text)
	if i < opening {
		s += " (opening)"
	}
	return s
}
