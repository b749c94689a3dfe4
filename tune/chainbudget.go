// This file holds a chain's budget by the clock: the first stage's budget
// (Config.Budget, -hours) covers the whole chain, calibrated stage by
// stage before anything is written, and split among the stages in
// proportion to each stage's forecast fitness games at its configured
// step budget (the method's own Forecast). A stage takes its share of the
// budget left when it starts, so what an earlier stage left unused (or
// overran) moves to the stages after it.

package tune

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"
)

// chainBudget is a budgeted chain's budget, FileChain's "budget".
type chainBudget struct {
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
	// budget (planSteps at its calibration): the weights of the split. A
	// chain.json written before it splits by Games.
	Split []float64 `json:"split,omitempty"`
	// from is where the budget was set (a new chain's; not stored).
	from budgetSource
}

// text names the budget in a message ("budget \"2h\"", "no budget").
func (cb *chainBudget) text() string {
	if cb == nil {
		return "no budget"
	}
	return fmt.Sprintf("budget %q", cb.Budget)
}

// newChainBudget is the budget of a chain of stages whose first has one:
// its seconds and each stage's forecast games (the weights of the split,
// Split, come with the calibration). Errors: a cluster
// (*InputError), a stage whose method cannot forecast.
func newChainBudget(stages []Config, opts Options) (*chainBudget, error) {
	if opts.Remote != nil {
		return nil, &InputError{ErrBudgetCluster}
	}
	first := stages[0]
	secs, err := first.budgetSeconds()
	if err != nil {
		return nil, err
	}
	cb := &chainBudget{Budget: first.Budget, Seconds: secs, from: first.budgetFrom}
	for k, c := range stages {
		spec, err := c.Spec()
		if err != nil {
			return nil, err
		}
		g, ok := c.forecastGames(spec, c.stepsOf(spec))
		if !ok {
			return nil, fmt.Errorf("chain: stage %d (%s): no forecast of its games at %d %ss", k+1, c.Method, c.stepsOf(spec), spec.Unit)
		}
		cb.Games = append(cb.Games, max(g, 1))
	}
	return cb, nil
}

// calibrate calibrates every stage of a new chain (nothing is written),
// checks that each stage's share holds its fewest steps and its ladder,
// and logs the split. Errors: a calibration's (wrapping ctx's when
// cancelled), a share too short (*ConfigError where the budget was set).
func (cb *chainBudget) calibrate(ctx context.Context, stages []Config, opts Options) ([]*calibration, error) {
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format, args...)
		}
	}
	clock := opts.clock()
	t0 := clock()
	cals := make([]*calibration, len(stages))
	for k, c := range stages {
		spec, err := c.Spec()
		if err != nil {
			return nil, err
		}
		logf("chain: budget %s: calibrating stage %d of %d (%s) on this machine\n", cb.Budget, k+1, len(stages), c.Method)
		if cals[k], err = calibrate(ctx, c, spec, opts); err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("interrupted during the budget's calibration (nothing was written): %w", ctx.Err())
			}
			return nil, fmt.Errorf("chain: stage %d: %w", k+1, err)
		}
		logf("chain: stage %d calibrated: %s\n", k+1, cals[k].text())
	}
	cb.Calibration = clock().Sub(t0).Seconds()
	cb.Split = make([]float64, len(stages))
	for k, c := range stages {
		spec, _ := c.Spec()
		p, ok := c.planSteps(spec, splitCalibration(cals, k), c.stepsOf(spec), 0)
		if !ok {
			return nil, fmt.Errorf("chain: stage %d (%s): no forecast of its time at %d %ss", k+1, c.Method, c.stepsOf(spec), spec.Unit)
		}
		cb.Split[k] = max(p.End, 1e-3)
	}
	total := floats.Sum(cb.Split)
	left := cb.Seconds - cb.Calibration
	var parts []string
	for k, c := range stages {
		spec, _ := c.Spec()
		share := left * cb.Split[k] / total
		if _, err := planBudget(c, spec, cals[k], share, 0); err != nil {
			if ts, ok := err.(*tooShort); ok {
				return nil, cb.from.errorf(stages[0], "is too short for this chain: stage %d (%s) gets %s of it (its share of the stages' forecast time, %s of %s), and one %s and its ladder take at least %s on this machine",
					k+1, c.Method, clockText(share), clockText(cb.Split[k]), clockText(total), spec.Unit, clockText(ts.least))
			}
			return nil, err
		}
		parts = append(parts, fmt.Sprintf("stage %d (%s) %d games in %s, %s", k+1, c.Method, cb.Games[k], clockText(cb.Split[k]), clockText(share)))
	}
	logf("chain: budget %s split by the stages' forecast time at their configured steps: %s (after %s of calibration); a stage takes its share of the budget left when it starts\n",
		cb.Budget, strings.Join(parts, "; "), clockText(cb.Calibration))
	return cals, nil
}

// splitCalibration is stage k's calibration as the split uses it: its
// fitness sample is that of the first stage searching at the same setting
// (sample.At). A later stage starts from the vector of the stage before,
// which does not exist yet when the chain calibrates, so its sample plays
// other vectors (SPSA's random θ against its pool's published vectors:
// short games, about a third of the GA's seconds a game at the same depth
// in experiment 21's chain) and would skew the split; at one setting the
// stages' games cost alike, so their forecast games decide. A stage's own
// plan, made when it starts, calibrates on its real start.
func splitCalibration(cals []*calibration, k int) *calibration {
	for j := range k {
		if cals[j].Fitness.At == cals[k].Fitness.At {
			c := *cals[k]
			c.Fitness = cals[j].Fitness
			return &c
		}
	}
	return cals[k]
}

// weights are the split's weights: Split, or for a chain.json written
// before it, Games.
func (cb *chainBudget) weights() []float64 {
	if len(cb.Split) == len(cb.Games) {
		return cb.Split
	}
	w := make([]float64, len(cb.Games))
	for k, g := range cb.Games {
		w[k] = float64(g)
	}
	return w
}

// stage is stage k's config (from 0) with its share of the budget left:
// the budget less the calibration and the earlier stages' elapsed time,
// times its weight over those of the stages left (weights).
func (cb *chainBudget) stage(c Config, dir string, stages []Config, k int, opts Options) (Config, error) {
	spent := cb.Calibration
	for i := range k {
		r, err := ReadSnapshot(StageDir(dir, i+1, stages[i].Method))
		if err != nil {
			return c, &InputError{err}
		}
		if r.Clock != nil {
			spent += r.Clock.Elapsed
		} else {
			spent += r.Status.Seconds
		}
	}
	w := cb.weights()
	left := max(cb.Seconds-spent, 0)
	share := left * w[k] / floats.Sum(w[k:])
	c.Budget = max(secondsDur(share).Round(time.Second), time.Second).String()
	c.budgetFrom = budgetSource{File: fmt.Sprintf("stage %d's share of the chain's budget (%s)", k+1, filepath.Join(dir, FileChain))}
	if opts.Log != nil {
		fmt.Fprintf(opts.Log, "chain: stage %d of %d (%s) takes %s of the %s budget's %s left (%.0f%% of the stages' forecast left)\n",
			k+1, len(stages), c.Method, clockText(share), cb.Budget, clockText(left), 100*w[k]/floats.Sum(w[k:]))
	}
	return c, nil
}
