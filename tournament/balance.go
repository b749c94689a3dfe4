package tournament

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Colour bias of openings.
//
// Connect6 engines show a strong first/second-player bias, and between
// deterministic road engines an opening often decides the game by colour
// alone: the side with the favoured colour wins both games of the pair
// whatever the weights (a "colour-decided" pair, WL from either player's
// view). Such an opening adds a game pair to a match and no information
// about the weights. Chess testing has the same problem and two answers:
// colour-swapped game pairs counted as pentanomial outcomes (fishtest#348;
// unpaired, trinomial tests are biased with unbalanced openings,
// cutechess#681), and books pruned of lines whose outcome hardly depends on
// the players (fishtest's UHO books drop lines whose draw rate is outside
// [0.1, 0.9]). For road engines, which almost never draw, the analogue of
// the draw rate is the fraction of colour-decided pairs, and the analogue
// of the book's balance is Black's score: BalanceSuite plays every
// candidate opening between a set of reference players and keeps the
// openings on which the result depends on who plays, not on which colour.

// BiasOptions says how to measure the colour bias of openings: which
// reference players meet, and how the games are run.
type BiasOptions struct {
	// References are the players that meet on every opening, each unordered
	// pairing once per opening as a colour-swapped game pair. At least two,
	// with distinct names; two in-process entrants with the same weights
	// and settings are an error (their pairs are colour-decided by
	// construction). The measure describes the openings for players like
	// these: use references like the vectors that will meet on the suite
	// (baselines, random vectors of the tuning range) at the same depth.
	References []Entrant
	// MaxMoves adjudicates a draw after this many moves (Runner.MaxMoves).
	MaxMoves int
	// Concurrency is the number of games played at once (Runner.Concurrency).
	// Results do not depend on it when the references are deterministic.
	Concurrency int
	// Engines, when set, lends the runner its in-process engines.
	Engines *EnginePool
	// Progress, when set, is called after each game (Runner.Progress).
	Progress func(done, total int)
}

// OpeningBias is the colour record of one opening over the reference
// pairings: every count is over the games or game pairs played from it.
type OpeningBias struct {
	// Opening is the opening; Index its position in the suite measured.
	Opening Opening
	Index   int
	// Games and Pairs count the games and the colour-swapped game pairs.
	Games, Pairs int
	// BlackWins, WhiteWins and Draws count the games by result.
	BlackWins, WhiteWins, Draws int
	// BlackBoth and WhiteBoth count the colour-decided pairs: those in
	// which Black (White) won both games, the two players having swapped
	// colours in between.
	BlackBoth, WhiteBoth int
}

// BlackScore returns Black's points per game (win 1, draw ½) over the
// opening's games, in [0, 1]; 0.5 when there are none.
func (b OpeningBias) BlackScore() float64 {
	if b.Games == 0 {
		return 0.5
	}
	return (float64(b.BlackWins) + 0.5*float64(b.Draws)) / float64(b.Games)
}

// ColourDecided returns the fraction of the opening's game pairs that the
// same colour won twice, in [0, 1]; 0 when there are none. 0 means every
// pair was won by one player with both colours (or split by draws): the
// weights decided; 1 means the colour decided every pair.
func (b OpeningBias) ColourDecided() float64 {
	if b.Pairs == 0 {
		return 0
	}
	return float64(b.BlackBoth+b.WhiteBoth) / float64(b.Pairs)
}

// SuiteBias is the colour bias of a whole suite against a set of
// references (see MeasureSuite).
type SuiteBias struct {
	// Openings, Pairs and Games count what was measured.
	Openings int `json:"openings"`
	Pairs    int `json:"pairs"`
	Games    int `json:"games"`
	// BlackScore is Black's points per game over all games, in [0, 1]
	// (0.5 for a suite that favours neither colour on average).
	BlackScore float64 `json:"black_score"`
	// ColourDecided is the fraction of all game pairs that one colour won
	// twice (the mean of OpeningBias.ColourDecided, every opening having as
	// many pairs), in [0, 1]; the lower, the more the games depend on the
	// players.
	ColourDecided float64 `json:"colour_decided"`
	// BlackBoth and WhiteBoth split the colour-decided pairs by colour.
	BlackBoth int `json:"black_both"`
	WhiteBoth int `json:"white_both"`
}

// Bias returns the suite's totals over per-opening records.
func Bias(per []OpeningBias) SuiteBias {
	s := SuiteBias{Openings: len(per)}
	var black, draws int
	for _, b := range per {
		s.Pairs += b.Pairs
		s.Games += b.Games
		s.BlackBoth += b.BlackBoth
		s.WhiteBoth += b.WhiteBoth
		black += b.BlackWins
		draws += b.Draws
	}
	s.BlackScore = 0.5
	if s.Games > 0 {
		s.BlackScore = (float64(black) + 0.5*float64(draws)) / float64(s.Games)
	}
	if s.Pairs > 0 {
		s.ColourDecided = float64(s.BlackBoth+s.WhiteBoth) / float64(s.Pairs)
	}
	return s
}

// checkReferences validates BiasOptions.References.
func checkReferences(refs []Entrant) error {
	if len(refs) < 2 {
		return fmt.Errorf("tournament: colour bias: %d reference players, need at least 2 distinct ones", len(refs))
	}
	for i, a := range refs {
		for j := range i {
			b := refs[j]
			if a.Name == b.Name {
				return fmt.Errorf("tournament: colour bias: references %d and %d are both named %q", j, i, a.Name)
			}
			if a.New == nil && b.New == nil && !a.IsExternal() && !b.IsExternal() &&
				a.Settings == b.Settings && a.Weights.Schema == b.Weights.Schema && slices.Equal(a.Weights.Genes, b.Weights.Genes) {
				return fmt.Errorf("tournament: colour bias: references %q and %q are the same player (weights and settings): their pairs are colour-decided by construction", b.Name, a.Name)
			}
		}
	}
	return nil
}

// MeasureOpenings plays every opening of suite between every unordered
// pairing of o.References, one colour-swapped game pair each, on one
// Runner (one worker pool for all games), and returns one record per
// opening in suite order. That is len(suite)·n(n−1) games for n
// references. Errors: fewer than 2 references, references with the same
// name or the same in-process player, an empty suite, and the Runner's.
func MeasureOpenings(ctx context.Context, suite []Opening, o BiasOptions) ([]OpeningBias, error) {
	if err := checkReferences(o.References); err != nil {
		return nil, err
	}
	if len(suite) == 0 {
		return nil, errors.New("tournament: colour bias: no openings")
	}
	r := &Runner{
		Entrants: o.References, Openings: suite, MaxMoves: o.MaxMoves,
		Concurrency: o.Concurrency, Engines: o.Engines, Progress: o.Progress,
	}
	fixtures := RoundRobin(Indices(len(o.References)), len(suite))
	tab, err := r.Run(ctx, fixtures)
	if err != nil {
		return nil, err
	}
	return TallyOpenings(suite, fixtures, tab.Games)
}

// TallyOpenings counts the games of a schedule by opening: games holds the
// records of fixtures (game 2k and 2k+1 are fixture k's pair, as Runner
// plays them), and fixture openings index suite modulo its length. A game
// without a result, or a fixture whose pair is incomplete, is an error.
func TallyOpenings(suite []Opening, fixtures []Fixture, games []GameRecord) ([]OpeningBias, error) {
	if len(suite) == 0 {
		return nil, errors.New("tournament: colour bias: no openings")
	}
	per := make([]OpeningBias, len(suite))
	for i, op := range suite {
		per[i] = OpeningBias{Opening: op, Index: i}
	}
	byGame := make([]*GameRecord, 2*len(fixtures))
	for i := range games {
		g := &games[i]
		if g.Game < 0 || g.Game >= len(byGame) || byGame[g.Game] != nil {
			return nil, fmt.Errorf("tournament: colour bias: game %d is not one of %d scheduled games, or repeated", g.Game, len(byGame))
		}
		byGame[g.Game] = g
	}
	for k, f := range fixtures {
		b := &per[f.Opening%len(suite)]
		first, second := byGame[2*k], byGame[2*k+1]
		if first == nil || second == nil {
			return nil, fmt.Errorf("tournament: colour bias: game pair %d is incomplete", k)
		}
		for _, g := range []*GameRecord{first, second} {
			b.Games++
			switch g.Result {
			case BlackWins:
				b.BlackWins++
			case WhiteWins:
				b.WhiteWins++
			case Draw:
				b.Draws++
			default:
				return nil, fmt.Errorf("tournament: colour bias: game %d has no result", g.Game)
			}
		}
		b.Pairs++
		if first.Result == second.Result {
			switch first.Result {
			case BlackWins:
				b.BlackBoth++
			case WhiteWins:
				b.WhiteBoth++
			}
		}
	}
	return per, nil
}

// MeasureSuite returns the colour bias of suite against o.References
// (MeasureOpenings totalled by Bias). Use it to compare a balanced suite
// with the suite it was cut from on references not used to cut it (a
// held-out check: other vectors, another depth).
func MeasureSuite(ctx context.Context, suite []Opening, o BiasOptions) (SuiteBias, error) {
	per, err := MeasureOpenings(ctx, suite, o)
	if err != nil {
		return SuiteBias{}, err
	}
	return Bias(per), nil
}

// BalanceCriteria says which openings a balanced suite keeps.
type BalanceCriteria struct {
	// MaxColourDecided is the largest fraction of colour-decided game pairs
	// (OpeningBias.ColourDecided) a kept opening may have, in [0, 1].
	MaxColourDecided float64 `json:"max_colour_decided"`
	// BlackLo and BlackHi bound Black's score (OpeningBias.BlackScore) of a
	// kept opening, 0 ≤ BlackLo ≤ BlackHi ≤ 1: the UHO idea keeps
	// unbalanced but not lost positions.
	BlackLo float64 `json:"black_lo"`
	BlackHi float64 `json:"black_hi"`
}

// DefaultBalanceCriteria returns MaxColourDecided 0.5 and Black's score in
// [0.25, 0.75]: an opening is kept when at most half its pairs are decided
// by colour (over all its pairs, the players decided at least as often as
// the colours) and neither colour wins three games in four from it.
func DefaultBalanceCriteria() BalanceCriteria {
	return BalanceCriteria{MaxColourDecided: 0.5, BlackLo: 0.25, BlackHi: 0.75}
}

// Validate checks the criteria's ranges; the error names the field.
func (c BalanceCriteria) Validate() error {
	in01 := func(x float64) bool { return x >= 0 && x <= 1 } // false for NaN
	switch {
	case !in01(c.MaxColourDecided):
		return fmt.Errorf("tournament: balance: MaxColourDecided %v: want a fraction in [0, 1]", c.MaxColourDecided)
	case !in01(c.BlackLo) || !in01(c.BlackHi) || c.BlackLo > c.BlackHi:
		return fmt.Errorf("tournament: balance: Black score range [%v, %v]: want 0 ≤ BlackLo ≤ BlackHi ≤ 1", c.BlackLo, c.BlackHi)
	}
	return nil
}

// Keep reports whether an opening with record b meets the criteria
// (bounds inclusive). An opening without games is not kept.
func (c BalanceCriteria) Keep(b OpeningBias) bool {
	if b.Pairs == 0 {
		return false
	}
	s := b.BlackScore()
	return b.ColourDecided() <= c.MaxColourDecided && s >= c.BlackLo && s <= c.BlackHi
}

// FilterBalanced returns the records of per that c keeps, in the order of
// per.
func FilterBalanced(per []OpeningBias, c BalanceCriteria) []OpeningBias {
	var out []OpeningBias
	for _, b := range per {
		if c.Keep(b) {
			out = append(out, b)
		}
	}
	return out
}

// BalanceOptions configures BalanceSuite.
type BalanceOptions struct {
	BiasOptions
	// Criteria decide which openings are kept (see
	// DefaultBalanceCriteria; the zero value keeps only openings whose
	// every pair the players decided and that Black scores exactly ½ on).
	Criteria BalanceCriteria
	// MinSuite is the fewest openings the balanced suite may have (and so
	// the fewest candidates); 0 means 1.
	MinSuite int
}

// BalanceReport describes a balanced suite and how it was cut.
type BalanceReport struct {
	// Candidates is the number of candidate openings; Kept the number kept
	// and KeptFraction Kept/Candidates.
	Candidates   int     `json:"candidates"`
	Kept         int     `json:"kept"`
	KeptFraction float64 `json:"kept_fraction"`
	// Before is the bias of the candidates, After that of the kept suite,
	// both over the references' games used to cut it (After is therefore
	// optimistic; measure a held-out check with MeasureSuite).
	Before SuiteBias `json:"before"`
	After  SuiteBias `json:"after"`
	// Games is the number of games played.
	Games int `json:"games"`
	// References names the reference players, Criteria and MaxMoves are
	// the settings used.
	References []string        `json:"references"`
	Criteria   BalanceCriteria `json:"criteria"`
	MaxMoves   int             `json:"max_moves"`
	// PerOpening holds every candidate's record, in candidate order.
	PerOpening []OpeningBias `json:"-"`
}

// BalanceSuite measures the colour bias of every candidate opening against
// o.References (MeasureOpenings) and keeps those that o.Criteria accepts,
// in candidate order (so a prefix of a kept suite cut from a shuffled
// suite is itself a random sample). It returns the kept openings and the
// report.
//
// Errors: fewer than 2 references or references that are the same player;
// invalid criteria; duplicate candidates; fewer candidates than o.MinSuite
// (the error says how many it needs and has); the Runner's errors; and a
// kept suite smaller than o.MinSuite, in which case the kept openings and
// the full report are returned with the error, which suggests more
// candidates (a larger radius) or looser criteria.
func BalanceSuite(ctx context.Context, candidates []Opening, o BalanceOptions) ([]Opening, *BalanceReport, error) {
	if err := checkReferences(o.References); err != nil {
		return nil, nil, err
	}
	if err := o.Criteria.Validate(); err != nil {
		return nil, nil, err
	}
	need := max(o.MinSuite, 1)
	if len(candidates) < need {
		return nil, nil, fmt.Errorf("tournament: balance: %d candidate openings, need at least %d (the minimum suite size)", len(candidates), need)
	}
	seen := make(map[string]int, len(candidates))
	for i, c := range candidates {
		s := c.String()
		if j, ok := seen[s]; ok {
			return nil, nil, fmt.Errorf("tournament: balance: candidate %d (%q) repeats candidate %d", i+1, s, j+1)
		}
		seen[s] = i
	}
	per, err := MeasureOpenings(ctx, candidates, o.BiasOptions)
	if err != nil {
		return nil, nil, err
	}
	kept := FilterBalanced(per, o.Criteria)
	rep := &BalanceReport{
		Candidates: len(candidates), Kept: len(kept),
		KeptFraction: float64(len(kept)) / float64(len(candidates)),
		Before:       Bias(per), After: Bias(kept),
		Criteria: o.Criteria, MaxMoves: o.MaxMoves, PerOpening: per,
	}
	rep.Games = rep.Before.Games
	for _, e := range o.References {
		rep.References = append(rep.References, e.Name)
	}
	suite := make([]Opening, len(kept))
	for i, b := range kept {
		suite[i] = b.Opening
	}
	if len(kept) < need {
		c := o.Criteria
		return suite, rep, fmt.Errorf("tournament: balance: kept %d of %d openings, fewer than the minimum %d: use more candidates (a larger radius) or looser criteria (colour-decided ≤ %g, Black score in [%g, %g])",
			len(kept), len(candidates), need, c.MaxColourDecided, c.BlackLo, c.BlackHi)
	}
	return suite, rep, nil
}
