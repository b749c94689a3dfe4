package tournament

import (
	"fmt"
	"maps"
	"slices"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tournament/wdl"
)

// Matchup is the record of one pairing of a table from A's view: games
// won, drawn and lost, the same split by A's colour, and the pentanomial
// counts of complete game pairs (statistics.md "Pentanomial").
type Matchup struct {
	A, B    int             // entrant indices
	Games   wdl.Count       // all games, A's view
	AsBlack wdl.Count       // games in which A had Black
	AsWhite wdl.Count       // games in which A had White
	Pairs   wdl.Pentanomial // complete game pairs, A's view
}

// Flip returns the matchup from B's view.
func (m Matchup) Flip() Matchup {
	return Matchup{
		A: m.B, B: m.A,
		Games:   m.Games.Flip(),
		AsBlack: m.AsWhite.Flip(),
		AsWhite: m.AsBlack.Flip(),
		Pairs:   m.Pairs.Flip(),
	}
}

// Score returns A's points (win 1, draw ½).
func (m Matchup) Score() float64 { return m.Games.Score() }

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
// game order unless they were discarded.
type Table struct {
	Players  []string
	Matchups []Matchup
	Games    []GameRecord   // nil when the games were not kept (NewTableBuilder, Runner.Discard)
	Played   int            // games counted, kept or not
	Reasons  map[string]int // games by GameRecord.Reason, kept or not
	SPRT     *SPRTStatus    // set when the run used an SPRT
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
	Games  wdl.Count
}

// Score returns the player's points.
func (s Standing) Score() float64 { return s.Games.Score() }

// Standings returns every player's games over the table, by points
// (highest first), ties by player index.
func (t *Table) Standings() []Standing {
	out := make([]Standing, len(t.Players))
	for i, n := range t.Players {
		out[i] = Standing{Player: i, Name: n}
	}
	for _, m := range t.Matchups {
		out[m.A].Games.Merge(m.Games)
		out[m.B].Games.Merge(m.Games.Flip())
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
// (ReadGameLog). The records are added to a TableBuilder in game order, so
// the errors are Add's, each naming the offending game; the table's Games
// are a sorted copy of recs.
func BuildTable(players []string, recs []GameRecord) (*Table, error) {
	sorted := slices.Clone(recs)
	slices.SortStableFunc(sorted, func(x, y GameRecord) int { return x.Game - y.Game })
	b := NewTableBuilder(players, true)
	for _, g := range sorted {
		if err := b.Add(g); err != nil {
			return nil, err
		}
	}
	return b.Table(), nil
}

// TableBuilder builds a Table one game record at a time, the records in
// any order, for a table that grows while games are played (a live line
// every N games, a streaming Runner). Without kept games its memory does
// not grow with the number of games: it holds the matchups, the first game
// of each pair whose second game has not come yet, and the game indices
// seen as a set of intervals (a few when games come roughly in order).
// It is not safe for concurrent use.
type TableBuilder struct {
	players  []string
	keep     bool
	matchups []Matchup        // in order of creation
	first    []int            // matchup -> lowest game index added
	index    map[[2]int]int   // entrants {low, high} -> matchups position
	pending  map[int]halfPair // pair -> its game added first, until the second comes
	seen     gameSet
	reasons  map[string]int
	played   int
	games    []GameRecord // kept games, in order of Add until Table sorts them
	sorted   bool         // games is in game order
}

// halfPair is what a pair's first game leaves for its second.
type halfPair struct {
	game, black, white int
	result             Result
}

// NewTableBuilder returns an empty builder over the named players (entrant
// indices index players). keepGames: the tables it returns hold every game
// record (Table.Games); otherwise only the counts.
func NewTableBuilder(players []string, keepGames bool) *TableBuilder {
	return &TableBuilder{
		players: slices.Clone(players), keep: keepGames, sorted: true,
		index: map[[2]int]int{}, pending: map[int]halfPair{}, reasons: map[string]int{},
	}
}

// Add counts one game. The record must have a game index not added
// before, valid entrant indices (two different players) whose names match
// the builder's players, and a result; the second game of a Pair must be
// between the same players as the first, colours swapped, and the pair
// then counts in the pentanomial. An error names the game ("game 7: no
// result"; a bad pair names the later game first) and leaves the builder
// as it was.
func (b *TableBuilder) Add(g GameRecord) error {
	players := b.players
	if b.seen.has(g.Game) {
		return fmt.Errorf("game %d appears twice", g.Game)
	}
	if g.BlackIndex < 0 || g.BlackIndex >= len(players) || g.WhiteIndex < 0 || g.WhiteIndex >= len(players) || g.BlackIndex == g.WhiteIndex {
		return fmt.Errorf("game %d: player indices %d, %d invalid for %d players", g.Game, g.BlackIndex, g.WhiteIndex, len(players))
	}
	if g.Black != players[g.BlackIndex] || g.White != players[g.WhiteIndex] {
		return fmt.Errorf("game %d: players %q, %q do not match entrants %d (%q), %d (%q)",
			g.Game, g.Black, g.White, g.BlackIndex, players[g.BlackIndex], g.WhiteIndex, players[g.WhiteIndex])
	}
	if g.Result == NoResult {
		return fmt.Errorf("game %d: no result", g.Game)
	}
	h, paired := b.pending[g.Pair]
	if paired && (h.black != g.WhiteIndex || h.white != g.BlackIndex) {
		return fmt.Errorf("game %d: pair %d with game %d but colours are not swapped between the same players", max(g.Game, h.game), g.Pair, min(g.Game, h.game))
	}

	b.seen.add(g.Game)
	m := b.matchup(g)
	blackScore := g.Result.Score(engine.Black)
	// Result.Score is 0, ½ or 1, which wdl.Count.Add always takes.
	if m.A == g.BlackIndex {
		m.Games.Add(blackScore)
		m.AsBlack.Add(blackScore)
	} else {
		m.Games.Add(1 - blackScore)
		m.AsWhite.Add(1 - blackScore)
	}
	if paired {
		delete(b.pending, g.Pair)
		// A's scores in the pair's two games (PairScore is symmetric).
		hs := h.result.Score(engine.Black)
		if h.black != m.A {
			hs = 1 - hs
		}
		m.Pairs[wdl.PairScore(hs, g.Result.Score(colorOf(g, m.A)))]++
	} else {
		b.pending[g.Pair] = halfPair{game: g.Game, black: g.BlackIndex, white: g.WhiteIndex, result: g.Result}
	}
	b.played++
	b.reasons[g.Reason]++
	if b.keep {
		if n := len(b.games); n > 0 && b.games[n-1].Game > g.Game {
			b.sorted = false
		}
		b.games = append(b.games, g)
	}
	return nil
}

// matchup returns the matchup of g's players, added if new. A is Black of
// the lowest-indexed game of the pairing added so far, as BuildTable's
// order makes it: a game older than the matchup's first one flips it.
func (b *TableBuilder) matchup(g GameRecord) *Matchup {
	key := [2]int{min(g.BlackIndex, g.WhiteIndex), max(g.BlackIndex, g.WhiteIndex)}
	i, ok := b.index[key]
	if !ok {
		i = len(b.matchups)
		b.index[key] = i
		b.matchups = append(b.matchups, Matchup{A: g.BlackIndex, B: g.WhiteIndex})
		b.first = append(b.first, g.Game)
	}
	m := &b.matchups[i]
	if g.Game < b.first[i] {
		b.first[i] = g.Game
		if m.A != g.BlackIndex {
			*m = m.Flip()
		}
	}
	return m
}

// Table returns the table of the games added so far, as BuildTable would
// build it from them: matchups in order of their first game, Games in game
// order (nil when the builder keeps no games). The builder may go on
// adding: the table does not change. Cost: the matchups; kept games are
// shared with the builder (copied once, when they came out of order), so
// treat the table's Games as read-only.
func (b *TableBuilder) Table() *Table {
	order := make([]int, len(b.matchups))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return b.first[x] - b.first[y] })
	t := &Table{
		Players:  slices.Clone(b.players),
		Matchups: make([]Matchup, len(order)),
		Played:   b.played,
		Reasons:  maps.Clone(b.reasons),
		index:    make(map[[2]int]int, len(order)),
	}
	for i, j := range order {
		m := b.matchups[j]
		t.Matchups[i] = m
		t.index[[2]int{m.A, m.B}] = i
	}
	if b.keep {
		if !b.sorted {
			// A new array: earlier tables keep theirs as they were.
			b.games = slices.Clone(b.games)
			slices.SortFunc(b.games, func(x, y GameRecord) int { return x.Game - y.Game })
			b.sorted = true
		}
		t.Games = b.games[:len(b.games):len(b.games)]
	}
	return t
}

// gameSet is a set of game indices as sorted, disjoint, non-adjacent
// half-open intervals [lo, hi), so that games added roughly in order take
// a few intervals however many they are.
type gameSet [][2]int

// search returns the position of the first interval starting after g.
func (s gameSet) search(g int) int {
	i, _ := slices.BinarySearchFunc(s, g, func(iv [2]int, g int) int {
		if iv[0] <= g {
			return -1
		}
		return 1
	})
	return i
}

func (s gameSet) has(g int) bool {
	i := s.search(g)
	return i > 0 && g < s[i-1][1]
}

// add inserts g, which must not be in the set.
func (s *gameSet) add(g int) {
	i := s.search(g)
	left := i > 0 && (*s)[i-1][1] == g
	right := i < len(*s) && (*s)[i][0] == g+1
	switch {
	case left && right:
		(*s)[i-1][1] = (*s)[i][1]
		*s = slices.Delete(*s, i, i+1)
	case left:
		(*s)[i-1][1] = g + 1
	case right:
		(*s)[i][0] = g
	default:
		*s = slices.Insert(*s, i, [2]int{g, g + 1})
	}
}

// colorOf returns the colour entrant e had in game g.
func colorOf(g GameRecord, e int) engine.Color {
	if g.BlackIndex == e {
		return engine.Black
	}
	return engine.White
}
