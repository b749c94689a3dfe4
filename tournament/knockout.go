package tournament

import (
	"context"
	"errors"
	"fmt"
)

// KnockoutMatch is one match of a knockout round.
type KnockoutMatch struct {
	A, B   int     // entrant indices; A is the higher seed
	Score  float64 // A's points
	Games  int
	Winner int // entrant index
}

// KnockoutRound is one round: the entrants with a bye (they advance without
// playing) and the matches, whose games are in Table.
type KnockoutRound struct {
	Byes    []int
	Matches []KnockoutMatch
	Table   *Table
}

// Knockout is the result of a knockout tournament.
type Knockout struct {
	Rounds   []KnockoutRound
	Champion int
}

// Knockout plays a single-elimination tournament over seeds (entrant
// indices, best seed first), pairs game pairs per match. Each round the
// top seeds get byes so that the number left is a power of two; the rest
// meet first against last, second against second-to-last, and so on (all
// matches of a round on one worker pool); the one with more points
// advances, and a tied match goes to the higher seed (the better-placed in
// seeds). Survivors keep their seed order. r.SPRT must be nil and r.Resume
// empty.
func (r *Runner) Knockout(ctx context.Context, seeds []int, pairs int) (*Knockout, error) {
	if len(seeds) < 2 {
		return nil, errors.New("tournament: knockout needs at least 2 entrants")
	}
	if r.SPRT != nil {
		return nil, errors.New("tournament: SPRT applies to head-to-head matches, not a knockout")
	}
	if len(r.Resume) > 0 {
		return nil, errors.New("tournament: Resume applies to one schedule, not a knockout")
	}
	if pairs < 1 {
		return nil, fmt.Errorf("tournament: knockout with %d game pairs per match", pairs)
	}
	run := *r
	alive := append([]int(nil), seeds...)
	k := &Knockout{}
	for len(alive) > 1 {
		p2 := 1
		for p2 < len(alive) {
			p2 *= 2
		}
		byes := p2 - len(alive)
		if p2 == len(alive) {
			byes = 0
		}
		round := KnockoutRound{Byes: append([]int(nil), alive[:byes]...)}
		rest := alive[byes:]
		var fx []Fixture
		for i := 0; i < len(rest)/2; i++ {
			a, b := rest[i], rest[len(rest)-1-i]
			round.Matches = append(round.Matches, KnockoutMatch{A: a, B: b})
			for p := range pairs {
				fx = append(fx, Fixture{A: a, B: b, Opening: p})
			}
		}
		t, err := run.Run(ctx, fx)
		if err != nil {
			return nil, fmt.Errorf("knockout round %d: %w", len(k.Rounds)+1, err)
		}
		round.Table = t
		winners := map[int]bool{}
		for i := range round.Matches {
			m := &round.Matches[i]
			mu, _ := t.Lookup(m.A, m.B)
			m.Score, m.Games = mu.Score(), mu.Games.Games()
			m.Winner = m.A
			if m.Score < float64(m.Games)/2 {
				m.Winner = m.B
			}
			winners[m.Winner] = true
		}
		next := append([]int(nil), round.Byes...)
		for _, e := range rest {
			if winners[e] {
				next = append(next, e)
			}
		}
		// Keep seed order among survivors.
		order := map[int]int{}
		for i, e := range alive {
			order[e] = i
		}
		sortBy(next, order)
		alive = next
		k.Rounds = append(k.Rounds, round)
	}
	k.Champion = alive[0]
	return k, nil
}

// sortBy sorts s by rank[s[i]] (insertion sort; s is short).
func sortBy(s []int, rank map[int]int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && rank[s[j]] < rank[s[j-1]]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
