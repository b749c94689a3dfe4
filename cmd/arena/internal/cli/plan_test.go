package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/roadtune/roadtune/tournament"
)

// checkPlan checks the match's plan.json against its summary.json: the
// same header in the same words, games scheduled, and the summary's SPRT
// bounds (nil when it had none).
func checkPlan(t *testing.T, out string, sum tournament.Summary, games int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, planFile))
	if err != nil {
		t.Fatal(err)
	}
	var p tournament.MatchPlan
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatalf("%s: %v", planFile, err)
	}
	head := sum
	head.Games, head.Seconds, head.Reasons, head.Matchups, head.Standings, head.SPRT = 0, 0, nil, nil, nil, nil
	head.Champion, head.Resumed, head.Interrupted = "", 0, false
	if got := p.Header(); !reflect.DeepEqual(got, head) {
		t.Errorf("plan.json header %+v, summary's %+v", got, head)
	}
	if p.Games != games {
		t.Errorf("plan.json: %d games, want %d", p.Games, games)
	}
	switch s := sum.SPRT; {
	case s == nil && p.SPRT != nil:
		t.Errorf("plan.json has an SPRT %+v, the summary none", p.SPRT)
	case s != nil && (p.SPRT == nil || p.SPRT.Elo0 != s.Elo0 || p.SPRT.Elo1 != s.Elo1 || p.SPRT.Alpha != s.Alpha ||
		p.SPRT.Beta != s.Beta || p.SPRT.Lower != s.Lower || p.SPRT.Upper != s.Upper):
		t.Errorf("plan.json SPRT %+v, summary's %+v", p.SPRT, s)
	}
}
