package referee

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tournament/wdl"
)

// VectorReferee plays matches between weight vectors for the optimizers
// (it implements optimize.Referee and optimize.Sampler) with the
// in-process engine.
//
// A match is Pairs game pairs, colours swapped within each pair, every pair
// from its own opening. Each match draws its openings afresh (MatchOpenings):
// Pairs distinct openings of the suite, chosen by the batch seed and the
// match's index, so no generation or group shares one opening and a fitness
// built from many matches sees many openings (a fitness from few openings
// fits those openings, not the game). The suite is the generated 3-stone suite
// (tournament.SuiteFor: the smallest radius ≥ 3 with a distinct opening per
// pair, or radius OpeningRadius when set), or Openings when given (read
// at each batch; Setup.Check reports one that does not parse). All games
// of a batch go through one worker pool (tournament.Runner), so every core
// stays busy across matches, and the outcomes depend only on the seed, the
// matches and the settings, not on the concurrency (Settings must then have
// no MoveTime, and Time must be zero). The in-process engines and their
// tables come from the process's pool (tournament.Runner.Engines nil), so
// later batches and later referees reuse them; the external processes are
// kept between batches: use a VectorReferee by pointer.
type VectorReferee struct {
	// Setup is what the games are played by: schema, settings,
	// parameters, external engine, clock, pairs, openings, early stop,
	// move limit (package cluster sends it to its workers as it is). An
	// External engine's processes are kept between batches
	// (tournament.ProcessPool) until Close.
	Setup
	// Concurrency is the number of games at once (default GOMAXPROCS).
	Concurrency int
	// Progress, when set, is told the games done and the games of the batch.
	Progress func(done, total int)
	// GameLog, when set, receives every game of the batch in game order;
	// matches are named "m<index>.A" and "m<index>.B". An error stops the
	// batch.
	GameLog func(tournament.GameRecord) error

	processes tournament.ProcessPool // external processes kept between batches
	parsed    parsedSuite            // Openings read once, for every batch
}

// parsedSuite is a referee's Openings read (Setup.suite) at its first
// batch, kept for the next ones: reading the balanced suite takes about
// 80 µs, a few per cent of a batch of fast games. from is the slice it was
// read from; a referee whose Openings is replaced by another slice reads
// that one.
type parsedSuite struct {
	mu    sync.Mutex
	from  []string
	suite []tournament.Opening
}

// GameLogger is a referee (an optimize.Referee, e.g. tune's
// Options.Referee) that can pass the games it plays on, for output.games:
// its user calls SetGameLog before the first game, and the referee then
// calls log with every game of each call in game order, numbered as
// VectorReferee.GameLog numbers them.
type GameLogger interface {
	SetGameLog(log func(tournament.GameRecord) error)
}

var (
	_ optimize.Referee = (*VectorReferee)(nil)
	_ optimize.Sampler = (*VectorReferee)(nil)
)

// matchOpeningStream separates the per-match opening draws from other uses
// of a batch seed ("matchops" in ASCII); openingSetStream the draws of the
// opening sets that matches share (optimize.Match.OpeningSet; "opensets").
const (
	matchOpeningStream = 0x6d617463686f7073
	openingSetStream   = 0x6f70656e73657473
)

// openings is a copy of Openings read (Setup.suite), read at the first
// call and again only when Openings is another slice. Errors: an opening
// that does not parse.
func (r *VectorReferee) openings() ([]tournament.Opening, error) {
	c := &r.parsed
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.from) != len(r.Openings) || &c.from[0] != &r.Openings[0] {
		suite, err := r.suite()
		if err != nil {
			return nil, err
		}
		c.from, c.suite = r.Openings, suite
	}
	return slices.Clone(c.suite), nil
}

// shuffledSuite is the batch's opening suite, shuffled by the seed.
// Errors: an opening of Openings that does not parse.
func (r *VectorReferee) shuffledSuite(seed uint64) ([]tournament.Opening, error) {
	pairs := max(r.Pairs, 1)
	if len(r.Openings) > 0 {
		suite, err := r.openings()
		if err != nil {
			return nil, fmt.Errorf("referee: %w", err)
		}
		tournament.ShuffleOpenings(suite, seed)
		return suite, nil
	}
	if r.OpeningRadius == 0 {
		// The smallest suite (radius ≥ 3) with a distinct opening per pair.
		suite, _, err := tournament.SuiteFor(pairs, seed)
		return suite, err
	}
	return tournament.GenerateOpenings(r.OpeningRadius, seed)
}

// MatchOpenings returns the openings of the first n matches of a batch
// with this seed: out[i][k] is pair k of match i. The Pairs openings of a
// match are distinct whenever the suite holds that many (else they cycle
// through it); different matches draw independently (a PCG seeded by the
// batch seed and the match index), so a match's openings do not depend on
// how many matches share its batch.
func (r *VectorReferee) MatchOpenings(seed uint64, n int) ([][]tournament.Opening, error) {
	return r.matchOpenings(seed, 0, make([]optimize.Match, n))
}

// matchOpenings returns the openings of matches [first, first+len(ms)) of
// a batch with this seed, as MatchOpenings does for the whole batch; a
// match with an OpeningSet k > 0 draws set k's openings instead (a PCG
// seeded by the batch seed and k), the same for every match of the set.
func (r *VectorReferee) matchOpenings(seed uint64, first int, ms []optimize.Match) ([][]tournament.Opening, error) {
	n := len(ms)
	suite, err := r.shuffledSuite(seed)
	if err != nil {
		return nil, err
	}
	if len(suite) == 0 {
		return nil, fmt.Errorf("referee: the opening suite is empty")
	}
	pairs := max(r.Pairs, 1)
	out := make([][]tournament.Opening, n)
	idx := make([]int, len(suite))
	for i := range out {
		for j := range idx {
			idx[j] = j
		}
		rng := rand.New(rand.NewPCG(seed^matchOpeningStream, uint64(first+i)))
		if k := ms[i].OpeningSet; k > 0 {
			rng = rand.New(rand.NewPCG(seed^openingSetStream, uint64(k)))
		}
		ops := make([]tournament.Opening, pairs)
		for k := range ops {
			j := k % len(idx)
			if k < len(idx) { // partial Fisher–Yates: a distinct pick per pair
				s := j + rng.IntN(len(idx)-j)
				idx[j], idx[s] = idx[s], idx[j]
			}
			ops[k] = suite[idx[j]]
		}
		out[i] = ops
	}
	return out, nil
}

// Range places a slice of matches inside a batch: they are matches
// [First, First+len(matches)) of a batch of Total matches. A batch played
// in ranges (anywhere, in any order) gives exactly the games of the whole
// batch: each match draws its openings by its index in the batch, the
// early-stop rule sees only its own match, and games keep their numbers
// and names in the whole batch (match i's players are "m<i>.A" and
// "m<i>.B"; pair k of match i is game pair k·Total+i, its games 2(k·Total+i)
// and 2(k·Total+i)+1).
type Range struct {
	First int // index of the range's first match in the batch (≥ 0)
	Total int // matches in the whole batch (≥ First + the range's matches)
}

// check fails unless n matches fit the range.
func (rg Range) check(n int) error {
	if rg.First < 0 || rg.Total < rg.First+n {
		return fmt.Errorf("referee: range of %d matches from %d does not fit a batch of %d", n, rg.First, rg.Total)
	}
	return nil
}

// game maps a game of the range's own schedule (range-local game and
// entrant indices) to its place in the whole batch.
func (rg Range) game(g tournament.GameRecord, n int) tournament.GameRecord {
	k, i := g.Pair/n, g.Pair%n // pair k of range match i
	g.Pair = k*rg.Total + rg.First + i
	g.Game = 2*g.Pair + g.Game%2
	g.BlackIndex += 2 * rg.First
	g.WhiteIndex += 2 * rg.First
	return g
}

// Play plays every match and returns their outcomes from A's view, in the
// order of matches. Errors: a vector with the wrong number of genes or a
// NaN/Inf gene (naming the match), a cancelled ctx (wrapping ctx.Err()), a
// GameLog error.
func (r *VectorReferee) Play(ctx context.Context, seed uint64, matches []optimize.Match) ([]optimize.Outcome, error) {
	if len(matches) == 0 {
		return nil, nil
	}
	return r.PlayRange(ctx, seed, Range{Total: len(matches)}, matches)
}

// PlayRange plays matches [rg.First, rg.First+len(matches)) of a batch of
// rg.Total matches with this seed, exactly as Play plays them inside the
// whole batch (see Range), and returns their outcomes in the order of
// matches; GameLog receives the range's games in game order, numbered
// and named as in the whole batch. Errors: those of Play, and a range
// that does not fit.
func (r *VectorReferee) PlayRange(ctx context.Context, seed uint64, rg Range, matches []optimize.Match) ([]optimize.Outcome, error) {
	if len(matches) == 0 {
		return nil, nil
	}
	t, _, err := r.run(ctx, seed, rg, matches, false)
	if err != nil {
		return nil, err
	}
	return outcomes(t, len(matches))
}

// run plays a range of a batch; with keep it also returns every game in
// game order. The table is indexed by the range's own entrants (2i, 2i+1
// for its match i); the games are numbered as in the whole batch.
func (r *VectorReferee) run(ctx context.Context, seed uint64, rg Range, matches []optimize.Match, keep bool) (*tournament.Table, []tournament.GameRecord, error) {
	if err := rg.check(len(matches)); err != nil {
		return nil, nil, err
	}
	perMatch, err := r.matchOpenings(seed, rg.First, matches)
	if err != nil {
		return nil, nil, err
	}
	entrants := make([]tournament.Entrant, 0, 2*len(matches))
	var files []string
	defer func() {
		for _, f := range files {
			os.Remove(f)
		}
	}()
	for i, m := range matches {
		for _, side := range []struct {
			tag string
			v   []float64
		}{{"A", m.A}, {"B", m.B}} {
			e, file, err := r.entrant(fmt.Sprintf("m%d.%s", rg.First+i, side.tag), side.v)
			if err != nil {
				return nil, nil, fmt.Errorf("match %d, vector %s: %w", rg.First+i, side.tag, err)
			}
			if file != "" {
				files = append(files, file)
			}
			entrants = append(entrants, e)
		}
	}
	pairs := max(r.Pairs, 1)
	openings := make([]tournament.Opening, 0, pairs*len(matches))
	fixtures := make([]tournament.Fixture, 0, pairs*len(matches))
	for k := range pairs {
		for i := range matches {
			fixtures = append(fixtures, tournament.Fixture{A: 2 * i, B: 2*i + 1, Opening: len(openings)})
			openings = append(openings, perMatch[i][k])
		}
	}
	var games []tournament.GameRecord
	var onGame func(tournament.GameRecord) error
	if keep || r.GameLog != nil {
		onGame = func(g tournament.GameRecord) error {
			g = rg.game(g, len(matches))
			if keep {
				games = append(games, g)
			}
			if r.GameLog != nil {
				return r.GameLog(g)
			}
			return nil
		}
	}
	stop, err := r.pairingStop(matches)
	if err != nil {
		return nil, nil, err
	}
	run := tournament.Runner{
		PairingStop: stop,
		Entrants:    entrants,
		Openings:    openings,
		MaxMoves:    r.MaxMoves,
		Concurrency: r.Concurrency,
		Progress:    r.Progress,
		OnGame:      onGame,
	}
	if r.External != nil {
		run.Processes = &r.processes
	}
	t, err := run.Run(ctx, fixtures)
	if err != nil {
		return nil, nil, err
	}
	return t, games, nil
}

// outcomes reads the n matches' outcomes from A's view off a batch's table.
func outcomes(t *tournament.Table, n int) ([]optimize.Outcome, error) {
	out := make([]optimize.Outcome, n)
	for i := range out {
		m, ok := t.Lookup(2*i, 2*i+1)
		if !ok {
			return nil, fmt.Errorf("referee: match %d has no games", i)
		}
		out[i] = m.Games
	}
	return out, nil
}

// ParseEarlyStop checks an EarlyStop rule ("", "off", "decided" or
// "sprt:ELO0,ELO1[,ALPHA,BETA]") and returns its SPRT, if any.
func ParseEarlyStop(rule string) (sprt *stats.SPRT, on bool, err error) {
	switch {
	case rule == "" || rule == "off":
		return nil, false, nil
	case rule == "decided":
		return nil, true, nil
	case strings.HasPrefix(rule, "sprt:"):
		sp, err := stats.ParseSPRT(strings.TrimPrefix(rule, "sprt:"))
		if err != nil {
			return nil, false, err
		}
		return &sp, true, nil
	}
	return nil, false, fmt.Errorf("early stop %q: want off, decided or sprt:ELO0,ELO1[,ALPHA,BETA]", rule)
}

// pairingStop is the runner's PairingStop for the batch's WinnerOnly
// matches (entrants 2i, 2i+1 are match i's A and B), nil when none is.
func (r *VectorReferee) pairingStop(matches []optimize.Match) (func(a, b int, pairs []int, scheduled int) bool, error) {
	sprt, on, err := ParseEarlyStop(r.EarlyStop)
	if err != nil || !on || !slices.ContainsFunc(matches, func(m optimize.Match) bool { return m.WinnerOnly }) {
		return nil, err
	}
	return func(a, _ int, pairs []int, scheduled int) bool {
		if !matches[a/2].WinnerOnly {
			return false
		}
		if Decided(pairs, scheduled) {
			return true
		}
		if sprt == nil {
			return false
		}
		var penta wdl.Pentanomial
		for _, p := range pairs {
			penta[p]++
		}
		_, d, err := sprt.Test(penta.Counts())
		return err == nil && d != stats.Continue
	}, nil
}

// Decided reports whether a match of scheduled game pairs has its winner
// settled after the pairs played so far (pentanomial indices from A's
// view, wdl.PairScore): A wins the match when its points exceed B's
// (optimize.Outcome.AWins), and each pair still to play moves the points
// difference by at most 2 either way.
func Decided(pairs []int, scheduled int) bool {
	diff := 0 // A's points minus B's
	for _, p := range pairs {
		diff += p - 2 // index = 2·(A's points in the pair), so A − B = index − 2
	}
	left := 2 * (scheduled - len(pairs))
	return diff > left || diff+left <= 0
}
