package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// TestArenaPlanJSON: a match in progress with plan.json shows the plan's
// schedule, games, players with their settings, openings and SPRT, whatever
// its command line says (here a different -pairs and no -sprt: the plan
// wins); a damaged plan.json is named, and the command line still gives
// what it can.
func TestArenaPlanJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "match")
	arenaDir(t, dir, 2) // command.json: -pairs 2, no -sprt
	head := tournament.Summary{Schedule: "head-to-head", Pairs: 3, Depth: 1, Width: 10, MoveTime: "10s",
		Openings: "generated 3-stone suite, radius 3, seed 7 (162 openings)",
		Players: []tournament.PlayerInfo{{Name: "zhou2015", Kind: "weights", Source: "zhou2015", Settings: "depth 1, width 10, planned"},
			{Name: "qi2018", Kind: "weights", Source: "qi2018-table3-1", Settings: "depth 1, width 10"}}}
	s := stats.SPRT{Elo0: 0, Elo1: 20}
	if err := results.WriteJSONAtomic(filepath.Join(dir, planFile), tournament.NewMatchPlan(head, 6, &s)); err != nil {
		t.Fatal(err)
	}
	_, ts := serve(t, []string{dir}, Options{})
	url := ts.URL + "/run/match/"
	var st Status
	json.Unmarshal([]byte(mustGet(t, url+"status.json", "application/json")), &st)
	if st.Method != "head-to-head" || st.TotalGames != 6 || st.StepText != "game 2 of 6" {
		t.Errorf("status from plan.json = %+v, want head-to-head, game 2 of 6", st)
	}
	page := mustGet(t, url, "text/html")
	wantIn(t, "arena page with plan.json", page, "depth 1, width 10, planned", "seed 7 (162 openings)",
		`data-src="/run/match/chart/llr.svg"`, "/run/match/files/plan.json")
	wantIn(t, "LLR chart from plan.json", mustGet(t, url+"chart/llr.svg", "image/svg+xml"), "accept H1 (2.94)")

	// A damaged plan.json: the error is shown, the command line's plan used.
	if err := os.WriteFile(filepath.Join(dir, planFile), []byte(`{"games": "six"`), 0o644); err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(mustGet(t, url+"status.json", "application/json")), &st)
	if st.TotalGames != 4 || !strings.Contains(st.Error, "plan.json") {
		t.Errorf("status with a damaged plan.json = %+v, want 4 games from command.json and an error naming plan.json", st)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	p := arenaPlan(root)
	if p.err == nil || p.total != 4 || p.schedule != "head-to-head" {
		t.Errorf("damaged plan.json: err %v, %s %d games; want an error and head-to-head 4 from command.json", p.err, p.schedule, p.total)
	}
}
