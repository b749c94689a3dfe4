package engine

import (
	"context"
	"math"
	"time"
)

// Search returns the best move for b.ToMove() (Qi 2018 §§2.5, 4.3–4.7):
// an immediate six if there is one; else, when enabled, a forced win found
// by the threat search (victory by continuous double threat); else
// iterative-deepening negamax alpha-beta to Settings.Depth moves over the
// best Width moves per node, with a transposition table, whose choice the
// defensive check (defend.go) replaces by a later root move when the
// opponent would win by continuous double threats after it. Scores are applied
// from the side to move's (the root's) view and negamax flips their sign; it
// never swaps the roles of the my/enemy weights.
//
// b is not modified (the engine searches a private copy). Search normally
// starts at the start of a turn; started after the first stone of a pair it
// returns the best single stone. It never returns an illegal move while the
// game is not over, even when stopped early by ctx, MaxNodes or MoveTime (it
// then returns the result of the last completed iteration). Without MoveTime
// (and with ctx not cancelled) the result depends only on the position, the
// weights and the settings. It allocates nothing.
func (e *Engine) Search(ctx context.Context, b *Board) Result {
	return e.run(ctx, b, Clock{}, false)
}

// SearchClock is Search within the time of clock c (see Clock and
// TimeSettings): iterative deepening up to Settings.Depth (with a clock the
// depth is a maximum) that starts no iteration it expects to end past the
// move's soft limit and stops inside one at the hard limit, returning the
// last completed iteration (with TimeSettings.Partial, a better root move
// of the unfinished one); Settings.MoveTime, MaxNodes and ctx stop it too.
// The soft limit grows when the opponent has a threat or the score fails
// low, and shrinks when the move is forced. A clock with no time left (a
// zero Clock, or Remaining ≤ 0 without Move) gives the root ordering's best
// move. Results depend on the machine's speed. It allocates nothing.
func (e *Engine) SearchClock(ctx context.Context, b *Board, c Clock) Result {
	return e.run(ctx, b, c, true)
}

// run is Search (timed false) and SearchClock.
func (e *Engine) run(ctx context.Context, b *Board, c Clock, timed bool) Result {
	e.begin(ctx, b, e.set.MaxNodes)
	if e.set.MoveTime > 0 {
		e.deadline = time.Now().Add(e.set.MoveTime)
	}
	e.tm.on = false
	if timed {
		dl := e.tm.begin(e.set.Time, e.set.Time.Budget(c), e.set.DefendNodes > 0, c.Move > 0)
		e.tm.moveTime = e.deadline
		if e.deadline.IsZero() || dl.Before(e.deadline) {
			e.deadline = dl
		}
	}
	if e.set.Killers {
		for i := range e.killers {
			e.killers[i] = [2]Move{{NoPoint, NoPoint}, {NoPoint, NoPoint}}
		}
	}
	if e.set.History {
		e.hist = [3][NumPoints]int64{}
	}
	e.nextCheck = 0
	e.poll()
	r := e.search()
	r.Nodes = e.nodes
	e.ctx = nil
	return r
}

// begin readies a search of b: a private copy of the board, a new salt
// for the tables' keys, no nodes counted, no deadline, the node budget
// maxNodes and ctx (nil: Background).
func (e *Engine) begin(ctx context.Context, b *Board, maxNodes int64) {
	if ctx == nil {
		ctx = context.Background()
	}
	e.board.CopyFrom(b)
	if e.ev.cross {
		e.board.TrackCross()
	}
	e.seq++
	e.salt = mix64(e.games<<32 ^ e.seq)
	e.nodes, e.stop, e.ctx, e.maxNodes, e.deadline = 0, false, ctx, maxNodes, time.Time{}
}

// poll checks the budgets and schedules the next check.
func (e *Engine) poll() {
	e.nextCheck = e.nodes + 256
	if e.maxNodes > 0 {
		if e.nodes >= e.maxNodes {
			e.stop = true
		}
		e.nextCheck = min(e.nextCheck, e.maxNodes)
	}
	if e.ctx.Err() != nil {
		e.stop = true
	}
	if !e.deadline.IsZero() && !time.Now().Before(e.deadline) {
		e.stop = true
	}
}

// count adds n visited positions and polls the budgets when due.
func (e *Engine) count(n int64) {
	e.nodes += n
	if e.nodes >= e.nextCheck {
		e.poll()
	}
}

var centre = PointAt(9, 9)

func (e *Engine) search() Result {
	b := &e.board
	if b.Over() {
		return Result{Move: Move{NoPoint, NoPoint}, Reason: "over"}
	}
	if b.n == 0 {
		return Result{Move: Single(centre), Reason: "opening"}
	}
	s := b.ToMove()
	e.root = s
	if m, ok := b.winningMove(); ok {
		return Result{Move: m, Score: Mate, Reason: "win"}
	}
	o := s.Opponent()
	ts := &e.ts[0]
	t := 0
	if b.hasThreatRoad(o) {
		b.analyzeThreats(o, ts)
		t = ts.t
	}
	if b.StonesLeft() == 1 {
		return e.searchSingle(ts, t)
	}
	if t >= 3 {
		e.count(e.genMoves(0, ts, 0))
		m := e.plies[0].moves[0]
		return Result{Move: m.m, Score: -(Mate - 1), Reason: "lost"}
	}
	if e.set.ThreatSearch {
		if m, plies, ok := e.threatSearch(e.set.ThreatDepth, e.set.ThreatNodes); ok {
			return Result{Move: m, Score: Mate - float64(plies), Reason: "threat"}
		}
		if e.stop {
			// The budget ran out inside the threat search: fall back on the
			// ordering alone, below.
			e.stop = false
			e.maxNodes = e.nodes // no further alpha-beta
		}
	}
	reason := "search"
	if t > 0 {
		reason = "block"
	}
	if e.tm.on {
		e.tm.mark = time.Now()
	}
	e.count(e.genMoves(0, ts, t))
	moves := e.plies[0].moves
	best := moves[0]
	res := Result{Move: best.m, Score: best.s, Depth: 1, Reason: reason}
	if IsMate(best.s) {
		return res
	}
	if e.tm.on {
		e.tm.rooted(best.s, t, len(moves))
	}
	for d := 2; d <= e.set.Depth && !e.stop; d++ {
		if e.tm.on && !e.tm.another(d) {
			break
		}
		alpha := math.Inf(-1)
		bi := -1
		for i := range moves {
			m := moves[i].m
			b.Place(m.A)
			b.Place(m.B)
			v := -e.node(d-1, 1, math.Inf(-1), -alpha)
			b.Unplace()
			b.Unplace()
			if e.stop {
				break
			}
			if v > alpha {
				alpha, bi = v, i
			}
		}
		if e.stop && bi > 0 && e.tm.on && e.tm.ts.Partial {
			// Unfinished, but a move searched to the end beat the
			// previous best (moves[0], searched first): play it.
			top := toFirst(moves, bi)
			res = Result{Move: top.m, Score: alpha, Depth: d - 1, Reason: reason}
		}
		if e.stop || bi < 0 {
			break
		}
		// Best move first for the next iteration; the others keep their order.
		top := toFirst(moves, bi)
		res = Result{Move: top.m, Score: alpha, Depth: d, Reason: reason}
		if IsMate(alpha) {
			break
		}
		if e.tm.on {
			e.tm.done(d, alpha, e.ev.unit())
		}
	}
	if e.tm.on {
		e.resumeForDefence()
	}
	// The check runs unless alpha-beta found a forced win. A forced loss
	// it found is not proved: its defences at each node are the Width best
	// moves (and the blocks with the best partners), so the check still
	// looks for a root move the threat search does not refute.
	if e.set.DefendNodes > 0 && !e.stop && !(IsMate(res.Score) && res.Score > 0) {
		e.defNodes = e.set.DefendNodes
		e.defDepth = e.set.DefendDepth
		pass := time.Now()
		if m, ok := e.defend(moves, ts, t); ok {
			res = Result{Move: m.m, Score: m.s, Depth: res.Depth, Reason: "defend"}
		}
		if e.tm.on {
			res = e.defendDeeper(res, moves, ts, t, pass)
		}
	}
	if e.set.QuietSafe > 0 && e.quietMove(b) && s == White && t == 0 && !e.stop && !(IsMate(res.Score) && res.Score > 0) {
		res = e.quietRoot(res)
	}
	return res
}

// defendDeeper runs the defensive check again at growing budgets while the
// clock allows (TimeSettings.DefendGrowth), res being the choice so far
// and pass the start of the check's first pass.
func (e *Engine) defendDeeper(res Result, moves []scoredMove, ts *threatSet, t int, pass time.Time) Result {
	g := e.tm.ts.DefendGrowth
	if g <= 1 {
		return res
	}
	limit := e.tm.ts.DefendMaxNodes
	if limit == 0 {
		limit = 64 * e.set.DefendNodes
	}
	maxDepth := max(e.tm.ts.DefendMaxDepth, e.set.DefendDepth)
	for !e.stop {
		now := time.Now()
		took := now.Sub(pass)
		next := min(int64(float64(e.defNodes)*g), limit)
		depth := min(e.defDepth+defendDepthStep, maxDepth)
		if (next == e.defNodes && depth == e.defDepth) || now.Sub(e.tm.start)+scale(took, g) > e.tm.hard {
			break
		}
		e.defNodes, e.defDepth, pass = next, depth, now
		// The choice first: the check keeps it if the deeper search finds
		// no win against it either.
		for i := range moves {
			if moves[i].m == res.Move {
				toFirst(moves, i)
				break
			}
		}
		if moves[0].m != res.Move {
			moves = append(e.defFirst[:0], scoredMove{res.Move, res.Score})
			moves = append(moves, e.plies[0].moves...)
			e.defFirst = moves
		}
		if m, ok := e.defend(moves, ts, t); ok {
			res = Result{Move: m.m, Score: m.s, Depth: res.Depth, Reason: "defend"}
		}
	}
	return res
}

// defendDepthStep is how many opponent moves each DefendGrowth pass adds
// to the defensive check's depth, up to TimeSettings.DefendMaxDepth.
const defendDepthStep = 2

// toFirst moves moves[i] to the front, the moves before it keeping their
// order, and returns it.
func toFirst(moves []scoredMove, i int) scoredMove {
	top := moves[i]
	copy(moves[1:i+1], moves[:i])
	moves[0] = top
	return top
}

// resumeForDefence gives the defensive check the time up to the hard
// limit when alpha-beta had its own, earlier limit (see
// TimeSettings.DefendShare): a stop on that limit is lifted, a stop on ctx,
// MaxNodes or MoveTime stays.
func (e *Engine) resumeForDefence() {
	if e.tm.abLimit == e.tm.hard {
		return
	}
	e.deadline = e.tm.start.Add(e.tm.hard)
	if !e.tm.moveTime.IsZero() && e.tm.moveTime.Before(e.deadline) {
		e.deadline = e.tm.moveTime
	}
	if e.maxNodes == 0 || e.nodes < e.maxNodes {
		e.stop = false
	}
	e.poll()
}

// searchSingle chooses one stone for a turn already half played: a blocking
// stone when the opponent has exactly one threat, else the best single by
// the evaluation.
func (e *Engine) searchSingle(ts *threatSet, t int) Result {
	b := &e.board
	s := b.ToMove()
	if t == 1 {
		best, bestV := NoPoint, math.Inf(-1)
		for _, h := range ts.singles[:ts.nSingle] {
			b.Place(h)
			v := -e.leaf(1)
			b.Unplace()
			e.count(1)
			if v > bestV {
				best, bestV = h, v
			}
		}
		return Result{Move: Single(best), Score: bestV, Depth: 1, Reason: "block"}
	}
	pb := &e.plies[0]
	e.topSingles(pb, s)
	e.count(int64(len(b.candidates(pb.cands[:0]))))
	reason := "search"
	if t >= 2 {
		reason = "lost"
	}
	return Result{Move: Single(pb.singles[0].p), Score: pb.singles[0].s, Depth: 1, Reason: reason}
}

// node is negamax alpha-beta at a turn start, ply moves below the root, with
// depth moves left; the score is from the side to move's view.
func (e *Engine) node(depth, ply int, alpha, beta float64) float64 {
	e.count(1)
	if e.stop {
		return 0
	}
	// Decided positions: the same rules as leaf (movegen.go).
	if v, ok := e.decided(ply); ok {
		return v
	}
	b := &e.board
	s := b.ToMove()
	o := s.Opponent()
	ts := &e.ts[ply]
	t := 0
	if b.hasThreatRoad(o) {
		b.analyzeThreats(o, ts)
		t = ts.t
		if t >= 3 {
			return -(Mate - float64(ply+1))
		}
	}
	if depth <= 0 {
		return e.static(s) - e.ev.thr[t] + e.ev.crossTerm(&e.board, s)
	}
	key := b.Hash() ^ e.salt
	ent := &e.tt[key&e.ttMask]
	ttMove := Move{NoPoint, NoPoint}
	if ent.flag != ttEmpty && ent.key == key {
		ttMove = Move{ent.a, ent.b}
		if int(ent.depth) >= depth {
			switch {
			case ent.flag == ttExact,
				ent.flag == ttLower && ent.score >= beta,
				ent.flag == ttUpper && ent.score <= alpha:
				return ent.score
			}
		}
	}
	e.count(e.genMoves(ply, ts, t))
	moves := e.plies[ply].moves
	if e.set.ShallowDefend > 0 && ply <= e.set.ShallowDefendPlies {
		n, lost, all := e.shallowDefend(moves)
		if e.stop {
			return 0
		}
		if all {
			e.store(ent, key, ShallowLost, moves[0].m, depth, ttExact)
			return ShallowLost
		}
		moves = append(moves[:n-lost], moves[n:]...) // proved lost: not searched
	}
	if depth == 1 {
		// Every generated move was scored by leaf(): the best is exact
		// (with the in-search check, the best that survives it comes
		// first).
		e.store(ent, key, moves[0].s, moves[0].m, depth, ttExact)
		return moves[0].s
	}
	e.order(moves, ply, ttMove)
	alpha0 := alpha
	bestV := math.Inf(-1)
	bestM := moves[0].m
	for i := range moves {
		m := moves[i].m
		b.Place(m.A)
		b.Place(m.B)
		v := -e.node(depth-1, ply+1, -beta, -alpha)
		b.Unplace()
		b.Unplace()
		if e.stop {
			return 0
		}
		if v > bestV {
			bestV, bestM = v, m
			if v > alpha {
				alpha = v
				if alpha >= beta {
					e.cutoff(m, ply, depth)
					break
				}
			}
		}
	}
	flag := ttExact
	switch {
	case bestV <= alpha0:
		flag = ttUpper
	case bestV >= beta:
		flag = ttLower
	}
	e.store(ent, key, bestV, bestM, depth, flag)
	return bestV
}

// order puts the moves of a node ply moves below the root in search
// order: the transposition table's move first (when the list holds it),
// then with Settings.Killers the ply's killer moves, then with
// Settings.History the other moves by their history, the rest in the
// evaluation order of genMoves. It only reorders the list.
func (e *Engine) order(moves []scoredMove, ply int, ttMove Move) {
	next := 0
	if ttMove.A != NoPoint {
		next = toFront(moves, next, ttMove)
	}
	if e.set.Killers {
		for _, k := range e.killers[ply] {
			if k.A != NoPoint && k != ttMove {
				next = toFront(moves, next, k)
			}
		}
	}
	if e.set.History {
		// Insertion sort by history, stable: ties (no history) keep the
		// evaluation order.
		h := &e.hist[e.board.ToMove()]
		for i := next + 1; i < len(moves); i++ {
			x := moves[i]
			hx := h[x.m.A] + h[x.m.B]
			j := i
			for j > next && h[moves[j-1].m.A]+h[moves[j-1].m.B] < hx {
				moves[j] = moves[j-1]
				j--
			}
			moves[j] = x
		}
	}
}

// toFront moves m, if it is among moves[at:], to index at, shifting the
// moves before it back, and returns the next free index.
func toFront(moves []scoredMove, at int, m Move) int {
	for i := at; i < len(moves); i++ {
		if moves[i].m == m {
			toFirst(moves[at:], i-at)
			return at + 1
		}
	}
	return at
}

// cutoff records move m, which caused a beta cut-off at a node ply moves
// below the root with depth moves left, as a killer and in the history.
func (e *Engine) cutoff(m Move, ply, depth int) {
	if e.set.Killers && e.killers[ply][0] != m {
		e.killers[ply][1] = e.killers[ply][0]
		e.killers[ply][0] = m
	}
	if e.set.History {
		h := &e.hist[e.board.ToMove()]
		h[m.A] += int64(depth * depth)
		h[m.B] += int64(depth * depth)
	}
}

func (e *Engine) store(ent *ttEntry, key uint64, v float64, m Move, depth int, flag uint8) {
	*ent = ttEntry{key: key, score: v, a: m.A, b: m.B, depth: int8(depth), flag: flag}
}
