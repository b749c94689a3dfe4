package ladder

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/enginespec"
)

// The opponents of a ladder that are not a baseline, a weight file or an
// external engine's option list, as validation.opponents names them.
const (
	// Halfway is the run's own best vector after step ⌊(steps−1)/2⌋:
	// did the second half of the run still gain?
	Halfway = "halfway"
	// StartOpponent is the run's start vector: did refining it gain?
	StartOpponent = "start"
	// DefaultsOpponent is an [external] run's tuned engine itself at its
	// own defaults: nothing passed.
	DefaultsOpponent = "defaults"
)

// Engine is what the ladder asks of a tuning run about its vectors, the
// one part of a run's config it does not take as plain values (Run).
// Package tune implements it from its Config.
type Engine interface {
	// Referee turns one of the run's vectors into a player at a search
	// depth and width (plies, moves): the in-process engine with the
	// run's schema, engine settings at that depth and width, [[param]]
	// tables and fixed road weights (referee.VectorReferee.Player), or
	// its [external] engine (External set); a new referee at every call,
	// which the ladder may change (its Time). Errors: the run's fixed
	// road weights cannot be read.
	Referee(depth, width int) (*referee.VectorReferee, error)
	// Played is the values an [external] player's games are played with,
	// as the engine receives them (integers rounded): vec's, or for vec
	// nil (DefaultsOpponent) the engine's own defaults; nil when they are
	// not known or vec does not fit the run's [[param]] tables.
	Played(vec []float64) []float64
	// Format is one of the run's vectors for the console: its genes, then
	// each parameter's played value ("DefendShare=0.65").
	Format(vec []float64) string
	// Start is the run's start vector (StartOpponent), with the genes and
	// [[param]] starts as the run's vectors hold them, and where it comes
	// from ("zhou2015", "the [[param]] tables' starts"). Errors: the
	// start cannot be read.
	Start() (vec []float64, from string, err error)
}

// External is an [external] run's engine in words, for the ladder's lines
// and players' descriptions.
type External struct {
	// Engine is how its candidate is played: "external engine
	// ./roadtune-engine -depth 2, values by setoption".
	Engine string
	// Search is how it searches: "depth 2 (its argument -depth 2)", "the
	// engine's own search".
	Search string
	// Tuned names what the run tunes: "the options Width and DefendWide
	// of ./roadtune-engine".
	Tuned string
}

// Run is what the ladder needs of a tuning run to resolve its opponents
// and play its matches: plain values of its config and options, and its
// vectors through Engine. Package tune fills it from its Job; the ladder
// never sees a Job.
type Run struct {
	Engine Engine
	// Depth and Width are the run's engine search (plies, moves): an
	// in-process opponent's of an [external] run, a timed rung's deepest
	// iteration. MaxMoves is the game's move cap (0: tournament's
	// default).
	Depth, Width, MaxMoves int
	// Concurrency is the games at once (0: one per core).
	Concurrency int
	// Remote, when set, plays the games of matches between in-process
	// engines elsewhere (entrantMatch.Remote).
	Remote tournament.Remote
	// Suite is the opening suite's file (configs.LoadOpenings); "" for
	// the generated 3-stone suites.
	Suite string
	// Seed is the run's seed, which every match's openings are drawn from.
	Seed uint64
	// Unit is the run's step ("generation", "iteration").
	Unit string
	// External is the run's [external] engine; nil for a run of the
	// in-process engine.
	External *External
	// Log receives the ladder's human lines; nil discards them.
	Log io.Writer
}

func (r *Run) logf(format string, args ...any) {
	if r.Log != nil {
		fmt.Fprintf(r.Log, format, args...)
	}
}

// Player is one side of a verification match: its name in the games and
// the Summary, what it was given as (a baseline name, a weight-file path,
// a vector of the run), and the engine it stands for. Run.Player and
// Run.Opponent make one.
type Player struct {
	name    string
	source  string
	weights engine.Weights
	// vec is the run's vector the player stands for, nil for a fixed
	// opponent: with [[param]] tables its search settings come from it
	// (Run.settings), a fixed opponent's are the run's own.
	vec []float64
	// external marks a player that is the [external] engine: with the
	// values of vec, or at its own defaults for vec nil (DefaultsOpponent).
	external bool
	// other, when set, is an opponent given as an external engine's option
	// list, as arena's -engine takes it ("name=Cloudict cmd=./gameEngine
	// dir=… initstr=\"depth 3\"").
	other *enginespec.Player
}

// kind is the player's tournament.PlayerInfo.Kind: "external" for the
// [external] engine, "weights" for the in-process engine.
func (p Player) kind() string {
	if p.external || p.other != nil {
		return "external"
	}
	return "weights"
}

// Player is one of the run's vectors (vec: genes then [[param]] values)
// as a player named name, from source: the [external] engine with its
// values, or the in-process engine with its road weights (and its
// [[param]] settings). Errors: those of the run's Engine.Referee and
// referee.VectorReferee.Player (a vector of the wrong length, a value
// that is not finite).
func (r *Run) Player(name, source string, vec []float64) (Player, error) {
	p := Player{name: name, source: source, vec: vec, external: r.External != nil}
	if p.external {
		return p, nil
	}
	w, err := r.weights(vec)
	p.weights = w
	return p, err
}

// weights is the road weights of one of the run's vectors: its genes of
// the run's schema, or engine.weights when the run tunes [[param]]
// tables alone.
func (r *Run) weights(vec []float64) (engine.Weights, error) {
	ref, err := r.Engine.Referee(r.Depth, r.Width)
	if err != nil {
		return engine.Weights{}, err
	}
	w, _, err := ref.Player(vec)
	return w, err
}

// Opponent is an opponent that is not one of the run's vectors:
// DefaultsOpponent (an [external] run's), an external engine's option
// list (IsEngineSpec) or a baseline name or weight file, named by its
// file's name (or as given), never "tuned" (the tuned vector's name in
// every match). Errors: EngineSpec's, configs.LoadWeights'.
func (r *Run) Opponent(given string) (Player, error) {
	if given == DefaultsOpponent && r.External != nil {
		return Player{name: DefaultsOpponent, external: true, source: "the external engine at its own defaults: " + r.External.Engine}, nil
	}
	if IsEngineSpec(given) {
		o, err := EngineSpec(given)
		if err != nil {
			return Player{}, err
		}
		name := o.Name
		if name == "" {
			name = filepath.Base(o.Program)
		}
		return Player{name: notTuned(name), source: given, other: &o}, nil
	}
	wf, err := configs.LoadWeights(given)
	if err != nil {
		return Player{}, err
	}
	name := wf.Name
	if name == "" {
		name = given
	}
	return Player{name: notTuned(name), source: given, weights: wf.Weights()}, nil
}

// notTuned renames an opponent named "tuned", the tuned vector's name in
// every match, to "tuned#2".
func notTuned(name string) string {
	if name == "tuned" {
		return "tuned#2"
	}
	return name
}

// opponent is a ladder opponent resolved to a player, with the slug that
// names its game logs and charts.
type opponent struct {
	given string
	slug  string
	Player
}

// opponents resolves the configured opponents (given): baselines and
// weight files by configs.LoadWeights, Halfway from the records (recs
// are the run's steps), StartOpponent from Engine.Start. An opponent that
// cannot be played is left out with a note.
func (r *Run) opponents(given []string, recs []optimize.Record) ([]opponent, []string, error) {
	var out []opponent
	var notes []string
	slugs := map[string]bool{}
	for _, g := range given {
		o := opponent{given: g}
		switch {
		case g == Halfway:
			if len(recs) < 2 {
				notes = append(notes, fmt.Sprintf("%q was skipped: the run has only %d %s, so its halfway vector is the tuned one", Halfway, len(recs), r.Unit))
				continue
			}
			h := (len(recs) - 1) / 2
			p, err := r.Player(Halfway, fmt.Sprintf("%s: the run's best vector after %s %d of %d", Halfway, r.Unit, h, len(recs)), recs[h].Best)
			if err != nil {
				return nil, nil, fmt.Errorf("%s %d's best vector: %w", r.Unit, h, err)
			}
			o.Player = p
		case g == StartOpponent:
			vec, from, err := r.Engine.Start()
			if err != nil {
				return nil, nil, fmt.Errorf("the start vector: %w", err)
			}
			o.Player = Player{name: StartOpponent, vec: vec, external: r.External != nil, source: "start: " + from}
			if !o.external {
				if o.weights, err = r.weights(vec); err != nil {
					return nil, nil, fmt.Errorf("the start vector: %w", err)
				}
			}
		default:
			p, err := r.Opponent(g)
			if err != nil {
				return nil, nil, err
			}
			o.Player = p
		}
		o.name = notTuned(o.name)
		o.slug = Slug(g)
		if o.other != nil {
			o.slug = Slug(o.name)
		}
		for base, k := o.slug, 2; slugs[o.slug]; k++ {
			o.slug = fmt.Sprintf("%s-%d", base, k)
		}
		slugs[o.slug] = true
		out = append(out, o)
	}
	return out, notes, nil
}

// IsEngineSpec reports whether a ladder opponent is an external engine's
// option list (it sets cmd=) rather than a baseline, a weight file or a
// run's vector.
func IsEngineSpec(given string) bool {
	words, err := enginespec.SplitCommand(given)
	if err != nil {
		return strings.Contains(given, "cmd=")
	}
	for _, w := range words {
		if strings.HasPrefix(w, "cmd=") {
			return true
		}
	}
	return false
}

// EngineSpec resolves an opponent's option list as arena's -engine does;
// only an external engine (cmd=) is taken: baselines name the in-process
// engine's vectors. Errors name the word, or say why the program cannot
// be run (tournament.CheckProgram).
func EngineSpec(given string) (enginespec.Player, error) {
	words, err := enginespec.SplitCommand(given)
	if err != nil {
		return enginespec.Player{}, err
	}
	spec, err := enginespec.Parse(words)
	if err != nil {
		return enginespec.Player{}, err
	}
	o, err := spec.Resolve()
	if err != nil {
		return o, err
	}
	if err := tournament.CheckProgram(o.Argv(), o.Dir); err != nil {
		return o, err
	}
	return o, nil
}

// settings is the search of a player of the run at a depth and width,
// with the referee that made it: the engine settings with the [[param]]
// values of vec (the run's vector the player stands for) set on them; the
// engine settings alone for vec nil (a fixed opponent).
func (r *Run) settings(vec []float64, depth, width int) (engine.Settings, *referee.VectorReferee, error) {
	ref, err := r.Engine.Referee(depth, width)
	if err != nil {
		return engine.Settings{}, nil, err
	}
	if vec == nil {
		return ref.Settings, ref, nil
	}
	_, s, err := ref.Player(vec)
	return s, ref, err
}

// settingsLine says how an in-process player plays when it is not plain
// (tournament.PlayerInfo.Settings): its clock and the tuned parameters'
// values (params, those of ref), "" for a player of a run on the road
// weights at a fixed depth.
func settingsLine(ref *referee.VectorReferee, vec []float64, s engine.Settings, tc tournament.TimeControl) string {
	var parts []string
	if !tc.IsZero() {
		parts = append(parts, fmt.Sprintf("%s, depth ≤ %d", tc, s.Depth))
	}
	if params, _ := ref.VectorParams(); len(params) > 0 && ref.External == nil { // an [external] run's in-process opponents play [engine]'s search
		for _, p := range params {
			parts = append(parts, fmt.Sprintf("%s=%s", p.Name, strconv.FormatFloat(p.Get(s), 'g', -1, 64)))
		}
		if vec == nil {
			parts = append(parts, "(the run's settings)")
		}
	}
	return strings.Join(parts, " ")
}

// entrant is p as a tournament entrant at a depth and width (the
// in-process engine's; an external engine searches as its args say) and
// clock, with the values file written for it, if any, and how it plays
// (tournament.PlayerInfo.Settings).
func (r *Run) entrant(p Player, depth, width int, tc tournament.TimeControl) (tournament.Entrant, string, string, error) {
	if o := p.other; o != nil {
		e := tournament.Entrant{Engine: o.Engine}
		if e.Time.IsZero() {
			e.Time = tc
		}
		e.Name, tc = p.name, e.Time
		line := "external engine " + strings.Join(o.Argv(), " ")
		if len(o.InitStrings) > 0 {
			line += ", init " + strings.Join(o.InitStrings, "; ")
		}
		return e, "", clockFirst(tc, line), nil
	}
	if !p.external {
		if depth == 0 { // an [external] run's rung at the external engine's own search
			depth = r.Depth
		}
		s, ref, err := r.settings(p.vec, depth, width)
		if err != nil {
			return tournament.Entrant{}, "", "", err
		}
		return tournament.Entrant{Engine: tournament.Engine{Name: p.name, Weights: p.weights, Settings: s, Time: tc}}, "", settingsLine(ref, p.vec, s, tc), nil
	}
	ref, err := r.Engine.Referee(r.Depth, r.Width)
	if err != nil {
		return tournament.Entrant{}, "", "", err
	}
	ref.Time = tc
	var e tournament.Entrant
	var file string
	if p.vec == nil {
		e, file, err = ref.External.Entrant(p.name, nil, tc)
	} else {
		e, file, err = ref.Entrant(p.name, p.vec)
	}
	line := r.External.Engine
	if p.vec == nil {
		line += ", at its own defaults"
	} else {
		line += ": " + r.Engine.Format(p.vec)
	}
	return e, file, clockFirst(tc, line), err
}

// clockFirst is a player's line with its clock before it, when it plays
// by one: "st=0.05, external engine ./x".
func clockFirst(tc tournament.TimeControl, line string) string {
	if tc.IsZero() {
		return line
	}
	return tc.String() + ", " + line
}

// identical says why the tuned player and an opponent would play the
// same games, "" when they would not (or it cannot tell): the [external]
// engine with the same values as they reach it (the opponent at its
// defaults: the defaults it listed), or the in-process engine with the
// same road weights and search settings. Colour-swapped pairs of such
// deterministic twins split 1–1, and a match between them measures
// nothing: its interval would have zero width.
func (r *Run) identical(tuned, o Player) string {
	switch {
	case tuned.other != nil || o.other != nil || tuned.external != o.external:
		return ""
	case tuned.external:
		a, b := r.Engine.Played(tuned.vec), r.Engine.Played(o.vec)
		if a == nil || b == nil || !slices.Equal(a, b) {
			return ""
		}
		if o.vec == nil {
			return fmt.Sprintf("the tuned values %s are the engine's defaults", r.Engine.Format(tuned.vec))
		}
		return fmt.Sprintf("the tuned values %s are %s's", r.Engine.Format(tuned.vec), o.name)
	}
	sa, _, err := r.settings(tuned.vec, r.Depth, r.Width)
	if err != nil {
		return ""
	}
	sb, _, err := r.settings(o.vec, r.Depth, r.Width)
	if err != nil || sa != sb || tuned.weights.Schema != o.weights.Schema || !slices.Equal(tuned.weights.Genes, o.weights.Genes) {
		return ""
	}
	return fmt.Sprintf("the tuned vector has %s's road weights and search settings", o.name)
}
