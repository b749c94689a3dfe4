package optimize

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/roadtune/roadtune/internal/fileio"
)

// Method is one optimizer run in progress, in the spirit of gonum's
// optimize.Method: it knows its algorithm and nothing of engines, files or
// processes. A Method is made by its Spec (New from options, a Problem and a
// seeded source; Restore from a checkpoint) and driven one step at a time by
// Run, which owns step numbering, the stall rule and recording.
//
// A step is the method's unit of work: a GA generation, a PSO iteration.
// Steps are numbered from 0 by every method.
type Method interface {
	// Step plays one step, asking ref for every match it needs, and returns
	// its record (Step, Games, Best, Metrics and Detail filled in; Seconds is
	// Run's). On any error (a cancelled ctx, a failing referee, a referee
	// answering the wrong number of outcomes) the method's state, its random
	// source included, is left exactly as before the call, so the step can
	// be replayed. After Done it returns ErrDone.
	Step(ctx context.Context, ref Referee) (Record, error)
	// Done reports whether the method's own budget is spent (its
	// generations or iterations).
	Done() bool
	// Steps is the number of steps completed.
	Steps() int
	// Best returns a copy of the best weight vector so far (genes in the
	// schema's order), nil before the first step.
	Best() []float64
	// Forecast says what is left: steps and games, for progress and ETA.
	Forecast() Forecast
	// MarshalState returns the method's checkpoint as JSON; the Spec's
	// Restore continues from it exactly as the run it came from would have.
	MarshalState() ([]byte, error)
}

// ErrDone is returned by Method.Step once the method's budget is spent.
var ErrDone = errors.New("optimize: the method's budget is spent")

// Begin is the check a Method's Step makes before anything else: ErrDone
// once m's budget is spent, ctx's error when it is cancelled, nil when the
// step may go on. Nothing has changed when it fails, as Step promises.
func Begin(ctx context.Context, m Method) error {
	if m.Done() {
		return ErrDone
	}
	return ctx.Err()
}

// Forecast is a method's own estimate of the work left.
type Forecast struct {
	// Steps is the number of steps left in the budget (a stall rule may end
	// the run sooner).
	Steps int
	// NextGames is the number of games the next step will play, at least
	// (0 when Done).
	NextGames int
	// Games is the number of games all the steps left will play, at least.
	Games int
}

// Record is the record of one step: one line of a run's generations.jsonl.
// Every field but Seconds is a function of the options, the seed and the
// referee's outcomes, so a resumed run reproduces it exactly.
type Record struct {
	// Step numbers the step from 0 (generation 0 is the initial
	// population, iteration 0 the swarm's first move).
	Step int `json:"step"`
	// Games is the number of games the step played.
	Games int `json:"games"`
	// Seconds is the step's wall time in seconds (set by Run).
	Seconds float64 `json:"seconds"`
	// Best is the best weight vector after the step (the GA's best
	// champion, the PSO's global best), genes in the schema's order.
	Best []float64 `json:"best"`
	// Metrics are the step's scalar figures by name (e.g. "fitness",
	// "diversity", "w"); Spec.Charts plots them by step. The names "fitness"
	// (the best vector's fitness, when the method has one), "diversity"
	// (mean pairwise distance of the vectors that played, gene units, see
	// PopulationDiversity) and "gene_std" (their mean per-gene standard
	// deviation) are shared by every method that has them. Values are
	// finite, so a record always encodes as JSON.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Unidentified lists the genes (indices) the step's data said nothing
	// about, so that the method left them where they were: Texel's genes
	// whose road count was zero on every training position. A gene
	// unidentified in every step keeps its start value: reports mark it
	// (Spec.Unidentified says why) rather than present it as tuned.
	Unidentified []int `json:"unidentified,omitempty"`
	// Detail is the method's own record (ga.Generation, pso.Iteration); read
	// back from a file it is a json.RawMessage.
	Detail any `json:"detail,omitempty"`
	// Line is a one-line human summary of the step, for the console; it is
	// not written to files.
	Line string `json:"-"`
}

// Problem is what every method is told of the weight vectors it tunes.
// Every vector is n genes in the schema's order, n = len(Genes), in the
// engine's weight units. A method's run keeps its own deep copy
// (Problem.Clone): its resolved options embed it, so these fields are
// declared and documented once, here.
type Problem struct {
	// Genes names the genes in the schema's order; its length is the
	// dimension n.
	Genes []string
	// InitLo, InitHi give each gene's range for the uniform initial
	// population, n limits each in weight units (Chen 2010: [0, 4000]).
	InitLo, InitHi []float64
	// Bounds are the per-gene limits of the run, n each in weight units,
	// enforced unless BoundMode is "off" (they still give scales then,
	// like the PSO's velocity limit as a fraction of each gene's range).
	// nil means no limits at all.
	Bounds *Bounds
	// BoundMode is "off" (the theses), "clamp" or "reflect" (how a method
	// that moves vectors, like the PSO, keeps them inside Bounds; the GA
	// clamps in both).
	BoundMode BoundMode
	// Pairs is the number of game pairs of one match (at least 1), for
	// Forecast and a race's planning: the referee decides how long a
	// match really is.
	Pairs int
	// Start, if not nil, is the vector (n genes) a single-vector method
	// (SPSA, Texel) starts from instead of a uniform draw from
	// InitLo..InitHi: a vector to refine (fishtest's SPSA starts from the
	// engine's values). Chen's GA and PSO refuse it; the robust GA and PSO
	// draw their population around it, CMA-ES starts its mean there.
	Start []float64
	// Opponent, if not nil, resolves the name of a fixed opponent (a
	// baseline or a weight file, whatever the job runner knows by name)
	// into a vector of the problem's schema, genes in the schema's order;
	// its error says why the name is not one. Methods that play against
	// fixed opponents (SPSA's pool of opponents) resolve their option's
	// names through it; nil means the runner offers none.
	Opponent func(name string) ([]float64, error)
}

// Clone is a deep copy of p: its own Genes, InitLo, InitHi, Bounds and
// Start (nil where p's are nil), the same Opponent (a function, shared).
// A method's resolved options hold one, so a run is not affected by later
// changes to the caller's problem.
func (p Problem) Clone() Problem {
	p.Genes = slices.Clone(p.Genes)
	p.InitLo, p.InitHi = slices.Clone(p.InitLo), slices.Clone(p.InitHi)
	p.Bounds = p.Bounds.Clone()
	p.Start = slices.Clone(p.Start)
	return p
}

// Validate checks p: genes, finite initial ranges with InitLo ≤ InitHi,
// a known bound mode with bounds when it enforces them, valid bounds, at
// least one pair a match, and a start of finite genes. Every method's
// Settings.Validate calls it first, so a method checks only what it adds.
func (p Problem) Validate() error {
	n := len(p.Genes)
	if n == 0 {
		return errors.New("optimize: Problem.Genes: no genes")
	}
	if len(p.InitLo) != n || len(p.InitHi) != n {
		return fmt.Errorf("optimize: Problem: InitLo and InitHi have %d and %d genes, want %d", len(p.InitLo), len(p.InitHi), n)
	}
	if err := p.BoundMode.Validate(); err != nil {
		return fmt.Errorf("optimize: Problem.BoundMode: %w", err)
	}
	if p.BoundMode.Enforced() && p.Bounds == nil {
		return fmt.Errorf("optimize: Problem.Bounds: required with BoundMode %q", p.BoundMode)
	}
	for d := range n {
		if lo, hi := p.InitLo[d], p.InitHi[d]; !finite(lo) || !finite(hi) || lo > hi {
			return fmt.Errorf("optimize: Problem.InitLo[%d]: the initial range [%g, %g] of gene %s must be finite with InitLo ≤ InitHi", d, lo, hi, p.Genes[d])
		}
	}
	if p.Pairs < 1 {
		return fmt.Errorf("optimize: Problem.Pairs: must be at least 1, not %d", p.Pairs)
	}
	if err := p.Bounds.Validate(n); err != nil {
		return fmt.Errorf("optimize: Problem.Bounds: %w", err)
	}
	if p.Start != nil {
		if err := CheckVector("optimize: Problem.Start", p.Start, n); err != nil {
			return err
		}
	}
	return nil
}

// OptionError is a bad option of a method: Key is the option's TOML key in
// the method's table (e.g. "population" of [ga]), or "" when the fault lies
// in what the Problem brought (its ranges, bounds or start), which Msg then
// names and Field, when set, gives as the Problem's field name ("Start"),
// so a job runner can point at its own key for it.
type OptionError struct {
	Key   string
	Msg   string
	Field string
}

// BadOption is an *OptionError for the option key with a formatted
// message: what a settings struct's Validate returns for a bad field.
func BadOption(key, format string, args ...any) error {
	return &OptionError{Key: key, Msg: fmt.Sprintf(format, args...)}
}

func (e *OptionError) Error() string {
	if e.Key == "" {
		return e.Msg
	}
	return fmt.Sprintf("option %s: %s", e.Key, e.Msg)
}

// Chart is one line chart a method asks for: the named Metrics of its
// records plotted by step.
type Chart struct {
	Name    string   // file name without extension, e.g. "fitness"
	Title   string   // the chart's title
	YLabel  string   // the y axis, with units
	Metrics []string // keys of Record.Metrics, one series each
	// Labels are the legend's words for Metrics, in the same order (e.g.
	// "mean distance to the focus" for "mean_dist"); a missing or empty
	// label falls back to the metric's key. See Chart.Label.
	Labels []string
	// Prefix, when set, adds one series per gene: the metric named
	// Prefix+gene (e.g. "theta_norm.S1"), labelled by the gene, in gene
	// order, for per-gene figures whose names the Spec cannot know.
	Prefix string
	// Note, when set, is a caption under the chart: what a reader must
	// know to read it right (e.g. that a generation's fitness is relative
	// to that generation's population).
	Note string
	// Intervals, when set, name for Metrics[i] the metric that holds the
	// half-width of its 95% interval ("" for none, e.g. "score_ci" for
	// "score"): drawn as a shaded band around the series.
	Intervals []string
	// Refs are horizontal reference lines a reader needs (the 0.5 score of
	// equal strength).
	Refs []Ref
	// Requires, when set, is a metric the run's records must have for the
	// chart to be drawn: a method whose variants record different figures
	// gives each variant its own chart (and legend) under one Name.
	Requires string
}

// Ref is a horizontal reference line of a Chart: at Y, named Name in the
// legend.
type Ref struct {
	Name string
	Y    float64
}

// Label is the legend's name of Metrics[i]: Labels[i], or the metric's key
// when that is missing or empty.
func (c Chart) Label(i int) string {
	if i < len(c.Labels) && c.Labels[i] != "" {
		return c.Labels[i]
	}
	return c.Metrics[i]
}

// Spec describes a method to a job runner (package tune's registry): its
// name, its options as a TOML table (a settings type implementing
// Options, which starts and restores its runs), and its charts. Adding a
// method is a package exporting a Spec plus one registration line.
type Spec struct {
	// Name is the method's name in configs and flags ("ga", "pso").
	Name string
	// Unit names one step ("generation", "iteration").
	Unit string
	// About is a one-line description with the source, for reports.
	About string
	// Options returns a new settings value with its defaults: a pointer to
	// the method's Settings struct, whose exported fields are its options
	// and carry toml tags; it is decoded from the method's table ([ga],
	// [pso]) of a tuning config.
	Options func() Options
	// BudgetKey is the option that holds the step budget ("generations",
	// "iterations").
	BudgetKey string
	// Charts are the method's own plots, besides the best vector's genes.
	Charts []Chart
	// Unidentified, for a method that reports Record.Unidentified, says in
	// a sentence or two why a gene can be left unidentified, for reports
	// and chart captions.
	Unidentified string
	// Profiles, when set, reads from a run's last record the method's model
	// along each gene (a model-based method's view of its answer): nil when
	// the record holds none. Reports draw them as one panel a gene.
	Profiles func(last Record) []Profile
}

// Profile is a model's prediction along one gene with the other genes
// held at the answer's values (a slice through the model's optimum):
// at each X, in gene units, the predicted Mean and its 95% interval
// [Lo, Hi], in the units the method names in Spec's chart of it (Elo for
// optimize/bayes). At is the gene's value in the answer.
type Profile struct {
	Gene string    `json:"gene"`
	At   float64   `json:"at"`
	X    []float64 `json:"x"`
	Mean []float64 `json:"mean"`
	Lo   []float64 `json:"lo"`
	Hi   []float64 `json:"hi"`
}

// The variants of a method with Chen 2010's form and a noise-robust one
// (the GA's and the PSO's Settings.Variant).
const (
	VariantChen   = "chen2010" // Chen 2010 exactly; "" means it
	VariantRobust = "robust"   // the noise-robust form
)

// CheckVariant checks p (Problem.Validate) and variant, one of "",
// VariantChen and VariantRobust, and reports whether it is the robust
// form. Chen's form draws its whole population from the initial range,
// so a start vector is refused for it; drawn says what it draws (e.g.
// "the chen2010 GA draws its whole population"). Errors are
// *OptionError: the Problem's (no Key), the variant's (Key "variant"),
// the start vector's (Field "Start").
func CheckVariant(p Problem, variant, drawn string) (robust bool, err error) {
	if err := p.Validate(); err != nil {
		return false, &OptionError{Msg: err.Error()}
	}
	switch variant {
	case "", VariantChen:
	case VariantRobust:
		return true, nil
	default:
		return false, BadOption("variant", "must be %q or %q, not %q", VariantChen, VariantRobust, variant)
	}
	if p.Start != nil {
		return false, &OptionError{Field: "Start", Msg: drawn + " from the initial range: a start vector (a warm start) needs variant = \"robust\""}
	}
	return false, nil
}

// Status is what Run counts across the steps of a run; it belongs in a
// checkpoint beside the method's state.
type Status struct {
	// Steps is the number of steps completed.
	Steps int `json:"steps"`
	// Stall counts the latest steps in a row whose best vector equals the
	// one before.
	Stall int `json:"stall"`
	// Games is the number of games played.
	Games int `json:"games"`
	// Seconds is the wall time of the completed steps.
	Seconds float64 `json:"seconds"`
}

// Settings are the caller's settings of Run.
type Settings struct {
	// Stall, if > 0, stops the run once the best vector has been unchanged
	// for Stall steps in a row. 0 = off.
	Stall int
	// Recorder, if not nil, is called after every step with its record
	// and the Status after it (e.g. to append the record and write a
	// checkpoint); an error stops the run and is returned as is.
	Recorder func(Record, Status) error
}

// Stalled reports whether the stall rule of s ends a run with status st.
func (s Settings) Stalled(st Status) bool { return s.Stall > 0 && st.Stall >= s.Stall }

// Run drives m with ref until it is Done, the stall rule fires, or an error
// occurs, starting from *st (the zero Status for a new run, the
// checkpointed one on resume) and updating it after each step. It checks
// that the method numbers its steps as Run counts them. It returns nil when
// the run is over, the first error of Step (wrapping ctx.Err() when
// cancelled) or Recorder's error.
func Run(ctx context.Context, m Method, ref Referee, s Settings, st *Status) error {
	if m == nil || ref == nil || st == nil {
		return errors.New("optimize: Run: nil method, referee or status")
	}
	prev := m.Best()
	for !m.Done() && !s.Stalled(*st) {
		if err := ctx.Err(); err != nil {
			return err
		}
		start := time.Now()
		rec, err := m.Step(ctx, ref)
		if err != nil {
			return err
		}
		if rec.Step != st.Steps {
			return fmt.Errorf("optimize: Run: the method numbered its step %d, Run counts %d", rec.Step, st.Steps)
		}
		rec.Seconds = time.Since(start).Seconds()
		if prev != nil && slices.Equal(prev, rec.Best) {
			st.Stall++
		} else {
			st.Stall = 0
		}
		prev = slices.Clone(rec.Best)
		st.Steps++
		st.Games += rec.Games
		st.Seconds += rec.Seconds
		if s.Recorder != nil {
			if err := s.Recorder(rec, *st); err != nil {
				return err
			}
		}
	}
	return nil
}

// Play makes one Play call and checks that ref answered one outcome per
// match; it is the play-and-check helper every method uses.
func Play(ctx context.Context, ref Referee, seed uint64, matches []Match) ([]Outcome, error) {
	if ref == nil {
		return nil, errors.New("optimize: nil Referee")
	}
	out, err := ref.Play(ctx, seed, matches)
	if err != nil {
		return nil, err
	}
	if len(out) != len(matches) {
		return nil, fmt.Errorf("referee answered %d outcomes for %d matches", len(out), len(matches))
	}
	return out, nil
}

// DecodeState decodes a method's checkpoint, MarshalState's JSON, into st
// (a pointer to the method's State) strictly, as Options.Restore does
// (Restored): an unknown field or anything after the JSON value is an
// error.
func DecodeState(data []byte, st any) error { return fileio.DecodeJSON(data, st) }

// CountGames is the number of games of a batch's outcomes.
func CountGames(out []Outcome) int {
	s := 0
	for _, o := range out {
		s += o.Games()
	}
	return s
}

// Clone returns a deep copy of a population (nil for nil).
func Clone(pop [][]float64) [][]float64 {
	if pop == nil {
		return nil
	}
	q := make([][]float64, len(pop))
	for i, x := range pop {
		q[i] = slices.Clone(x)
	}
	return q
}

// ClonePCG returns an independent copy of a PCG's state.
func ClonePCG(p *rand.PCG) *rand.PCG {
	b, err := p.MarshalBinary()
	if err != nil {
		panic("optimize: PCG.MarshalBinary: " + err.Error()) // never fails (math/rand/v2)
	}
	q := &rand.PCG{}
	if err := q.UnmarshalBinary(b); err != nil {
		panic("optimize: PCG state round trip: " + err.Error())
	}
	return q
}

// CheckPopulation checks that pop holds n vectors of genes finite genes;
// the error names field (e.g. "State.Population") and the first bad place.
func CheckPopulation(field string, pop [][]float64, n, genes int) error {
	if len(pop) != n {
		return fmt.Errorf("%s: has %d vectors, want %d", field, len(pop), n)
	}
	for i, x := range pop {
		if err := CheckVector(fmt.Sprintf("%s[%d]", field, i), x, genes); err != nil {
			return err
		}
	}
	return nil
}

// CheckVector checks that x has genes finite genes.
func CheckVector(field string, x []float64, genes int) error {
	if len(x) != genes {
		return fmt.Errorf("%s: has %d genes, want %d", field, len(x), genes)
	}
	for d, v := range x {
		if v != v || v > maxFloat || v < -maxFloat {
			return fmt.Errorf("%s: gene %d is %g, want a finite number", field, d, v)
		}
	}
	return nil
}

const maxFloat = 1.7976931348623157e308

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float64) bool { return v == v && v <= maxFloat && v >= -maxFloat }

// Options is a method's settings as a job runner holds them: a pointer to
// the method's Settings struct (what Spec.Options returns), decoded from
// the method's table of a tuning config. Each method's settings
// implement it; Spec's methods add what is common to every method (the
// restart schedule of options that embed NoiseOptions).
//
// Zero means default, as in gonum's optimize.Settings: an option a method
// refuses at zero takes its DefaultSettings value when left at zero, so a
// Go program sets only what it means; an option whose zero has a meaning
// of its own keeps it. Each Settings type names its options of either kind.
type Options interface {
	// Validate checks the options against a problem; errors are
	// *OptionError naming the key.
	Validate(p Problem) error
	// New starts a run of the options on p, validating both first; the
	// method draws every random number from rng.
	New(p Problem, rng *rand.PCG) (Method, error)
	// Restore continues a run from its MarshalState output under the same
	// options and problem; errors name the state field that does not fit.
	Restore(p Problem, state []byte) (Method, error)
	// Describe is a line about the options for reports.
	Describe() string
}

// Started turns a method's typed constructor result into a Method: nil,
// not a nil pointer in an interface, when err is set. It is what a
// settings type's Options.New returns.
func Started[M Method](m M, err error) (Method, error) {
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Build is how every method's constructor runs: the options checked
// against p and resolved once (check, the method's Settings), a source to
// draw from, then the run started (start). Errors: check's, a nil rng
// named by ctor ("spsa: New: nil *rand.PCG"), start's.
func Build[C any, M Method](ctor string, check func(Problem) (C, error), start func(C, *rand.PCG) (M, error), p Problem, rng *rand.PCG) (M, error) {
	var zero M
	c, err := check(p)
	if err != nil {
		return zero, err
	}
	if rng == nil {
		return zero, errors.New(ctor + ": nil *rand.PCG")
	}
	return start(c, rng)
}

// Resume is how a method's Restore runs: the options checked against p
// and resolved once (check, the method's Settings), then the run continued
// from its checkpoint's state st (restore). Errors: check's, restore's.
func Resume[C, S any, M Method](check func(Problem) (C, error), restore func(C, S) (M, error), p Problem, st S) (M, error) {
	c, err := check(p)
	if err != nil {
		var zero M
		return zero, err
	}
	return restore(c, st)
}

// Variants are the constructors of a method with Chen 2010's form (C,
// its checkpoint state SC) and a noise-robust one (R, SR), both from the
// same settings S: what the GA's and the PSO's Settings.New and Restore
// pick among by Settings.Variant (ByVariant). Name names the method in
// errors of decoding a state.
type Variants[S any, C, R Method, SC, SR any] struct {
	Name          string
	New           func(S, Problem, *rand.PCG) (C, error)
	NewRobust     func(S, Problem, *rand.PCG) (R, error)
	Restore       func(S, Problem, SC) (C, error)
	RestoreRobust func(S, Problem, SR) (R, error)
}

// Start starts a run of s on p of the form variant names (ByVariant).
func (v Variants[S, C, R, SC, SR]) Start(variant string, s S, p Problem, rng *rand.PCG) (Method, error) {
	return ByVariant(variant, func() (C, error) { return v.New(s, p, rng) }, func() (R, error) { return v.NewRobust(s, p, rng) })
}

// Continue continues a run of s on p of the form variant names from a
// checkpoint's state, decoded strictly into that form's state type
// (DecodeThen).
func (v Variants[S, C, R, SC, SR]) Continue(variant string, s S, p Problem, state []byte) (Method, error) {
	return ByVariant(variant,
		func() (C, error) {
			return DecodeThen(v.Name, state, func(st SC) (C, error) { return v.Restore(s, p, st) })
		},
		func() (R, error) {
			return DecodeThen(v.Name, state, func(st SR) (R, error) { return v.RestoreRobust(s, p, st) })
		})
}

// ByVariant makes the run of a method with Chen 2010's form and a
// noise-robust one (the GA's and the PSO's Settings.Variant): robust's
// when variant is VariantRobust, chen's otherwise. Each function starts
// or restores its form; the result is as Started's.
func ByVariant[C, R Method](variant string, chen func() (C, error), robust func() (R, error)) (Method, error) {
	if variant == VariantRobust {
		return Started(robust())
	}
	return Started(chen())
}

// Restored decodes a checkpoint's state strictly (DecodeState) into the
// method's state type S and continues the run with restore; errors name
// the method ("ga: State: ..."). It is what a settings type's
// Options.Restore returns.
func Restored[S any, M Method](name string, state []byte, restore func(S) (M, error)) (Method, error) {
	return Started(DecodeThen(name, state, restore))
}

// DecodeThen is Restored's typed form: the state decoded strictly into S
// and handed to restore, for a settings type that picks among forms
// (ByVariant).
func DecodeThen[S any, M Method](name string, state []byte, restore func(S) (M, error)) (M, error) {
	var st S
	if err := DecodeState(state, &st); err != nil {
		var zero M
		return zero, fmt.Errorf("%s: State: %w", name, err)
	}
	return restore(st)
}
