package engine

import (
	"context"
	"testing"
)

// TestFixedDepthGolden pins the results of fixed-depth searches without a
// clock (move, score, nodes, depth, reason) to the values the engine gave
// before time management existed (issue 14, "play by time"): the clock
// code must not change a search that has no clock, node for node.
func TestFixedDepthGolden(t *testing.T) {
	positions := map[string]string{
		"suite0":   "JJ KLLL KIJL IKJK IJKK LILJ KJLK KHML GJOL FJMK GKMN HHGI",
		"suite7":   "JJ KKHL JIKJ IJJK HILK IHII IKNM IFML IEHF",
		"suite15":  "JJ LJHK KIKK IIIK IJJK JLKL HJIL KJLK FJML EJMJ",
		"threat":   threatPosition,
		"block":    "JJ AAAB KLLK ACAD",
		"defend11": "JJ JGIH HIII JIHH JHKJ IJKH LGLI HKIL LJGL GJFI EHKN",
		"defend22": "JJ HGHL JLHJ JIIJ KKLK IIIK IMLJ",
	}
	depth3 := DefaultSettings()
	depth3.Depth = 3
	depth4 := DefaultSettings()
	depth4.Depth, depth4.Width, depth4.DefendNodes = 4, 20, PlayDefendNodes
	cases := []struct {
		settings Settings
		pos      string
		move     string
		score    float64
		nodes    int64
		depth    int
		reason   string
	}{
		{depth3, "suite0", "IFJF", 810, 2665, 3, "search"},
		{depth3, "suite7", "FLJL", 2000, 4017, 3, "search"},
		{depth3, "suite15", "LHNI", 1110, 2546, 3, "search"},
		{depth3, "threat", "IEGG", Mate - 4, 587, 0, "threat"},
		{depth3, "block", "AFKJ", 4520, 5964, 3, "block"},
		{depth4, "suite0", "IFIG", -2550, 81408, 4, "search"},
		{depth4, "suite7", "FHJH", -1270, 134211, 4, "search"},
		{depth4, "suite15", "LINI", -2100, 111475, 4, "search"},
		{depth4, "block", "AFML", 950, 192474, 4, "block"},
		{depth4, "defend11", "IGLH", -430, 125643, 4, "defend"},
		{depth4, "defend22", "MIHN", -1230, 16380, 4, "block"},
	}
	engines := map[Settings]*Engine{}
	for _, tc := range cases {
		e := engines[tc.settings]
		if e == nil {
			e = newEngine(t, zhou(t), tc.settings)
			engines[tc.settings] = e
		}
		e.NewGame()
		r := e.Search(context.Background(), boardOf(t, positions[tc.pos]))
		if r.Move.String() != tc.move || r.Score != tc.score || r.Nodes != tc.nodes || r.Depth != tc.depth || r.Reason != tc.reason {
			t.Errorf("depth %d %s: got %s %v %d nodes depth %d %q, want %s %v %d nodes depth %d %q",
				tc.settings.Depth, tc.pos, r.Move, r.Score, r.Nodes, r.Depth, r.Reason, tc.move, tc.score, tc.nodes, tc.depth, tc.reason)
		}
	}
}
