package engine

import (
	"cmp"
	"context"
	"fmt"
)

// Quiet-attack check (issue 40; docs/experiments/23-depth-four.md). Against
// Cloudict at depth 4 most of White's lost games are decided by White's
// first move: it leaves Black a quiet move, a pair without threats, after
// which Black wins by continuous double threats whatever White plays. The
// root's defensive check (defend.go) cannot see it: it runs the threat
// search for the opponent after each root move, and the win only starts one
// opponent move later. QuietSafe asks the question one move deeper, in the
// spirit of Connect6's conservative defence (Wu & Lin, "Relevance-zone-
// oriented proof search for Connect6", IEEE TCIAIG 2(3), 2010, after NCTU6)
// and of threat-space search's null move (Allis, Searching for Solutions in
// Games and Artificial Intelligence, 1994, ch. 5): a candidate pair P of
// the side to move (the defender) is quiet-safe when, for every reply Q of
// the opponent (the attacker) in a bounded set, the attacker has no win
// after Q either.
//
// "The attacker wins after Q" (defender to move) is decided in two steps.
// First the null move: the defender passes (two stones in far corners,
// which touch no road near the stones) and the threat search runs for the
// attacker; no proved win there means no win after Q (stones of the
// defender's never hurt it). A proved win is then put to the engine's own
// defensive check (defend.go, Settings.DefendMoves root moves, the pairs
// through the attacker's refutations and DefendWide further pairs): Q wins
// when none of those defender moves leaves the attacker without a proved
// win. The answer is bounded twice, by the threat search's depth and
// positions and by the defences tried, and errs towards "not safe": a
// defence outside the check's moves is not seen.

// QuietOptions bounds QuietSafe. Zero fields take the defaults noted.
type QuietOptions struct {
	// Depth is the threat search's depth in attacker moves (1..16);
	// default 8.
	Depth int
	// Nodes bounds each threat search in positions; default 20,000.
	Nodes int64
	// Replies is the number of the attacker's replies to P taken from
	// RootMoves (its best pairs by the search's ordering), checked first;
	// default 40, at most MaxWidth.
	Replies int
	// Near adds every other pair of empty points within Chebyshev
	// distance 2 of a stone (the points move generation considers), after
	// the Replies; without it the replies are RootMoves' alone.
	Near bool
	// DefendMoves and DefendWide are the defender's moves the defensive
	// check tries after a reply whose null move the threat search proves
	// won (Settings.DefendMoves and DefendWide); defaults 15 and 60.
	DefendMoves, DefendWide int
	// MaxNodes bounds the work on one candidate P, in positions (0: no
	// limit); a candidate that runs out is reported with Complete false.
	MaxNodes int64
}

func (o QuietOptions) withDefaults() QuietOptions {
	o.Depth = cmp.Or(o.Depth, 8)
	o.Nodes = cmp.Or(o.Nodes, 20000)
	o.Replies = cmp.Or(o.Replies, 40)
	o.DefendMoves = cmp.Or(o.DefendMoves, 15)
	o.DefendWide = cmp.Or(o.DefendWide, 60)
	return o
}

// QuietResult is QuietSafe's answer for one candidate Move of the side to
// move. Lost: after it the opponent's threat search proves a win at once
// (Attack is then the opponent's first move). Otherwise Attack, when it is
// not NoPoint, is an opponent reply (a quiet move or not) after which the
// opponent wins, no defence tried holding. Safe: neither, every reply of
// the set checked (Complete). Replies counts the replies checked, Nodes
// the positions visited for this candidate. Complete is false when
// MaxNodes or ctx stopped the check before an answer.
type QuietResult struct {
	Move     Move
	Safe     bool
	Lost     bool
	Attack   Move
	Replies  int
	Nodes    int64
	Complete bool
}

// QuietSafe checks each candidate pair in cands for the side to move in b
// against a quiet attack (see the comment above): whether the opponent wins
// by continuous double threats after it at once, or after a reply of its
// Replies best (RootMoves) and, with Near, every pair of points within 2
// of the stones. It returns one QuietResult per candidate, in cands'
// order. Each threat search is bounded by o.Depth attacker moves and
// o.Nodes positions; a reported loss is proved (the threat search is
// sound) up to the defences tried, a reported Safe is not a proof. The
// engine's weights order the moves; its settings are not used (the
// threat table is kept, as by ProveWin). b must be at a turn start, not
// over and not empty, the side to move without a win of its own to
// complete; b is not modified. Errors: such a board, a candidate that is
// not a legal pair, options out of range, ctx's error (with the results
// so far).
func (e *Engine) QuietSafe(ctx context.Context, b *Board, cands []Move, o QuietOptions) ([]QuietResult, error) {
	if err := atTurnStart(b, "quiet safe"); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	switch {
	case b.n == 0:
		return nil, fmt.Errorf("engine: quiet safe: the board is empty")
	case o.Depth < 1 || o.Depth > maxThreatPly:
		return nil, fmt.Errorf("engine: quiet safe: depth must be in 1..%d, not %d", maxThreatPly, o.Depth)
	case o.Nodes < 0 || o.MaxNodes < 0:
		return nil, fmt.Errorf("engine: quiet safe: node budgets must be 0 or more")
	case o.Replies < 1 || o.Replies > MaxWidth || o.DefendMoves < 1 || o.DefendMoves > MaxWidth || o.DefendWide < 0 || o.DefendWide > MaxWidth:
		return nil, fmt.Errorf("engine: quiet safe: Replies and DefendMoves must be in 1..%d, DefendWide in 0..%d", MaxWidth, MaxWidth)
	}
	for _, m := range cands {
		if m.B == NoPoint || m.A == m.B || !m.A.OnBoard() || !m.B.OnBoard() || b.cells[m.A] != Empty || b.cells[m.B] != Empty {
			return nil, fmt.Errorf("engine: quiet safe: candidate %s is not a legal pair", m)
		}
	}
	e.begin(ctx, b, 0)
	if _, ok := e.board.winningMove(); ok {
		return nil, fmt.Errorf("engine: quiet safe: the side to move wins at once")
	}
	saved := e.set
	e.root = b.ToMove()
	e.proving = true
	e.set.DefendMoves, e.set.DefendWide = o.DefendMoves, o.DefendWide
	e.defDepth, e.defNodes = o.Depth, o.Nodes
	defer func() { e.ctx, e.proving, e.set, e.maxNodes = nil, false, saved, 0 }()
	out := make([]QuietResult, 0, len(cands))
	for _, m := range cands {
		start := e.nodes
		if o.MaxNodes > 0 {
			e.maxNodes = e.nodes + o.MaxNodes
		}
		e.stop = false
		e.poll()
		r := e.quietCheck(m, o)
		r.Nodes = e.nodes - start
		out = append(out, r)
		if err := ctx.Err(); err != nil {
			return out, err
		}
	}
	return out, nil
}

// quietCheck is QuietSafe's check of one candidate m on e.board.
func (e *Engine) quietCheck(m Move, o QuietOptions) QuietResult {
	b := &e.board
	r := QuietResult{Move: m, Attack: Move{NoPoint, NoPoint}}
	b.Place(m.A)
	b.Place(m.B)
	defer func() { b.Unplace(); b.Unplace() }()
	if w, ok := b.winningMove(); ok {
		r.Lost, r.Attack, r.Complete = true, w, true
		return r
	}
	if first, _, ok := e.threatSearch(o.Depth, o.Nodes); ok {
		r.Lost, r.Attack, r.Complete = true, first, true
		return r
	}
	if e.stop {
		return r
	}
	for _, q := range e.quietReplies(o) {
		if e.stop {
			return r
		}
		r.Replies++
		if e.winsAfterReply(q) {
			r.Attack, r.Complete = q, true
			return r
		}
	}
	if e.stop {
		return r
	}
	r.Safe, r.Complete = true, true
	return r
}

// quietReplies lists the opponent's replies to check on e.board (the
// opponent to move): RootMoves' o.Replies best, then with o.Near every
// other pair of candidate points, in index order.
func (e *Engine) quietReplies(o QuietOptions) []Move {
	out := e.rootMovesHere(o.Replies)
	if !o.Near {
		return out
	}
	seen := make(map[Move]bool, len(out))
	for _, q := range out {
		seen[q] = true
	}
	pts := e.board.candidates(nil)
	for i, p := range pts {
		for _, q := range pts[i+1:] {
			m := Pair(min(p, q), max(p, q))
			if !seen[m] {
				out = append(out, m)
			}
		}
	}
	return out
}

// winsAfterReply plays the attacker's reply q on e.board (the attacker to
// move) and reports whether the attacker then wins with the defender to
// move: the threat search proves a win after a defender's null move, and
// no defender move the defensive check tries leaves it without one.
func (e *Engine) winsAfterReply(q Move) bool {
	b := &e.board
	b.Place(q.A)
	b.Place(q.B)
	defer func() { b.Unplace(); b.Unplace() }()
	if b.Over() {
		return true
	}
	// The null move: two defender stones in the corners farthest from
	// the stones.
	c1, c2 := e.farCorners()
	b.Place(c1)
	b.Place(c2)
	_, _, won := e.threatSearch(e.defDepth, e.defNodes)
	b.Unplace()
	b.Unplace()
	if !won || e.stop {
		return false
	}
	// The defender to move: its root moves, then defend's further pairs.
	o := b.ToMove().Opponent()
	ts := &e.ts[0]
	t := 0
	if b.hasThreatRoad(o) {
		b.analyzeThreats(o, ts)
		t = ts.t
	}
	if t >= 3 {
		return true
	}
	w, w0 := e.set.Width, e.set.WidthByPly[0]
	e.set.Width, e.set.WidthByPly[0] = e.set.DefendMoves, e.set.DefendMoves
	e.genMoves(0, ts, t)
	e.set.Width, e.set.WidthByPly[0] = w, w0
	moves := append([]scoredMove(nil), e.plies[0].moves...)
	if len(moves) == 0 {
		return true
	}
	if lost, _ := e.opponentWins(moves[0].m); !lost || e.stop {
		return false
	}
	if _, ok := e.defend(moves, ts, t); ok || e.stop {
		return false
	}
	return true
}

// farCorners returns the two board corners farthest from every stone
// (Chebyshev distance), for the null move.
func (e *Engine) farCorners() (Point, Point) {
	b := &e.board
	corners := [4]Point{PointAt(0, 0), PointAt(Size-1, 0), PointAt(0, Size-1), PointAt(Size-1, Size-1)}
	var dist [4]int
	for i, c := range corners {
		d := 2 * Size
		for _, p := range b.moves[:b.n] {
			d = min(d, max(abs(p.Col()-c.Col()), abs(p.Row()-c.Row())))
		}
		if b.cells[c] != Empty {
			d = -1
		}
		dist[i] = d
	}
	best, second := -1, -1
	for i := range corners {
		if best < 0 || dist[i] > dist[best] {
			best, second = i, best
		} else if second < 0 || dist[i] > dist[second] {
			second = i
		}
	}
	return corners[best], corners[second]
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Settings.QuietSafeNodes' and QuietMoves' defaults.
const (
	defaultQuietNodes = 4_000_000
	defaultQuietMoves = 1
)

// quietMove reports whether b is at one of White's first QuietMoves moves
// after a three-stone opening: 5, 9, ..., 4·QuietMoves+1 stones.
func (e *Engine) quietMove(b *Board) bool {
	return b.n >= 5 && (b.n-5)%4 == 0 && (b.n-5)/4 < e.set.QuietMoves
}

// quietRoot is the root's quiet-attack check (Settings.QuietSafe): res is
// the choice of alpha-beta and the defensive check, on e.board (one of
// White's first QuietMoves moves after the opening). It returns the first
// quiet-safe move of the choice and the QuietSafe best root moves, with
// Reason "quiet", or res when none is found within QuietSafeNodes
// positions; a stop on the check's own budget is lifted, one on ctx,
// MaxNodes or the clock stays.
func (e *Engine) quietRoot(res Result) Result {
	o := QuietOptions{Nodes: e.set.DefendNodes, DefendMoves: e.set.DefendMoves,
		DefendWide: e.set.DefendWide}.withDefaults() // depth and replies: QuietOptions' defaults
	cands := append(make([]scoredMove, 0, e.set.QuietSafe+1), scoredMove{res.Move, res.Score})
	for _, m := range e.rootScored(e.set.QuietSafe) {
		if m.m != res.Move {
			cands = append(cands, m)
		}
	}
	maxNodes, proving := e.maxNodes, e.proving
	limit := e.nodes + e.set.QuietSafeNodes
	if maxNodes == 0 || limit < maxNodes {
		e.maxNodes = limit
	}
	e.proving = true
	e.defDepth, e.defNodes = o.Depth, o.Nodes
	defer func() {
		e.maxNodes, e.proving = maxNodes, proving
		e.stop = false
		e.poll()
	}()
	e.poll()
	for _, c := range cands {
		if e.stop {
			break
		}
		if r := e.quietCheck(c.m, o); r.Safe {
			if c.m == res.Move {
				return res
			}
			return Result{Move: c.m, Score: c.s, Depth: res.Depth, Reason: "quiet"}
		}
	}
	return res
}

// rootScored is rootMovesHere with the ordering's scores: a copy of the
// side to move's n best moves on e.board.
func (e *Engine) rootScored(n int) []scoredMove {
	e.rootMovesHere(n)
	return append([]scoredMove(nil), e.plies[0].moves...)
}
