package bayes

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

// TestPointsOfOldRunsRead: a point's results as runs and checkpoints
// written before optimize.Outcome was a wdl.Count hold them, each outcome
// {"Wins": …, "Draws": …, "Losses": …}, read as the outcomes they count;
// a point now writes them {"wins": …, "draws": …, "losses": …}.
func TestPointsOfOldRunsRead(t *testing.T) {
	const old = `{"source":"design","u":[0.5],"x":[2],"results":[{"Wins":3,"Draws":1,"Losses":2},{"Wins":0,"Draws":0,"Losses":6}]}`
	want := PlayedPoint{Source: "design", U: []float64{0.5}, X: []float64{2},
		Results: []optimize.Outcome{{Wins: 3, Draws: 1, Losses: 2}, {Losses: 6}}}
	var p PlayedPoint
	if err := json.Unmarshal([]byte(old), &p); err != nil || !reflect.DeepEqual(p, want) {
		t.Errorf("%s reads as %+v (%v), want %+v", old, p, err, want)
	}
	const now = `{"source":"design","u":[0.5],"x":[2],"results":[{"wins":3,"draws":1,"losses":2},{"wins":0,"draws":0,"losses":6}]}`
	if data, err := json.Marshal(want); err != nil || string(data) != now {
		t.Errorf("point writes %s (%v), want %s", data, err, now)
	}
	var st Point
	if err := json.Unmarshal([]byte(`{"u":[0.5],"results":[{"Wins":3,"Draws":1,"Losses":2}]}`), &st); err != nil ||
		!reflect.DeepEqual(st, Point{U: []float64{0.5}, Results: want.Results[:1]}) {
		t.Errorf("state point reads as %+v (%v)", st, err)
	}
}
