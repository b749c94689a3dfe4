package results

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// sampleCharts are realistic charts of a tuning run and a verification match,
// drawn from a seeded source.
func sampleCharts() (map[string]LineChart, map[string]BarChart) {
	rng := rand.New(rand.NewPCG(6, 2010))
	lines := map[string]LineChart{}

	// 21 genes of the best individual over 15 generations (dual schema).
	var genes []Series
	for g := range 21 {
		s := Series{Name: "gene " + string(rune('A'+g/7)) + string(rune('1'+g%7))}
		v := rng.Float64() * 4000
		for gen := 0; gen <= 15; gen++ {
			s.X = append(s.X, float64(gen))
			s.Y = append(s.Y, v)
			v = math.Max(0, v*(1+0.2*(rng.Float64()*2-1)))
		}
		genes = append(genes, s)
	}
	lines["genes"] = LineChart{Title: "Best individual's genes by generation", XLabel: "generation", YLabel: "weight", Series: genes}

	// Best and mean fitness by generation.
	best := Series{Name: "best fitness"}
	mean := Series{Name: "mean fitness"}
	for gen := 0; gen <= 30; gen++ {
		best.X = append(best.X, float64(gen))
		mean.X = append(mean.X, float64(gen))
		best.Y = append(best.Y, 0.9-0.5*math.Exp(-float64(gen)/6)+0.03*rng.NormFloat64())
		mean.Y = append(mean.Y, 0.6-0.35*math.Exp(-float64(gen)/8)+0.02*rng.NormFloat64())
	}
	lines["fitness"] = LineChart{Title: "Fitness by generation", XLabel: "generation", YLabel: "fitness (score share)", Series: []Series{best, mean}}

	// An SPRT's LLR by game pair with its bounds.
	llr := Series{Name: "LLR"}
	v := 0.0
	for pair := 1; pair <= 400; pair++ {
		v += 0.012 + 0.12*rng.NormFloat64()
		llr.X = append(llr.X, float64(pair))
		llr.Y = append(llr.Y, v)
	}
	lines["sprt"] = LineChart{Title: "SPRT [0, 10] Elo, α = β = 0.05", XLabel: "game pairs", YLabel: "log-likelihood ratio", Series: []Series{llr},
		HLines: []HLine{{Name: "accept H1 (+2.94)", Y: 2.94}, {Name: "accept H0 (−2.94)", Y: -2.94}}}

	bars := map[string]BarChart{}
	half := 50.0
	lo, hi := 30.0, 90.0
	bars["score"] = BarChart{Title: "Score of the tuned weights against each opponent", YLabel: "score (%)",
		Bars: []Bar{
			{Label: "baseline", Value: 74.8, Lo: 71.4, Hi: 78.2},
			{Label: "Zhou 2015", Value: 66.1, Lo: 62.0, Hi: 70.2},
			{Label: "Qi 2018 dual", Value: 52.3, Lo: 47.9, Hi: 56.7},
			{Label: "PSO gbest", Value: 58.0, Lo: 53.6, Hi: 62.4},
		},
		RefLine: &HLine{Name: "even score (50%)", Y: 50}, YMin: &lo, YMax: &hi}
	var elo []Bar
	for i, name := range []string{"gen 5 champion", "gen 10 champion", "gen 15 champion", "gen 20 champion", "gen 25 champion", "gen 30 champion", "PSO iteration 15 gbest"} {
		e := -20 + 18*float64(i) + 10*rng.NormFloat64()
		elo = append(elo, Bar{Label: name, Value: e, Lo: e - 25, Hi: e + 25})
	}
	bars["elo"] = BarChart{Title: "Elo against the baseline (95% interval)", YLabel: "Elo", Bars: elo, RefLine: &HLine{Y: 0}}
	var many []Bar
	for i := range 12 {
		v := 40 + 30*rng.Float64()
		many = append(many, Bar{Label: "group " + string(rune('A'+i)), Value: v, Lo: v - 8, Hi: v + 8})
	}
	bars["groups"] = BarChart{Title: "Champion score by group", YLabel: "score (%)", Bars: many, RefLine: &HLine{Name: "50%", Y: half}}
	bars["small"] = BarChart{Title: "Win rate <α & β>", YLabel: "%", Bars: many[:3], Width: 8, Height: 6}

	flat := Series{Name: "population size", X: []float64{0, 1, 2, 3, 4}, Y: []float64{49, 49, 49, 49, 49}}
	lines["flat"] = LineChart{Title: "Population", XLabel: "generation", YLabel: "individuals", Series: []Series{flat}}
	var wide []Series
	for g := range 30 {
		s := Series{Name: "particle " + strconv.Itoa(g) + " personal best"}
		for it := range 60 {
			s.X = append(s.X, float64(it)/4)
			s.Y = append(s.Y, float64(g)+math.Sin(float64(it)/5+float64(g)))
		}
		wide = append(wide, s)
	}
	lines["wide"] = LineChart{Title: "30 particles", XLabel: "time (s)", YLabel: "fitness", Series: wide}
	lines["smallline"] = LineChart{Title: "Small", XLabel: "generation", YLabel: "Elo", Width: 8, Height: 6,
		Series: []Series{{Name: "a", X: []float64{1, 2, 3}, Y: []float64{0.001, 0.002, 0.0015}}, {Name: "b", X: []float64{1, 2, 3}, Y: []float64{0.0012, 0.0018, 0.0011}}}}

	// A long title, a note and a legend too wide for the right side.
	pb := Series{Name: "personal bests replaced (particles whose own best improved)"}
	gb := Series{Name: "global best replaced (the swarm's best improved)"}
	for it := range 15 {
		pb.X, gb.X = append(pb.X, float64(it)), append(gb.X, float64(it))
		pb.Y, gb.Y = append(pb.Y, float64(20-it)+3*rng.Float64()), append(gb.Y, float64(rng.IntN(3)))
	}
	lines["long"] = LineChart{Title: "Bests replaced by iteration against qi2018-table3-1 at depth 3, width 10, in the dual schema's attacking set",
		XLabel: "iteration", YLabel: "particles", Series: []Series{pb, gb},
		Note: "Fitness is measured against each generation's own population, so values are not comparable across generations."}

	// Genes with a baseline's values.
	var five []Series
	var base []float64
	for g := range 5 {
		s := Series{Name: "S" + strconv.Itoa(g+1)}
		v := 500 + 600*float64(g)
		for gen := range 10 {
			s.X = append(s.X, float64(gen))
			s.Y = append(s.Y, v)
			v *= 1 + 0.1*(rng.Float64()*2-1)
		}
		five = append(five, s)
		base = append(base, 400+650*float64(g))
	}
	base[2] = math.NaN()
	lines["baseline"] = LineChart{Title: "The best vector's genes by generation", XLabel: "generation", YLabel: "road weight",
		Series: five, Baseline: base, BaselineName: "zhou2015 (dashed)"}
	return lines, bars
}

// TestSampleCharts renders the sample charts; with ROADTUNE_SAMPLE_DIR set it
// leaves them there for a person to look at.
func TestSampleCharts(t *testing.T) {
	dir := os.Getenv("ROADTUNE_SAMPLE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	lines, bars := sampleCharts()
	for name, c := range lines {
		if err := c.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range bars {
		if err := c.Save(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
}
