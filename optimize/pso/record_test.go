package pso

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

// matchRecordJSON is a match record as generations.jsonl holds it: the
// games flat in the record as "wins", "draws", "losses".
const matchRecordJSON = `{"kind":"personal","particle":1,"incumbent":1,"seed":7,"a":[0.5,2],"b":[1,-3],"wins":3,"draws":1,"losses":2,"challenger_won":true}`

// TestMatchRecordJSON pins a match record's JSON: it writes the bytes runs
// hold and reads them back.
func TestMatchRecordJSON(t *testing.T) {
	m := MatchRecord{Kind: PersonalMatch, Particle: 1, Incumbent: 1, Seed: 7, A: []float64{0.5, 2}, B: []float64{1, -3},
		Outcome: optimize.Outcome{Wins: 3, Draws: 1, Losses: 2}, ChallengerWon: true}
	data, err := json.Marshal(m)
	if err != nil || string(data) != matchRecordJSON {
		t.Errorf("match record writes %s (%v), want %s", data, err, matchRecordJSON)
	}
	var back MatchRecord
	if err := json.Unmarshal([]byte(matchRecordJSON), &back); err != nil || !reflect.DeepEqual(back, m) {
		t.Errorf("match record reads as %+v (%v), want %+v", back, err, m)
	}
}
