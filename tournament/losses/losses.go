package losses

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
	"golang.org/x/sync/errgroup"
)

// Options bound the post-mortem. Zero fields take the defaults of
// DefaultOptions, except Player and Weights, which the caller gives.
type Options struct {
	// Player is the name of the player whose lost games are analysed, as
	// the games log spells it (GameRecord.Black, .White).
	Player string
	// Weights order the threat searches' moves (any vector works; the
	// proofs are sound whatever it is, a good one finds them sooner).
	Weights engine.Weights
	// ProveDepth and ProveNodes bound the search that asks, after each of
	// the loser's moves, whether the winner already had a forced win:
	// attacker moves (1..16) and positions; defaults 10 and 2,000,000.
	ProveDepth int
	ProveNodes int64
	// HoldDepth and HoldNodes bound the quick search run after each
	// candidate pair of the position before the losing move, to find a
	// pair that holds (one that passes it is checked again by the proving
	// bounds); defaults 8 and 100,000.
	HoldDepth int
	HoldNodes int64
	// Radius: the candidate stones of that search are the empty points
	// within Radius (Chebyshev distance) of a stone; default 2. The
	// engine's RankedPairs best root moves (by its move ordering with
	// these weights) are tried first, then the other pairs in board order.
	Radius      int
	RankedPairs int
	// Width is the root width of the player's search, to tell a defence
	// its root kept (rank ≤ Width) from one the width cut; default 15, the
	// engine binary's.
	Width int
	// Concurrency is the number of games analysed at once; default
	// runtime.GOMAXPROCS(0).
	Concurrency int
}

// DefaultOptions returns the bounds the experiments use: proofs of 10
// attacker moves and 2,000,000 positions, holding pairs (the 60 best root
// moves, then every pair within 2 points) checked by 8 moves and 100,000
// positions, a root width of 15.
func DefaultOptions() Options {
	return Options{ProveDepth: 10, ProveNodes: 2_000_000, HoldDepth: 8, HoldNodes: 100_000, Radius: 2, RankedPairs: 60, Width: 15}
}

// Causes of a loss (Loss.Cause), from the loser's side.
const (
	// CauseForfeit: the loser forfeited (a crash, a time loss, an illegal
	// move); Loss.Reason says which. Nothing is analysed.
	CauseForfeit = "forfeit"
	// CauseOpening: the winner had a forced win after the loser's first
	// move and no pair held there: the opening and the winner's reply had
	// already decided the game.
	CauseOpening = "lost before its first move"
	// CauseQuiet: the winner had a forced win after the loser's move k > 1
	// and no pair held before it: the loser's move k−1 allowed a quiet
	// attack (a move without threats) that the threat search proves only a
	// move later.
	CauseQuiet = "a quiet attack before the losing move"
	// CauseMissed: a pair held where the loser played the losing move:
	// the defence existed and the loser's search missed it.
	CauseMissed = "a defence missed"
	// CauseUnproved: after none of the loser's moves did the proving
	// search find the winner's win: it was longer than ProveDepth double
	// threats, went through single threats or quiet moves, or was found by
	// the winner with more than ProveNodes positions.
	CauseUnproved = "no win proved"
)

// Loss is the post-mortem of one lost game.
type Loss struct {
	Game    int    `json:"game"`
	Opening string `json:"opening"`
	Colour  string `json:"colour"` // the loser's: "black" or "white"
	Reason  string `json:"reason"` // how the game ended (GameRecord.Reason)
	Turns   int    `json:"turns"`  // moves in the game, the opening's included
	// LosingMove is the number of the loser's move (1: its first after
	// the opening) after which the winner had a proved forced win, and
	// Turn that move's index in the game (0-based, as GameRecord.Moves);
	// both 0 when no win was proved.
	LosingMove int `json:"losing_move"`
	Turn       int `json:"turn"`
	// Played is the losing move, Win the winner's proved reply and
	// WinPlies the length of its win (ProveWin's plies).
	Played   string `json:"played,omitempty"`
	Win      string `json:"win,omitempty"`
	WinPlies int    `json:"win_plies,omitempty"`
	// Hold is a pair that held before the losing move (no win proved
	// after it within HoldDepth and HoldNodes), "" when none did; Pairs is
	// the number of pairs tried to find it (all of them when none held).
	Hold  string `json:"hold,omitempty"`
	Pairs int    `json:"pairs"`
	// HoldRank is the pair's rank (from 1) among the engine's root moves
	// by its move ordering, 0 when it is not among the RankedPairs best:
	// above Options.Width the player's search never searched it.
	HoldRank int `json:"hold_rank,omitempty"`
	// HoldThreat reports that the pair that held makes a threat of the
	// loser's own (a road of 4 or 5 stones): the winner must block it, so
	// the threat search finds no continuous double threats, though a
	// block with one stone and an attack with the other may still win.
	HoldThreat bool   `json:"hold_threat,omitempty"`
	Cause      string `json:"cause"`
}

// Report is the post-mortem of a player's lost games.
type Report struct {
	Player string  `json:"player"`
	Games  int     `json:"games"`  // games the player played
	Lost   int     `json:"lost"`   // of which lost
	Losses []Loss  `json:"losses"` // in game order
	Bounds Options `json:"-"`
}

// Analyze runs the post-mortem of opt.Player's lost games among games
// (an arena games log, tournament.ReadGameLog): for each lost game that
// was not a forfeit, it replays the loser's moves and runs the threat
// search for the winner after each (engine.ProveWin) until one proves a
// forced win; on the position before that losing move it then tries every
// pair of candidate stones until one leaves the winner no proved win. The
// verdicts are those of a threat search of continuous double threats,
// sound but bounded: a win it proves is forced, a pair that "holds" only
// survives the search's bounds. progress, if not nil, is called after each
// game with the games done and the total. Errors: no Player, a player not
// in the log (a *PlayerError), a move the board refuses (naming the game), ctx's error.
func Analyze(ctx context.Context, games []tournament.GameRecord, opt Options, progress func(done, total int)) (Report, error) {
	opt = withDefaults(opt)
	if opt.Player == "" {
		return Report{}, errors.New("losses: no player named")
	}
	rep := Report{Player: opt.Player, Bounds: opt}
	var lost []tournament.GameRecord
	for _, g := range games {
		colour, ok := colourOf(g, opt.Player)
		if !ok {
			continue
		}
		rep.Games++
		if winner(g.Result) == colour.Opponent() {
			lost = append(lost, g)
		}
	}
	if rep.Games == 0 {
		return Report{}, &PlayerError{Player: opt.Player, Players: players(games)}
	}
	rep.Lost = len(lost)
	rep.Losses = make([]Loss, len(lost))
	var mu sync.Mutex // progress's calls, and their count
	done := 0
	g, ctx := errgroup.WithContext(ctx)
	next := make(chan int)
	g.Go(func() error {
		defer close(next)
		for i := range lost {
			select {
			case next <- i:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	for w := 0; w < min(opt.Concurrency, max(len(lost), 1)); w++ {
		g.Go(func() error {
			e, err := engine.New(opt.Weights, engine.Settings{ThreatSearch: true, Width: opt.Width, TableBits: engine.MinTableBits})
			if err != nil {
				return fmt.Errorf("losses: %w", err)
			}
			for i := range next {
				l, err := analyzeGame(ctx, e, lost[i], opt)
				if err != nil {
					return err
				}
				rep.Losses[i] = l
				if progress != nil {
					mu.Lock()
					done++
					progress(done, len(lost))
					mu.Unlock()
				}
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Report{}, err
	}
	return rep, nil
}

// PlayerError is Analyze's error for a player who plays no game of the
// log; Players are the log's players, sorted.
type PlayerError struct {
	Player  string
	Players []string
}

func (e *PlayerError) Error() string {
	return fmt.Sprintf("losses: player %q plays no game of the log (players: %s)", e.Player, strings.Join(e.Players, ", "))
}

// withDefaults fills opt's zero bounds.
func withDefaults(opt Options) Options {
	d := DefaultOptions()
	opt.ProveDepth = cmp.Or(opt.ProveDepth, d.ProveDepth)
	opt.ProveNodes = cmp.Or(opt.ProveNodes, d.ProveNodes)
	opt.HoldDepth = cmp.Or(opt.HoldDepth, d.HoldDepth)
	opt.HoldNodes = cmp.Or(opt.HoldNodes, d.HoldNodes)
	opt.Radius = cmp.Or(opt.Radius, d.Radius)
	opt.RankedPairs = cmp.Or(opt.RankedPairs, d.RankedPairs)
	opt.Width = cmp.Or(opt.Width, d.Width)
	if opt.Concurrency <= 0 {
		opt.Concurrency = runtime.GOMAXPROCS(0)
	}
	return opt
}

// colourOf returns the colour name plays in g.
func colourOf(g tournament.GameRecord, name string) (engine.Color, bool) {
	switch name {
	case g.Black:
		return engine.Black, true
	case g.White:
		return engine.White, true
	}
	return engine.Empty, false
}

// winner returns the colour a result gives the game to (Empty for a draw
// or no result).
func winner(r tournament.Result) engine.Color {
	switch r {
	case tournament.BlackWins:
		return engine.Black
	case tournament.WhiteWins:
		return engine.White
	}
	return engine.Empty
}

// players lists the names in games, sorted.
func players(games []tournament.GameRecord) []string {
	var names []string
	for _, g := range games {
		for _, n := range []string{g.Black, g.White} {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	return names
}

// analyzeGame is the post-mortem of one lost game g.
func analyzeGame(ctx context.Context, e *engine.Engine, g tournament.GameRecord, opt Options) (Loss, error) {
	colour, _ := colourOf(g, opt.Player)
	l := Loss{Game: g.Game, Opening: g.Opening, Colour: colourName(colour), Reason: g.Reason, Turns: len(g.Moves)}
	if strings.HasPrefix(g.Reason, "forfeit") {
		l.Cause = CauseForfeit
		return l, nil
	}
	opening := len(strings.Fields(g.Opening))
	b := engine.NewBoard()
	k := 0
	before := engine.NewBoard()
	for i, m := range g.Moves {
		mine := i >= opening && tournament.MoveColor(i) == colour
		if mine {
			before.CopyFrom(b) // the position of a losing move, for holdingPair
		}
		if err := b.Play(m); err != nil {
			return l, fmt.Errorf("losses: game %d, move %d (%s): %w", g.Game, i+1, m, err)
		}
		if !mine || b.Over() {
			continue
		}
		k++
		w, err := e.ProveWin(ctx, b, opt.ProveDepth, opt.ProveNodes)
		if err != nil {
			return l, fmt.Errorf("losses: game %d, after move %d: %w", g.Game, i+1, err)
		}
		if !w.Proved {
			continue
		}
		l.LosingMove, l.Turn, l.Played, l.Win, l.WinPlies = k, i, m.String(), w.Move.String(), w.Plies
		hold, rank, pairs, err := holdingPair(ctx, e, before, opt)
		if err != nil {
			return l, fmt.Errorf("losses: game %d, before move %d: %w", g.Game, i+1, err)
		}
		l.Pairs = pairs
		switch {
		case hold.A != engine.NoPoint:
			l.Hold, l.HoldRank, l.Cause = hold.String(), rank, CauseMissed
			c := before.Clone()
			if c.Play(hold) == nil {
				l.HoldThreat = len(c.ThreatRoads(nil, colour)) > len(before.ThreatRoads(nil, colour))
			}
		case k == 1:
			l.Cause = CauseOpening
		default:
			l.Cause = CauseQuiet
		}
		return l, nil
	}
	l.Cause = CauseUnproved
	return l, nil
}

// holdingPair tries the engine's opt.RankedPairs best root moves in b, in
// order, then the other pairs of candidate stones (the empty points within
// opt.Radius of a stone) in board order, and returns the first after which
// the opponent has no win proved within opt.HoldDepth and opt.HoldNodes
// nor then within the proving bounds (opt.ProveDepth, opt.ProveNodes), so
// that a pair holds by the bounds that proved the losing move lost (a pair
// that wins at once holds too), with its rank among the root moves (0:
// not among them) and the number of pairs tried; a Move of NoPoints when
// none held.
func holdingPair(ctx context.Context, e *engine.Engine, b *engine.Board, opt Options) (engine.Move, int, int, error) {
	none := engine.Move{A: engine.NoPoint, B: engine.NoPoint}
	ranked, err := e.RootMoves(b, opt.RankedPairs)
	if err != nil {
		return none, 0, 0, err
	}
	tried := 0
	seen := map[engine.Move]bool{}
	c := engine.NewBoard()
	holds := func(m engine.Move) (bool, error) {
		tried++
		c.CopyFrom(b)
		if err := c.Play(m); err != nil {
			return c.Over(), nil // the first stone won; else an illegal pair, not a defence
		}
		if c.Over() {
			return true, nil
		}
		w, err := e.ProveWin(ctx, c, opt.HoldDepth, opt.HoldNodes)
		if err == nil && !w.Proved {
			// Held within the quick bounds: it holds if the proving
			// search's bounds, which proved the losing move lost, find
			// no win either.
			w, err = e.ProveWin(ctx, c, opt.ProveDepth, opt.ProveNodes)
		}
		return err == nil && !w.Proved, err
	}
	for i, m := range ranked {
		seen[m] = true
		if ok, err := holds(m); err != nil || ok {
			return m, i + 1, tried, err
		}
	}
	cands := candidates(b, opt.Radius)
	for i, p := range cands {
		for _, q := range cands[i+1:] {
			m := engine.Move{A: p, B: q}
			if seen[m] {
				continue
			}
			if ok, err := holds(m); err != nil || ok {
				return m, 0, tried, err
			}
		}
	}
	return none, 0, tried, nil
}

// candidates returns the empty points within r (Chebyshev distance) of a
// stone of b, in point order.
func candidates(b *engine.Board, r int) []engine.Point {
	var out []engine.Point
	for p := engine.Point(0); p < engine.NumPoints; p++ {
		if b.At(p) != engine.Empty {
			continue
		}
		near := false
		for _, s := range b.History() {
			if abs(s.Row()-p.Row()) <= r && abs(s.Col()-p.Col()) <= r {
				near = true
				break
			}
		}
		if near {
			out = append(out, p)
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// colourName is "black" or "white".
func colourName(c engine.Color) string {
	if c == engine.Black {
		return "black"
	}
	return "white"
}
