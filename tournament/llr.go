package tournament

import (
	"fmt"
	"slices"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tournament/wdl"
)

// LLRHistory replays a head-to-head match's SPRT over its game records
// (a games log, in any order): the LLR after each complete game pair, in
// pair order, A's view (A has Black in a pair's first game, as the Runner
// schedules it), as the Runner's collector counted them when it played:
// games[i] is the games counted (twice the pairs), llr[i] the LLR of the
// pentanomial counts then (natural log).
// A pair with one game (interrupted, or after the test decided) is not
// counted. Errors: a test that is not well posed (stats.SPRT.Validate), a
// game whose pair holds more than two games.
func LLRHistory(records []GameRecord, s stats.SPRT) (games, llr []float64, err error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	type pair struct {
		first, second *GameRecord
	}
	pairs := map[int]*pair{}
	for i := range records {
		g := &records[i]
		p := pairs[g.Pair]
		if p == nil {
			p = &pair{}
			pairs[g.Pair] = p
		}
		slot := &p.first
		if g.Game%2 == 1 {
			slot = &p.second
		}
		if *slot != nil {
			return nil, nil, fmt.Errorf("tournament: games %d and %d are both game %d of pair %d", (*slot).Game, g.Game, g.Game%2+1, g.Pair)
		}
		*slot = g
	}
	keys := make([]int, 0, len(pairs))
	for k, p := range pairs {
		if p.first != nil && p.second != nil {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var penta wdl.Pentanomial
	games, llr = make([]float64, 0, len(keys)), make([]float64, 0, len(keys))
	for _, k := range keys {
		p := pairs[k]
		if err := penta.Add(p.first.Result.Score(engine.Black), p.second.Result.Score(engine.White)); err != nil {
			return nil, nil, fmt.Errorf("tournament: pair %d: %w", k, err)
		}
		v, _, err := s.Test(penta.Counts())
		if err != nil {
			return nil, nil, err
		}
		games, llr = append(games, float64(2*penta.N())), append(llr, v)
	}
	return games, llr, nil
}

// Test is the sequential test the summary reports on, to replay it
// (LLRHistory).
func (s SPRTSummary) Test() stats.SPRT {
	return stats.SPRT{Elo0: s.Elo0, Elo1: s.Elo1, Alpha: s.Alpha, Beta: s.Beta, Normalized: s.Normalized}
}
