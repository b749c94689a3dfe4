package budget

import (
	"math"
	"testing"
	"time"
)

// TestSampleLimits: a calibration sample takes 0.1% of a long budget (at
// most 30 s, 32 games a second), and a budget under 33 minutes keeps the
// 2-second, 64-game sample.
func TestSampleLimits(t *testing.T) {
	for _, c := range []struct {
		budget  string
		seconds float64
		games   int
	}{{"", 2, 64}, {"10m", 2, 64}, {"30m", 2, 64}, {"1h", 3.6, 115}, {"8h", 28.8, 921}, {"100h", 30, 960}} {
		var b float64
		if c.budget != "" {
			d, err := time.ParseDuration(c.budget)
			if err != nil {
				t.Fatal(err)
			}
			b = d.Seconds()
		}
		s, g := SampleLimits(b)
		if math.Abs(s-c.seconds) > 1e-9 || g != c.games {
			t.Errorf("budget %q: a sample of %g s and %d games, want %g s and %d", c.budget, s, g, c.seconds, c.games)
		}
	}
}

// TestChainBudgetWeights: a chain.json written before the split by time
// (no "split") still splits, by its forecast games.
func TestChainBudgetWeights(t *testing.T) {
	old := Chain{Games: []int{48, 8}}
	if w := old.Weights(); len(w) != 2 || w[0] != 48 || w[1] != 8 {
		t.Errorf("an old chain's weights %v, want [48 8]", w)
	}
	now := Chain{Games: []int{48, 8}, Split: []float64{30, 90}}
	if w := now.Weights(); w[0] != 30 || w[1] != 90 {
		t.Errorf("weights %v, want the split [30 90]", w)
	}
}

// TestSplitCalibration: a later stage at the first stage's setting takes
// the first stage's fitness sample for the split; at another setting it
// keeps its own.
func TestSplitCalibration(t *testing.T) {
	d3 := Sample{At: "depth 3, width 10", Games: 64, Seconds: 1.28}
	fast := Sample{At: "depth 3, width 10", Games: 64, Seconds: 0.42}
	d2 := Sample{At: "depth 2, width 10", Games: 64, Seconds: 0.2}
	cals := []*Calibration{{Fitness: d3}, {Fitness: fast, Seconds: 5}, {Fitness: d2}}
	if got := SplitCalibration(cals, 1); got.Fitness != d3 || got.Seconds != 5 || cals[1].Fitness != fast {
		t.Errorf("stage 2 at stage 1's setting: %+v (stage 2's own now %+v)", got, cals[1].Fitness)
	}
	if got := SplitCalibration(cals, 2); got.Fitness != d2 {
		t.Errorf("stage 3 at another setting: %+v", got.Fitness)
	}
	if got := SplitCalibration(cals, 0); got != cals[0] {
		t.Errorf("stage 1: %+v", got)
	}
}
