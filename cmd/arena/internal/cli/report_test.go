package cli

import (
	"strings"
	"testing"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
)

// TestWinRateChartNamesTheSearch: arena's win-rate chart says at which
// depth and width the games were played, names its Y axis, and its
// labels read (results.TickOverlaps); a round robin's says against whom.
func TestWinRateChartNamesTheSearch(t *testing.T) {
	sum := tournament.Summary{Schedule: "head-to-head", Games: 158, Depth: 3, Width: 10,
		Matchups: []tournament.MatchSummary{{A: "tuned", B: "zhou2015", Score: 0.6, ScoreLo: 0.55, ScoreHi: 0.65}}}
	c := winRateChart(sum)
	if !strings.Contains(c.Title, "depth 3, width 10") || !strings.Contains(c.YLabel, "first player") || c.Note == "" {
		t.Errorf("title %q, y label %q, note %q", c.Title, c.YLabel, c.Note)
	}
	if over, err := results.TickOverlaps(c); err != nil || len(over) > 0 {
		t.Errorf("ticks: %v %v", over, err)
	}
	sum.Schedule, sum.Standings = "round-robin", []tournament.StandingSummary{{Name: "a", Score: 0.5}, {Name: "b", Score: 0.4}, {Name: "c", Score: 0.6}}
	if c := winRateChart(sum); !strings.Contains(c.YLabel, "against the field") || len(c.Bars) != 3 {
		t.Errorf("round robin: y label %q, %d bars", c.YLabel, len(c.Bars))
	}
}
