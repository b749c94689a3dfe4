package web

import (
	"fmt"
	"os"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
)

// MatchLLRChart is the SPRT chart of a head-to-head arena match
// (results.LLRChart): the log-likelihood ratio after each complete game
// pair of games (the match's games log, tournament.LLRHistory) against
// the games, with the test's bounds. arena writes it as plots/llr.png and
// .svg in the match directory; the match's page draws it live
// (/run/ID/chart/llr.svg). ok is false when the match has no SPRT or no
// complete pair yet. Errors: LLRHistory's.
func MatchLLRChart(t *tournament.SPRTSummary, players []string, games []tournament.GameRecord) (c results.LineChart, ok bool, err error) {
	if t == nil {
		return c, false, nil
	}
	xs, ys, err := tournament.LLRHistory(games, t.Test())
	if err != nil || len(xs) == 0 {
		return c, false, err
	}
	title := "SPRT"
	if len(players) == 2 {
		title += fmt.Sprintf(": %s vs %s", players[0], players[1])
	}
	return results.LLRChart(title+", log-likelihood ratio against games", t.Test().String(), xs, ys, t.Lower, t.Upper), true, nil
}

// arenaCharts are a match's charts for its page: the SPRT chart ("llr")
// once a pair is complete, from summary.json's test when the match
// wrote it, else from the saved command line's -sprt. Call with r.mu
// held.
func (r *run) arenaCharts(root *os.Root) ([]results.NamedChart, error) {
	sum, final, err := readSummary(root)
	if err != nil {
		return nil, err
	}
	t := sum.SPRT
	if !final {
		p := arenaPlan(root)
		if p.err != nil {
			return nil, p.err
		}
		t = p.sprt
	}
	if t == nil {
		return nil, nil
	}
	g := r.logFor(arenaGameLog)
	if err := g.update(root); err != nil {
		return nil, err
	}
	games, err := g.games(root, 0, len(g.offsets))
	if err != nil {
		return nil, err
	}
	var players []string
	if len(sum.Matchups) == 1 {
		players = []string{sum.Matchups[0].A, sum.Matchups[0].B}
	} else if g.table != nil && len(g.table.names) == 2 {
		players = g.table.names
	}
	c, ok, err := MatchLLRChart(t, players, games)
	if err != nil || !ok {
		return nil, err
	}
	return []results.NamedChart{{Name: "llr", Title: "SPRT: log-likelihood ratio against games, with the bounds", Chart: c}}, nil
}
