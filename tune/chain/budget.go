// This file holds a chain's budget by the clock (budget.Chain): the
// first stage's budget (Config.Budget, -hours) covers the whole chain,
// calibrated stage by stage before anything is written and split among
// the stages by their forecast time; a stage takes its share of the
// budget left when it starts.

package chain

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/budget"

	"gonum.org/v1/gonum/floats"
)

// newBudget is the budget of a chain of stages whose first has one: its
// seconds and each stage's forecast games (the weights of the split,
// Split, come with the calibration). Errors: a cluster
// (*tune.InputError), a stage whose method cannot forecast.
func newBudget(stages []tune.Config, opts tune.Options) (*budget.Chain, error) {
	if opts.Remote != nil {
		return nil, &tune.InputError{Err: tune.ErrBudgetCluster}
	}
	first := stages[0]
	secs, err := first.BudgetSeconds()
	if err != nil {
		return nil, err
	}
	cb := &budget.Chain{Budget: first.Budget, Seconds: secs}
	for k, c := range stages {
		spec, err := c.Spec()
		if err != nil {
			return nil, err
		}
		p, ok := c.Plan(nil)
		if !ok {
			return nil, fmt.Errorf("chain: stage %d (%s): no forecast of its games at %d %ss", k+1, c.Method, p.Steps, spec.Unit)
		}
		cb.Games = append(cb.Games, max(p.Games, 1))
	}
	return cb, nil
}

// calibrate calibrates every stage of a new chain with budget cb
// (nothing is written), sets cb's calibration time and split, checks that
// each stage's share holds its fewest steps and its ladder, and logs the
// split. Errors: a calibration's (wrapping ctx's when cancelled), a share
// too short (*tune.ConfigError where the first stage's budget was set).
func calibrate(ctx context.Context, cb *budget.Chain, stages []tune.Config, opts tune.Options) ([]*budget.Calibration, error) {
	t0 := opts.Now()
	cals := make([]*budget.Calibration, len(stages))
	for k, c := range stages {
		logf(opts.Log, "chain: budget %s: calibrating stage %d of %d (%s) on this machine\n", cb.Budget, k+1, len(stages), c.Method)
		var err error
		if cals[k], err = tune.Calibrate(ctx, c, opts); err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("interrupted during the budget's calibration (nothing was written): %w", ctx.Err())
			}
			return nil, fmt.Errorf("chain: stage %d: %w", k+1, err)
		}
		logf(opts.Log, "chain: stage %d calibrated: %s\n", k+1, cals[k].Text())
	}
	cb.Calibration = opts.Now().Sub(t0).Seconds()
	cb.Split = make([]float64, len(stages))
	for k, c := range stages {
		spec, _ := c.Spec()
		p, ok := c.Plan(budget.SplitCalibration(cals, k))
		if !ok {
			return nil, fmt.Errorf("chain: stage %d (%s): no forecast of its time at %d %ss", k+1, c.Method, p.Steps, spec.Unit)
		}
		cb.Split[k] = max(p.End, 1e-3)
	}
	total := floats.Sum(cb.Split)
	left := cb.Seconds - cb.Calibration
	var parts []string
	for k, c := range stages {
		spec, _ := c.Spec()
		share := left * cb.Split[k] / total
		if _, err := c.FitBudget(cals[k], share, 0); err != nil {
			if ts, ok := err.(*budget.TooShort); ok {
				return nil, stages[0].BudgetErrorf("is too short for this chain: stage %d (%s) gets %s of it (its share of the stages' forecast time, %s of %s), and one %s and its ladder take at least %s on this machine",
					k+1, c.Method, budget.Text(share), budget.Text(cb.Split[k]), budget.Text(total), spec.Unit, budget.Text(ts.Least))
			}
			return nil, err
		}
		parts = append(parts, fmt.Sprintf("stage %d (%s) %d games in %s, %s", k+1, c.Method, cb.Games[k], budget.Text(cb.Split[k]), budget.Text(share)))
	}
	logf(opts.Log, "chain: budget %s split by the stages' forecast time at their configured steps: %s (after %s of calibration); a stage takes its share of the budget left when it starts\n",
		cb.Budget, strings.Join(parts, "; "), budget.Text(cb.Calibration))
	return cals, nil
}

// stageShare is stage k's config (from 0) with its share of cb left
// (budget.Chain.Share): the budget less the calibration and the earlier
// stages' elapsed time, times its weight over those of the stages left.
func stageShare(cb *budget.Chain, c tune.Config, dir string, stages []tune.Config, k int, opts tune.Options) (tune.Config, error) {
	spent := cb.Calibration
	for i := range k {
		r, err := tune.ReadRun(tune.StageDir(dir, i+1, stages[i].Method))
		if err != nil {
			return c, &tune.InputError{Err: err}
		}
		if r.Budget != nil {
			spent += r.Budget.Elapsed
		} else {
			spent += r.Status.Seconds
		}
	}
	share, left, fraction := cb.Share(k, spent)
	c = c.WithBudget(max(budget.Duration(share).Round(time.Second), time.Second).String(),
		fmt.Sprintf("stage %d's share of the chain's budget (%s)", k+1, filepath.Join(dir, tune.FileChain)))
	logf(opts.Log, "chain: stage %d of %d (%s) takes %s of the %s budget's %s left (%.0f%% of the stages' forecast left)\n",
		k+1, len(stages), c.Method, budget.Text(share), cb.Budget, budget.Text(left), 100*fraction)
	return c, nil
}
