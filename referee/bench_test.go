package referee

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

// BenchmarkFitnessPlumbing measures what the fitness path adds to the raw
// games: 16 matches of 2 game pairs (64 games) between zhou2015 and
// perturbed copies at depth 2, width 10, concurrency 1 (so the figures
// compare work, not scheduling), played
//   - "runner": straight through tournament.Runner, the same fixtures and
//     openings (the games alone);
//   - "play": through VectorReferee.Play (per-match openings, entrants,
//     outcomes);
//   - "play-early-stop": Play with WinnerOnly matches and early_stop
//     "decided" (fewer games, so games/s is per game played);
//   - "sample": VectorReferee.Sample (Play plus replaying every game for
//     its positions and features, Texel tuning).
//
// Compare games/s: plumbing should cost at most a few percent of "runner"
// (issue 11: ≤ 5%).
func BenchmarkFitnessPlumbing(b *testing.B) {
	zhou := baseline(b, "zhou2015").Genes
	var matches []optimize.Match
	for i := range 16 {
		v := make([]float64, len(zhou))
		for d, x := range zhou {
			v[d] = x * (0.6 + 0.05*float64((i+d)%16))
		}
		matches = append(matches, optimize.Match{A: zhou, B: v})
	}
	s := engine.DefaultSettings()
	s.Depth, s.Width = 2, 10
	ref := func() *VectorReferee {
		return &VectorReferee{Setup: Setup{Schema: engine.Symmetric, Settings: s, Pairs: 2}, Concurrency: 1}
	}
	report := func(b *testing.B, games int) {
		b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	}
	b.Run("runner", func(b *testing.B) {
		r := ref()
		per, err := r.MatchOpenings(1, len(matches))
		if err != nil {
			b.Fatal(err)
		}
		var ents []tournament.Entrant
		var ops []tournament.Opening
		var fx []tournament.Fixture
		for i, m := range matches {
			wa, _ := engine.NewWeights(engine.Symmetric, m.A)
			wb, _ := engine.NewWeights(engine.Symmetric, m.B)
			ents = append(ents, tournament.Entrant{Engine: tournament.Engine{Name: fmt.Sprintf("m%d.A", i), Weights: wa, Settings: s}},
				tournament.Entrant{Engine: tournament.Engine{Name: fmt.Sprintf("m%d.B", i), Weights: wb, Settings: s}})
		}
		for k := range 2 {
			for i := range matches {
				fx = append(fx, tournament.Fixture{A: 2 * i, B: 2*i + 1, Opening: len(ops)})
				ops = append(ops, per[i][k])
			}
		}
		run := tournament.Runner{Entrants: ents, Openings: ops, Concurrency: 1, Engines: &tournament.EnginePool{}}
		games := 0
		for b.Loop() {
			t, err := run.Run(context.Background(), fx)
			if err != nil {
				b.Fatal(err)
			}
			games += len(t.Games)
		}
		report(b, games)
	})
	b.Run("play", func(b *testing.B) {
		r := ref()
		games := 0
		for b.Loop() {
			out, err := r.Play(context.Background(), 1, matches)
			if err != nil {
				b.Fatal(err)
			}
			games += optimize.CountGames(out)
		}
		report(b, games)
	})
	b.Run("play-early-stop", func(b *testing.B) {
		r := ref()
		r.EarlyStop = "decided"
		wo := make([]optimize.Match, len(matches))
		for i, m := range matches {
			wo[i] = optimize.Match{A: m.A, B: m.B, WinnerOnly: true}
		}
		games := 0
		for b.Loop() {
			out, err := r.Play(context.Background(), 1, wo)
			if err != nil {
				b.Fatal(err)
			}
			games += optimize.CountGames(out)
		}
		report(b, games)
		b.ReportMetric(float64(games)/float64(b.N), "games/batch")
	})
	b.Run("sample", func(b *testing.B) {
		r := ref()
		games, positions := 0, 0
		for b.Loop() {
			out, pos, err := r.Sample(context.Background(), 1, matches)
			if err != nil {
				b.Fatal(err)
			}
			games += optimize.CountGames(out)
			positions += len(pos)
		}
		report(b, games)
		b.ReportMetric(float64(positions)/float64(b.N), "positions/batch")
	})
}

// BenchmarkExternalEngine measures what tuning an external engine costs
// against tuning the same engine in-process: SPSA-shaped batches (one
// match of 2 game pairs between two candidates of Width and DefendWide,
// new candidates every batch) at depth 2 under the engine binary's
// settings and weights, concurrency 1, played
//   - "in-process": the in-process engine (VectorReferee.Params);
//   - "external": roadtune's engine binary (cmd/engine) as an external
//     program, the values by setoption, its processes reused across
//     batches (issue 29's target: at least 70% of "in-process"'s games/s).
func BenchmarkExternalEngine(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "engine")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/engine").CombinedOutput(); err != nil {
		b.Fatalf("go build ../cmd/engine: %v\n%s", err, out)
	}
	s := engine.PlaySettings()
	s.Depth = 2
	tempo := baseline(b, "roadtune-tempo")
	width, _ := engine.ParamByName("Width")
	wide, _ := engine.ParamByName("DefendWide")
	params := []engine.Param{width, wide}
	batch := func(k int) []optimize.Match {
		d := float64(k%5) - 2
		return []optimize.Match{{A: []float64{15 + d, 60 + 4*d}, B: []float64{15 - d, 60 - 4*d}}}
	}
	run := func(b *testing.B, r *VectorReferee) {
		defer r.Close()
		games, k := 0, 0
		for b.Loop() {
			k++
			if _, err := r.Play(context.Background(), uint64(k), batch(k)); err != nil {
				b.Fatal(err)
			}
			games += 2 * r.Pairs
		}
		b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
	}
	b.Run("in-process", func(b *testing.B) {
		run(b, &VectorReferee{Setup: Setup{Schema: engine.Tempo, Settings: s, Fixed: tempo.Genes, Params: []string{width.Name, wide.Name}, Pairs: 2}, Concurrency: 1})
	})
	b.Run("external", func(b *testing.B) {
		run(b, &VectorReferee{Setup: Setup{Pairs: 2,
			External: &External{Engine: tournament.Engine{Program: bin, Args: []string{"-depth", "2", "-movetime", "0"}}, Params: params}}, Concurrency: 1})
	})
}
