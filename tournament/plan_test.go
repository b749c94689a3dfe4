package tournament

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/roadtune/roadtune/tournament/stats"
)

func TestMatchPlan(t *testing.T) {
	t.Parallel()
	head := Summary{
		Schedule: "head-to-head", Pairs: 40, Openings: "generated 3-stone suite, radius 3, seed 1 (162 openings)",
		Players: []PlayerInfo{{Name: "a", Kind: "weights", Source: "zhou2015", Settings: "depth 2, width 6"},
			{Name: "b", Kind: "external", Source: "./engine", Settings: "dir ."}},
		Depth: 2, Width: 6, MaxMoves: 180, MoveTime: "10s",
		Games: 7, Seconds: 3, Reasons: map[string]int{"six": 7}, // not part of a plan
	}
	s := stats.SPRT{Elo0: 0, Elo1: 10}
	p := NewMatchPlan(head, 80, &s)
	want := head
	want.Games, want.Seconds, want.Reasons = 0, 0, nil
	if got := p.Header(); !reflect.DeepEqual(got, want) {
		t.Errorf("Header() = %+v, want %+v", got, want)
	}
	lo, hi := s.Bounds()
	wantSPRT := SPRTSummary{Elo1: 10, Alpha: 0.05, Beta: 0.05, Lower: lo, Upper: hi, Decision: "continue"}
	if p.Games != 80 || p.SPRT == nil || *p.SPRT != wantSPRT {
		t.Errorf("games %d, sprt %+v, want 80 and %+v", p.Games, p.SPRT, wantSPRT)
	}
	if NewMatchPlan(head, 0, nil).SPRT != nil {
		t.Error("a plan without a test has an SPRT")
	}
	// The plan's keys are the summary's for the same fields: a reader of
	// either finds the header under the same names.
	pj, _ := json.Marshal(p)
	sj, _ := json.Marshal(Summarize(&Table{}, head))
	var pm, sm map[string]json.RawMessage
	if err := json.Unmarshal(pj, &pm); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(sj, &sm); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"schedule", "players", "pairs", "openings", "depth", "width", "max_moves", "move_time"} {
		if string(pm[k]) != string(sm[k]) {
			t.Errorf("key %s: plan %s, summary %s", k, pm[k], sm[k])
		}
	}
	var back MatchPlan
	if err := json.Unmarshal(pj, &back); err != nil || !reflect.DeepEqual(back, p) {
		t.Errorf("plan.json round trip: %+v (%v), want %+v", back, err, p)
	}
}
