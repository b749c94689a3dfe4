package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFeaturesReproduceEvaluate: for every schema, Σ genes·Features equals
// Evaluate on positions of random games, from both sides' view, with random
// weights (negative genes and dual positions on both sides of the alert
// included).
func TestFeaturesReproduceEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var x []float64
	checked := map[Schema]int{}
	setsSeen := [2]int{}
	threatsSeen := [2]int{} // tempo positions whose waiting side has 1, 2+ threats
	crossSeen := [2]int{}   // cross positions where the mover, the waiting side has cross points
	for game := range 40 {
		b := NewBoard()
		for b.Stones() < 60+game && !b.Over() {
			p := Point(rng.IntN(NumPoints))
			if b.At(p) != Empty {
				continue
			}
			b.Place(p)
			for _, s := range Schemas() {
				genes := make([]float64, s.NumGenes())
				for d := range genes {
					genes[d] = rng.Float64()*2000 - 400
				}
				if s == Dual {
					genes[20] = rng.Float64()*400 - 200
				}
				w, err := NewWeights(s, genes)
				if err != nil {
					t.Fatal(err)
				}
				for _, my := range []Color{Black, White} {
					x = Features(x, w, b, my)
					if len(x) != len(genes) {
						t.Fatalf("%s: %d features, want %d", s, len(x), len(genes))
					}
					dot := 0.0
					for d := range genes {
						dot += genes[d] * x[d]
					}
					want := w.Evaluate(b, my)
					if math.Abs(dot-want) > 1e-9*max(1, math.Abs(want)) {
						t.Fatalf("%s, %d stones, %v's view: Σ genes·X = %g, Evaluate = %g", s, b.Stones(), my, dot, want)
					}
					if s == Dual {
						if x[20] != 0 {
							t.Fatalf("dual: alert feature %g, want 0", x[20])
						}
						if x[10] != 0 || x[15] != 0 || x[11] != 0 {
							setsSeen[1]++
						} else {
							setsSeen[0]++
						}
					}
					if s == Tempo {
						for i := range 2 {
							if x[10+i] != 0 {
								threatsSeen[i]++
							}
						}
					}
					if s == Cross {
						for i := range 2 {
							if x[12+i] != 0 {
								crossSeen[i]++
							}
						}
					}
					checked[s]++
				}
			}
		}
	}
	if setsSeen[0] == 0 || setsSeen[1] == 0 {
		t.Errorf("the dual judge picked sets %v times: both sets must be covered", setsSeen)
	}
	if threatsSeen[0] == 0 || threatsSeen[1] == 0 {
		t.Errorf("tempo threat features set %v times: one and two threats must be covered", threatsSeen)
	}
	for _, s := range []Schema{Symmetric, Asymmetric, Dual, Tempo} {
		if checked[s] < 1000 {
			t.Errorf("%s: only %d positions checked", s, checked[s])
		}
	}
}
