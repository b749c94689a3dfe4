package optimize

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat/distuv"
)

// RaceConfig is racing for a run's answer: instead of trusting the best
// of many noisy samples (thomasahle/fastchess#24, nevergrad#1063), a few
// candidates (the top of the population and its mean) play round after
// round against a common pool on common openings, and a candidate is
// dropped as soon as a sequential test says the leader is better (F-race,
// Birattari et al. 2002; irace), so the games go where the decision is
// close. The zero value (Budget 0) is no race.
type RaceConfig struct {
	// Budget is the most games the race may play; 0 = no race.
	Budget int `json:"budget"`
	// Alpha is the error rate of the test that drops a candidate, shared
	// among the candidates still in the race (Bonferroni): candidate i is
	// dropped when a one-sided paired t-test on the rounds' scores says the
	// leader scores more at level Alpha/(alive−1). In (0, 0.5].
	Alpha float64 `json:"alpha"`
	// MinRounds is the number of rounds played before any candidate may be
	// dropped (≥ 2: a t-test needs two rounds).
	MinRounds int `json:"min_rounds"`
}

// Validate checks the settings for a race of k candidates against opps
// opponents, gamesPerMatch games a match (2 · game pairs): Alpha in
// (0, 0.5], MinRounds ≥ 2, and a budget of 0 (off) or at least
// MinBudget, so that the race can decide anything. Errors name the field
// ("Budget", "Alpha", "MinRounds") through a *RaceError.
func (c RaceConfig) Validate(k, opps, gamesPerMatch int) error {
	if c.Budget == 0 {
		return nil
	}
	if c.Budget < 0 {
		return &RaceError{Field: "Budget", Msg: fmt.Sprintf("must be 0 (no race) or more, not %d", c.Budget)}
	}
	if !(c.Alpha > 0 && c.Alpha <= 0.5) {
		return &RaceError{Field: "Alpha", Msg: fmt.Sprintf("must be in (0, 0.5], not %g", c.Alpha)}
	}
	if c.MinRounds < 2 {
		return &RaceError{Field: "MinRounds", Msg: fmt.Sprintf("must be at least 2 (a paired test needs two rounds), not %d", c.MinRounds)}
	}
	if need := c.MinBudget(k, opps, gamesPerMatch); c.Budget < need {
		return &RaceError{Field: "Budget", Msg: fmt.Sprintf("%d games cannot decide a race of %d candidates: %d rounds against %d opponents take %d games (0 = no race)", c.Budget, k, c.MinRounds, opps, need)}
	}
	return nil
}

// MinBudget is the games of the first MinRounds rounds, before which no
// candidate can be dropped: k candidates × opps opponents × gamesPerMatch
// games × MinRounds.
func (c RaceConfig) MinBudget(k, opps, gamesPerMatch int) int {
	return c.MinRounds * k * opps * gamesPerMatch
}

// RaceError is a RaceConfig setting out of its limits.
type RaceError struct{ Field, Msg string }

func (e *RaceError) Error() string { return "optimize: RaceConfig." + e.Field + ": " + e.Msg }

// RaceRecord is what a race did, for a step's record.
type RaceRecord struct {
	// Candidates names the candidates in order (e.g. "mean", "elite 1").
	Candidates []string `json:"candidates"`
	// Winner is the index of the chosen candidate: of those still in the
	// race when it ended, the one with the highest mean round score
	// (ties: the first).
	Winner int `json:"winner"`
	// Decided says every other candidate was dropped by the test; false
	// when the budget ran out first (the winner is then the leader).
	Decided bool `json:"decided"`
	// Rounds is the number of rounds played, Games the games they took.
	Rounds int `json:"rounds"`
	Games  int `json:"games"`
	// Score is each candidate's mean score (fraction of points) over the
	// rounds it played; Played the rounds it played (a dropped candidate
	// stops playing); Dropped the round after which it was dropped, −1 if
	// never.
	Score   []float64 `json:"score"`
	Played  []int     `json:"played"`
	Dropped []int     `json:"dropped"`
}

// RaceField is the field of a method's final race and the candidates'
// names, in the order every method races them: the answer, then latest
// (the newest mean, when the answer averages several; nil = left out),
// then top, best first, top[k] named topName(k+1). The vectors are the
// callers' (not copied).
func RaceField(answer []float64, answerName string, latest []float64, latestName string, top [][]float64, topName func(k int) string) ([][]float64, []string) {
	cands, names := [][]float64{answer}, []string{answerName}
	if latest != nil {
		cands, names = append(cands, latest), append(names, latestName)
	}
	for k, v := range top {
		cands, names = append(cands, v), append(names, topName(k+1))
	}
	return cands, names
}

// Race races cands against the pool opps (see RaceConfig): each round
// draws a batch seed from rng and plays every candidate still in the race
// against every opponent (PoolMatches: common openings within the round);
// after MinRounds rounds, and after each round from then on, candidates
// the leader beats by the test are dropped, until one is left or the next
// round would pass the budget. gamesPerMatch is the games the referee
// plays a match (2 · its game pairs), used to plan rounds within the
// budget. It returns the record, or the referee's error (wrapped); it
// draws from rng only, so a method that must replay a failed step hands it
// a copy.
func Race(ctx context.Context, ref Referee, rng *rand.Rand, cands, opps [][]float64, names []string, c RaceConfig, gamesPerMatch int) (RaceRecord, error) {
	k := len(cands)
	rec := RaceRecord{Candidates: names, Score: make([]float64, k), Played: make([]int, k), Dropped: make([]int, k)}
	if k == 0 || len(opps) == 0 {
		return rec, fmt.Errorf("optimize: Race: %d candidates against %d opponents", k, len(opps))
	}
	alive := make([]int, k)
	for i := range alive {
		alive[i] = i
		rec.Dropped[i] = -1
	}
	scores := make([][]float64, k) // scores[i][r]: candidate i's score in round r
	for len(alive) > 1 {
		if rec.Games+len(alive)*len(opps)*gamesPerMatch > c.Budget {
			break
		}
		seed := rng.Uint64()
		field := make([][]float64, len(alive))
		for a, i := range alive {
			field[a] = cands[i]
		}
		out, err := Play(ctx, ref, seed, PoolMatches(field, opps))
		if err != nil {
			return rec, fmt.Errorf("race round %d: %w", rec.Rounds, err)
		}
		rec.Games += CountGames(out)
		for a, o := range PoolOutcomes(out, len(alive), len(opps)) {
			i := alive[a]
			s := 0.5
			if o.Games() > 0 {
				s = o.Score() / float64(o.Games())
			}
			scores[i] = append(scores[i], s)
		}
		rec.Rounds++
		if rec.Rounds >= c.MinRounds {
			alive = dropBeaten(alive, scores, rec.Rounds, c.Alpha, rec.Dropped)
		}
	}
	rec.Decided = len(alive) == 1
	for i, s := range scores {
		rec.Played[i] = len(s)
		rec.Score[i] = mean(s)
	}
	rec.Winner = alive[0]
	for _, i := range alive[1:] {
		if rec.Score[i] > rec.Score[rec.Winner] {
			rec.Winner = i
		}
	}
	if rec.Rounds == 0 {
		rec.Winner = 0 // no round fitted the budget: the first candidate (a method's mean)
	}
	return rec, nil
}

// dropBeaten drops from alive every candidate the leader (the highest
// mean score over the rounds all alive candidates played, ties the first)
// beats by a one-sided paired t-test at level alpha/(len(alive)−1), and
// marks it dropped after round. Every alive candidate played the same
// rounds, on the same openings, so the differences are paired.
func dropBeaten(alive []int, scores [][]float64, round int, alpha float64, dropped []int) []int {
	lead := alive[0]
	for _, i := range alive[1:] {
		if mean(scores[i]) > mean(scores[lead]) {
			lead = i
		}
	}
	level := alpha / float64(len(alive)-1)
	keep := alive[:0:0]
	for _, i := range alive {
		if i != lead && pairedBetter(scores[lead], scores[i], level) {
			dropped[i] = round
			continue
		}
		keep = append(keep, i)
	}
	return keep
}

// pairedBetter reports whether a's rounds beat b's by a one-sided paired
// t-test at level alpha: the mean of d = a − b over n rounds exceeds
// t(1−alpha, n−1) standard errors. Identical differences (no variance)
// count as better when their mean is positive.
func pairedBetter(a, b []float64, alpha float64) bool {
	n := len(a)
	if n < 2 || len(b) != n {
		return false
	}
	d := make([]float64, n)
	for r := range d {
		d[r] = a[r] - b[r]
	}
	m := mean(d)
	if m <= 0 {
		return false
	}
	v := 0.0
	for _, x := range d {
		v += (x - m) * (x - m)
	}
	se := math.Sqrt(v / float64(n-1) / float64(n))
	if se == 0 {
		return true
	}
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}
	return m/se > t.Quantile(1-alpha)
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
