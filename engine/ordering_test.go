package engine

import (
	"context"
	"testing"
)

// TestOrderingKeepsResults: Killers and History only reorder the moves a
// node keeps, so at a fixed depth they return the move, score, depth and
// reason of the search without them (alpha-beta's value does not depend
// on the order), with other node counts, which are logged.
func TestOrderingKeepsResults(t *testing.T) {
	suite := loadSuite(t)[:8]
	base := DefaultSettings()
	base.Depth = 4
	off := newEngine(t, zhou(t), base)
	want := make([]Result, len(suite))
	var wantNodes int64
	for i, b := range suite {
		want[i] = off.Search(context.Background(), b)
		wantNodes += want[i].Nodes
	}
	for _, c := range []struct {
		name             string
		killers, history bool
	}{{"Killers", true, false}, {"History", false, true}, {"both", true, true}} {
		s := base
		s.Killers, s.History = c.killers, c.history
		e := newEngine(t, zhou(t), s)
		var nodes int64
		for i, b := range suite {
			r := e.Search(context.Background(), b)
			nodes += r.Nodes
			w := want[i]
			if r.Move != w.Move || r.Score != w.Score || r.Depth != w.Depth || r.Reason != w.Reason {
				t.Errorf("%s position %d: %+v, without %+v", c.name, i, r, w)
			}
		}
		t.Logf("%-7s %d nodes, without %d", c.name, nodes, wantNodes)
	}
}

// TestWidthByPly: entries equal to Width change nothing, node for node; a
// root entry sets the number of root moves searched.
func TestWidthByPly(t *testing.T) {
	b := loadSuite(t)[0]
	s := DefaultSettings()
	s.Depth = 3
	want := newEngine(t, zhou(t), s).Search(context.Background(), b)
	for i := range s.WidthByPly {
		s.WidthByPly[i] = s.Width
	}
	if got := newEngine(t, zhou(t), s).Search(context.Background(), b); got != want {
		t.Errorf("WidthByPly all %d: %+v, want %+v", s.Width, got, want)
	}
	s.WidthByPly = [MaxDepth]int{0: 3, 2: 5}
	e := newEngine(t, zhou(t), s)
	r := e.Search(context.Background(), b)
	if n := len(e.plies[0].moves); n != 3 || r.Move != e.plies[0].moves[0].m {
		t.Errorf("root width 3: %d root moves, %+v", n, r)
	}
	if r == want || r.Nodes >= want.Nodes {
		t.Errorf("root width 3, ply-2 width 5: %+v, the same as width 10 %+v", r, want)
	}
}
