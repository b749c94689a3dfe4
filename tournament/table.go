package tournament

import (
	"fmt"
	"slices"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament/stats"
)

// Matchup is the record of one pairing of a table from A's view: games
// won, drawn and lost, the same split by A's colour, and the pentanomial
// counts of complete game pairs (statistics.md "Pentanomial").
type Matchup struct {
	A, B    int               // entrant indices
	Games   stats.WDL         // all games, A's view
	AsBlack stats.WDL         // games in which A had Black
	AsWhite stats.WDL         // games in which A had White
	Pairs   stats.Pentanomial // complete game pairs, A's view
}

// Flip returns the matchup from B's view.
func (m Matchup) Flip() Matchup {
	flip := func(r stats.WDL) stats.WDL { return stats.WDL{W: r.L, D: r.D, L: r.W} }
	p := m.Pairs
	return Matchup{
		A: m.B, B: m.A,
		Games:   flip(m.Games),
		AsBlack: flip(m.AsWhite),
		AsWhite: flip(m.AsBlack),
		Pairs:   stats.Pentanomial{p[4], p[3], p[2], p[1], p[0]},
	}
}

// Score returns A's points (win 1, draw ½).
func (m Matchup) Score() float64 { return float64(m.Games.W) + 0.5*float64(m.Games.D) }

// Estimate returns the Elo estimate of A against B (stats.EstimateCounts):
// from the pentanomial counts when there are complete game pairs, else from
// the games (trinomial). The error is stats' (no games).
func (m Matchup) Estimate() (stats.Estimate, error) {
	if m.Pairs.N() > 0 {
		return stats.EstimateCounts(m.Pairs.Counts())
	}
	return stats.EstimateCounts(m.Games.Counts())
}

// SPRTStatus is the state of a head-to-head match's SPRT when it ended.
type SPRTStatus struct {
	SPRT         stats.SPRT
	LLR          float64 // log-likelihood ratio of the pentanomial counts of the completed pairs
	Lower, Upper float64 // the bounds
	Decision     string  // "continue" (bound not crossed), "H0" or "H1"
	Pairs        int     // game pairs counted
}

// Table is the result of a schedule: the players, one Matchup per pairing
// (in order of first appearance in the games), and every game record in
// game order.
type Table struct {
	Players  []string
	Matchups []Matchup
	Games    []GameRecord
	SPRT     *SPRTStatus // set when the run used an SPRT
	index    map[[2]int]int
}

// Lookup returns the matchup of a against b from a's view.
func (t *Table) Lookup(a, b int) (Matchup, bool) {
	if i, ok := t.index[[2]int{a, b}]; ok {
		return t.Matchups[i], true
	}
	if i, ok := t.index[[2]int{b, a}]; ok {
		return t.Matchups[i].Flip(), true
	}
	return Matchup{}, false
}

// Standing is one player's total over a table.
type Standing struct {
	Player int
	Name   string
	Games  stats.WDL
}

// Score returns the player's points.
func (s Standing) Score() float64 { return float64(s.Games.W) + 0.5*float64(s.Games.D) }

// Standings returns every player's games over the table, by points
// (highest first), ties by player index.
func (t *Table) Standings() []Standing {
	out := make([]Standing, len(t.Players))
	for i, n := range t.Players {
		out[i] = Standing{Player: i, Name: n}
	}
	for _, m := range t.Matchups {
		add := func(dst *stats.WDL, r stats.WDL) { dst.W += r.W; dst.D += r.D; dst.L += r.L }
		add(&out[m.A].Games, m.Games)
		add(&out[m.B].Games, m.Flip().Games)
	}
	slices.SortStableFunc(out, func(x, y Standing) int {
		switch {
		case x.Score() > y.Score():
			return -1
		case x.Score() < y.Score():
			return 1
		}
		return x.Player - y.Player
	})
	return out
}

// BuildTable builds the table of the given game records (in any order:
// they are sorted by game index) over the named players. Games of the same
// Pair form a game pair; a pair must hold two games between the same two
// players with colours swapped, and it counts in the pentanomial once both
// are present. It is how a table is rebuilt from a games log
// (ReadGameLog). Errors name the offending game.
func BuildTable(players []string, recs []GameRecord) (*Table, error) {
	t := &Table{Players: slices.Clone(players), Games: slices.Clone(recs), index: map[[2]int]int{}}
	slices.SortStableFunc(t.Games, func(x, y GameRecord) int { return x.Game - y.Game })
	for i, g := range t.Games {
		if i > 0 && t.Games[i-1].Game == g.Game {
			return nil, fmt.Errorf("game %d appears twice", g.Game)
		}
		if g.BlackIndex < 0 || g.BlackIndex >= len(players) || g.WhiteIndex < 0 || g.WhiteIndex >= len(players) || g.BlackIndex == g.WhiteIndex {
			return nil, fmt.Errorf("game %d: player indices %d, %d invalid for %d players", g.Game, g.BlackIndex, g.WhiteIndex, len(players))
		}
		if g.Black != players[g.BlackIndex] || g.White != players[g.WhiteIndex] {
			return nil, fmt.Errorf("game %d: players %q, %q do not match entrants %d (%q), %d (%q)",
				g.Game, g.Black, g.White, g.BlackIndex, players[g.BlackIndex], g.WhiteIndex, players[g.WhiteIndex])
		}
		if g.Result == NoResult {
			return nil, fmt.Errorf("game %d: no result", g.Game)
		}
	}
	pending := map[int]int{} // pair -> position in t.Games of its first game
	for i, g := range t.Games {
		m := t.matchup(g.BlackIndex, g.WhiteIndex)
		blackScore := g.Result.Score(engine.Black)
		if m.A == g.BlackIndex {
			addScore(&m.Games, blackScore)
			addScore(&m.AsBlack, blackScore)
		} else {
			addScore(&m.Games, 1-blackScore)
			addScore(&m.AsWhite, 1-blackScore)
		}
		j, ok := pending[g.Pair]
		if !ok {
			pending[g.Pair] = i
			continue
		}
		f := t.Games[j]
		if f.BlackIndex != g.WhiteIndex || f.WhiteIndex != g.BlackIndex {
			return nil, fmt.Errorf("game %d: pair %d with game %d but colours are not swapped between the same players", g.Game, g.Pair, f.Game)
		}
		delete(pending, g.Pair)
		// A's scores in the pair's two games.
		s1 := f.Result.Score(colorOf(f, m.A))
		s2 := g.Result.Score(colorOf(g, m.A))
		m.Pairs[stats.PairScore(s1, s2)]++
	}
	return t, nil
}

// colorOf returns the colour entrant e had in game g.
func colorOf(g GameRecord, e int) engine.Color {
	if g.BlackIndex == e {
		return engine.Black
	}
	return engine.White
}

func addScore(r *stats.WDL, s float64) {
	switch s {
	case 1:
		r.W++
	case 0:
		r.L++
	default:
		r.D++
	}
}

// matchup returns the table's matchup of a and b (either order), adding it
// with A = a if new.
func (t *Table) matchup(a, b int) *Matchup {
	if i, ok := t.index[[2]int{a, b}]; ok {
		return &t.Matchups[i]
	}
	if i, ok := t.index[[2]int{b, a}]; ok {
		return &t.Matchups[i]
	}
	t.index[[2]int{a, b}] = len(t.Matchups)
	t.Matchups = append(t.Matchups, Matchup{A: a, B: b})
	return &t.Matchups[len(t.Matchups)-1]
}
