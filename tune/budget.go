// This file holds the job's side of a tuning budget by the clock
// (Config.Budget, tune's -hours; the figures and their arithmetic are
// package tune/budget's): the plan that sizes the method's step budget
// from the config and a calibration (planSteps, FitBudget; the
// calibration games are in calibrate.go), and the safety valve that ends
// the optimisation when one more step and the ladder would pass the
// budget (overrun).
//
// The resolved step count goes into the run's config.toml, which holds no
// budget: the run is the run of that config, reproducible from it. The
// budget, the calibration and the measurements go into checkpoint.json,
// beside the driver's status: they are this machine's figures and change
// as the run goes on, so a resume (which refuses a changed config) keeps
// the steps and the clock guards the deadline. The safety valve is the
// one place where the machine's speed changes a run's results.

package tune

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/tune/budget"

	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/texel"
)

// budgetForm says what the budget key takes.
const budgetForm = `must be a duration in quotes such as "8h", "90m" or "2h30m"`

// BudgetSeconds is the config's budget (Budget) in seconds, 0 without
// one. Errors: a *ConfigError naming the key, for a budget that is not a
// positive duration.
func (c *Config) BudgetSeconds() (float64, error) {
	if c.Budget == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(c.Budget)
	if err != nil {
		return 0, bad("budget", "%s, not %q", budgetForm, c.Budget)
	}
	if d <= 0 {
		return 0, bad("budget", "must be more than 0, not %q", c.Budget)
	}
	return d.Seconds(), nil
}

// budgetSource is where a config's budget was set: a file and line, or a
// flag ("flag -hours").
type budgetSource struct {
	File string
	Line int
}

func (s budgetSource) flag() bool { return strings.HasPrefix(s.File, "flag -") }

// describe names the budget in a message: "flag -hours", or
// `budget = "8h" (cfg.toml:3)`.
func (s budgetSource) describe(budget string) string {
	if s.flag() {
		return s.File
	}
	where := s.File
	if s.Line > 0 {
		where += fmt.Sprintf(":%d", s.Line)
	}
	if where == "" {
		return fmt.Sprintf("budget = %q", budget)
	}
	return fmt.Sprintf("budget = %q (%s)", budget, where)
}

// BudgetErrorf is a *ConfigError about c's budget (Budget) where it was
// set, the message (format and args, as fmt.Sprintf) following the value
// as the user gave it: "flag -hours: 0.001 is too short: …" (the flag's
// hours), `cfg.toml:3: key "budget": "1s" is too short: …`, or, for a
// budget set by WithBudget, its source.
func (c Config) BudgetErrorf(format string, args ...any) error {
	s := c.budgetFrom
	msg := fmt.Sprintf(format, args...)
	if s.flag() {
		d, _ := time.ParseDuration(c.Budget)
		return &ConfigError{File: s.File, Msg: strconv.FormatFloat(d.Hours(), 'g', 6, 64) + " " + msg}
	}
	return &ConfigError{File: s.File, Line: s.Line, Key: "budget", Msg: strconv.Quote(c.Budget) + " " + msg}
}

// WithBudget is c with the budget b (a duration such as "2h"; "" for
// none) in place of its own, set by source: where the budget came from,
// as BudgetErrorf names it ("stage 2's share of the chain's budget
// (night/chain.json)"; "" with b "").
func (c Config) WithBudget(b, source string) Config {
	c.Budget, c.budgetFrom = b, budgetSource{File: source}
	return c
}

// WithSteps is c with its method's step budget (the Spec's BudgetKey,
// e.g. spsa.iterations) set to n, the method's options copied so that
// c's are untouched. Errors: an unknown method, a step count the key
// refuses (*ConfigError).
func (c Config) WithSteps(n int) (Config, error) {
	spec, err := c.Spec()
	if err != nil {
		return c, err
	}
	opts := maps.Clone(c.Options)
	if o := c.Options[c.Method]; o != nil {
		p := reflect.New(reflect.TypeOf(o).Elem())
		p.Elem().Set(reflect.ValueOf(o).Elem())
		opts[c.Method] = p.Interface().(optimize.Options)
	}
	c.Options = opts
	return c, c.Set(c.Method+"."+spec.BudgetKey, strconv.Itoa(n))
}

// Steps is the config's step budget: its method's budget key
// (optimize.Spec.Budget), e.g. ga.generations; 0 for an unknown method.
func (c Config) Steps() int {
	spec, err := c.Spec()
	if err != nil {
		return 0
	}
	return spec.Budget(c.MethodOptions())
}

// forecastGames is the fitness games the method forecasts for a run of n
// steps (its Forecast at the start, made with a source of its own: the
// run's stream is not touched); ok is false when the method refuses n
// steps.
func (c Config) forecastGames(spec optimize.Spec, n int) (games int, ok bool) {
	t, err := c.WithSteps(n)
	if err != nil {
		return 0, false
	}
	m, err := t.newMethod(spec, rand.NewPCG(uint64(c.Seed), calibrationSeed))
	if err != nil {
		return 0, false
	}
	return m.Forecast().Games, true
}

// texelSettings are the Texel options of a Texel run, nil for another
// method.
func (c Config) texelSettings() *texel.Settings {
	s, _ := c.MethodOptions().(*texel.Settings)
	if c.Method != "texel" {
		return nil
	}
	return s
}

// fitRounds is the rounds whose positions Texel's fit of round r (from 0)
// uses: r+1, at most the window.
func fitRounds(s *texel.Settings, r int) int {
	if s.Window > 0 {
		return min(r+1, s.Window)
	}
	return r + 1
}

// fitSeconds is the estimated seconds of Texel's fit in round r, for
// rounds of roundGames games: the calibration's seconds per training
// position times the training positions of the rounds the fit uses. 0
// for another method (its work outside the games is measured, not
// planned).
func (c Config) fitSeconds(cal *budget.Calibration, r int, roundGames float64) float64 {
	s := c.texelSettings()
	if s == nil {
		return 0
	}
	return cal.FitSeconds(roundGames * float64(fitRounds(s, r)))
}

// eloCount is the Elo measurements of a run of n steps: after steps K−1,
// 2K−1, … and after the last.
func (c Config) eloCount(n int) int {
	k := c.Validation.EloEvery
	if k <= 0 {
		return 0
	}
	return (n + k - 1) / k
}

// planSteps is the plan of a run of n steps of which spent seconds are
// gone: its forecast games (the method's own Forecast of n steps) at the
// calibration's seconds per game, Texel's fits, the Elo measurements and
// the ladder; ok is false when the method refuses n steps.
func (c Config) planSteps(spec optimize.Spec, cal *budget.Calibration, n int, spent float64) (budget.Plan, bool) {
	games, ok := c.forecastGames(spec, n)
	if !ok {
		return budget.Plan{}, false
	}
	ladder, ladderGames := c.ladderTime(cal)
	p := budget.Plan{Steps: n, Games: games, Ladder: ladder, LadderGames: ladderGames, Elos: c.eloCount(n)}
	for r := range n {
		if c.texelSettings() == nil {
			break
		}
		p.Fits += c.fitSeconds(cal, r, float64(games)/float64(n))
	}
	p.Tuning = float64(games)*cal.Fitness.PerGame() + p.Fits
	p.Elo = float64(p.Elos) * c.calEloSeconds(cal)
	p.End = spent + p.Tuning + p.Elo + p.Ladder
	return p, true
}

// Plan is the plan of a run of c at its configured steps (Steps) from its
// start: the fitness games its method forecasts (Games) and, timed at
// cal's seconds per game, its Texel fits, Elo measurements and ladder, and
// its End in seconds. With cal nil it holds Steps and Games only. ok is
// false when the method refuses the steps (Steps is still set).
func (c Config) Plan(cal *budget.Calibration) (p budget.Plan, ok bool) {
	spec, err := c.Spec()
	if err != nil {
		return budget.Plan{}, false
	}
	n := c.Steps()
	if cal == nil {
		p.Steps = n
		p.Games, ok = c.forecastGames(spec, n)
		return p, ok
	}
	if p, ok = c.planSteps(spec, cal, n, 0); !ok {
		p.Steps = n
	}
	return p, ok
}

// FitBudget sizes c's step budget for seconds of budget of which spent
// are gone (a calibration's), at cal's seconds per game: the plan of the
// most steps whose End (planSteps) is within the budget less
// budget.Margin (budget.Fit). Errors: a *budget.TooShort with the least
// time a run takes (the fewest steps the method allows and the ladder),
// when even that passes the budget; a method that refuses every step
// count.
func (c Config) FitBudget(cal *budget.Calibration, seconds, spent float64) (budget.Plan, error) {
	spec, err := c.Spec()
	if err != nil {
		return budget.Plan{}, err
	}
	p, err := budget.Fit(func(n int) (budget.Plan, bool) { return c.planSteps(spec, cal, n, spent) }, seconds)
	if errors.Is(err, budget.ErrRefused) {
		return p, fmt.Errorf("method %s refuses every step budget from 1 to 1024", c.Method)
	}
	return p, err
}

// Now is the time on the job's clock: Options.Clock's, time.Now's when
// it is nil.
func (o Options) Now() time.Time {
	if o.Clock != nil {
		return o.Clock()
	}
	return time.Now()
}

// watchClock starts the job's budget clock for this session at since
// (the checkpoint's Budget set), its referee timed, and sets the planned
// end: since plus the budget left.
func (j *Job) watchClock(since time.Time) {
	bs := j.cp.Budget
	j.bud = budget.NewClock(j.opts.Now, bs.Elapsed, since)
	j.ref = budget.Timed(j.ref, j.bud)
	b := *bs
	b.End = since.Add(budget.Duration(bs.Seconds - bs.Elapsed))
	j.cp.Budget = &b
}

// stampBudget sets the checkpoint's elapsed time to now's (before it is
// written).
func (j *Job) stampBudget() {
	if j.bud == nil || j.cp.Budget == nil {
		return
	}
	b := *j.cp.Budget
	b.Elapsed = j.bud.Elapsed()
	j.cp.Budget = &b
}

// clockStopped reports whether the safety valve ended the optimisation.
func (j *Job) clockStopped() bool { return j.cp.Budget != nil && j.cp.Budget.StoppedAt != nil }

// nextStep is the seconds the next step (step k, from 0) takes: its games
// at the measured seconds per game and the time it spends outside the
// referee, as the latest step measured it (grown as Texel's fit grows
// with its window), else as planned.
func (j *Job) nextStep(bs *budget.State, k int, f optimize.Forecast) float64 {
	t := float64(f.NextGames) * bs.PerGame()
	s := j.cfg.texelSettings()
	switch {
	case bs.Measured.Games > 0 && s != nil:
		t += bs.Measured.OtherSeconds * float64(fitRounds(s, k)) / float64(fitRounds(s, bs.Measured.OtherStep))
	case bs.Measured.Games > 0:
		t += bs.Measured.OtherSeconds
	default:
		t += j.cfg.fitSeconds(&bs.Calibration, k, float64(f.NextGames))
	}
	return t
}

// eloSeconds is one Elo measurement's seconds, as measured or calibrated
// (0 without elo_every).
func (j *Job) eloSeconds(bs *budget.State) float64 {
	if j.cfg.Validation.EloEvery <= 0 {
		return 0
	}
	return bs.EloSeconds(j.cfg.Validation.EloPairs)
}

// overrun is the safety valve, asked after a step with bs (the
// measurements of that step folded in) and the method's forecast after
// it: whether one more step, its Elo measurement (and this one's, when
// due: eloNow), and the ladder would end past the budget. end is that
// projected end, in seconds of the run.
func (j *Job) overrun(bs *budget.State, f optimize.Forecast, steps int, eloNow bool) (over bool, end float64) {
	if f.Steps == 0 {
		return false, 0
	}
	end = j.bud.Elapsed() + j.nextStep(bs, steps, f) + bs.LadderSeconds()
	if elo := j.eloSeconds(bs); elo > 0 {
		end += elo
		if eloNow {
			end += elo
		}
	}
	return end > bs.Seconds, end
}

// measure folds the step just played (rec) into bs.
func (j *Job) measure(bs *budget.State, rec optimize.Record) {
	j.bud.Fold(&bs.Measured, rec.Games, rec.Step)
}

// ErrBudgetCluster refuses a budget with games played elsewhere (a
// cluster: Options.Remote, tune's -listen and -nats).
var ErrBudgetCluster = errors.New("a budget by the clock (budget, -hours) is calibrated on this machine and cannot be combined with a cluster (-listen, -nats): give the run a step budget instead")

// resolveBudget calibrates cfg (validated, with a budget) on this machine
// (cal, when not nil: a chain's calibration at its start, whose time the
// chain counts) and sizes its step budget: it returns the resolved config
// (the steps set, no budget), the budget state its checkpoint starts with
// and when its clock started. Nothing is written. Errors: a cluster
// (*InputError), the calibration's (wrapping ctx's when cancelled), a
// budget too short (*ConfigError where the budget was set, naming the
// least time measured).
func resolveBudget(ctx context.Context, cfg Config, opts Options, cal *budget.Calibration) (Config, *budget.State, time.Time, error) {
	fail := func(err error) (Config, *budget.State, time.Time, error) { return Config{}, nil, time.Time{}, err }
	if opts.Remote != nil {
		return fail(&InputError{ErrBudgetCluster})
	}
	spec, err := cfg.Spec()
	if err != nil {
		return fail(err)
	}
	seconds, err := cfg.BudgetSeconds()
	if err != nil {
		return fail(err)
	}
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format, args...)
		}
	}
	since := opts.Now()
	if cal == nil {
		logf("budget %s: calibrating on this machine (a few seconds of sample games at the tuning and ladder settings)\n", cfg.Budget)
		if cal, err = Calibrate(ctx, cfg, opts); err != nil {
			if ctx.Err() != nil {
				return fail(fmt.Errorf("interrupted during the budget's calibration (nothing was written): %w", ctx.Err()))
			}
			return fail(err)
		}
		logf("budget %s: calibrated in %s: %s\n", cfg.Budget, budget.Text(cal.Seconds), cal.Text())
	}
	spent := opts.Now().Sub(since).Seconds()
	plan, err := cfg.FitBudget(cal, seconds, spent)
	var ts *budget.TooShort
	if errors.As(err, &ts) {
		return fail(cfg.BudgetErrorf("is too short: one %s and the ladder take at least %s on this machine (the calibration's %s included)",
			spec.Unit, budget.Text(ts.Least), budget.Text(spent)))
	}
	if err != nil {
		return fail(err)
	}
	resolved, err := cfg.WithSteps(plan.Steps)
	if err != nil {
		return fail(err)
	}
	resolved = resolved.WithBudget("", "")
	if err := resolved.Validate(); err != nil {
		return fail(err)
	}
	bs := &budget.State{Budget: cfg.Budget, Seconds: seconds, Key: cfg.Method + "." + spec.BudgetKey, Steps: plan.Steps,
		Unit: spec.Unit, Calibration: *cal, Plan: plan}
	elo := ""
	if plan.Elos > 0 {
		elo = fmt.Sprintf(", %d Elo measurements (about %s)", plan.Elos, budget.Text(plan.Elo))
	}
	fits := ""
	if plan.Fits > 0 {
		fits = fmt.Sprintf(", %s of it fits", budget.Text(plan.Fits))
	}
	logf("budget %s: %s = %d (%d fitness games, about %s%s)%s, the ladder (%d games, about %s): planned to end %s after the start; the budget ends at %s\n",
		cfg.Budget, bs.Key, plan.Steps, plan.Games, budget.Text(plan.Tuning), fits, elo, plan.LadderGames, budget.Text(plan.Ladder),
		budget.Text(plan.End), progress.TimeOfDay(since.Add(budget.Duration(seconds)), since))
	return resolved, bs, since, nil
}
