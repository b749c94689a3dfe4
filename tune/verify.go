package tune

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/enginespec"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tune/ladder"
)

// verificationSeed separates the verification openings from the run's.
const verificationSeed = 0x76616c6964 // "valid"

// seedMix spreads a rung or step number over a 64-bit seed (the golden
// ratio constant of splitmix64).
const seedMix = 0x9e3779b97f4a7c15

// player is one side of a verification match: the entrant's name in the
// games and the Summary, its weights, and what it was given as (a baseline
// name, a weight-file path, a vector of the run).
type player struct {
	name    string
	source  string
	weights engine.Weights
	// vec is the run's vector the player stands for, nil for a fixed
	// opponent: with [[param]] tables its search settings come from it
	// (Config.playerSettings), a fixed opponent's are the run's own.
	vec []float64
	// external marks a player that is the [external] engine: with the
	// values of vec, or at its own defaults for vec nil (DefaultsOpponent).
	external bool
	// other, when set, is an opponent given as an external engine's option
	// list, as arena's -engine takes it ("name=Cloudict cmd=./gameEngine
	// dir=… initstr=\"depth 3\"").
	other *enginespec.Player
}

// entrant is p as a tournament entrant at a depth and width (the
// in-process engine's; an external engine searches as its args say) and
// clock, with the values file written for it, if any, and how it plays
// (tournament.PlayerInfo.Settings).
func (j *Job) entrant(p player, depth, width int, tc tournament.TimeControl) (tournament.Entrant, string, string, error) {
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
		if !tc.IsZero() {
			line = tc.String() + ", " + line
		}
		return e, "", line, nil
	}
	if !p.external {
		if depth == 0 { // an [external] run's rung at the external engine's own search
			depth = j.cfg.Engine.Depth
		}
		s, err := j.cfg.playerSettings(p.vec, depth, width)
		if err != nil {
			return tournament.Entrant{}, "", "", err
		}
		return tournament.Entrant{Engine: tournament.Engine{Name: p.name, Weights: p.weights, Settings: s, Time: tc}}, "", j.cfg.playerLine(p.vec, s, tc), nil
	}
	r, err := j.cfg.playerRef(j.cfg.Engine.Depth, j.cfg.Engine.Width)
	if err != nil {
		return tournament.Entrant{}, "", "", err
	}
	r.Time = tc
	var e tournament.Entrant
	var file string
	if p.vec == nil {
		e, file, err = r.External.Entrant(p.name, nil, tc)
	} else {
		e, file, err = r.Entrant(p.name, p.vec)
	}
	line := j.cfg.External.describe()
	if p.vec == nil {
		line += ", at its own defaults"
	} else {
		line += ": " + j.cfg.formatVector(p.vec)
	}
	if !tc.IsZero() {
		line = tc.String() + ", " + line
	}
	return e, file, line, err
}

// match is a head-to-head match of the tuned vector (A) against an
// opponent (B) over game pairs of fixed openings.
type match struct {
	a, b         player
	depth, width int
	tc           tournament.TimeControl // every game's clock; zero: fixed depth
	pairs        int
	seed         uint64      // the opening suite's shuffle
	sprt         *stats.SPRT // stop early; nil = fixed length
	progress     func(done, total int)
}

// play plays m (ladder.Play) with the entrants, openings and limits of
// the run: its engine's move cap, concurrency and, for in-process
// engines, Options.Remote.
func (j *Job) play(ctx context.Context, m match) (tournament.Summary, *tournament.Table, error) {
	ea, fa, la, err := j.entrant(m.a, m.depth, m.width, m.tc)
	if err != nil {
		return tournament.Summary{}, nil, err
	}
	eb, fb, lb, err := j.entrant(m.b, m.depth, m.width, m.tc)
	if err != nil {
		return tournament.Summary{}, nil, err
	}
	for _, f := range []string{fa, fb} {
		if f != "" {
			defer os.Remove(f)
		}
	}
	// Distinct openings for every pair: a repeated opening replays a game.
	openings, label, err := j.matchOpenings(m.pairs, m.seed)
	if err != nil {
		return tournament.Summary{}, nil, err
	}
	return ladder.Play(ctx, ladder.Match{
		A: ea, B: eb,
		InfoA:    tournament.PlayerInfo{Name: m.a.name, Kind: m.a.kind(), Source: m.a.source, Settings: la},
		InfoB:    tournament.PlayerInfo{Name: m.b.name, Kind: m.b.kind(), Source: m.b.source, Settings: lb},
		Openings: openings, OpeningsLabel: label,
		Pairs: m.pairs, Depth: m.depth, Width: m.width, MaxMoves: j.cfg.Engine.MaxMoves,
		Concurrency: j.cfg.Concurrency, SPRT: m.sprt, Progress: m.progress, Remote: j.opts.Remote,
	})
}

// tunedPlayer is the checkpoint's best vector (never best.json, which a
// user may have edited) as player A.
func (j *Job) tunedPlayer() (player, error) {
	file := FileBest
	if j.cfg.External != nil {
		file = FileBestSettings
	}
	p, err := j.runPlayer("tuned", file+" (the checkpoint's best vector)", j.cp.Best)
	if err != nil {
		return player{}, fmt.Errorf("the checkpoint's best vector: %w", err)
	}
	return p, nil
}

// runPlayer is one of the run's vectors as a player: the [external]
// engine with its values, or the in-process engine with its road weights
// (and its [[param]] settings).
func (j *Job) runPlayer(name, source string, v []float64) (player, error) {
	p := player{name: name, source: source, vec: v, external: j.cfg.External != nil}
	if p.external {
		return p, nil
	}
	w, err := j.vector(v)
	p.weights = w
	return p, err
}

// fixedPlayer is an opponent that is not one of the run's vectors:
// DefaultsOpponent, or a baseline name or weight file (baselinePlayer).
func (j *Job) fixedPlayer(given string) (player, error) {
	if given == DefaultsOpponent && j.cfg.External != nil {
		return player{name: DefaultsOpponent, external: true, source: "the external engine at its own defaults: " + j.cfg.External.describe()}, nil
	}
	if isEngineSpec(given) {
		o, err := engineSpec(given)
		if err != nil {
			return player{}, err
		}
		name := o.Name
		if name == "" {
			name = filepath.Base(o.Program)
		}
		if name == "tuned" {
			name = "tuned#2"
		}
		return player{name: name, source: given, other: &o}, nil
	}
	return baselinePlayer(given)
}

// vector is the road weights of one of the run's vectors: its genes of
// the run's schema, or engine.weights when the run tunes [[param]]
// tables alone.
func (j *Job) vector(v []float64) (engine.Weights, error) {
	r, err := j.cfg.playerRef(j.cfg.Engine.Depth, j.cfg.Engine.Width)
	if err != nil {
		return engine.Weights{}, err
	}
	w, _, err := r.Player(v)
	return w, err
}

// isEngineSpec reports whether a ladder opponent is an external engine's
// option list (it sets cmd=) rather than a baseline, a weight file or a
// run's vector.
func isEngineSpec(given string) bool {
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

// engineSpec resolves an opponent's option list as arena's -engine does;
// only an external engine (cmd=) is taken: baselines name the in-process
// engine's vectors. Errors name the word.
func engineSpec(given string) (enginespec.Player, error) {
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

// kind is the player's tournament.PlayerInfo.Kind: "external" for the
// [external] engine, "weights" for the in-process engine.
func (p player) kind() string {
	if p.external || p.other != nil {
		return "external"
	}
	return "weights"
}

// matchOpenings are the openings of a verification match of pairs game
// pairs shuffled by seed, and how to name them: the config's suite
// (shuffled, its first pairs; Validate made sure it has enough distinct
// openings) or the generated suite with a distinct opening per pair.
func (j *Job) matchOpenings(pairs int, seed uint64) ([]tournament.Opening, string, error) {
	if j.cfg.generatedOpenings() {
		openings, radius, err := tournament.SuiteFor(pairs, seed)
		if err != nil {
			return nil, "", err
		}
		return openings, fmt.Sprintf("generated 3-stone suite, radius %d, seed %d (%d openings)", radius, seed, len(openings)), nil
	}
	suite, err := configs.LoadOpenings(j.cfg.Openings)
	if err != nil {
		return nil, "", err
	}
	tournament.ShuffleOpenings(suite, seed)
	return suite[:min(pairs, len(suite))], fmt.Sprintf("suite %s, shuffled by seed %d (%d openings)", j.cfg.Openings, seed, len(suite)), nil
}
