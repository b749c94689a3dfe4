package engine

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

func zhou(t testing.TB) Weights {
	return mustWeights(t, Symmetric, 20, 80, 150, 800, 1000)
}

func newEngine(t testing.TB, w Weights, s Settings) *Engine {
	t.Helper()
	e, err := New(w, s)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func boardOf(t testing.TB, moves string) *Board {
	t.Helper()
	b := NewBoard()
	play(t, b, strings.Fields(moves)...)
	return b
}

func TestSearchWinNeedingOneStone(t *testing.T) {
	// Black FJ GJ HJ IJ JJ: EJ or KJ completes six.
	b := boardOf(t, "JJ AASA IJHJ ASSS GJFJ CQDQ")
	e := newEngine(t, zhou(t), DefaultSettings())
	r := e.Search(context.Background(), b)
	if r.Reason != "win" || r.Move.Len() != 1 || r.Score != Mate {
		t.Fatalf("result %+v, want a one-stone win", r)
	}
	if s := r.Move.A.String(); s != "EJ" && s != "KJ" {
		t.Fatalf("winning stone %s", s)
	}
	if err := b.Play(r.Move); err != nil || b.Winner() != Black {
		t.Fatalf("play %v: %v, winner %s", r.Move, err, b.Winner())
	}
}

func TestSearchWinNeedingTwoStones(t *testing.T) {
	// Black GJ HJ IJ JJ (and CC): two stones complete six.
	b := boardOf(t, "JJ AASA IJHJ ASSS GJCC DQEQ")
	e := newEngine(t, zhou(t), DefaultSettings())
	r := e.Search(context.Background(), b)
	if r.Reason != "win" || r.Move.Len() != 2 {
		t.Fatalf("result %+v, want a two-stone win", r)
	}
	if err := b.Play(r.Move); err != nil || b.Winner() != Black {
		t.Fatalf("play %v: %v, winner %s", r.Move, err, b.Winner())
	}
}

// containsAny reports whether m has a stone at one of the named points.
func containsAny(t testing.TB, m Move, pts ...string) bool {
	for _, s := range pts {
		p := mustPoint(t, s)
		if m.A == p || m.B == p {
			return true
		}
	}
	return false
}

func TestSearchMustBlockOneThreat(t *testing.T) {
	// White AA AB AC AD: one road (rows A..F of column A) needs AE or AF.
	b := boardOf(t, "JJ AAAB KLLK ACAD")
	if b.Threats(White) != 1 || b.Threats(Black) != 0 {
		t.Fatalf("threats white %d black %d", b.Threats(White), b.Threats(Black))
	}
	for _, depth := range []int{1, 2, 3} {
		s := DefaultSettings()
		s.Depth = depth
		e := newEngine(t, zhou(t), s)
		r := e.Search(context.Background(), b)
		if r.Reason != "block" || !containsAny(t, r.Move, "AE", "AF") {
			t.Fatalf("depth %d: %+v does not block AE/AF", depth, r)
		}
		// Every root move kept after ordering contains a blocking stone.
		for _, m := range e.plies[0].moves {
			if !containsAny(t, m.m, "AE", "AF") {
				t.Fatalf("depth %d: root move %v does not block", depth, m.m)
			}
		}
		c := b.Clone()
		if err := c.Play(r.Move); err != nil || c.Threats(White) != 0 {
			t.Fatalf("after %v: %v, white threats %d", r.Move, err, c.Threats(White))
		}
	}
}

func TestSearchMustBlockTwoThreats(t *testing.T) {
	// White columns A and S, rows A..D: two disjoint roads, one stone each.
	b := boardOf(t, "JJ AAAB KLCJ SASB PPQR ACAD CPDR SCSD")
	if b.Threats(White) != 2 || b.Threats(Black) != 0 {
		t.Fatalf("threats white %d black %d", b.Threats(White), b.Threats(Black))
	}
	e := newEngine(t, zhou(t), DefaultSettings())
	r := e.Search(context.Background(), b)
	if r.Reason != "block" || !containsAny(t, r.Move, "AE", "AF") || !containsAny(t, r.Move, "SE", "SF") {
		t.Fatalf("%+v is not a hitting pair of {AE,AF}×{SE,SF}", r)
	}
	if n := len(e.plies[0].moves); n != 4 {
		t.Fatalf("%d root moves, want the 4 hitting pairs", n)
	}
	if err := b.Play(r.Move); err != nil || b.Threats(White) != 0 {
		t.Fatalf("after %v: %v, white threats %d", r.Move, err, b.Threats(White))
	}
}

func TestSearchLostWithThreeThreats(t *testing.T) {
	// White: column A rows A..D, column S rows A..D, and row S columns
	// G..J (an open four needing two stones): four threats in all.
	b := boardOf(t, "JJ AAAB KLCJ SASB PPQR ACAD CPDR SCSD FFNC GSHS LDMF ISJS")
	if b.Threats(White) != 3 || b.Threats(Black) != 0 {
		t.Fatalf("threats white %d black %d", b.Threats(White), b.Threats(Black))
	}
	e := newEngine(t, zhou(t), DefaultSettings())
	r := e.Search(context.Background(), b)
	if r.Reason != "lost" || r.Score != -(Mate-1) {
		t.Fatalf("result %+v, want lost", r)
	}
	if err := b.Clone().Play(r.Move); err != nil {
		t.Fatalf("lost position: illegal move %v: %v", r.Move, err)
	}
}

// threatPosition: Black to move after self-play (zhou2015, depth 2, width
// 10, from the opening JJ KKIK); Black wins by a double threat followed by
// a triple threat, which depth-2 alpha-beta cannot see.
const threatPosition = "JJ KKIK JKJL JIIJ HKIL HMJM GLKL HLML GMNM LMMM IMMN IHII IGGI HGGH KJGN GFGK FEJH EHHH FHGO FGGP GEHF FDLJ"

func TestThreatSearchFindsDoubleThreatWin(t *testing.T) {
	b := boardOf(t, threatPosition)
	if b.ToMove() != Black || b.Threats(White) != 0 {
		t.Fatalf("setup: %s to move, white threats %d", b.ToMove(), b.Threats(White))
	}
	off := DefaultSettings()
	off.ThreatSearch = false
	if r := newEngine(t, zhou(t), off).Search(context.Background(), b); IsMate(r.Score) {
		t.Fatalf("depth-2 alpha-beta alone already sees the win (%+v): the position does not test the threat search", r)
	}
	e := newEngine(t, zhou(t), DefaultSettings())
	r := e.Search(context.Background(), b)
	if r.Reason != "threat" || r.Score != Mate-4 {
		t.Fatalf("result %+v, want a threat win in 4 plies", r)
	}
	if err := b.Play(r.Move); err != nil {
		t.Fatal(err)
	}
	if got := b.Threats(Black); got != 2 {
		t.Fatalf("after %v black has %d threats, want 2", r.Move, got)
	}
	// Every White defence (all its minimal blocking pairs) meets a triple.
	var ts threatSet
	b.analyzeThreats(Black, &ts)
	if ts.nPairs == 0 {
		t.Fatal("no blocking pairs")
	}
	for _, def := range ts.pairs[:ts.nPairs] {
		c := b.Clone()
		if err := c.Play(def); err != nil {
			t.Fatal(err)
		}
		r2 := e.Search(context.Background(), c)
		if !IsMate(r2.Score) || r2.Score <= 0 {
			t.Fatalf("after White %v black finds %+v", def, r2)
		}
		if err := c.Play(r2.Move); err != nil {
			t.Fatal(err)
		}
		if c.Threats(Black) < 3 {
			t.Fatalf("after White %v, black %v makes only %d threats", def, r2.Move, c.Threats(Black))
		}
		if r3 := e.Search(context.Background(), c); r3.Reason != "lost" {
			t.Fatalf("White after the triple: %+v, want lost", r3)
		}
	}
}

// TestSearchDeterministic: same position, weights and settings give the
// same move, score and node count, after NewGame, after other searches,
// and on another engine.
func TestSearchDeterministic(t *testing.T) {
	positions := loadSuite(t)
	s := DefaultSettings()
	s.Depth = 3
	w := mustWeights(t, Asymmetric, 1, 5, 10, 25, 25, 1, 10, 15, 35, 25)
	e1, e2 := newEngine(t, w, s), newEngine(t, w, s)
	for i, b := range positions[:6] {
		e1.NewGame()
		r1 := e1.Search(context.Background(), b)
		// Pollute e1's table with other positions, then repeat.
		e1.Search(context.Background(), positions[len(positions)-1-i])
		e1.NewGame()
		r2 := e1.Search(context.Background(), b)
		r3 := e2.Search(context.Background(), b)
		if r1 != r2 || r1 != r3 {
			t.Fatalf("position %d: %+v / %+v / %+v", i, r1, r2, r3)
		}
		if r1.Nodes == 0 || r1.Move.Len() != 2 {
			t.Fatalf("position %d: %+v", i, r1)
		}
	}
}

func TestSearchLeavesBoardUnchanged(t *testing.T) {
	b := loadSuite(t)[3]
	before, hash := b.String(), b.Hash()
	e := newEngine(t, zhou(t), DefaultSettings())
	e.Search(context.Background(), b)
	if b.String() != before || b.Hash() != hash {
		t.Fatal("Search changed the board")
	}
}

func TestSearchSpecialPositions(t *testing.T) {
	e := newEngine(t, zhou(t), DefaultSettings())
	r := e.Search(context.Background(), NewBoard())
	if r.Move != Single(mustPoint(t, "JJ")) {
		t.Fatalf("empty board: %+v", r)
	}
	b := boardOf(t, "JJ")
	r = e.Search(context.Background(), b)
	if r.Move.Len() != 2 || b.Clone().Play(r.Move) != nil {
		t.Fatalf("White's first move: %+v", r)
	}
	// Mid-turn: one stone.
	b.Place(mustPoint(t, "KK"))
	r = e.Search(context.Background(), b)
	if r.Move.Len() != 1 || b.Clone().Play(r.Move) != nil {
		t.Fatalf("mid-turn: %+v", r)
	}
	// Finished game.
	won := boardOf(t, "JJ AASA IJHJ ASSS GJFJ CQDQ EJ")
	if r := e.Search(context.Background(), won); r.Reason != "over" || r.Move.Len() != 0 {
		t.Fatalf("finished game: %+v", r)
	}
}

func TestSearchBudgets(t *testing.T) {
	b := loadSuite(t)[0]
	s := DefaultSettings()
	s.Depth = 4
	s.Width = 20
	s.MaxNodes = 500
	e := newEngine(t, zhou(t), s)
	r := e.Search(context.Background(), b)
	if err := b.Clone().Play(r.Move); r.Nodes > 500+int64(e.Settings().Singles*e.Settings().Singles) || r.Depth >= 4 || err != nil {
		t.Fatalf("node budget 500: %+v %v\n%s", r, err, b)
	}
	r2 := e.Search(context.Background(), b)
	if r != r2 {
		t.Fatalf("node budget is not deterministic: %+v vs %+v", r, r2)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.MaxNodes = 0
	e.SetSettings(s)
	r = e.Search(ctx, b)
	if r.Move.Len() != 2 || b.Clone().Play(r.Move) != nil {
		t.Fatalf("cancelled: %+v", r)
	}
	s.MoveTime = time.Millisecond
	e.SetSettings(s)
	start := time.Now()
	r = e.Search(context.Background(), b)
	if el := time.Since(start); el > 200*time.Millisecond || b.Clone().Play(r.Move) != nil {
		t.Fatalf("move time 1ms took %v: %+v", el, r)
	}
}

func TestSettings(t *testing.T) {
	d := DefaultSettings()
	if d.Depth != 2 || d.Width != 10 || !d.ThreatSearch || d.TableBits != 20 || d.MaxNodes != 0 || d.MoveTime != 0 {
		t.Fatalf("defaults %+v", d)
	}
	for _, bad := range []Settings{{Depth: -1}, {Depth: MaxDepth + 1}, {Width: -3}, {TableBits: 40}, {MaxNodes: -1}, {MoveTime: -1}, {Singles: 1}} {
		if _, err := New(zhou(t), bad); err == nil {
			t.Errorf("settings %+v accepted", bad)
		}
	}
	if _, err := New(Weights{Schema: Symmetric, Genes: []float64{1}}, d); err == nil {
		t.Error("bad weights accepted")
	}
	e := newEngine(t, zhou(t), d)
	table := &e.tt[0]
	d.Depth, d.Width = 3, 20
	if err := e.SetSettings(d); err != nil {
		t.Fatal(err)
	}
	if &e.tt[0] != table {
		t.Error("SetSettings with the same TableBits reallocated the table")
	}
	if got := e.Settings(); got.Depth != 3 || got.Width != 20 || got.Singles != 24 {
		t.Errorf("Settings() = %+v", got)
	}
}

// TestEngineMemory: an engine with default settings holds at most 32 MiB,
// measured by the allocator, and NewGame + Search allocate nothing.
func TestEngineMemory(t *testing.T) {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	e := newEngine(t, zhou(t), DefaultSettings())
	runtime.ReadMemStats(&m1)
	if got := m1.TotalAlloc - m0.TotalAlloc; got > 32<<20 {
		t.Errorf("New allocated %d bytes, want ≤ 32 MiB", got)
	}
	if fp := e.Footprint(); fp > 32<<20 || fp < 24<<20 {
		t.Errorf("Footprint %d bytes", fp)
	}
	suite := loadSuite(t)
	i := 0
	allocs := testing.AllocsPerRun(20, func() {
		e.NewGame()
		e.Search(context.Background(), suite[i%len(suite)])
		i++
	})
	if allocs != 0 {
		t.Errorf("NewGame+Search allocate %v per run", allocs)
	}
}

// TestAsymmetricPerspective: the engine scores from the root side's view;
// searching the same position for Black and for White with asymmetric
// weights uses M for the root and E for its opponent in both cases.
func TestAsymmetricPerspective(t *testing.T) {
	b := boardOf(t, "JJ KKIK")
	w := mustWeights(t, Asymmetric, 1, 2, 3, 4, 5, 10, 20, 30, 40, 50)
	e := newEngine(t, w, DefaultSettings())
	e.root = Black
	e.board.CopyFrom(b)
	if got, want := e.static(Black), w.Evaluate(b, Black); got != want {
		t.Fatalf("root black, black view %v want %v", got, want)
	}
	if got, want := e.static(White), -w.Evaluate(b, Black); got != want {
		t.Fatalf("root black, white view %v want %v (sign flip, not role swap)", got, want)
	}
	if w.Evaluate(b, White) == -w.Evaluate(b, Black) {
		t.Fatal("the weights do not distinguish the two views: test too weak")
	}
}

// TestThreatClaimsAreSound plays zhou2015 against qi2018-table3-1 from the
// suite's openings and checks that whenever a side's search reports a
// threat win, that side goes on to win the game: a reported threat win is a
// forced win, and the attacker's later searches find its continuation.
func TestThreatClaimsAreSound(t *testing.T) {
	suite := loadSuite(t)
	if testing.Short() {
		suite = suite[:6]
	}
	black := newEngine(t, zhou(t), DefaultSettings())
	white := newEngine(t, mustWeights(t, Asymmetric, 1, 5, 10, 25, 25, 1, 10, 15, 35, 25), DefaultSettings())
	claims := 0
	for _, pos := range suite {
		h := pos.History()
		b := NewBoard()
		play(t, b, h[0].String(), Pair(h[1], h[2]).String())
		claimed := Empty
		for !b.Over() {
			e := black
			if b.ToMove() == White {
				e = white
			}
			r := e.Search(context.Background(), b)
			if r.Reason == "threat" {
				claims++
				if claimed == Empty {
					claimed = b.ToMove()
				}
			}
			if err := b.Play(r.Move); err != nil {
				t.Fatal(err)
			}
		}
		if claimed != Empty && b.Winner() != claimed {
			t.Errorf("opening %s %s: %s claimed a threat win, winner %s", h[0], Pair(h[1], h[2]), claimed, b.Winner())
		}
	}
	if claims == 0 {
		t.Fatal("no threat win claimed in any game: the test checks nothing")
	}
}

// TestConcurrentEngines: engines share no mutable state, so engines in
// parallel goroutines searching the same (read-only) boards agree with a
// sequential run. Run under -race to check the sharing.
func TestConcurrentEngines(t *testing.T) {
	suite := loadSuite(t)[:8]
	want := make([]Result, len(suite))
	seq := newEngine(t, zhou(t), DefaultSettings())
	for i, b := range suite {
		want[i] = seq.Search(context.Background(), b)
	}
	checkParallel(t, DefaultSettings(), suite, want, 3)
}

// checkParallel has workers engines with settings s search the suite in
// parallel goroutines and checks each result against want.
func checkParallel(t *testing.T, s Settings, suite []*Board, want []Result, workers int) {
	t.Helper()
	got := make([][]Result, workers)
	done := make(chan int)
	for w := 0; w < workers; w++ {
		e := newEngine(t, zhou(t), s)
		go func(w int) {
			for _, b := range suite {
				got[w] = append(got[w], e.Search(context.Background(), b))
			}
			done <- w
		}(w)
	}
	for range workers {
		<-done
	}
	for w := range got {
		for i := range suite {
			if got[w][i] != want[i] {
				t.Errorf("worker %d position %d: %+v, sequential %+v", w, i, got[w][i], want[i])
			}
		}
	}
}

// TestTempoLeafIsEvaluate: with the tempo schema the engine's leaf score,
// threat term included, is Weights.Evaluate from the side to move's view,
// whichever side is the root, on the suite's positions and on the positions
// one move later (where the waiting side may hold threats).
func TestTempoLeafIsEvaluate(t *testing.T) {
	w := mustWeights(t, Tempo, -3, 140, 500, 4000, 1200, -20, 230, 780, 7900, 1600, 900, 5000)
	e := newEngine(t, w, DefaultSettings())
	threats := 0
	for i, b := range loadSuite(t) {
		for _, root := range []Color{Black, White} {
			e.root = root
			e.board.CopyFrom(b)
			s := b.ToMove()
			if got, want := e.leaf(0), w.Evaluate(b, s); got != want {
				t.Fatalf("position %d, root %s: leaf %v, Evaluate %v", i, root, got, want)
			}
			// One generated move later: the side that moved now waits.
			e.genMoves(0, &e.ts[0], 0)
			m := e.plies[0].moves[0].m
			e.board.Place(m.A)
			e.board.Place(m.B)
			th, h := e.board.Threats(s), e.board.Histogram(s.Opponent())
			if th >= 3 || h[4]+h[5] > 0 {
				continue // decided: leaf returns a mate score
			}
			if th > 0 {
				threats++
			}
			if got, want := e.leaf(1), w.Evaluate(&e.board, s.Opponent()); got != want {
				t.Fatalf("position %d + %v, root %s: leaf %v, Evaluate %v", i, m, root, got, want)
			}
		}
	}
	if threats == 0 {
		t.Error("no leaf with a waiting side's threat: the threat term went unchecked")
	}
}

// TestTempoGeneralisesSymmetric: a tempo vector with M = W = S and no threat
// term is the symmetric vector S seen from the side to move, which is the
// same function, so every search gives the same result, node for node.
func TestTempoGeneralisesSymmetric(t *testing.T) {
	s := []float64{-66, 147, 617, 4702, 647}
	sym := mustWeights(t, Symmetric, s...)
	tempo := mustWeights(t, Tempo, append(append(append([]float64(nil), s...), s...), 0, 0)...)
	set := DefaultSettings()
	set.Depth = 3
	es, et := newEngine(t, sym, set), newEngine(t, tempo, set)
	for i, b := range loadSuite(t) {
		rs, rt := es.Search(context.Background(), b), et.Search(context.Background(), b)
		if rs != rt {
			t.Fatalf("position %d: symmetric %+v, tempo %+v", i, rs, rt)
		}
	}
}
