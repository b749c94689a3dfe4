package wdl

import "fmt"

// Count is the games won, drawn and lost from A's view: a match's (an
// optimize.Outcome, a tournament.Matchup's games) or a player's over a
// tournament (tournament.Standing). Its JSON is {"wins": …, "draws": …,
// "losses": …}.
type Count struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games is the number of games counted.
func (c Count) Games() int { return c.Wins + c.Draws + c.Losses }

// Score is A's points: a win counts 1, a draw ½ (Chen 2010 §4.4.2.2).
func (c Count) Score() float64 { return float64(c.Wins) + 0.5*float64(c.Draws) }

// AWins reports whether A won the match outright (more points than B).
// A tied match is not a win for A, so an incumbent placed as B keeps its
// place on a tie (Chen 2010 §5.3, which leaves ties open, as roadtune reads it).
func (c Count) AWins() bool { return c.Wins > c.Losses }

// Counts returns the trinomial counts [L, D, W], the games by A's score
// 0, ½, 1 (the order of tournament/stats, after fishtest's).
func (c Count) Counts() []int { return []int{c.Losses, c.Draws, c.Wins} }

// Flip returns the count from B's view: A's wins are B's losses.
func (c Count) Flip() Count { return Count{Wins: c.Losses, Draws: c.Draws, Losses: c.Wins} }

// Merge adds d's games to c's.
func (c *Count) Merge(d Count) {
	c.Wins += d.Wins
	c.Draws += d.Draws
	c.Losses += d.Losses
}

// Add records one game with A's score 0 (loss), 0.5 (draw) or 1 (win); any
// other score is an error and changes nothing.
func (c *Count) Add(score float64) error {
	h, ok := halfPoints(score)
	if !ok {
		return fmt.Errorf("wdl: game score %g, want 0, 0.5 or 1", score)
	}
	switch h {
	case 0:
		c.Losses++
	case 1:
		c.Draws++
	default:
		c.Wins++
	}
	return nil
}

// Pentanomial counts game pairs from A's view by A's points in the pair:
// [LL, LD, WL+DD, WD, WW], i.e. totals 0, ½, 1, 1½, 2. Its JSON is the
// array of the five counts.
type Pentanomial [5]int

// Counts returns the pentanomial counts as a slice [LL, LD, WL+DD, WD, WW].
func (p Pentanomial) Counts() []int { return p[:] }

// N returns the number of game pairs.
func (p Pentanomial) N() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Flip returns the counts from B's view: A's LL pairs are B's WW.
func (p Pentanomial) Flip() Pentanomial { return Pentanomial{p[4], p[3], p[2], p[1], p[0]} }

// Add records one game pair from A's two game scores (0, 0.5 or 1 each); an
// invalid score is an error and changes nothing.
func (p *Pentanomial) Add(first, second float64) error {
	i := PairScore(first, second)
	if i < 0 {
		return fmt.Errorf("wdl: game pair scores %g, %g: want 0, 0.5 or 1 each", first, second)
	}
	p[i]++
	return nil
}

// PairScore returns the pentanomial index of a game pair, 2·(first+second),
// from A's scores in its two games (0, ½ or 1 each): LL→0, LD/DL→1,
// WL/LW/DD→2, WD/DW→3, WW→4. It returns −1 if either score is not 0, ½ or 1.
func PairScore(first, second float64) int {
	h1, ok1 := halfPoints(first)
	h2, ok2 := halfPoints(second)
	if !ok1 || !ok2 {
		return -1
	}
	return h1 + h2
}

// halfPoints maps a game score 0, ½, 1 to 0, 1, 2.
func halfPoints(score float64) (int, bool) {
	switch score {
	case 0:
		return 0, true
	case 0.5:
		return 1, true
	case 1:
		return 2, true
	}
	return 0, false
}
