package stats

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/tournament/wdl"
)

func TestEloScoreRoundTrip(t *testing.T) {
	for _, elo := range []float64{-800, -400, -50, -1, 0, 1, 50, 400, 800} {
		if got := EloFromScore(ScoreFromElo(elo)); math.Abs(got-elo) > 1e-9 {
			t.Errorf("EloFromScore(ScoreFromElo(%g)) = %g", elo, got)
		}
	}
	tests := []struct{ mu, elo float64 }{
		{0.5, 0},
		{0.75, 400 * math.Log10(3)}, // 190.848...
		{0.25, -400 * math.Log10(3)},
		{1, 400 * math.Log10(999)}, // clamped to 1 − 1e-3: +1199.83
		{0, -400 * math.Log10(999)},
		{2, 400 * math.Log10(999)},
	}
	for _, tt := range tests {
		if got := EloFromScore(tt.mu); math.Abs(got-tt.elo) > 1e-9 {
			t.Errorf("EloFromScore(%g) = %.12g, want %.12g", tt.mu, got, tt.elo)
		}
	}
	if got := ScoreFromElo(400); math.Abs(got-10.0/11) > 1e-15 {
		t.Errorf("ScoreFromElo(400) = %g, want 10/11", got)
	}
}

func TestEstimateCountsFields(t *testing.T) {
	// 55 wins, 10 draws, 35 losses: μ = 0.6, σ² = 0.55·0.16 + 0.1·0.01 + 0.35·0.36 = 0.215.
	e, err := EstimateCounts(wdl.Count{Wins: 55, Draws: 10, Losses: 35}.Counts())
	if err != nil {
		t.Fatal(err)
	}
	se := math.Sqrt(0.215 / 100)
	const z = 1.959963984540054 // Φ⁻¹(0.975)
	want := Estimate{
		N: 100, Score: 0.6, Elo: EloFromScore(0.6),
		ScoreLo: 0.6 - z*se, ScoreHi: 0.6 + z*se,
		EloLo: EloFromScore(0.6 - z*se), EloHi: EloFromScore(0.6 + z*se),
		LOS: 0.5 * math.Erfc(-0.1/se/math.Sqrt2),
	}
	want.EloCI = (want.EloHi - want.EloLo) / 2
	for _, f := range []struct {
		name      string
		got, want float64
	}{
		{"Score", e.Score, want.Score}, {"Elo", e.Elo, want.Elo}, {"EloCI", e.EloCI, want.EloCI},
		{"EloLo", e.EloLo, want.EloLo}, {"EloHi", e.EloHi, want.EloHi},
		{"ScoreLo", e.ScoreLo, want.ScoreLo}, {"ScoreHi", e.ScoreHi, want.ScoreHi}, {"LOS", e.LOS, want.LOS},
	} {
		if math.Abs(f.got-f.want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", f.name, f.got, f.want)
		}
	}
	if e.N != 100 {
		t.Errorf("N = %d, want 100", e.N)
	}
	if s := e.String(); s != "N=100 score=0.600 Elo=+70.4 ±66.7 LOS=0.98" {
		t.Errorf("String() = %q", s)
	}
}

// A pentanomial result whose pairs are all WL/DD carries no spread: the
// pair-average variance is ~0, unlike the same games counted singly.
func TestEstimatePentanomialVsTrinomial(t *testing.T) {
	pairs, err := EstimateCounts(wdl.Pentanomial{0, 0, 100, 0, 0}.Counts())
	if err != nil {
		t.Fatal(err)
	}
	games, err := EstimateCounts(wdl.Count{Wins: 100, Losses: 100}.Counts())
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(pairs.Score-0.5) > 1e-12 || games.Score != 0.5 {
		t.Fatalf("scores %g, %g, want 0.5", pairs.Score, games.Score)
	}
	if !(pairs.EloCI < 1 && games.EloCI > 40) {
		t.Errorf("EloCI pairs %g, games %g: want the pair interval far narrower", pairs.EloCI, games.EloCI)
	}
}

func TestEstimateCountsErrors(t *testing.T) {
	for _, c := range [][]int{nil, {1, 2}, {1, 2, 3, 4}, {0, 0, 0}, {0, 0, 0, 0, 0}, {1, -1, 3}, {1, 2, 3, 4, 5, 6}} {
		if _, err := EstimateCounts(c); err == nil {
			t.Errorf("EstimateCounts(%v): no error", c)
		}
	}
	if _, err := LLRLogistic([]int{1, 2, 3, 4}, 0, 5); err == nil {
		t.Error("LLRLogistic with 4 counts: no error")
	}
	if _, err := LLRNormalized([]int{1, -2, 3}, 0, 5); err == nil {
		t.Error("LLRNormalized with a negative count: no error")
	}
	for _, f := range []func([]int, float64, float64) (float64, error){LLRLogistic, LLRNormalized} {
		if llr, err := f([]int{0, 0, 0, 0, 0}, 0, 5); llr != 0 || err != nil {
			t.Errorf("LLR of no games = %g, %v; want 0, nil", llr, err)
		}
	}
}

// Swapping the hypotheses negates the LLR; mirroring the result (A's losses
// become wins) and the hypotheses leaves it unchanged.
func TestLLRSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		c := make([]int, 3+2*rng.IntN(2))
		for i := range c {
			c[i] = rng.IntN(60)
		}
		c[rng.IntN(len(c))] += 1
		e0 := rng.Float64()*40 - 20
		e1 := e0 + 1 + rng.Float64()*20
		rev := slices.Clone(c)
		slices.Reverse(rev)
		for name, f := range map[string]func([]int, float64, float64) (float64, error){"logistic": LLRLogistic, "normalized": LLRNormalized} {
			a, err1 := f(c, e0, e1)
			b, err2 := f(c, e1, e0)
			m, err3 := f(rev, -e0, -e1)
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatalf("%s %v: %v %v %v", name, c, err1, err2, err3)
			}
			if math.Abs(a+b) > 1e-9*(1+math.Abs(a)) || math.Abs(a-m) > 1e-9*(1+math.Abs(a)) {
				t.Errorf("%s %v [%g, %g]: llr %g, swapped %g, mirrored %g", name, c, e0, e1, a, b, m)
			}
		}
	}
}

// The maximum likelihood distributions must hit the hypothesis exactly.
func TestMLEHitsHypothesis(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		c := make([]int, 3+2*rng.IntN(2))
		for i := range c {
			c[i] = rng.IntN(100)
		}
		_, values, phat := resultsToPDF(c)
		s := 0.05 + 0.9*rng.Float64()
		p, err := mleExpected(values, phat, s)
		if err != nil {
			t.Fatalf("%v s=%g: %v", c, s, err)
		}
		mu, _ := meanVar(values, p)
		// With a regularised zero count, 1 + x·aᵢ can be ~1e-4, so one ulp of x
		// moves pᵢ by ~1e-12: the float64 limit, not a solver tolerance.
		if sum := floatsSum(p); math.Abs(sum-1) > 1e-9 || math.Abs(mu-s) > 1e-9 {
			t.Errorf("mleExpected(%v, %g): sum %g, mean %g", c, s, sum, mu)
		}
		tv := rng.Float64() - 0.5 // |t| ≤ 0.5 ≈ 174 normalised Elo per game
		p, err = mleTValue(values, phat, 0.5, tv)
		if err != nil {
			t.Fatalf("%v t=%g: %v", c, tv, err)
		}
		mu, v := meanVar(values, p)
		if got := (mu - 0.5) / math.Sqrt(v); math.Abs(got-tv) > 1e-5 {
			t.Errorf("mleTValue(%v, %g): t-value %g", c, tv, got)
		}
	}
	if _, err := mleExpected([]float64{0, 0.5, 1}, []float64{0.2, 0.3, 0.5}, 1.2); err == nil {
		t.Error("mleExpected with s outside [0,1]: no error")
	}
}

// fishtest's t-value iteration starts from the uniform distribution, which
// cannot reach |t| ≳ 0.94: such hypotheses are errors, not wrong numbers.
func TestLLRNormalizedRange(t *testing.T) {
	if _, err := LLRNormalized([]int{30, 40, 30}, 0, 300); err != nil {
		t.Errorf("nelo 300 on games: %v", err)
	}
	if _, err := LLRNormalized([]int{30, 40, 30}, 0, 400); err == nil {
		t.Error("nelo 400 on games: no error")
	}
	if _, err := LLRNormalized([]int{3, 10, 50, 20, 17}, -300, 0); err == nil {
		t.Error("nelo -300 on pairs: no error")
	}
}

func floatsSum(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s
}

func TestSPRTBounds(t *testing.T) {
	lo, hi := SPRT{Elo0: 0, Elo1: 5}.Bounds()
	want := math.Log(19) // 2.9444389791664403
	if math.Abs(lo+want) > 1e-12 || math.Abs(hi-want) > 1e-12 {
		t.Errorf("Bounds() = %g, %g; want ∓%g", lo, hi, want)
	}
	if math.Abs(want-2.944) > 5e-4 {
		t.Errorf("ln 19 = %g, want ≈2.944", want)
	}
	lo, hi = SPRT{Elo0: 0, Elo1: 5, Alpha: 0.1, Beta: 0.2}.Bounds()
	if math.Abs(lo-math.Log(0.2/0.9)) > 1e-12 || math.Abs(hi-math.Log(0.8/0.1)) > 1e-12 {
		t.Errorf("Bounds(α=0.1, β=0.2) = %g, %g", lo, hi)
	}
}

func TestSPRTDecisions(t *testing.T) {
	tests := []struct {
		sprt   SPRT
		counts []int
		want   Decision
	}{
		{SPRT{Elo0: 0, Elo1: 50}, []int{300, 0, 700}, AcceptH1}, // LLR 47.2
		{SPRT{Elo0: 0, Elo1: 50}, []int{700, 0, 300}, AcceptH0}, // mirrored
		{SPRT{Elo0: 0, Elo1: 50, Normalized: true}, []int{300, 0, 700}, AcceptH1},
		{SPRT{Elo0: 0, Elo1: 5}, []int{30, 40, 30}, Continue},        // LLR −0.017
		{SPRT{Elo0: 0, Elo1: 10}, []int{2, 5, 30, 50, 40}, AcceptH1}, // pairs, strongly A
		{SPRT{Elo0: 0, Elo1: 10}, []int{40, 50, 30, 5, 2}, AcceptH0}, // pairs, strongly B
		{SPRT{Elo0: 0, Elo1: 10, Normalized: true}, []int{40, 50, 30, 5, 2}, AcceptH0},
		{SPRT{Elo0: 0, Elo1: 20}, []int{30, 0, 100, 0, 70}, AcceptH1},                  // LLR 3.98
		{SPRT{Elo0: -5, Elo1: 5, Normalized: true}, []int{40, 0, 20, 0, 40}, Continue}, // LLR 0
		{SPRT{Elo0: 0, Elo1: 5}, []int{3, 10, 50, 20, 17}, Continue},                   // LLR 0.97
		{SPRT{Elo0: 0, Elo1: 5}, []int{0, 0, 0}, Continue},                             // no games yet
	}
	for _, tt := range tests {
		llr, d, err := tt.sprt.Test(tt.counts)
		if err != nil {
			t.Errorf("%v.Test(%v): %v", tt.sprt, tt.counts, err)
			continue
		}
		if d != tt.want {
			t.Errorf("%v.Test(%v) = %g, %v; want %v", tt.sprt, tt.counts, llr, d, tt.want)
		}
		want, _ := LLRLogistic(tt.counts, tt.sprt.Elo0, tt.sprt.Elo1)
		if tt.sprt.Normalized {
			want, _ = LLRNormalized(tt.counts, tt.sprt.Elo0, tt.sprt.Elo1)
		}
		if llr != want {
			t.Errorf("%v.Test(%v) llr %g, want %g", tt.sprt, tt.counts, llr, want)
		}
	}
	for _, bad := range []SPRT{{Elo0: 5, Elo1: 0}, {Elo0: 0, Elo1: 0}, {Elo0: 0, Elo1: 5, Alpha: 1}, {Elo0: 0, Elo1: 5, Beta: -0.1}, {Elo0: 0, Elo1: 5, Alpha: 0.6, Beta: 0.5}, {Elo0: math.NaN(), Elo1: 5}} {
		if _, _, err := bad.Test([]int{1, 2, 3}); err == nil {
			t.Errorf("%+v.Test: no error", bad)
		}
	}
	if _, _, err := (SPRT{Elo0: 0, Elo1: 5}).Test([]int{1, 2}); err == nil {
		t.Error("Test with 2 counts: no error")
	}
}

func TestDecisionString(t *testing.T) {
	for d, want := range map[Decision]string{Continue: "continue", AcceptH0: "H0", AcceptH1: "H1", Decision(7): "Decision(7)"} {
		if got := d.String(); got != want {
			t.Errorf("Decision(%d).String() = %q, want %q", int(d), got, want)
		}
	}
}

func TestParseSPRT(t *testing.T) {
	good := []struct {
		in   string
		want SPRT
	}{
		{"0,5", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}},
		{" -3 , 1 ", SPRT{Elo0: -3, Elo1: 1, Alpha: 0.05, Beta: 0.05}},
		{"0.5,2.5,0.1,0.2", SPRT{Elo0: 0.5, Elo1: 2.5, Alpha: 0.1, Beta: 0.2}},
		{"-10,10,0.01,0.01", SPRT{Elo0: -10, Elo1: 10, Alpha: 0.01, Beta: 0.01}},
	}
	for _, tt := range good {
		got, err := ParseSPRT(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseSPRT(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
	bad := []struct{ in, mention string }{
		{"", "1 comma-separated fields"},
		{"5", "want 2"},
		{"0,5,0.05", "3 comma-separated fields"},
		{"0,5,0.05,0.05,1", "5 comma-separated"},
		{"a,5", "field 1 (elo0)"},
		{"0,", "field 2 (elo1) is empty"},
		{"0,NaN", "field 2 (elo1)"},
		{"0,inf", "not a finite number"},
		{"5,0", "less than elo1"},
		{"3,3", "less than elo1"},
		{"0,5,0,0.05", "field 3 (alpha)"},
		{"0,5,0.05,1", "field 4 (beta)"},
		{"0,5,0.6,0.5", "below 1"},
		{"0,5,x,0.05", "field 3 (alpha) \"x\""},
	}
	for _, tt := range bad {
		_, err := ParseSPRT(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.mention) {
			t.Errorf("ParseSPRT(%q) error %v, want one mentioning %q", tt.in, err, tt.mention)
		}
	}
}

func BenchmarkLLRLogisticPentanomial(b *testing.B) {
	c := []int{10, 50, 100, 60, 20}
	for b.Loop() {
		if _, err := LLRLogistic(c, 0, 5); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLLRNormalizedPentanomial(b *testing.B) {
	c := []int{10, 50, 100, 60, 20}
	for b.Loop() {
		if _, err := LLRNormalized(c, 0, 5); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEstimateCounts(b *testing.B) {
	c := []int{10, 50, 100, 60, 20}
	for b.Loop() {
		if _, err := EstimateCounts(c); err != nil {
			b.Fatal(err)
		}
	}
}
