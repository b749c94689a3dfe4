package stats

import "fmt"

// WDL counts games won, drawn and lost from one player's view: A's of a
// match (tournament.Matchup, tournament.MatchSummary) or a player's over a
// tournament (tournament.Standing). It is the one W/D/L count of the
// tournament room, written to summary.json and validation.json as
// {"w": …, "d": …, "l": …}. optimize.Outcome is the same count in the
// optimizer room, which imports nothing of roadtune: package referee
// converts one to the other.
type WDL struct {
	W int `json:"w"`
	D int `json:"d"`
	L int `json:"l"`
}

// Counts returns the trinomial counts [L, D, W].
func (r WDL) Counts() []int { return []int{r.L, r.D, r.W} }

// N returns the number of games.
func (r WDL) N() int { return r.W + r.D + r.L }

// Add records one game with A's score 0 (loss), 0.5 (draw) or 1 (win); any
// other score is an error and changes nothing.
func (r *WDL) Add(score float64) error {
	switch score {
	case 0:
		r.L++
	case 0.5:
		r.D++
	case 1:
		r.W++
	default:
		return fmt.Errorf("stats: game score %g, want 0, 0.5 or 1", score)
	}
	return nil
}

// Pentanomial counts game pairs from player A's view by the pair's total
// score: [LL, LD, WL+DD, WD, WW], i.e. totals 0, ½, 1, 1½, 2.
type Pentanomial [5]int

// Counts returns the pentanomial counts as a slice [LL, LD, WL+DD, WD, WW].
func (p Pentanomial) Counts() []int { return p[:] }

// N returns the number of game pairs.
func (p Pentanomial) N() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Add records one game pair from A's two game scores (0, 0.5 or 1 each); an
// invalid score is an error and changes nothing.
func (p *Pentanomial) Add(first, second float64) error {
	i := PairScore(first, second)
	if i < 0 {
		return fmt.Errorf("stats: game pair scores %g, %g: want 0, 0.5 or 1 each", first, second)
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
