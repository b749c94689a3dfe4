package tournament

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
)

func TestBalanceCriteriaKeep(t *testing.T) {
	def := DefaultBalanceCriteria()
	for _, c := range []struct {
		name string
		b    OpeningBias
		c    BalanceCriteria
		want bool
	}{
		{"even, players decide", OpeningBias{Games: 6, Pairs: 3, BlackWins: 3, WhiteWins: 3}, def, true},
		{"colour decides all", OpeningBias{Games: 6, Pairs: 3, BlackWins: 6, BlackBoth: 3}, def, false},
		{"half decided, Black 0.75: on the bounds", OpeningBias{Games: 4, Pairs: 2, BlackWins: 3, WhiteWins: 1, BlackBoth: 1}, def, true},
		{"Black score 0.25: on the bound", OpeningBias{Games: 4, Pairs: 2, BlackWins: 1, WhiteWins: 3, WhiteBoth: 1}, def, true},
		{"Black score 5/6 > 0.75", OpeningBias{Games: 6, Pairs: 3, BlackWins: 5, WhiteWins: 1, BlackBoth: 1}, def, false},
		{"Black score 1/6 < 0.25", OpeningBias{Games: 6, Pairs: 3, BlackWins: 1, WhiteWins: 5, WhiteBoth: 1}, def, false},
		{"2/3 decided by both colours", OpeningBias{Games: 6, Pairs: 3, BlackWins: 3, WhiteWins: 3, BlackBoth: 1, WhiteBoth: 1}, def, false},
		{"draws count half", OpeningBias{Games: 4, Pairs: 2, BlackWins: 1, Draws: 2, WhiteWins: 1}, BalanceCriteria{0, 0.5, 0.5}, true},
		{"no games", OpeningBias{}, def, false},
		{"tight decided bound", OpeningBias{Games: 6, Pairs: 3, BlackWins: 4, WhiteWins: 2, BlackBoth: 1}, BalanceCriteria{0.3, 0, 1}, false},
	} {
		if got := c.c.Keep(c.b); got != c.want {
			t.Errorf("%s: Keep(%+v) with %+v = %v, want %v (Black %.3f, decided %.3f)",
				c.name, c.b, c.c, got, c.want, c.b.BlackScore(), c.b.ColourDecided())
		}
	}
}

func TestBalanceCriteriaValidate(t *testing.T) {
	if err := DefaultBalanceCriteria().Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []BalanceCriteria{
		{-0.1, 0, 1}, {1.1, 0, 1}, {math.NaN(), 0, 1}, {0.5, 0.8, 0.2}, {0.5, -0.1, 1}, {0.5, 0, 1.5},
	} {
		if err := c.Validate(); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

func TestTallyOpeningsAndBias(t *testing.T) {
	suite := []Opening{mustOpening(t, "JJ KJJK"), mustOpening(t, "JJ KKLL")}
	// Two fixtures on opening 0 (pairings 0-1, 0-2), one on opening 1;
	// fixture 3 indexes opening 1 modulo the suite.
	fixtures := []Fixture{{0, 1, 0}, {0, 2, 0}, {1, 2, 1}, {0, 1, 3}}
	results := []Result{
		BlackWins, BlackWins, // opening 0, colour-decided for Black
		WhiteWins, BlackWins, // opening 0, ref 2 won both
		WhiteWins, WhiteWins, // opening 1, colour-decided for White
		Draw, BlackWins, // opening 1
	}
	var games []GameRecord // in any order
	for i := len(results) - 1; i >= 0; i-- {
		games = append(games, GameRecord{Game: i, Result: results[i]})
	}
	per, err := TallyOpenings(suite, fixtures, games)
	if err != nil {
		t.Fatal(err)
	}
	want := []OpeningBias{
		{Opening: suite[0], Index: 0, Games: 4, Pairs: 2, BlackWins: 3, WhiteWins: 1, BlackBoth: 1},
		{Opening: suite[1], Index: 1, Games: 4, Pairs: 2, BlackWins: 1, WhiteWins: 2, Draws: 1, WhiteBoth: 1},
	}
	if !reflect.DeepEqual(per, want) {
		t.Fatalf("per-opening\n got %+v\nwant %+v", per, want)
	}
	if per[0].BlackScore() != 0.75 || per[0].ColourDecided() != 0.5 || per[1].BlackScore() != 0.375 {
		t.Errorf("scores %v %v %v", per[0].BlackScore(), per[0].ColourDecided(), per[1].BlackScore())
	}
	s := Bias(per)
	wantS := SuiteBias{Openings: 2, Pairs: 4, Games: 8, BlackScore: 4.5 / 8, ColourDecided: 0.5, BlackBoth: 1, WhiteBoth: 1}
	if s != wantS {
		t.Errorf("Bias = %+v, want %+v", s, wantS)
	}
	if _, err := TallyOpenings(suite, fixtures, games[1:]); err == nil || !strings.Contains(err.Error(), "pair 3 is incomplete") {
		t.Errorf("missing game: %v", err)
	}
	games[5].Result = NoResult // game 2
	if _, err := TallyOpenings(suite, fixtures, games); err == nil || !strings.Contains(err.Error(), "game 2 has no result") {
		t.Errorf("no result: %v", err)
	}
}

// forfeiter is a scripted reference: from each opening it plays legal
// moves (firstLegal) and forfeits at its n-th own move, n taken from a
// table by opening and colour. Black's k-th move comes before White's k-th,
// so Black loses exactly when its n is at most White's: larger n is a
// stronger player.
type forfeiter struct {
	firstLegal
	moves func(opening string, c engine.Color) int
	n     int // moves left before forfeiting
}

func (p *forfeiter) NewGame(ctx context.Context, o Opening, c engine.Color) error {
	p.n = p.moves(o.String(), c)
	return p.firstLegal.NewGame(ctx, o, c)
}

func (p *forfeiter) Play(ctx context.Context, b *engine.Board, last engine.Move) (Reply, error) {
	p.n--
	if p.n <= 0 {
		return Reply{}, &Forfeit{Kind: "test", Detail: "scripted loss"}
	}
	return p.firstLegal.Play(ctx, b, last)
}

// scriptedSuite is four openings with known colour records against
// scriptedRefs:
//   - "players": strengths 2, 4, 6 with either colour: the stronger wins
//     every game; Black 3/6, decided 0/3. Kept.
//   - "black": Black 9, White 1: Black wins every game; Black 6/6, decided
//     3/3. Dropped.
//   - "leaning": as "players" but reference 0 has 5 as Black: it beats
//     reference 1 with Black, so pairing 0-1 is won twice by Black; Black
//     4/6, decided 1/3. Kept by the default criteria.
//   - "white-ish": as "players" but reference 2 has 1 as Black: pairings
//     0-2 and 1-2 are won twice by White; Black 1/6, decided 2/3. Dropped.
func scriptedSuite(t *testing.T) ([]Opening, []Entrant) {
	names := []string{"JJ KJJK", "JJ KKLL", "JJ IIKK", "JJ JKJL"}
	suite := make([]Opening, len(names))
	for i, s := range names {
		suite[i] = mustOpening(t, s)
	}
	var refs []Entrant
	for r := range 3 {
		moves := func(op string, c engine.Color) int {
			strength := 2 * (r + 1)
			switch {
			case op == names[1] && c == engine.Black:
				return 9
			case op == names[1]:
				return 1
			case op == names[2] && r == 0 && c == engine.Black:
				return 5
			case op == names[3] && r == 2 && c == engine.Black:
				return 1
			}
			return strength
		}
		refs = append(refs, Entrant{Engine: Engine{Name: []string{"weak", "middle", "strong"}[r]}, New: func() (Player, error) { return &forfeiter{moves: moves}, nil }})
	}
	return suite, refs
}

func TestMeasureOpeningsScripted(t *testing.T) {
	suite, refs := scriptedSuite(t)
	per, err := MeasureOpenings(context.Background(), suite, BiasOptions{References: refs, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ black, white, bBoth, wBoth int }{
		{3, 3, 0, 0},
		{6, 0, 3, 0},
		{4, 2, 1, 0},
		{1, 5, 0, 2},
	}
	for i, w := range want {
		b := per[i]
		if b.Index != i || b.Opening.String() != suite[i].String() || b.Games != 6 || b.Pairs != 3 ||
			b.BlackWins != w.black || b.WhiteWins != w.white || b.BlackBoth != w.bBoth || b.WhiteBoth != w.wBoth {
			t.Errorf("opening %d: %+v, want %+v", i, b, w)
		}
	}
}

func TestBalanceSuiteScripted(t *testing.T) {
	suite, refs := scriptedSuite(t)
	ctx := context.Background()
	opts := BalanceOptions{BiasOptions: BiasOptions{References: refs}, Criteria: DefaultBalanceCriteria(), MinSuite: 2}
	kept, rep, err := BalanceSuite(ctx, suite, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(kept) != 2 || kept[0].String() != suite[0].String() || kept[1].String() != suite[2].String() {
		t.Fatalf("kept %v, want openings 0 and 2", kept)
	}
	if rep.Candidates != 4 || rep.Kept != 2 || rep.KeptFraction != 0.5 || rep.Games != 24 ||
		!reflect.DeepEqual(rep.References, []string{"weak", "middle", "strong"}) || len(rep.PerOpening) != 4 {
		t.Errorf("report %+v", rep)
	}
	// Before: Black won 14 of 24, 6 of 12 pairs colour-decided; after: 7 of
	// 12, 1 of 6.
	if rep.Before.BlackScore != 14.0/24 || rep.Before.ColourDecided != 0.5 ||
		rep.After.BlackScore != 7.0/12 || rep.After.ColourDecided != 1.0/6 || rep.After.Openings != 2 {
		t.Errorf("before %+v, after %+v", rep.Before, rep.After)
	}

	// Tighter criteria drop "leaning", by either measure.
	for _, c := range []BalanceCriteria{{0.3, 0.25, 0.75}, {0.5, 0.4, 0.6}} {
		opts.Criteria, opts.MinSuite = c, 1
		kept, _, err := BalanceSuite(ctx, suite, opts)
		if err != nil || len(kept) != 1 || kept[0].String() != suite[0].String() {
			t.Errorf("%+v: kept %v, %v", c, kept, err)
		}
	}

	// A kept suite below the minimum: the suite and report come back with
	// an error that says what was kept and what to try.
	opts.Criteria, opts.MinSuite = DefaultBalanceCriteria(), 3
	kept, rep, err = BalanceSuite(ctx, suite, opts)
	if err == nil || !strings.Contains(err.Error(), "kept 2 of 4 openings, fewer than the minimum 3") ||
		!strings.Contains(err.Error(), "larger radius") || len(kept) != 2 || rep == nil || rep.Kept != 2 {
		t.Errorf("kept below minimum: %v, %v, %+v", err, kept, rep)
	}
}

func TestBalanceSuiteErrors(t *testing.T) {
	suite, refs := scriptedSuite(t)
	ctx := context.Background()
	z := Entrant{Engine: Engine{Name: "zhou2015", Weights: baseline(t, "zhou2015"), Settings: fastSettings()}}
	z2 := z
	z2.Name = "copy"
	for _, c := range []struct {
		name       string
		candidates []Opening
		opts       BalanceOptions
		want       string
	}{
		{"one reference", suite, BalanceOptions{BiasOptions: BiasOptions{References: refs[:1]}, Criteria: DefaultBalanceCriteria()}, "1 reference players, need at least 2"},
		{"same player", suite, BalanceOptions{BiasOptions: BiasOptions{References: []Entrant{z, z2}}, Criteria: DefaultBalanceCriteria()}, `references "zhou2015" and "copy" are the same player`},
		{"same name", suite, BalanceOptions{BiasOptions: BiasOptions{References: []Entrant{refs[0], refs[0]}}, Criteria: DefaultBalanceCriteria()}, `both named "weak"`},
		{"too few candidates", suite, BalanceOptions{BiasOptions: BiasOptions{References: refs}, Criteria: DefaultBalanceCriteria(), MinSuite: 5}, "4 candidate openings, need at least 5"},
		{"no candidates", nil, BalanceOptions{BiasOptions: BiasOptions{References: refs}, Criteria: DefaultBalanceCriteria()}, "0 candidate openings, need at least 1"},
		{"repeated candidate", append(suite[:2:2], suite[0]), BalanceOptions{BiasOptions: BiasOptions{References: refs}, Criteria: DefaultBalanceCriteria()}, `candidate 3 ("JJ KJJK") repeats candidate 1`},
		{"bad criteria", suite, BalanceOptions{BiasOptions: BiasOptions{References: refs}, Criteria: BalanceCriteria{2, 0, 1}}, "MaxColourDecided 2"},
	} {
		_, _, err := BalanceSuite(ctx, c.candidates, c.opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	if _, err := MeasureSuite(ctx, nil, BiasOptions{References: refs}); err == nil {
		t.Error("MeasureSuite of an empty suite: no error")
	}
}

// TestBalanceSuiteDeterministic: real engines give the same report and
// suite at concurrency 1 and 2.
func TestBalanceSuiteDeterministic(t *testing.T) {
	cands, err := GenerateOpenings(2, 7)
	if err != nil {
		t.Fatal(err)
	}
	cands = cands[:8]
	var refs []Entrant
	for _, n := range []string{"zhou2015", "qi2018-table3-1", "qi2018-dual"} {
		refs = append(refs, Entrant{Engine: Engine{Name: n, Weights: baseline(t, n), Settings: fastSettings()}})
	}
	var first *BalanceReport
	var firstKept []Opening
	for _, conc := range []int{1, 2} {
		opts := BalanceOptions{BiasOptions: BiasOptions{References: refs, Concurrency: conc}, Criteria: DefaultBalanceCriteria()}
		kept, rep, err := BalanceSuite(context.Background(), cands, opts)
		if err != nil {
			t.Fatalf("concurrency %d: %v", conc, err)
		}
		if rep.Games != 8*6 || rep.Before.Pairs != 8*3 {
			t.Fatalf("report %+v", rep)
		}
		if first == nil {
			first, firstKept = rep, kept
			continue
		}
		if !reflect.DeepEqual(rep, first) || !reflect.DeepEqual(kept, firstKept) {
			t.Errorf("concurrency 2 differs from 1:\n%+v\n%+v", rep, first)
		}
	}
}
