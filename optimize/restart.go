package optimize

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
)

// RestartOptions turn one run of a population method into a schedule of
// sub-runs, against the two things that keep a noisy run from turning its
// budget into strength:
//
//   - a bad basin: Starts independent starts share the first part of the
//     budget and race for the lead (multi-start with racing, as IPOP- and
//     BIPOP-CMA-ES restart against bad basins, Auger & Hansen 2005, Hansen
//     2009, and as irace decides among noisy candidates by a race rather
//     than by one sample);
//   - precision that stays put: each of the Phases refinement phases after
//     the starts is warm-started from the lead and plays Growth times the
//     game pairs per match of the one before, so that comparisons get
//     sharper as the candidates get closer (SPSA's shrinking gains,
//     fishtest; UH-CMA-ES's growing evaluations, Hansen et al. 2009).
//
// The answer is the winner of a final race among every sub-run's answer,
// so a run never returns a vector that loses that race. They are keys of
// a population method's table ([ga], [pso], [cmaes]); the zero value is
// one plain run, exactly as without them.
type RestartOptions struct {
	// Starts is the number of independent starts of the first phase, each
	// from its own draw of the initial population; 0 or 1 = one.
	Starts int `toml:"starts" json:"starts,omitempty"`
	// StartShare is the share of the step budget the starts take together,
	// in (0, 1); 0 = DefaultStartShare. Without refinement phases the starts
	// take the whole budget.
	StartShare float64 `toml:"start_share" json:"start_share,omitempty"`
	// Phases is the number of refinement phases after the starts.
	Phases int `toml:"phases" json:"phases,omitempty"`
	// Growth is the factor of game pairs per match from one phase to the
	// next (the starts play the problem's pairs; phase p plays Growth^p
	// times them); 0 = 2. Each phase gets an equal share of the games left
	// after the starts, so its steps shrink as its matches grow.
	Growth int `toml:"precision_growth" json:"precision_growth,omitempty"`
	// HallOfFame, with refinement phases, adds every earlier sub-run's
	// answer to a phase's pool (a hall of fame: Rosin & Belew 1997), so
	// that its candidates are judged against the other basins' answers
	// too, not only against their own population.
	HallOfFame bool `toml:"hall_of_fame" json:"hall_of_fame,omitempty"`
}

// DefaultStartShare is the share of the budget the starts take when
// refinement phases follow and StartShare is 0.
const DefaultStartShare = 0.5

// Restart returns the options (promoted to every method settings type
// that embeds NoiseOptions, which Spec's New, Restore, Validate and
// Describe read).
func (o RestartOptions) Restart() RestartOptions { return o }

// On reports whether the options ask for more than one plain run.
func (o RestartOptions) On() bool { return o.Starts > 1 || o.Phases > 0 }

func (o RestartOptions) starts() int { return max(o.Starts, 1) }

func (o RestartOptions) growth() int {
	if o.Growth == 0 {
		return 2
	}
	return o.Growth
}

func (o RestartOptions) share() float64 {
	switch {
	case o.Phases == 0:
		return 1
	case o.StartShare == 0:
		return DefaultStartShare
	}
	return o.StartShare
}

// SubRun is one sub-run of a restart schedule.
type SubRun struct {
	// Phase is 0 for the starts, p ≥ 1 for the p-th refinement phase.
	Phase int `json:"phase"`
	// Steps is the sub-run's step budget (its method's budget key).
	Steps int `json:"steps"`
	// Repeats is the factor of game pairs per match (Growth^Phase).
	Repeats int `json:"repeats"`
}

// Schedule is the sub-runs of a budget of steps steps under o: Starts
// starts of StartShare·steps/Starts steps each at the problem's pairs,
// then Phases phases, phase p of (1−StartShare)·steps/(Phases·Growth^p)
// steps at Growth^p times the pairs (each phase so plays about the same
// games). Every sub-run has at least one step.
func (o RestartOptions) Schedule(steps int) []SubRun {
	var out []SubRun
	k := o.starts()
	s0 := max(int(math.Round(o.share()*float64(steps)/float64(k))), 1)
	for range k {
		out = append(out, SubRun{Phase: 0, Steps: s0, Repeats: 1})
	}
	r := 1
	for p := 1; p <= o.Phases; p++ {
		r *= o.growth()
		s := max(int(math.Round((1-o.share())*float64(steps)/float64(o.Phases*r))), 1)
		out = append(out, SubRun{Phase: p, Steps: s, Repeats: r})
	}
	return out
}

// validate checks the options for a budget of steps steps; errors are
// *OptionError naming the key.
func (o RestartOptions) validate(steps int, budgetKey string) error {
	bad := BadOption
	switch {
	case o.Starts < 0:
		return bad("starts", "must be 0 or more (0 or 1 = one start), not %d", o.Starts)
	case o.Phases < 0:
		return bad("phases", "must be 0 or more (0 = no refinement phase), not %d", o.Phases)
	case o.Phases > 8:
		return bad("phases", "must be at most 8 (phase p plays growth^p times the pairs), not %d", o.Phases)
	case o.Growth != 0 && (o.Growth < 2 || o.Growth > 8):
		return bad("precision_growth", "must be 2..8 (0 = 2), not %d", o.Growth)
	case o.StartShare != 0 && !(o.StartShare > 0 && o.StartShare < 1):
		return bad("start_share", "must be in (0, 1) (0 = %g), not %g", DefaultStartShare, o.StartShare)
	case o.StartShare != 0 && o.Phases == 0:
		return bad("start_share", "needs phases ≥ 1: without refinement phases the starts take the whole budget")
	case o.HallOfFame && o.Phases == 0:
		return bad("hall_of_fame", "needs phases ≥ 1: the hall of fame joins the refinement phases' pool")
	}
	if !o.On() {
		return nil
	}
	if need := o.starts() + o.Phases; steps < need {
		return bad(budgetKey, "%d cannot feed %d start(s) and %d phase(s) of at least one step each", steps, o.starts(), o.Phases)
	}
	return nil
}

// restartOptioner is implemented by method settings that embed
// NoiseOptions.
type restartOptioner interface{ Restart() RestartOptions }

// restartsOf returns the restart options of a method's settings, if it
// has any.
func restartsOf(v any) (RestartOptions, bool) {
	r, ok := v.(restartOptioner)
	if !ok || r == nil || (reflect.ValueOf(v).Kind() == reflect.Pointer && reflect.ValueOf(v).IsNil()) {
		return RestartOptions{}, false
	}
	return r.Restart(), true
}

// restartOptions are the restart options o sets, and whether it sets
// any: options that embed NoiseOptions may ask for a run made of
// sub-runs (RestartOptions.On). Spec's Validate then also checks the
// restart keys, New and Restore build a restart schedule (see
// RestartOptions) whose sub-runs are the options' own methods, Describe
// adds the schedule. Options without restarts are run exactly as
// without, so plain runs, their records and their checkpoints are
// unchanged. The method's step budget must lie under the toml key
// s.BudgetKey.
func (s Spec) restartOptions(o Options) (RestartOptions, bool) {
	ro, ok := restartsOf(o)
	return ro, ok && ro != (RestartOptions{})
}

// Validate checks o against p (Options.Validate) and, for a Spec with
// restarts, the restart keys and every sub-run's options; errors are
// *OptionError naming the key.
func (s Spec) Validate(o Options, p Problem) error {
	if o == nil {
		return fmt.Errorf("%s: no options", s.Name)
	}
	if err := o.Validate(p); err != nil {
		return err
	}
	ro, ok := s.restartOptions(o)
	if !ok {
		return nil
	}
	steps, err := budgetOf(o, s.BudgetKey)
	if err != nil {
		return err
	}
	if err := ro.validate(steps, s.BudgetKey); err != nil {
		return err
	}
	if !ro.On() {
		return nil
	}
	return checkSubRuns(s, o, p, ro, steps)
}

// schedule checks the restart keys of o, when it sets any, and returns
// the schedule's Restarts (nil for one plain run).
func (s Spec) schedule(o Options, p Problem) (*Restarts, error) {
	ro, ok := s.restartOptions(o)
	if !ok {
		return nil, nil
	}
	if err := s.Validate(o, p); err != nil {
		return nil, err
	}
	if !ro.On() {
		return nil, nil
	}
	return newRestarts(s, o, p, ro)
}

// New starts a run of o on p drawing from rng: o's own method
// (Options.New), or a restart schedule of them when o asks for one.
func (s Spec) New(o Options, p Problem, rng *rand.PCG) (Method, error) {
	return s.open(o, p, func() (Method, error) { return o.New(p, rng) }, func(r *Restarts) error {
		if rng == nil {
			return errors.New(s.Name + ": nil *rand.PCG")
		}
		r.pcg = rng
		return nil
	})
}

// Restore continues a run of o on p from its checkpointed state (the
// method's MarshalState output), as New would have started it.
func (s Spec) Restore(o Options, p Problem, state []byte) (Method, error) {
	return s.open(o, p, func() (Method, error) { return o.Restore(p, state) }, func(r *Restarts) error {
		if err := r.restore(state); err != nil {
			return fmt.Errorf("%s: RestartState: %w", s.Name, err)
		}
		return nil
	})
}

// open is New and Restore: plain makes o's own method when o asks for no
// restarts, else sched sets up the schedule's Restarts (its source, or
// its state).
func (s Spec) open(o Options, p Problem, plain func() (Method, error), sched func(*Restarts) error) (Method, error) {
	if o == nil {
		return nil, fmt.Errorf("%s: no options", s.Name)
	}
	r, err := s.schedule(o, p)
	switch {
	case err != nil:
		return nil, err
	case r == nil:
		return plain()
	}
	if err := sched(r); err != nil {
		return nil, err
	}
	return r, nil
}

// Describe is a line about o for reports: Options.Describe, plus the
// restart schedule when o asks for one.
func (s Spec) Describe(o Options) string {
	if o == nil {
		return s.Name + ": no options"
	}
	d := o.Describe()
	ro, ok := s.restartOptions(o)
	if !ok || !ro.On() {
		return d
	}
	steps, err := budgetOf(o, s.BudgetKey)
	if err != nil {
		return d
	}
	return d + "; " + describeSchedule(ro, ro.Schedule(steps), s.Unit)
}

// describeSchedule is a line about a schedule for reports.
func describeSchedule(ro RestartOptions, plan []SubRun, unit string) string {
	var b strings.Builder
	k := ro.starts()
	fmt.Fprintf(&b, "restarts: %d start(s) of %d %ss", k, plan[0].Steps, unit)
	for _, sr := range plan[k:] {
		fmt.Fprintf(&b, ", a phase of %d %ss at %d× the pairs", sr.Steps, unit, sr.Repeats)
	}
	b.WriteString(", the answer raced among theirs")
	return b.String()
}

// checkSubRuns validates every sub-run's options and problem with the
// inner Spec: a refinement phase is warm-started, which a method must
// accept (the chen2010 variants refuse a start).
func checkSubRuns(inner Spec, v Options, p Problem, ro RestartOptions, steps int) error {
	plan := ro.Schedule(steps)
	var answers [][]float64 // stand-ins for the earlier sub-runs' answers
	for i, sr := range plan {
		hof := hallOf(ro, sr, answers)
		sub, err := subOptions(v, inner.BudgetKey, sr.Steps, sr.Phase > 0, hof)
		if err != nil {
			return err
		}
		sp := subProblem(p, sr, p.InitLo, hof, answers)
		answers = append(answers, p.InitLo)
		if err := sub.Validate(sp); err != nil {
			var oe *OptionError
			if i > 0 && sr.Phase > 0 && errors.As(err, &oe) && oe.Field == "Start" {
				return BadOption("phases", "a refinement phase is warm-started from the lead, which this method refuses: %s", oe.Msg)
			}
			return err
		}
	}
	if ro.starts()+ro.Phases > 1 {
		if err := raceConfig(v).Validate(ro.starts()+ro.Phases, ro.starts()+ro.Phases, 2*max(p.Pairs, 1)); err != nil {
			var re *RaceError
			if errors.As(err, &re) {
				key := map[string]string{"Budget": "race_budget", "Alpha": "race_alpha", "MinRounds": "race_rounds"}[re.Field]
				return BadOption(key, "the race among the sub-runs' answers: %s", re.Msg)
			}
			return err
		}
	}
	return nil
}

// raceConfig is the race of a method's noise options (RaceBudget etc.).
func raceConfig(v any) RaceConfig {
	if n, ok := noiseOf(v); ok {
		return n.Race()
	}
	return RaceConfig{}
}

// noiseOf finds the NoiseOptions embedded in a settings struct.
func noiseOf(v any) (NoiseOptions, bool) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return NoiseOptions{}, false
	}
	f := rv.Elem().FieldByName("NoiseOptions")
	if !f.IsValid() {
		return NoiseOptions{}, false
	}
	n, ok := f.Interface().(NoiseOptions)
	return n, ok
}

// Refiner is implemented by method settings (a pointer to them) whose
// refinement phases need more than a warm start: Refined returns a copy
// for a sub-run warm-started from a converged answer, e.g. the robust
// GA's mutation size continuing from sigma_end instead of starting
// again from sigma.
type Refiner interface{ Refined() Options }

// subProblem is p for sub-run sr: Pairs times its repeats (so the method
// forecasts and validates the games it really plays) and, for a
// refinement phase, the lead as its start; hof names answers[i] as an
// opponent (hallOf), the other names resolve as p.Opponent resolves them.
func subProblem(p Problem, sr SubRun, lead []float64, hof []string, answers [][]float64) Problem {
	p.Pairs *= sr.Repeats
	if sr.Phase > 0 {
		p.Start = slices.Clone(lead)
	}
	if len(hof) > 0 {
		base := p.Opponent
		p.Opponent = func(name string) ([]float64, error) {
			if i := slices.Index(hof, name); i >= 0 {
				return slices.Clone(answers[i]), nil
			}
			if base == nil {
				return nil, fmt.Errorf("no opponent %q", name)
			}
			return base(name)
		}
	}
	return p
}

// hallOf names the answers a refinement phase adds to its pool under
// RestartOptions.HallOfFame ("answer of start 1", …; nil otherwise).
func hallOf(ro RestartOptions, sr SubRun, answers [][]float64) []string {
	if !ro.HallOfFame || sr.Phase == 0 {
		return nil
	}
	var names []string
	k := ro.starts()
	for i := range answers {
		if i < k {
			names = append(names, fmt.Sprintf("answer of start %d", i+1))
		} else {
			names = append(names, fmt.Sprintf("answer of phase %d", i-k+1))
		}
	}
	return names
}

// budgetField finds the field of a settings struct (a pointer to it)
// whose toml tag is key, searching embedded structs.
func budgetField(v any, key string) (reflect.Value, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, fmt.Errorf("optimize: restarts: options are %T, want a pointer to a settings struct", v)
	}
	var find func(s reflect.Value) reflect.Value
	find = func(s reflect.Value) reflect.Value {
		t := s.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if name, _, _ := strings.Cut(f.Tag.Get("toml"), ","); name == key && f.Type.Kind() == reflect.Int {
				return s.Field(i)
			}
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				if got := find(s.Field(i)); got.IsValid() {
					return got
				}
			}
		}
		return reflect.Value{}
	}
	f := find(rv.Elem())
	if !f.IsValid() {
		return reflect.Value{}, fmt.Errorf("optimize: restarts: options %T have no integer field tagged %q", v, key)
	}
	return f, nil
}

// Budget is o's step budget: its integer option tagged s.BudgetKey
// (searching the structs it embeds), 0 when it has none.
func (s Spec) Budget(o Options) int {
	n, err := budgetOf(o, s.BudgetKey)
	if err != nil {
		return 0
	}
	return n
}

// budgetOf is the step budget of a method's settings.
func budgetOf(v any, key string) (int, error) {
	f, err := budgetField(v, key)
	if err != nil {
		return 0, err
	}
	return int(f.Int()), nil
}

// subOptions is a copy of a method's settings for a sub-run: its budget
// set to steps, its own race off (the sub-runs' answers race in the
// schedule's races) and no restarts of its own, hof added to its pool;
// for a refinement phase (refine) the settings' Refined copy when they
// have one.
func subOptions(v Options, key string, steps int, refine bool, hof []string) (Options, error) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, fmt.Errorf("optimize: restarts: options are %T, want a pointer", v)
	}
	cp := reflect.New(rv.Elem().Type())
	cp.Elem().Set(rv.Elem())
	f, err := budgetField(cp.Interface(), key)
	if err != nil {
		return nil, err
	}
	f.SetInt(int64(steps))
	if n := cp.Elem().FieldByName("NoiseOptions"); n.IsValid() {
		no := n.Interface().(NoiseOptions)
		no.RaceBudget = 0
		no.RestartOptions = RestartOptions{}
		no.Pool = append(slices.Clone(no.Pool), hof...)
		n.Set(reflect.ValueOf(no))
	}
	if rf, ok := cp.Interface().(Refiner); ok && refine {
		return rf.Refined(), nil
	}
	return cp.Interface().(Options), nil
}

// Restarts is a run made of sub-runs of one method (RestartOptions): it
// implements Method, numbering the sub-runs' steps as one run. Its
// records are the sub-runs' records with the step renumbered and the
// metrics "subrun" (from 1), "phase" and "pairs" (game pairs per match)
// added, and on the step that ends the starts or the schedule
// "race_games"; its Best is the running sub-run's answer until the race
// after the starts, then the lead, and after the final race the winner.
type Restarts struct {
	inner Spec
	opts  Options
	p     Problem
	ro    RestartOptions
	plan  []SubRun
	// perStep is each sub-run's games of one step (its pairs, its pool),
	// for forecasts of sub-runs not yet started.
	perStep []int

	pcg     *rand.PCG
	run     int    // index of the sub-run in progress (len(plan) when done)
	m       Method // the sub-run in progress; nil before its first step
	answers [][]float64
	lead    []float64
	best    []float64
	steps   int
	games   int
}

var _ Method = (*Restarts)(nil)

// RestartState is a Restarts run's checkpoint.
type RestartState struct {
	// Run is the index of the sub-run in progress.
	Run int `json:"run"`
	// Inner is that sub-run's own checkpoint, null before its first step.
	Inner json.RawMessage `json:"inner,omitempty"`
	// Answers are the finished sub-runs' answers, in order.
	Answers [][]float64 `json:"answers,omitempty"`
	// Lead is the race's winner among the starts (the refinement phases'
	// warm start), or the latest phase's answer.
	Lead  []float64 `json:"lead,omitempty"`
	Best  []float64 `json:"best,omitempty"`
	Steps int       `json:"steps"`
	Games int       `json:"games"`
	RNG   []byte    `json:"rng"`
}

func newRestarts(inner Spec, v Options, p Problem, ro RestartOptions) (*Restarts, error) {
	steps, err := budgetOf(v, inner.BudgetKey)
	if err != nil {
		return nil, err
	}
	r := &Restarts{inner: inner, opts: v, p: p, ro: ro, plan: ro.Schedule(steps)}
	// Each sub-run's games per step, from a probe of it (the hall of
	// fame's answers stood in for by the initial range's lower corner).
	probe := &Restarts{inner: inner, opts: v, p: p, ro: ro}
	for _, sr := range r.plan {
		m, err := probe.newSub(sr, rand.NewPCG(0, 0), p.InitLo)
		if err != nil {
			return nil, err
		}
		r.perStep = append(r.perStep, m.Forecast().NextGames)
		probe.answers = append(probe.answers, p.InitLo)
	}
	return r, nil
}

// sub is the options and problem of sub-run sr, warm-started from lead
// in a phase, the answers of the sub-runs before it in its hall of fame
// when the options ask for one.
func (r *Restarts) sub(sr SubRun, lead []float64) (Options, Problem, error) {
	hof := hallOf(r.ro, sr, r.answers)
	opts, err := subOptions(r.opts, r.inner.BudgetKey, sr.Steps, sr.Phase > 0, hof)
	return opts, subProblem(r.p, sr, lead, hof, r.answers), err
}

// newSub starts sub-run sr from rng, warm-started from lead in a phase.
func (r *Restarts) newSub(sr SubRun, rng *rand.PCG, lead []float64) (Method, error) {
	opts, p, err := r.sub(sr, lead)
	if err != nil {
		return nil, err
	}
	return opts.New(p, rng)
}

// restoreSub continues sub-run sr from its checkpoint.
func (r *Restarts) restoreSub(sr SubRun, state []byte, lead []float64) (Method, error) {
	opts, p, err := r.sub(sr, lead)
	if err != nil {
		return nil, err
	}
	return opts.Restore(p, state)
}

func (r *Restarts) restore(data []byte) error {
	var st RestartState
	if err := DecodeState(data, &st); err != nil {
		return err
	}
	n := len(r.p.Genes)
	switch {
	case st.Run < 0 || st.Run > len(r.plan):
		return fmt.Errorf("Run: %d, want 0..%d sub-runs", st.Run, len(r.plan))
	case len(st.Answers) != st.Run:
		return fmt.Errorf("Answers: %d answers after %d finished sub-runs", len(st.Answers), st.Run)
	case st.Steps < 0 || st.Games < 0:
		return fmt.Errorf("Steps, Games: %d, %d must be 0 or more", st.Steps, st.Games)
	case st.Run == len(r.plan) && st.Inner != nil:
		return errors.New("Inner: set after the last sub-run")
	}
	if err := CheckPopulation("Answers", st.Answers, st.Run, n); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		x    []float64
	}{{"Lead", st.Lead}, {"Best", st.Best}} {
		if f.x != nil {
			if err := CheckVector(f.name, f.x, n); err != nil {
				return err
			}
		}
	}
	if st.Run > 0 && r.plan[st.Run-1].Phase == 0 && st.Run < len(r.plan) && r.plan[st.Run].Phase > 0 && st.Lead == nil {
		return errors.New("Lead: the refinement phases need the starts' winner")
	}
	pcg := &rand.PCG{}
	if err := pcg.UnmarshalBinary(st.RNG); err != nil {
		return fmt.Errorf("RNG: %w", err)
	}
	r.pcg, r.run, r.answers, r.lead, r.best = pcg, st.Run, Clone(st.Answers), slices.Clone(st.Lead), slices.Clone(st.Best)
	r.steps, r.games = st.Steps, st.Games
	if st.Inner != nil && string(st.Inner) != "null" {
		m, err := r.restoreSub(r.plan[st.Run], st.Inner, r.lead)
		if err != nil {
			return fmt.Errorf("Inner: %w", err)
		}
		r.m = m
	}
	return nil
}

// MarshalState returns the run's RestartState as JSON.
func (r *Restarts) MarshalState() ([]byte, error) {
	rng, err := r.pcg.MarshalBinary()
	if err != nil {
		return nil, err
	}
	st := RestartState{Run: r.run, Answers: Clone(r.answers), Lead: slices.Clone(r.lead), Best: slices.Clone(r.best),
		Steps: r.steps, Games: r.games, RNG: rng}
	if r.m != nil {
		if st.Inner, err = r.m.MarshalState(); err != nil {
			return nil, err
		}
	}
	return json.Marshal(st)
}

// Done reports whether every sub-run and the final race are over.
func (r *Restarts) Done() bool { return r.run >= len(r.plan) }

// Steps is the number of steps played over all sub-runs.
func (r *Restarts) Steps() int { return r.steps }

// Best is the running answer (see Restarts).
func (r *Restarts) Best() []float64 { return slices.Clone(r.best) }

// Forecast is the work left: the running sub-run's own forecast, the
// later sub-runs' steps at their pairs, and the races' budgets (at most).
func (r *Restarts) Forecast() Forecast {
	var f Forecast
	if r.Done() {
		return f
	}
	i := r.run
	if r.m != nil {
		f = r.m.Forecast()
		i++
	} else {
		f.NextGames = r.perStep[i]
	}
	for j := i; j < len(r.plan); j++ {
		f.Steps += r.plan[j].Steps
		f.Games += r.plan[j].Steps * r.perStep[j]
	}
	races := 0
	if k := r.ro.starts(); k > 1 && r.run < k {
		races++
	}
	if r.ro.Phases > 0 {
		races++
	}
	f.Games += races * raceConfig(r.opts).Budget
	return f
}

// repeatReferee plays every batch Repeats times, each time with its own
// seed (so with other openings), and sums the outcomes: a match of
// Repeats times the referee's game pairs.
type repeatReferee struct {
	ref     Referee
	repeats int
}

func (q repeatReferee) Play(ctx context.Context, seed uint64, matches []Match) ([]Outcome, error) {
	out, err := Play(ctx, q.ref, seed, matches)
	if err != nil || q.repeats <= 1 {
		return out, err
	}
	for k := 1; k < q.repeats; k++ {
		more, err := Play(ctx, q.ref, repeatSeed(seed, k), matches)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].Merge(more[i])
		}
	}
	return out, nil
}

// repeatSeed is the seed of a batch's k-th repeat (SplitMix64 of the
// seed and k).
func repeatSeed(seed uint64, k int) uint64 {
	z := seed + uint64(k)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Step plays one step of the running sub-run (starting it first when it
// has not started: its source is drawn from the run's), and when that
// ends the sub-run: after the last start, the race among the starts'
// answers (the winner leads the refinement phases); after a phase, its
// answer leads the next one; after the last sub-run, the final race among
// every sub-run's answer. On an error nothing changes.
func (r *Restarts) Step(ctx context.Context, ref Referee) (Record, error) {
	if r.Done() {
		return Record{}, ErrDone
	}
	pcg := ClonePCG(r.pcg)
	rng := rand.New(pcg)
	sr := r.plan[r.run]
	m := r.m
	var snapshot []byte
	if m == nil {
		var err error
		if m, err = r.newSub(sr, rand.NewPCG(rng.Uint64(), rng.Uint64()), r.lead); err != nil {
			return Record{}, fmt.Errorf("%s: sub-run %d: %w", r.inner.Name, r.run+1, err)
		}
	} else if f := m.Forecast(); f.Steps <= 1 {
		// The sub-run's last step: a race after it may fail, and the
		// sub-run must then be as it was.
		var err error
		if snapshot, err = m.MarshalState(); err != nil {
			return Record{}, err
		}
	}
	rec, err := m.Step(ctx, repeatReferee{ref, sr.Repeats})
	if err != nil {
		return Record{}, err
	}
	undo := func() {
		if snapshot != nil {
			if back, e := r.restoreSub(sr, snapshot, r.lead); e == nil {
				r.m = back
			}
		}
	}
	rec.Step = r.steps
	if rec.Metrics == nil {
		rec.Metrics = map[string]float64{}
	}
	rec.Metrics["subrun"] = float64(r.run + 1)
	rec.Metrics["phase"] = float64(sr.Phase)
	rec.Metrics["pairs"] = float64(r.p.Pairs * sr.Repeats)
	best := rec.Best
	answers, lead, run, next := r.answers, r.lead, r.run, m
	if m.Done() {
		answers = append(Clone(answers), slices.Clone(m.Best()))
		run++
		next = nil
		k := r.ro.starts()
		switch {
		case run == len(r.plan) && len(answers) > 1:
			rr, err := r.race(ctx, ref, rng, answers)
			if err != nil {
				undo()
				return Record{}, fmt.Errorf("%s: final race: %w", r.inner.Name, err)
			}
			best = slices.Clone(answers[rr.Winner])
			rec.Games += rr.Games
			rec.Metrics["race_games"] = float64(rr.Games)
			rec.Line += fmt.Sprintf("; final race: %s in %d games", rr.Candidates[rr.Winner], rr.Games)
		case run == len(r.plan):
			best = slices.Clone(answers[0])
		case run == k && k > 1:
			rr, err := r.race(ctx, ref, rng, answers)
			if err != nil {
				undo()
				return Record{}, fmt.Errorf("%s: race of the starts: %w", r.inner.Name, err)
			}
			lead = slices.Clone(answers[rr.Winner])
			best = slices.Clone(lead)
			rec.Games += rr.Games
			rec.Metrics["race_games"] = float64(rr.Games)
			rec.Line += fmt.Sprintf("; race of the starts: %s in %d games", rr.Candidates[rr.Winner], rr.Games)
		case run >= k:
			lead = slices.Clone(answers[len(answers)-1])
		}
		rec.Best = slices.Clone(best)
	}
	if rec.Line != "" {
		rec.Line = fmt.Sprintf("[%s] %s", r.subName(r.run), rec.Line)
	}
	// Commit.
	*r.pcg = *pcg
	r.m, r.run, r.answers, r.lead, r.best = next, run, answers, lead, slices.Clone(best)
	r.steps++
	r.games += rec.Games
	return rec, nil
}

// subName names sub-run i for records and races: "start 2", "phase 1".
func (r *Restarts) subName(i int) string {
	if sr := r.plan[i]; sr.Phase > 0 {
		return fmt.Sprintf("phase %d", sr.Phase)
	}
	return fmt.Sprintf("start %d", i+1)
}

// race races the answers against one another (each plays every answer,
// common openings within a round) and returns its record.
func (r *Restarts) race(ctx context.Context, ref Referee, rng *rand.Rand, answers [][]float64) (RaceRecord, error) {
	names := make([]string, len(answers))
	for i := range answers {
		names[i] = r.subName(i)
	}
	return Race(ctx, ref, rng, answers, answers, names, raceConfig(r.opts), 2*max(r.p.Pairs, 1))
}
