// This file holds a tuning budget by the clock (Config.Budget, tune's
// -hours): what a budgeted run records in its checkpoint (budgetState),
// the plan that sizes the method's step budget from a calibration
// (planBudget; the calibration games are in calibrate.go), the clock of
// a running job (budgetRun: the run's own elapsed time, each step's time
// in and out of the referee) and the safety valve that ends the
// optimisation when one more step and the ladder would pass the budget.
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
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/texel"
)

// budgetForm says what the budget key takes.
const budgetForm = `must be a duration in quotes such as "8h", "90m" or "2h30m"`

// budgetMargin is the share of a budget the plan leaves free for what
// the calibration did not foresee (the games' lengths vary with the
// vectors; the safety valve guards the rest).
const budgetMargin = 0.03

// budgetSeconds is the config's budget in seconds, 0 without one.
// Errors name the key.
func (c *Config) budgetSeconds() (float64, error) {
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

// errorf is a *ConfigError about the budget of c where it was set: "flag
// -hours: 0.001 is too short: …", `cfg.toml:3: key "budget": "1s" is too
// short: …`. The message follows the value as the user gave it.
func (s budgetSource) errorf(c Config, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if s.flag() {
		d, _ := time.ParseDuration(c.Budget)
		return &ConfigError{File: s.File, Msg: strconv.FormatFloat(d.Hours(), 'g', 6, 64) + " " + msg}
	}
	return &ConfigError{File: s.File, Line: s.Line, Key: "budget", Msg: strconv.Quote(c.Budget) + " " + msg}
}

// budgetState is what a budgeted run's checkpoint holds of its budget
// (checkpoint.Budget; nil for a run without one).
type budgetState struct {
	// Budget is the budget as given ("2h"; a chain's stage: its share).
	Budget string `json:"budget"`
	// Seconds is the budget in seconds.
	Seconds float64 `json:"seconds"`
	// Key is the step budget it sized ("ga.generations") and Steps the
	// count it resolved to, which config.toml holds.
	Key   string `json:"key"`
	Steps int    `json:"steps"`
	Unit  string `json:"unit"`
	// Elapsed is the run's own time so far, in seconds by the job's
	// clock: the calibration, the steps, the Elo measurements and, once
	// done, the ladder; not the time between a stop and its resume, nor
	// the step in flight when it stopped.
	Elapsed float64 `json:"elapsed"`
	// End is the planned end: when the latest session started, plus the
	// budget left then (wall-clock time, as the job's clock gives it).
	End time.Time `json:"end"`
	// Calibration is what the calibration measured, Plan what it planned.
	Calibration calibration `json:"calibration"`
	Plan        budgetPlan  `json:"plan"`
	// Measured is what the run's steps took, for the safety valve.
	Measured measured `json:"measured"`
	// StoppedAt, when set, is the steps done when the safety valve ended
	// the optimisation ("stopped by the clock at step N").
	StoppedAt *int `json:"stopped_at,omitempty"`
}

// measured is the time the run's steps took, by the job's clock.
type measured struct {
	// Games fitness games took GameSeconds in the referee.
	Games       int     `json:"games"`
	GameSeconds float64 `json:"game_seconds"`
	// OtherSeconds is the time step OtherStep spent outside the referee
	// (Texel's fit; the method's own work).
	OtherSeconds float64 `json:"other_seconds"`
	OtherStep    int     `json:"other_step"`
	// EloSeconds is the time the latest Elo measurement took (0: none
	// yet).
	EloSeconds float64 `json:"elo_seconds,omitempty"`
}

// budgetPlan is what a calibration planned for a budget: the steps, the
// fitness games they forecast, and the seconds of each part.
type budgetPlan struct {
	Steps int `json:"steps"`
	Games int `json:"games"`
	// Tuning is the seconds of the steps: their games and, for Texel,
	// the fits (Fits of them).
	Tuning float64 `json:"tuning"`
	Fits   float64 `json:"fits,omitempty"`
	// Elo is the seconds of the Elo measurements (validation.elo_every),
	// Elos of them.
	Elo  float64 `json:"elo,omitempty"`
	Elos int     `json:"elos,omitempty"`
	// Ladder is the seconds of the verification ladder, LadderGames its
	// games (every rung played out: an SPRT only shortens it).
	Ladder      float64 `json:"ladder"`
	LadderGames int     `json:"ladder_games"`
	// End is the planned seconds from the run's start to its end, the
	// calibration included.
	End float64 `json:"end"`
}

// withSteps is c with its method's step budget set to n, the method's
// options copied so that c's are untouched.
func (c Config) withSteps(spec optimize.Spec, n int) (Config, error) {
	opts := maps.Clone(c.Options)
	if o := c.Options[c.Method]; o != nil {
		p := reflect.New(reflect.TypeOf(o).Elem())
		p.Elem().Set(reflect.ValueOf(o).Elem())
		opts[c.Method] = p.Interface().(optimize.Options)
	}
	c.Options = opts
	return c, c.Set(c.Method+"."+spec.BudgetKey, strconv.Itoa(n))
}

// stepsOf is the config's step budget (its method's budget key,
// optimize.Spec.Budget).
func (c Config) stepsOf(spec optimize.Spec) int { return spec.Budget(c.MethodOptions()) }

// forecastGames is the fitness games the method forecasts for a run of n
// steps (its Forecast at the start, made with a source of its own: the
// run's stream is not touched); ok is false when the method refuses n
// steps.
func (c Config) forecastGames(spec optimize.Spec, n int) (games int, ok bool) {
	t, err := c.withSteps(spec, n)
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
func (c Config) fitSeconds(cal *calibration, r int, roundGames float64) float64 {
	s := c.texelSettings()
	if s == nil {
		return 0
	}
	return cal.FitSecondsPerPosition * cal.PositionsPerGame * roundGames * float64(fitRounds(s, r))
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

// tooShort is the error of a budget that cannot hold the least run.
type tooShort struct{ least float64 }

func (e *tooShort) Error() string { return "too short" }

// planSteps is the plan of a run of n steps of which spent seconds are
// gone: its forecast games (the method's own Forecast of n steps) at the
// calibration's seconds per game, Texel's fits, the Elo measurements and
// the ladder; ok is false when the method refuses n steps.
func (c Config) planSteps(spec optimize.Spec, cal *calibration, n int, spent float64) (budgetPlan, bool) {
	games, ok := c.forecastGames(spec, n)
	if !ok {
		return budgetPlan{}, false
	}
	ladder, ladderGames := cal.ladder(c)
	p := budgetPlan{Steps: n, Games: games, Ladder: ladder, LadderGames: ladderGames, Elos: c.eloCount(n)}
	for r := range n {
		if c.texelSettings() == nil {
			break
		}
		p.Fits += c.fitSeconds(cal, r, float64(games)/float64(n))
	}
	p.Tuning = float64(games)*cal.Fitness.perGame() + p.Fits
	p.Elo = float64(p.Elos) * cal.eloSeconds(c)
	p.End = spent + p.Tuning + p.Elo + p.Ladder
	return p, true
}

// planBudget sizes the step budget for budget seconds of which spent are
// gone (the calibration): the most steps whose plan (planSteps) ends
// within the budget less budgetMargin. Errors: *tooShort with the least
// time a run takes (the fewest steps the method allows and the ladder),
// when even that passes the budget.
func planBudget(c Config, spec optimize.Spec, cal *calibration, budget, spent float64) (budgetPlan, error) {
	plan := func(n int) (budgetPlan, bool) { return c.planSteps(spec, cal, n, spent) }
	// The fewest steps the method takes.
	least, lo := budgetPlan{}, 0
	for n := 1; n <= 1024 && lo == 0; n++ {
		if p, ok := plan(n); ok {
			least, lo = p, n
		}
	}
	if lo == 0 {
		return budgetPlan{}, fmt.Errorf("method %s refuses every step budget from 1 to 1024", c.Method)
	}
	if least.End > budget {
		return budgetPlan{}, &tooShort{least: least.End}
	}
	target := budget * (1 - budgetMargin)
	fits := func(n int) (budgetPlan, bool) {
		p, ok := plan(n)
		return p, ok && p.End <= target
	}
	best := least
	// Doubling, then halving: the last budget that fits.
	hi := lo
	for hi < 1<<26 {
		p, ok := fits(2 * hi)
		if !ok {
			break
		}
		best, hi = p, 2*hi
	}
	for step := hi / 2; step >= 1; step /= 2 {
		if p, ok := fits(best.Steps + step); ok {
			best = p
		}
	}
	return best, nil
}

// clock returns the job's clock (Options.Clock, time.Now when nil).
func (o Options) clock() func() time.Time {
	if o.Clock != nil {
		return o.Clock
	}
	return time.Now
}

// budgetRun is the clock of a budgeted job: the run's elapsed time and
// what the step in flight takes in and out of the referee.
type budgetRun struct {
	clock func() time.Time
	base  float64   // the run's elapsed seconds before this session
	since time.Time // this session's start

	mu         sync.Mutex
	stepStart  time.Time
	refSeconds float64 // in the referee during the step in flight
	// the step just played: its seconds outside the referee, and its
	// time in the referee
	other, inRef float64
	// stopping is set while the step the valve ends the optimisation
	// after is recorded.
	stopping bool
}

// elapsed is the run's own elapsed seconds now.
func (b *budgetRun) elapsed() float64 { return b.base + b.clock().Sub(b.since).Seconds() }

// beginStep and endStep time a step of the method.
func (b *budgetRun) beginStep() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stepStart, b.refSeconds = b.clock(), 0
}

func (b *budgetRun) endStep() {
	b.mu.Lock()
	defer b.mu.Unlock()
	total := b.clock().Sub(b.stepStart).Seconds()
	b.inRef, b.other = b.refSeconds, max(total-b.refSeconds, 0)
}

// timed runs f and adds its time to the referee's time of the step.
func (b *budgetRun) timed(f func()) {
	start := b.clock()
	f()
	d := b.clock().Sub(start).Seconds()
	b.mu.Lock()
	b.refSeconds += d
	b.mu.Unlock()
}

// timedReferee times a job's referee for its budget; timedSampler is one
// that samples positions (Texel).
type timedReferee struct {
	optimize.Referee
	b *budgetRun
}

func (t *timedReferee) Play(ctx context.Context, seed uint64, ms []optimize.Match) (out []optimize.Outcome, err error) {
	t.b.timed(func() { out, err = t.Referee.Play(ctx, seed, ms) })
	return out, err
}

// Close closes the referee it times, if it closes.
func (t *timedReferee) Close() error {
	if c, ok := t.Referee.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

type timedSampler struct {
	timedReferee
	smp optimize.Sampler
}

func (t *timedSampler) Sample(ctx context.Context, seed uint64, ms []optimize.Match) (out []optimize.Outcome, pos []optimize.Position, err error) {
	t.b.timed(func() { out, pos, err = t.smp.Sample(ctx, seed, ms) })
	return out, pos, err
}

// watchClock starts the job's budget clock for this session at since
// (the checkpoint's Budget set), its referee timed, and sets the planned
// end: since plus the budget left.
func (j *Job) watchClock(since time.Time) {
	bs := j.cp.Budget
	j.bud = &budgetRun{clock: j.opts.clock(), base: bs.Elapsed, since: since}
	if smp, ok := j.ref.(optimize.Sampler); ok {
		j.ref = &timedSampler{timedReferee{smp, j.bud}, smp}
	} else {
		j.ref = &timedReferee{j.ref, j.bud}
	}
	b := *bs
	b.End = since.Add(secondsDur(bs.Seconds - bs.Elapsed))
	j.cp.Budget = &b
}

// stampBudget sets the checkpoint's elapsed time to now's (before it is
// written).
func (j *Job) stampBudget() {
	if j.bud == nil || j.cp.Budget == nil {
		return
	}
	b := *j.cp.Budget
	b.Elapsed = j.bud.elapsed()
	j.cp.Budget = &b
}

// clockStopped reports whether the safety valve ended the optimisation.
func (j *Job) clockStopped() bool { return j.cp.Budget != nil && j.cp.Budget.StoppedAt != nil }

// perGame is the seconds a fitness game takes: as the run's steps
// measured, else as the calibration did.
func (bs *budgetState) perGame() float64 {
	if bs.Measured.Games > 0 {
		return bs.Measured.GameSeconds / float64(bs.Measured.Games)
	}
	return bs.Calibration.Fitness.perGame()
}

// ladderSeconds is the ladder's estimate, made longer when the run's
// games have been slower than the calibration's (a machine loaded since).
func (bs *budgetState) ladderSeconds() float64 {
	slow := 1.0
	if cal := bs.Calibration.Fitness.perGame(); cal > 0 && bs.Measured.Games > 0 {
		slow = max(bs.perGame()/cal, 1)
	}
	return bs.Plan.Ladder * slow
}

// nextStep is the seconds the next step (step k, from 0) takes: its games
// at the measured seconds per game and the time it spends outside the
// referee, as the latest step measured it (grown as Texel's fit grows
// with its window), else as planned.
func (j *Job) nextStep(bs *budgetState, k int, f optimize.Forecast) float64 {
	t := float64(f.NextGames) * bs.perGame()
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
func (j *Job) eloSeconds(bs *budgetState) float64 {
	if j.cfg.Validation.EloEvery <= 0 {
		return 0
	}
	if bs.Measured.EloSeconds > 0 {
		return bs.Measured.EloSeconds
	}
	return bs.Calibration.eloSeconds(j.cfg)
}

// overrun is the safety valve, asked after a step with bs (the
// measurements of that step folded in) and the method's forecast after
// it: whether one more step, its Elo measurement (and this one's, when
// due: eloNow), and the ladder would end past the budget. end is that
// projected end, in seconds of the run.
func (j *Job) overrun(bs *budgetState, f optimize.Forecast, steps int, eloNow bool) (over bool, end float64) {
	if f.Steps == 0 {
		return false, 0
	}
	end = j.bud.elapsed() + j.nextStep(bs, steps, f) + bs.ladderSeconds()
	if elo := j.eloSeconds(bs); elo > 0 {
		end += elo
		if eloNow {
			end += elo
		}
	}
	return end > bs.Seconds, end
}

// measure folds the step just played (rec, of the status st after it)
// into bs.
func (j *Job) measure(bs *budgetState, rec optimize.Record) {
	j.bud.mu.Lock()
	defer j.bud.mu.Unlock()
	bs.Measured.Games += rec.Games
	bs.Measured.GameSeconds += j.bud.inRef
	bs.Measured.OtherSeconds, bs.Measured.OtherStep = j.bud.other, rec.Step
}

// stopByClock records in bs that the optimisation ends after steps
// steps, and returns the safety valve's line for the log; end is the
// projected end that passed the budget.
func (j *Job) stopByClock(bs *budgetState, steps int, end float64) string {
	n := steps
	bs.StoppedAt = &n
	return clockLine(j.spec.Unit, steps, bs.Steps, fmt.Sprintf("one more %s and the ladder would end %s into the %s budget", j.spec.Unit, clockText(end), bs.Budget))
}

// usedLine is a budgeted run's last line: the time it used of its budget,
// and whether the clock stopped it.
func (bs *budgetState) usedLine() string {
	s := fmt.Sprintf("by the clock: %s of the %s budget (calibration %s, planned %s)", clockText(bs.Elapsed), bs.Budget, clockText(bs.Calibration.Seconds), clockText(bs.Plan.End))
	if bs.StoppedAt != nil {
		s += "; " + clockLine(bs.Unit, *bs.StoppedAt, bs.Steps, "")
	}
	return s
}

// clockLine is the log's and report's line of a run stopped by the
// clock: "stopped by the clock at generation 17 (of 37 planned): …".
func clockLine(unit string, steps, planned int, why string) string {
	s := fmt.Sprintf("stopped by the clock at %s %d (of %d planned)", unit, steps, planned)
	if why != "" {
		s += ": " + why
	}
	return s
}

// secondsDur is a number of seconds as a Duration.
func secondsDur(s float64) time.Duration {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

// clockText is a number of seconds in whole seconds (1h12m0s → "1h12m").
func clockText(s float64) string {
	d := secondsDur(s).Round(time.Second)
	if d < time.Second && d > -time.Second {
		return "0s"
	}
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
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
func resolveBudget(ctx context.Context, cfg Config, opts Options, cal *calibration) (Config, *budgetState, time.Time, error) {
	fail := func(err error) (Config, *budgetState, time.Time, error) { return Config{}, nil, time.Time{}, err }
	if opts.Remote != nil {
		return fail(&InputError{ErrBudgetCluster})
	}
	spec, err := cfg.Spec()
	if err != nil {
		return fail(err)
	}
	seconds, err := cfg.budgetSeconds()
	if err != nil {
		return fail(err)
	}
	logf := func(format string, args ...any) {
		if opts.Log != nil {
			fmt.Fprintf(opts.Log, format, args...)
		}
	}
	clock := opts.clock()
	since := clock()
	if cal == nil {
		logf("budget %s: calibrating on this machine (a few seconds of sample games at the tuning and ladder settings)\n", cfg.Budget)
		if cal, err = calibrate(ctx, cfg, spec, opts); err != nil {
			if ctx.Err() != nil {
				return fail(fmt.Errorf("interrupted during the budget's calibration (nothing was written): %w", ctx.Err()))
			}
			return fail(err)
		}
		logf("budget %s: calibrated in %s: %s\n", cfg.Budget, clockText(cal.Seconds), cal.text())
	}
	spent := clock().Sub(since).Seconds()
	plan, err := planBudget(cfg, spec, cal, seconds, spent)
	var ts *tooShort
	if errors.As(err, &ts) {
		return fail(cfg.budgetFrom.errorf(cfg, "is too short: one %s and the ladder take at least %s on this machine (the calibration's %s included)",
			spec.Unit, clockText(ts.least), clockText(spent)))
	}
	if err != nil {
		return fail(err)
	}
	resolved, err := cfg.withSteps(spec, plan.Steps)
	if err != nil {
		return fail(err)
	}
	resolved.Budget, resolved.budgetFrom = "", budgetSource{}
	if err := resolved.Validate(); err != nil {
		return fail(err)
	}
	bs := &budgetState{Budget: cfg.Budget, Seconds: seconds, Key: cfg.Method + "." + spec.BudgetKey, Steps: plan.Steps,
		Unit: spec.Unit, Calibration: *cal, Plan: plan}
	elo := ""
	if plan.Elos > 0 {
		elo = fmt.Sprintf(", %d Elo measurements (about %s)", plan.Elos, clockText(plan.Elo))
	}
	fits := ""
	if plan.Fits > 0 {
		fits = fmt.Sprintf(", %s of it fits", clockText(plan.Fits))
	}
	logf("budget %s: %s = %d (%d fitness games, about %s%s)%s, the ladder (%d games, about %s): planned to end %s after the start; the budget ends at %s\n",
		cfg.Budget, bs.Key, plan.Steps, plan.Games, clockText(plan.Tuning), fits, elo, plan.LadderGames, clockText(plan.Ladder),
		clockText(plan.End), progress.TimeOfDay(since.Add(secondsDur(seconds)), since))
	return resolved, bs, since, nil
}
