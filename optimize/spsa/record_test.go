package spsa

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/roadtune/roadtune/optimize"
)

// TestIterationJSON pins an iteration's JSON as generations.jsonl holds
// it, in self-play (no minus side) and against a pool's opponent (the
// minus side's games as "minus_wins", "minus_draws", "minus_losses"): it
// writes those bytes and reads them back.
func TestIterationJSON(t *testing.T) {
	self := Iteration{K: 2, Seed: 9, ThetaBefore: []float64{1}, Delta: []int{-1}, CK: []float64{0.5}, AK: []float64{0.25},
		Plus: []float64{0.5}, Minus: []float64{1.5}, Outcome: optimize.Outcome{Wins: 3, Draws: 1, Losses: 2}, R: 1, Theta: []float64{0.75}}
	pool := self
	pool.Opponent = "far"
	pool.MinusOutcome = optimize.Outcome{Wins: 1, Draws: 2, Losses: 3}
	pool.R = -1
	for _, tc := range []struct {
		it   Iteration
		want string
	}{
		{self, `{"k":2,"seed":9,"theta_before":[1],"delta":[-1],"c_k":[0.5],"a_k":[0.25],"plus":[0.5],"minus":[1.5],"wins":3,"draws":1,"losses":2,"r":1,"theta":[0.75]}`},
		{pool, `{"k":2,"seed":9,"theta_before":[1],"delta":[-1],"c_k":[0.5],"a_k":[0.25],"plus":[0.5],"minus":[1.5],"opponent":"far","wins":3,"draws":1,"losses":2,"minus_wins":1,"minus_draws":2,"minus_losses":3,"r":-1,"theta":[0.75]}`},
	} {
		data, err := json.Marshal(tc.it)
		if err != nil || string(data) != tc.want {
			t.Errorf("iteration writes %s (%v), want %s", data, err, tc.want)
		}
		var back Iteration
		if err := json.Unmarshal([]byte(tc.want), &back); err != nil || !reflect.DeepEqual(back, tc.it) {
			t.Errorf("%s reads as %+v (%v), want %+v", tc.want, back, err, tc.it)
		}
	}
}
