package budget

import (
	"fmt"

	"gonum.org/v1/gonum/floats"
)

// Chain is a budgeted chain's budget, chain.json's "budget": the first
// stage's budget covers the whole chain, calibrated stage by stage before
// anything is written, and split among the stages in proportion to each
// stage's forecast time at its configured step budget. A stage takes its
// share of the budget left when it starts (Share), so what an earlier
// stage left unused (or overran) moves to the stages after it.
type Chain struct {
	// Budget is the budget as given ("8h"), Seconds the same in seconds.
	Budget  string  `json:"budget"`
	Seconds float64 `json:"seconds"`
	// Calibration is the seconds the stages' calibrations at the chain's
	// start took, spent from the budget before the first stage.
	Calibration float64 `json:"calibration"`
	// Games are each stage's forecast fitness games at its configured
	// step budget.
	Games []int `json:"games"`
	// Split is each stage's forecast seconds at its configured step
	// budget (its plan at its calibration): the weights of the split. A
	// chain.json written before it splits by Games.
	Split []float64 `json:"split,omitempty"`
}

// Text names the budget in a message: "budget \"2h\"", or "no budget"
// for a nil c (a chain without one).
func (c *Chain) Text() string {
	if c == nil {
		return "no budget"
	}
	return fmt.Sprintf("budget %q", c.Budget)
}

// Weights are the split's weights: Split, or for a chain.json written
// before it, Games.
func (c *Chain) Weights() []float64 {
	if len(c.Split) == len(c.Games) {
		return c.Split
	}
	w := make([]float64, len(c.Games))
	for k, g := range c.Games {
		w[k] = float64(g)
	}
	return w
}

// Share is stage k's (from 0) share of the budget left after spent
// seconds (the calibration and the earlier stages' elapsed time): what
// is left times its weight over those of the stages left, and that
// fraction.
func (c *Chain) Share(k int, spent float64) (seconds, left, fraction float64) {
	w := c.Weights()
	left = max(c.Seconds-spent, 0)
	fraction = w[k] / floats.Sum(w[k:])
	return left * fraction, left, fraction
}

// SplitCalibration is stage k's calibration as the split uses it: its
// fitness sample is that of the first stage searching at the same setting
// (Sample.At). A later stage starts from the vector of the stage before,
// which does not exist yet when the chain calibrates, so its sample plays
// other vectors (SPSA's random θ against its pool's published vectors:
// short games, about a third of the GA's seconds a game at the same depth
// in experiment 21's chain) and would skew the split; at one setting the
// stages' games cost alike, so their forecast games decide. A stage's own
// plan, made when it starts, calibrates on its real start.
func SplitCalibration(cals []*Calibration, k int) *Calibration {
	for j := range k {
		if cals[j].Fitness.At == cals[k].Fitness.At {
			c := *cals[k]
			c.Fitness = cals[j].Fitness
			return &c
		}
	}
	return cals[k]
}
