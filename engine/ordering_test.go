package engine

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"
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

// TestBlocks: with Blocks k the root list holds the Width best moves
// plus at most k others, each through an empty point of the opponent's
// live 3-stone roads (or, facing one threat, also through its blocking
// stone), sorted best first; Blocks 0 is the old list.
func TestBlocks(t *testing.T) {
	suite := loadSuite(t)
	s := DefaultSettings()
	plain := newEngine(t, zhou(t), s)
	s.Blocks = 2
	e := newEngine(t, zhou(t), s)
	added := 0
	for i, b := range suite {
		plain.board.CopyFrom(b)
		plain.root = b.ToMove()
		plain.genMoves(0, &plain.ts[0], 0)
		e.board.CopyFrom(b)
		e.root = b.ToMove()
		e.genMoves(0, &e.ts[0], 0)
		got, want := e.plies[0].moves, plain.plies[0].moves
		if len(got) > len(want)+s.Blocks {
			t.Fatalf("position %d: %d moves, want at most %d", i, len(got), len(want)+s.Blocks)
		}
		for j := range got {
			if j > 0 && betterMove(&got[j], &got[j-1]) {
				t.Fatalf("position %d: moves not sorted at %d", i, j)
			}
			if hasMove(want, got[j].m) {
				continue
			}
			added++
			if !onOpponentThree(b, got[j].m.A) && !onOpponentThree(b, got[j].m.B) {
				t.Errorf("position %d: added move %v blocks no 3-stone road", i, got[j].m)
			}
		}
		for _, m := range want {
			if !hasMove(got, m.m) {
				t.Errorf("position %d: kept move %v dropped", i, m.m)
			}
		}
	}
	if added == 0 {
		t.Fatal("no blocking move added on the suite: the test checks nothing")
	}
	t.Logf("%d blocking moves added on %d positions", added, len(suite))
}

// onOpponentThree reports whether p is an empty point of a live road
// holding 3 stones of the opponent of the side to move in b.
func onOpponentThree(b *Board, p Point) bool {
	o := b.ToMove().Opponent()
	for r := 0; r < NumRoads; r++ {
		if liveLen[o][b.code[r]&63] == 3 && slices.Contains(roadPoints[r][:], p) && b.cells[p] == Empty {
			return true
		}
	}
	return false
}

// TestPartialIteration: under a clock with TimeSettings.Partial, a search
// stopped inside iteration d (here by MaxNodes, so the test is
// deterministic) plays a root move searched to the end in it when that
// move scores better at depth d than the previous iteration's best, which
// a full depth-d evaluation of both confirms; without such a move, and
// without Partial, it plays the last completed iteration's move. An hour
// per move with no node budget gives the fixed-depth result.
func TestPartialIteration(t *testing.T) {
	s := DefaultSettings()
	s.Depth = 4
	hour := Clock{Move: time.Hour}
	exact := newEngine(t, zhou(t), s)
	changed := 0
	for i, b := range loadSuite(t)[:4] {
		for budget := int64(1000); budget <= 25000; budget += 1200 {
			s.MaxNodes, s.Time.Partial = budget, false
			off := newEngine(t, zhou(t), s).SearchClock(context.Background(), b, hour)
			s.Time.Partial = true
			on := newEngine(t, zhou(t), s).SearchClock(context.Background(), b, hour)
			if on.Move == off.Move {
				if on != off {
					t.Errorf("position %d, %d nodes: %+v, without Partial %+v", i, budget, on, off)
				}
				continue
			}
			changed++
			d := off.Depth + 1
			vOn, vOff := rootValue(exact, b, on.Move, d), rootValue(exact, b, off.Move, d)
			if on.Depth != off.Depth || on.Score != vOn || vOn <= vOff {
				t.Errorf("position %d, %d nodes: %+v (depth-%d value %v), without Partial %+v (%v)", i, budget, on, d, vOn, off, vOff)
			}
		}
		s.MaxNodes, s.Time.Partial = 0, true
		e := newEngine(t, zhou(t), s)
		if got, want := e.SearchClock(context.Background(), b, hour), e.Search(context.Background(), b); got != want {
			t.Errorf("position %d: an hour per move %+v, depth 4 %+v", i, got, want)
		}
	}
	if changed == 0 {
		t.Fatal("no budget stopped an iteration after a better move: the test checks nothing")
	}
	t.Logf("%d stopped searches played a move of the unfinished iteration", changed)
}

// rootValue is the depth-d negamax value of root move m in b, by a full
// window search on engine e.
func rootValue(e *Engine, b *Board, m Move, d int) float64 {
	e.NewGame()
	e.board.CopyFrom(b)
	e.root = b.ToMove()
	e.seq++
	e.salt = mix64(e.games<<32 ^ e.seq)
	e.nodes, e.stop, e.ctx, e.maxNodes, e.deadline, e.tm.on = 0, false, context.Background(), 0, time.Time{}, false
	e.poll()
	e.board.Place(m.A)
	e.board.Place(m.B)
	v := -e.node(d-1, 1, math.Inf(-1), math.Inf(1))
	e.board.Unplace()
	e.board.Unplace()
	e.ctx = nil
	return v
}

// TestKnobsDeterministic: with every search knob on (Killers, History,
// Blocks, WidthByPly, the defensive check; PlaySettings's Partial plays
// no part without a clock) a fixed-depth search gives the same result
// twice on one engine (after other searches), on engines searching in
// parallel, and allocates nothing.
func TestKnobsDeterministic(t *testing.T) {
	s := PlaySettings()
	s.Depth, s.History, s.Blocks, s.WidthByPly = 3, true, 2, [MaxDepth]int{0: 15, 2: 6}
	suite := loadSuite(t)[:6]
	e := newEngine(t, zhou(t), s)
	want := make([]Result, len(suite))
	for i, b := range suite {
		want[i] = e.Search(context.Background(), b)
	}
	for i, b := range suite {
		e.Search(context.Background(), suite[len(suite)-1-i])
		if got := e.Search(context.Background(), b); got != want[i] {
			t.Errorf("position %d: %+v, first %+v", i, got, want[i])
		}
	}
	checkParallel(t, s, suite, want, 2)
	i := 0
	if allocs := testing.AllocsPerRun(5, func() {
		e.Search(context.Background(), suite[i%len(suite)])
		i++
	}); allocs != 0 {
		t.Errorf("Search allocates %v per run", allocs)
	}
}
