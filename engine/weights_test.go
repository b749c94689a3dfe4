package engine

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// evalPosition: Black JJ JK JL (a vertical three at the centre), White AA SS
// (two corners). Counted by hand:
//
//	Black: column J roads starting at rows 4..11 hold 1,2,3,3,3,3,2,1 stones
//	(rows 3 and 12 hold none); the other 3·18 roads through the three stones
//	hold one stone each and are distinct. N_B = {0, 56, 2, 4, 0, 0, 0}.
//	White: a corner lies on 3 roads, none holding black: N_W = {0, 6, 0, …}.
func evalPosition(t testing.TB) *Board {
	b := NewBoard()
	play(t, b, "JJ", "AASS", "JKJL")
	return b
}

func TestHandCountedHistogram(t *testing.T) {
	b := evalPosition(t)
	if got, want := b.Histogram(Black), [7]int{0, 56, 2, 4, 0, 0, 0}; got != want {
		t.Fatalf("N_B = %v, want %v", got, want)
	}
	if got, want := b.Histogram(White), [7]int{0, 6, 0, 0, 0, 0, 0}; got != want {
		t.Fatalf("N_W = %v, want %v", got, want)
	}
}

func mustWeights(t testing.TB, s Schema, g ...float64) Weights {
	t.Helper()
	w, err := NewWeights(s, g)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestEvaluateBySchema(t *testing.T) {
	b := evalPosition(t)
	zhou := mustWeights(t, Symmetric, 20, 80, 150, 800, 1000)
	qi := mustWeights(t, Asymmetric, 1, 5, 10, 25, 25, 1, 10, 15, 35, 25)
	dual := mustWeights(t, Dual, 1, 5, 10, 25, 25, 1, 10, 15, 35, 25, 1, 15, 30, 50, 50, 1, 10, 15, 35, 25, 0)
	dualHighAlert := dual
	dualHighAlert.Genes = slices.Clone(dual.Genes)
	dualHighAlert.Genes[20] = 150
	cases := []struct {
		name string
		w    Weights
		my   Color
		want float64
	}{
		// Σ S[n](N_my[n] − N_en[n]) = 20·(56−6) + 80·2 + 150·4
		{"symmetric black", zhou, Black, 20*50 + 80*2 + 150*4},
		{"symmetric white", zhou, White, -(20*50 + 80*2 + 150*4)},
		// Σ M[n]N_my[n] − Σ E[n]N_en[n]
		{"asymmetric black", qi, Black, 1*56 + 5*2 + 10*4 - 1*6},
		{"asymmetric white", qi, White, 1*6 - (1*56 + 10*2 + 15*4)},
		// Set 0 gives 100 > alert 0: the attacking set 1 is used.
		{"dual black advantage", dual, Black, 1*56 + 15*2 + 30*4 - 1*6},
		// Set 0 gives −130 ≤ 0: set 0 stays.
		{"dual white disadvantage", dual, White, 1*6 - (1*56 + 10*2 + 15*4)},
		// Set 0 gives 100, not above alert 150: set 0.
		{"dual black below alert", dualHighAlert, Black, 1*56 + 5*2 + 10*4 - 1*6},
	}
	for _, c := range cases {
		if got := c.w.Evaluate(b, c.my); got != c.want {
			t.Errorf("%s: Evaluate = %v, want %v", c.name, got, c.want)
		}
		e := c.w.compile()
		var hm, he uint64 = b.h[c.my], b.h[c.my.Opponent()]
		if got := e.score(hm, he); got != c.want {
			t.Errorf("%s: compiled score = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestEvaluateLongRoads checks the 4- and 5-stone terms on a second
// hand-counted position. Black AA BA CA DA EA (cols 0..4 of the top row):
// row A roads starting at cols 0..4 hold 5,4,3,2,1 stones; each stone also
// lies on one vertical and one ↘ road (its only ones: it is the first point
// of both lines) and on no ↙ road (those lines are shorter than 6), so
// N_B = {0, 11, 1, 1, 1, 1, 0}. White SP SQ SR SS (rows 15..18 of the right
// column): column S roads starting at rows 13,12,11,10 hold 4,3,2,1; each
// stone lies on one horizontal and one ↘ road and no ↙ road, so
// N_W = {0, 9, 1, 1, 1, 0, 0}.
func TestEvaluateLongRoads(t *testing.T) {
	b := NewBoard()
	play(t, b, "AA", "SSSR", "BACA", "SQSP", "DAEA")
	if got, want := b.Histogram(Black), [7]int{0, 11, 1, 1, 1, 1, 0}; got != want {
		t.Fatalf("N_B = %v, want %v", got, want)
	}
	if got, want := b.Histogram(White), [7]int{0, 9, 1, 1, 1, 0, 0}; got != want {
		t.Fatalf("N_W = %v, want %v", got, want)
	}
	w := mustWeights(t, Asymmetric, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	// Black: (1·11 + 2 + 3 + 4 + 5) − (6·9 + 7 + 8 + 9) = 25 − 78.
	if got := w.Evaluate(b, Black); got != -53 {
		t.Errorf("black view = %v, want -53", got)
	}
	// White: (1·9 + 2 + 3 + 4) − (6·11 + 7 + 8 + 9 + 10) = 18 − 100.
	if got := w.Evaluate(b, White); got != -82 {
		t.Errorf("white view = %v, want -82", got)
	}
	sym := mustWeights(t, Symmetric, 1, 10, 100, 1000, 10000)
	// (11−9) + 10·0 + 100·0 + 1000·0 + 10000·1
	if got := sym.Evaluate(b, Black); got != 10002 {
		t.Errorf("symmetric black view = %v, want 10002", got)
	}
	// Tempo: White moves (nine stones); Black, waiting, has one threat
	// (FA stops both its five AA–EA and its four BA–EA). From White's view
	// (1·9 + 2 + 3 + 4) − (6·11 + 7 + 8 + 9 + 10) − T1 = 18 − 100 − 100.
	if got := b.Threats(Black); got != 1 {
		t.Fatalf("black threats = %d, want 1", got)
	}
	tempo := mustWeights(t, Tempo, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100, 1000)
	if got := tempo.Evaluate(b, White); got != -182 {
		t.Errorf("tempo white (mover) view = %v, want -182", got)
	}
	if got := tempo.Evaluate(b, Black); got != 182 {
		t.Errorf("tempo black (waiting) view = %v, want 182", got)
	}
}

// TestTempoMeansTheMover: on evalPosition (White to move, no threats) the
// tempo schema scores from White's view whichever side asks, where the
// asymmetric schema with the same ten weights scores from the asking side.
func TestTempoMeansTheMover(t *testing.T) {
	b := evalPosition(t)
	tempo := mustWeights(t, Tempo, 1, 5, 10, 25, 25, 1, 10, 15, 35, 25, 100, 200)
	qi := mustWeights(t, Asymmetric, 1, 5, 10, 25, 25, 1, 10, 15, 35, 25)
	// White moves: 1·6 − (1·56 + 10·2 + 15·4) = −130.
	if got := tempo.Evaluate(b, White); got != -130 || got != qi.Evaluate(b, White) {
		t.Errorf("tempo white = %v, want -130 (asymmetric's white view)", got)
	}
	// Black waits: the negation, not asymmetric's 1·56 + 5·2 + 10·4 − 1·6.
	if got := tempo.Evaluate(b, Black); got != 130 {
		t.Errorf("tempo black = %v, want 130", got)
	}
}

func TestNewWeightsRejects(t *testing.T) {
	if _, err := NewWeights(Symmetric, []float64{1, 2, 3, 4}); err == nil || !strings.Contains(err.Error(), "5 genes") {
		t.Errorf("wrong count: %v", err)
	}
	if _, err := NewWeights("quadratic", make([]float64, 5)); err == nil {
		t.Error("unknown schema accepted")
	}
	if _, err := NewWeights(Asymmetric, []float64{1, 2, 3, 4, 5, 6, math.NaN(), 8, 9, 10}); err == nil || !strings.Contains(err.Error(), "E2") {
		t.Errorf("NaN gene: %v (want the gene named E2)", err)
	}
	g := make([]float64, 21)
	g[20] = math.Inf(1)
	if _, err := NewWeights(Dual, g); err == nil || !strings.Contains(err.Error(), "alert") {
		t.Errorf("Inf alert: %v", err)
	}
	src := []float64{1, 2, 3, 4, 5}
	w, err := NewWeights(Symmetric, src)
	if err != nil {
		t.Fatal(err)
	}
	src[0] = 99
	if w.Genes[0] != 1 {
		t.Error("NewWeights shares the caller's slice")
	}
}

func TestSchemas(t *testing.T) {
	for _, c := range []struct {
		s     Schema
		n     int
		first string
		last  string
	}{{Symmetric, 5, "S1", "S5"}, {Asymmetric, 10, "M1", "E5"}, {Dual, 21, "D.M1", "alert"}, {Tempo, 12, "M1", "T2"}} {
		names := c.s.GeneNames()
		if c.s.NumGenes() != c.n || len(names) != c.n || names[0] != c.first || names[c.n-1] != c.last {
			t.Errorf("%s: %d genes %v", c.s, c.s.NumGenes(), names)
		}
		if p, err := ParseSchema(string(c.s)); err != nil || p != c.s {
			t.Errorf("ParseSchema(%s) = %v, %v", c.s, p, err)
		}
	}
	if names := Dual.GeneNames(); names[10] != "A.M1" || names[5] != "D.E1" {
		t.Errorf("dual names %v", names)
	}
	if names := Tempo.GeneNames(); names[5] != "W1" || names[10] != "T1" {
		t.Errorf("tempo names %v", names)
	}
	if _, err := ParseSchema("Symmetric"); err == nil {
		t.Error("ParseSchema is case-sensitive by contract")
	}
}

// TestAsKeepsTheEvaluation: a symmetric vector converted by As evaluates
// every position of random games, from both sides, exactly as it did; a
// conversion without an exact equivalent is refused.
func TestAsKeepsTheEvaluation(t *testing.T) {
	sym := mustWeights(t, Symmetric, -66, 147, 617, 4702, 647)
	var as []Weights
	tempo := mustWeights(t, Tempo, -6, 199, 913, 3518, 3515, -2, 133, 377, 656, -572, 2512, 9837)
	tempoCross, err := tempo.As(Cross)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Schema{Symmetric, Asymmetric, Tempo, Cross} {
		w, err := sym.As(s)
		if err != nil || w.Schema != s || len(w.Genes) != s.NumGenes() {
			t.Fatalf("As(%s) = %v, %v", s, w, err)
		}
		as = append(as, w)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for range 10 {
		b := NewBoard()
		for b.Stones() < 80 && !b.Over() {
			if p := Point(rng.IntN(NumPoints)); b.At(p) == Empty {
				b.Place(p)
				for _, w := range as {
					for _, my := range []Color{Black, White} {
						if got, want := w.Evaluate(b, my), sym.Evaluate(b, my); got != want {
							t.Fatalf("%s at %d stones, %v's view: %v, symmetric %v", w.Schema, b.Stones(), my, got, want)
						}
					}
				}
				for _, my := range []Color{Black, White} {
					if got, want := tempoCross.Evaluate(b, my), tempo.Evaluate(b, my); got != want {
						t.Fatalf("tempo as cross at %d stones, %v's view: %v, tempo %v", b.Stones(), my, got, want)
					}
				}
				checked++
			}
		}
	}
	if checked < 200 {
		t.Fatalf("only %d positions", checked)
	}
	qi := mustWeights(t, Asymmetric, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	for _, s := range []Schema{Symmetric, Tempo, Dual, Cross} {
		if _, err := qi.As(s); err == nil {
			t.Errorf("asymmetric As(%s) accepted", s)
		}
	}
	if _, err := tempoCross.As(Tempo); err == nil {
		t.Error("cross As(tempo) accepted: the cross term has no tempo equivalent")
	}
}

// TestSchemaText: a Schema reads and writes as its name in JSON; an
// unknown name does not decode; only the dual schema has an alert gene.
func TestSchemaText(t *testing.T) {
	var v struct{ S Schema }
	if err := json.Unmarshal([]byte(`{"S":"tempo"}`), &v); err != nil || v.S != Tempo {
		t.Fatalf("decode tempo: %v %q", err, v.S)
	}
	if data, err := json.Marshal(v); err != nil || string(data) != `{"S":"tempo"}` {
		t.Fatalf("encode: %s %v", data, err)
	}
	if err := json.Unmarshal([]byte(`{"S":"tmepo"}`), &v); err == nil || !strings.Contains(err.Error(), "unknown schema") {
		t.Errorf("an unknown schema decoded: %v", err)
	}
	for _, s := range Schemas() {
		want := -1
		if s == Dual {
			want = s.NumGenes() - 1
		}
		if got := s.AlertIndex(); got != want {
			t.Errorf("%s: AlertIndex %d, want %d", s, got, want)
		}
	}
}
