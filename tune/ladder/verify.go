package ladder

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// verificationSeed separates the verification openings from the run's.
const verificationSeed = 0x76616c6964 // "valid"

// SeedMix spreads a rung or step number over a 64-bit seed (the golden
// ratio constant of splitmix64): a match's openings are drawn from the
// run's seed ^ its use's constant ^ number·SeedMix.
const SeedMix = 0x9e3779b97f4a7c15

// At is what a rung of an opponent plays at: a search depth (plies; 0:
// an [external] run's engine at its own search), or a clock with Depth
// as the deepest iteration.
type At struct {
	Depth int
	Clock tournament.TimeControl
}

// Text names a rung's setting of width: "depth 3, width 10", "st=0.05,
// depth 3", "own search" (an external engine's rung without a clock).
func (a At) Text(width int) string {
	if !a.Clock.IsZero() {
		return fmt.Sprintf("%s, depth %d", a.Clock, a.Depth)
	}
	if a.Depth == 0 {
		return "own search"
	}
	return fmt.Sprintf("depth %d, width %d", a.Depth, width)
}

// Ats are the rungs of an opponent: each of depths, then each of clocks
// with depth (the run's engine depth) as the deepest iteration.
func Ats(depths []int, clocks []tournament.TimeControl, depth int) []At {
	var ats []At
	for _, d := range depths {
		ats = append(ats, At{Depth: d})
	}
	for _, tc := range clocks {
		ats = append(ats, At{Depth: depth, Clock: tc})
	}
	return ats
}

// Plan is the verification ladder a run plays, as its [validation] table
// and run directory say: the tuned vector against every opponent at every
// depth and clock.
type Plan struct {
	// Opponents are as configured: baseline names, weight-file paths,
	// external engines' option lists, Halfway, StartOpponent,
	// DefaultsOpponent.
	Opponents []string
	// Depths are the fixed-depth rungs' depths (plies), Width the width
	// of every rung, Clocks the timed rungs' time controls.
	Depths []int
	Width  int
	Clocks []tournament.TimeControl
	// Pairs is each rung's length in game pairs.
	Pairs int
	// SPRT, when not "", stops each rung early (stats.ParseSPRT's form,
	// "elo0,elo1[,alpha,beta]").
	SPRT string
	// Best is the tuned vector, as the run's vectors hold it, and
	// BestFrom where it comes from ("best.json (the checkpoint's best
	// vector)").
	Best     []float64
	BestFrom string
	// Records are the run's steps, Halfway's source.
	Records []optimize.Record
	// Games is the directory of the rungs' game logs (created when a rung
	// is played), Validation the file of the first rung's summary
	// (validation.json), File the file of the rungs (File in the run
	// directory).
	Games, Validation, File string
	// Verify, when set, is told once of the ladder's most games over all
	// rungs; Progress of each rung's games done and total; Rung of each
	// rung played (its games written), its number k (from 1) of the n
	// rungs planned.
	Verify   func(games int)
	Progress func(done, total int)
	Rung     func(r Rung, k, n int)
}

// Result is a ladder played: its rungs, notes on opponents that were not
// played, and its charts (the ladder's, then each SPRT's, LLRChart) for
// the caller to save.
type Result struct {
	Rungs  []Rung
	Notes  []string
	Charts []results.NamedChart
}

// Verify plays the verification ladder of p: the tuned vector against
// every opponent at every depth and clock (Ats), each rung over its own
// fixed openings (a seed from the run's seed and the rung's number; rung 0
// has the seed the single verification match had), optionally stopping
// each on the SPRT. Opponents that cannot be played (Halfway of a run of
// one step, an opponent identical to the tuned vector) are left out with
// a note. It writes each rung's games (<Games>/ladder-<opponent>-<at>.jsonl,
// LogName), the first rung's summary to p.Validation, and the rungs to
// p.File. Errors: an opponent that cannot be resolved, p.SPRT's, a match's
// (ctx cancelled among them), a file that cannot be written.
func (r *Run) Verify(ctx context.Context, p Plan) (*Result, error) {
	tuned, err := r.Player("tuned", p.BestFrom, p.Best)
	if err != nil {
		return nil, fmt.Errorf("the checkpoint's best vector: %w", err)
	}
	opps, notes, err := r.opponents(p.Opponents, p.Records)
	if err != nil {
		return nil, err
	}
	var play []opponent
	for _, o := range opps {
		if why := r.identical(tuned, o.Player); why != "" {
			notes = append(notes, fmt.Sprintf("%q was skipped: identical settings: nothing to verify (%s)", o.given, why))
			continue
		}
		play = append(play, o)
	}
	opps = play
	for _, n := range notes {
		r.logf("verification: %s\n", n)
	}
	var sprt *stats.SPRT
	if p.SPRT != "" {
		sp, err := stats.ParseSPRT(p.SPRT)
		if err != nil {
			return nil, fmt.Errorf("validation.sprt: %w", err)
		}
		sprt = &sp
	}
	res := &Result{Rungs: []Rung{}, Notes: notes}
	if len(opps) == 0 {
		return res, nil
	}
	ats := Ats(p.Depths, p.Clocks, r.Depth)
	r.logf("verification ladder: %s, %d game pairs a rung\n", r.line(opps, p.Depths, p.Clocks, p.Width), p.Pairs)
	if p.Verify != nil {
		p.Verify(2 * p.Pairs * len(opps) * len(ats))
	}
	if err := os.MkdirAll(p.Games, 0o755); err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	var llr []results.NamedChart
	for _, o := range opps {
		for _, a := range ats {
			k := len(res.Rungs)
			sum, table, err := r.Play(ctx, Match{
				A: tuned, B: o.Player, Depth: a.Depth, Width: p.Width, Clock: a.Clock, Pairs: p.Pairs,
				Seed: r.Seed ^ verificationSeed ^ uint64(k)*SeedMix,
				SPRT: sprt, Progress: p.Progress,
			})
			if err != nil {
				return nil, err
			}
			m := sum.Matchups[0]
			rung := Rung{Opponent: o.given, Depth: a.Depth, Width: p.Width, Clock: a.Clock.String(), Summary: sum, Verdict: Verdict(m.Elo, m.EloCI)}
			res.Rungs = append(res.Rungs, rung)
			if err := results.WriteJSONL(filepath.Join(p.Games, LogName(o.slug, rung)+".jsonl"), table.Games); err != nil {
				return nil, err
			}
			if k == 0 {
				if err := results.WriteJSONAtomic(p.Validation, sum); err != nil {
					return nil, err
				}
			}
			at := rung.At()
			if r.External != nil && rung.Depth == 0 && rung.Clock == "" {
				at = r.External.Search
			}
			r.logf("verification: vs %s at %s: %s\n", m.B, at, rung.Line())
			if p.Rung != nil {
				p.Rung(rung, len(res.Rungs), len(opps)*len(ats))
			}
			c, err := LLRChart(o.slug, rung, table.Games)
			if err != nil {
				return nil, err
			}
			if c != nil {
				llr = append(llr, *c)
			}
		}
	}
	if err := results.WriteJSONAtomic(p.File, res.Rungs); err != nil {
		return nil, err
	}
	res.Charts = append([]results.NamedChart{Chart(res.Rungs)}, llr...)
	return res, nil
}

// line is who the ladder plays and how they search: "tuned vs zhou2015,
// halfway at depth 2 and 3, width 10", or for an [external] run "tuned
// (the options Width and DefendWide of ./roadtune-engine) vs defaults,
// the external engine at depth 2 (its argument -depth 2)", with
// in-process baselines' depth and width when it plays any.
func (r *Run) line(opps []opponent, depths []int, clocks []tournament.TimeControl, width int) string {
	names := make([]string, len(opps))
	for i, o := range opps {
		names[i] = o.name
	}
	vs := strings.Join(names, ", ")
	if r.External == nil {
		ds := make([]string, len(depths))
		for i, d := range depths {
			ds[i] = fmt.Sprint(d)
		}
		return fmt.Sprintf("tuned vs %s at depth %s%s, width %d", vs, strings.Join(ds, " and "), ClocksText(clocks), width)
	}
	s := fmt.Sprintf("tuned (%s) vs %s, the external engine at %s", r.External.Tuned, vs, r.External.Search)
	if slices.ContainsFunc(opps, func(o opponent) bool { return !o.external && o.other == nil }) {
		s += fmt.Sprintf(", roadtune's in-process engine at depth %d, width %d", r.Depth, width)
	}
	return s + ClocksText(clocks)
}

// Match is a head-to-head match of the tuned side (A) against an
// opponent (B) over Pairs game pairs of fixed openings.
type Match struct {
	A, B Player
	// Depth and Width are both sides' search (plies, moves; Depth 0: an
	// [external] run's engine at its own search, its in-process opponents
	// at the run's depth).
	Depth, Width int
	Clock        tournament.TimeControl // every game's clock; zero: fixed depth
	Pairs        int
	Seed         uint64      // the opening suite's shuffle
	SPRT         *stats.SPRT // stop early; nil = fixed length
	Progress     func(done, total int)
}

// Play plays m with the entrants, openings and limits of the run: its
// engine's move cap, concurrency and, for in-process engines, Remote; the
// Summary is in the one match shape (arena's summary.json), with the
// table of games. Errors: a side that cannot be an entrant (its values
// file not written), the openings', the runner's (ctx cancelled among
// them), a match that played no game.
func (r *Run) Play(ctx context.Context, m Match) (tournament.Summary, *tournament.Table, error) {
	ea, fa, la, err := r.entrant(m.A, m.Depth, m.Width, m.Clock)
	if err != nil {
		return tournament.Summary{}, nil, err
	}
	eb, fb, lb, err := r.entrant(m.B, m.Depth, m.Width, m.Clock)
	if err != nil {
		return tournament.Summary{}, nil, err
	}
	for _, f := range []string{fa, fb} {
		if f != "" {
			defer os.Remove(f)
		}
	}
	// Distinct openings for every pair: a repeated opening replays a game.
	openings, label, err := r.openings(m.Pairs, m.Seed)
	if err != nil {
		return tournament.Summary{}, nil, err
	}
	return playEntrants(ctx, entrantMatch{
		A: ea, B: eb,
		InfoA:    tournament.PlayerInfo{Name: m.A.name, Kind: m.A.kind(), Source: m.A.source, Settings: la},
		InfoB:    tournament.PlayerInfo{Name: m.B.name, Kind: m.B.kind(), Source: m.B.source, Settings: lb},
		Openings: openings, OpeningsLabel: label,
		Pairs: m.Pairs, Depth: m.Depth, Width: m.Width, MaxMoves: r.MaxMoves,
		Concurrency: r.Concurrency, SPRT: m.SPRT, Progress: m.Progress, Remote: r.Remote,
	})
}

// openings are the openings of a verification match of pairs game pairs
// shuffled by seed, and how to name them: the run's suite (shuffled, its
// first pairs; the run's config made sure it has enough distinct
// openings) or the generated suite with a distinct opening per pair.
func (r *Run) openings(pairs int, seed uint64) ([]tournament.Opening, string, error) {
	if r.Suite == "" {
		openings, radius, err := tournament.SuiteFor(pairs, seed)
		if err != nil {
			return nil, "", err
		}
		return openings, fmt.Sprintf("generated 3-stone suite, radius %d, seed %d (%d openings)", radius, seed, len(openings)), nil
	}
	suite, err := configs.LoadOpenings(r.Suite)
	if err != nil {
		return nil, "", err
	}
	tournament.ShuffleOpenings(suite, seed)
	return suite[:min(pairs, len(suite))], fmt.Sprintf("suite %s, shuffled by seed %d (%d openings)", r.Suite, seed, len(suite)), nil
}
