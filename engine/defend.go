package engine

// Defensive check (issue 14, "see the opponent's threat sequences"). A
// game is lost from a position facing three or more threats, built by a
// sequence of double threats that a depth-2..4 alpha-beta over the Width
// best moves does not see coming (docs/experiments/
// 12-issue-14-engine-against-cloudict.md, first step). Before committing to alpha-beta's move, the engine therefore
// runs the threat search (tss.go) for the opponent on the position after it:
// if the opponent has a victory by continuous double threat there, the move
// loses by force (the threat search is sound) and other moves are tried:
// the next root moves, then moves through the stones of the opponent's
// winning first moves (its refutations of the moves tried), which may lie
// outside the Width best by the evaluation. Pairs of two refutation points
// come first, and the refutations of those extra moves feed a further
// round (defendRounds): against an opponent with two lines to extend, the
// root moves are refuted along one line and the extra moves along the
// other, and the defence takes a stone of each (TestDefendRounds, from
// lost games).

// maxRefutations bounds the refutation points kept by defend: the two
// stones of the opponent's first move against each of up to DefendMoves
// root moves.
const maxRefutations = 2 * MaxWidth * (1 + defendRounds)

// defend returns the move to play instead of alpha-beta's choice moves[0]
// and its ordering score (from the side to move's view), or ok = false to
// keep the choice. moves are the root moves, alpha-beta's choice first, then
// the rest in their order from the last completed iteration; ts and t are
// the opponent's threats at the root (t = 1 or 2: every move must block).
//
// It checks the first DefendMoves root moves in order, running the threat
// search for the opponent on the position after each within DefendNodes
// positions, and plays the first after which no win is proved. If all lose
// it collects the stones of the opponent's winning first moves, forms the
// legal pairs through them (with each other and with the root's best single
// stones, or with the blocking stone when t = 1; none when t = 2, the root
// list then holds every blocking pair), keeps the DefendMoves best (pairs
// of two refutation points first, then by leaf score) and checks them the
// same way; the refutations of those that lose join the points of the
// next round, up to defendRounds rounds. It keeps the choice when every
// checked move loses or the search budgets (MaxNodes, MoveTime, ctx) run
// out. "No win proved" is not a proof of safety: the check is bounded by
// DefendDepth and the budget (e.defNodes). It is deterministic without a
// clock budget and allocates nothing once its buffers have grown.
func (e *Engine) defend(moves []scoredMove, ts *threatSet, t int) (m scoredMove, ok bool) {
	b := &e.board
	k := min(e.set.DefendMoves, len(moves))
	refs := e.defRefs[:0]
	for i := 0; i < k; i++ {
		lost, first := e.opponentWins(moves[i].m)
		if e.stop {
			return m, false
		}
		if !lost {
			return moves[i], i > 0
		}
		refs = e.addRefutation(refs, first)
	}
	if len(refs) == 0 || t == 2 {
		return m, false
	}
	tried := e.defTried[:0]
	for round := 0; round < defendRounds; round++ {
		// Partners: the refutation points, and the root's best singles
		// (t = 0) or the blocking stones (t = 1, which every move must hold).
		var partners []Point
		if t == 1 {
			partners = ts.singles[:ts.nSingle]
		} else {
			partners = e.defPartners[:0]
			partners = append(partners, refs...)
			for _, sp := range e.plies[0].singles[:e.plies[0].nSingles] {
				if !containsPoint(partners, sp.p) {
					partners = append(partners, sp.p)
				}
			}
		}
		extra := e.defMoves[:0]
		var scored int64
		for _, r := range refs {
			b.Place(r)
			for _, q := range partners {
				if q == r || b.cells[q] != Empty {
					continue
				}
				pm := Pair(min(r, q), max(r, q))
				if hasMove(moves[:k], pm) || hasMove(extra, pm) || hasMove(tried, pm) {
					continue
				}
				b.Place(q)
				v := -e.leaf(1)
				b.Unplace()
				scored++
				if containsPoint(refs, q) {
					v += refBonus // both stones on the opponent's refutations: first
				}
				extra = pushTop(extra, e.set.DefendMoves, scoredMove{pm, v})
			}
			b.Unplace()
		}
		e.count(scored)
		e.defMoves = extra
		if len(extra) == 0 {
			break
		}
		n := len(refs)
		for _, c := range extra {
			if e.stop {
				return m, false
			}
			if c.s > refBonus/2 {
				c.s -= refBonus
			}
			lost, first := e.opponentWins(c.m)
			if e.stop {
				return m, false
			}
			if !lost {
				return c, true
			}
			tried = append(tried, c)
			refs = e.addRefutation(refs, first)
		}
		e.defTried = tried
		if len(refs) == n {
			break // no new refutation point: no new pair
		}
	}
	if e.set.DefendWide > 0 && t == 0 {
		return e.defendWide(moves[:k], tried)
	}
	return m, false
}

// defendWide is defend's last resort (Settings.DefendWide) when the
// opponent has no threat: the best DefendWide pairs of the root's best
// singles by leaf score, less those checked already (checked, tried), are
// checked in that order and the first after which the threat search proves
// no win for the opponent is returned with its leaf score. ok is false when
// all lose or the budgets run out. (The same for the blocking moves when
// the opponent has one threat found no further defence in the 2026-11-26
// positions, so it is left out.)
func (e *Engine) defendWide(checked, tried []scoredMove) (m scoredMove, ok bool) {
	wide, scored := e.singlePairs(&e.plies[0], 0, e.defWide[:0], e.set.DefendWide, func(m Move) bool {
		return hasMove(checked, m) || hasMove(tried, m)
	})
	e.count(scored)
	e.defWide = wide
	for _, c := range wide {
		if e.stop {
			return m, false
		}
		lost, _ := e.opponentWins(c.m)
		if e.stop {
			return m, false
		}
		if !lost {
			return c, true
		}
	}
	return m, false
}

// opponentWins plays m for the side to move and reports whether the
// opponent then has a win by continuous double threats that the threat
// search proves within e.defNodes positions and e.defDepth opponent moves
// (Settings.DefendNodes and DefendDepth, more
// when TimeSettings.DefendGrowth deepens the check), with the opponent's
// first move.
func (e *Engine) opponentWins(m Move) (bool, Move) {
	return e.winsAfter(m, e.defDepth, e.defNodes)
}

// winsAfter plays m for the side to move and reports whether the opponent
// then wins by continuous double threats within depth of its moves and
// nodes positions, with its first move.
func (e *Engine) winsAfter(m Move, depth int, nodes int64) (bool, Move) {
	b := &e.board
	b.Place(m.A)
	b.Place(m.B)
	first, _, lost := e.threatSearch(depth, nodes)
	b.Unplace()
	b.Unplace()
	return lost, first
}

// addRefutation adds the empty stones of the opponent's winning first move
// to refs, each once, up to refs' capacity.
func (e *Engine) addRefutation(refs []Point, first Move) []Point {
	for _, p := range [2]Point{first.A, first.B} {
		if p != NoPoint && e.board.cells[p] == Empty && !containsPoint(refs, p) && len(refs) < cap(refs) {
			refs = append(refs, p)
		}
	}
	return refs
}

// defendRounds is the number of rounds of extra moves defend checks: each
// round pairs the refutation points found so far (those of its lost moves
// included) with each other and with the partners.
const defendRounds = 3

// refBonus ranks the pairs of two refutation points before the other
// pairs in defend's extra moves, whatever their leaf scores (which are far
// below it: Mate is 1e9).
const refBonus = 1e15

func containsPoint(ps []Point, p Point) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

func hasMove(ms []scoredMove, m Move) bool {
	for i := range ms {
		if ms[i].m == m {
			return true
		}
	}
	return false
}

// Defaults of the in-search check (Settings.ShallowDefendNodes,
// ShallowDefendDepth, ShallowDefendPlies).
const (
	defaultShallowNodes = 300
	defaultShallowDepth = 3
	defaultShallowPlies = 2
)

// ShallowLost is the value of a node whose checked moves all lose to a
// double-threat win (Settings.ShallowDefend), from the side to move's
// view: far below any evaluation, but not a mate score, since the check
// is bounded and a defence may lie outside the moves it checks; so
// iterative deepening goes on and the root's own check still runs.
const ShallowLost = -Mate / 4

// shallowDefend is the in-search defensive check at a node ply moves
// below the root: moves are the node's moves by leaf score, best first.
// It checks the ShallowDefend best in order (a move that ends the game
// needs none) and returns how many of them it checked, with the lost ones
// moved behind the others (moves[:n-lost] survive, best first; the caller
// drops moves[n-lost:n]), and whether every checked move lost. Stopped by
// the budgets it reports no loss.
func (e *Engine) shallowDefend(moves []scoredMove) (n, lost int, all bool) {
	k := min(e.set.ShallowDefend, len(moves))
	kept := 0
	for i := 0; i < k; i++ {
		if !IsMate(moves[i].s) {
			l, _ := e.winsAfter(moves[i].m, e.set.ShallowDefendDepth, e.set.ShallowDefendNodes)
			if e.stop {
				return 0, 0, false
			}
			if l {
				lost++
				continue
			}
		}
		// Survivors keep their order, ahead of the lost moves.
		if kept != i {
			m := moves[i]
			copy(moves[kept+1:i+1], moves[kept:i])
			moves[kept] = m
		}
		kept++
	}
	return k, lost, k > 0 && lost == k
}
