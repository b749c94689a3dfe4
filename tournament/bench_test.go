package tournament

import (
	"context"
	"fmt"
	"testing"

	"github.com/roadtune/roadtune/engine"
)

// BenchmarkPlayGameTrivial is the referee alone: one game between two
// first-legal-point players from a 3-stone opening (board validation of
// every move included).
func BenchmarkPlayGameTrivial(b *testing.B) {
	op := mustOpening(b, "JJ KJJK")
	board := engine.NewBoard()
	black, white := &firstLegal{}, &firstLegal{}
	moves := 0
	b.ReportAllocs()
	for b.Loop() {
		rec, err := PlayGame(context.Background(), board, black, white, op, 0)
		if err != nil {
			b.Fatal(err)
		}
		moves += len(rec.Moves)
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/game")
}

// BenchmarkRunnerOverhead is the whole runner per game (feeder, worker,
// collector, table) with trivial in-process players, at concurrency 1.
func BenchmarkRunnerOverhead(b *testing.B) { benchRunner(b, Runner{}) }

// BenchmarkRunnerStream is BenchmarkRunnerOverhead with Discard and an
// OnGame that does nothing: a streaming run, whose memory per run does not
// grow with its games.
func BenchmarkRunnerStream(b *testing.B) {
	benchRunner(b, Runner{Discard: true, OnGame: func(GameRecord) error { return nil }})
}

// benchRunner runs r, given two trivial players, two openings and
// concurrency 1, on 500 game pairs per op and reports ns/game and games/s.
func benchRunner(b *testing.B, r Runner) {
	r.Entrants = []Entrant{{Engine: Engine{Name: "a"}, New: newFirstLegal}, {Engine: Engine{Name: "b"}, New: newFirstLegal}}
	r.Openings = []Opening{mustOpening(b, "JJ KJJK"), mustOpening(b, "JJ IIKK")}
	r.Concurrency = 1
	const pairs = 500
	fx := HeadToHead(0, 1, pairs)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Run(context.Background(), fx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2*pairs), "ns/game")
	b.ReportMetric(float64(b.N*2*pairs)/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkExternalRoundTrip is one command/answer exchange with the fake
// protocol engine ("new black" → "move JJ").
func BenchmarkExternalRoundTrip(b *testing.B) {
	p, err := NewExternalPlayer(fakeArgs(b), 0)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	board := engine.NewBoard()
	for b.Loop() {
		if err := p.NewGame(ctx, Opening{}, engine.Black); err != nil {
			b.Fatal(err)
		}
		r, err := p.Play(ctx, board, NoMove)
		if err != nil || r.Move.String() != "JJ" {
			b.Fatal(r, err)
		}
	}
}

// BenchmarkEngineGames plays zhou2015 against qi2018-table3-1 at depth 2,
// width 10 from 4 openings (8 games per op) at concurrency 1 and 2.
func BenchmarkEngineGames(b *testing.B) {
	ops, err := GenerateOpenings(3, 5)
	if err != nil {
		b.Fatal(err)
	}
	s := engine.DefaultSettings()
	s.Depth, s.Width = 2, 10
	for _, conc := range []int{1, 2} {
		b.Run(fmt.Sprintf("concurrency=%d", conc), func(b *testing.B) {
			r := Runner{
				Entrants: []Entrant{
					{Engine: Engine{Name: "zhou2015", Weights: baseline(b, "zhou2015"), Settings: s}},
					{Engine: Engine{Name: "qi2018-table3-1", Weights: baseline(b, "qi2018-table3-1"), Settings: s}},
				},
				Openings:    ops[:32],
				Concurrency: conc,
				Engines:     &EnginePool{}, // tables allocated by the first run only
			}
			games := 0
			for b.Loop() {
				// 64 games a batch: an optimizer's batches are hundreds of
				// games, so the one-core tail of a short batch would
				// understate the scaling.
				t, err := r.Run(context.Background(), HeadToHead(0, 1, 32))
				if err != nil {
					b.Fatal(err)
				}
				games += len(t.Games)
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}

// BenchmarkPooledExternal plays the fake protocol engine against itself
// in runs of 4 game pairs with new entrant names every run, as a tuning
// run's batches are, at concurrency 2: with a ProcessPool (processes
// started by the first run only) and without (each run starts and ends a
// process per entrant and worker). It reports games/s.
func BenchmarkPooledExternal(b *testing.B) {
	for _, pooled := range []bool{false, true} {
		b.Run(fmt.Sprintf("pooled=%v", pooled), func(b *testing.B) {
			var pool *ProcessPool
			if pooled {
				pool = &ProcessPool{}
				defer pool.Close()
			}
			args := []string{"-options", "Width:int:15:1:100"}
			games := 0
			for i := 0; b.Loop(); i++ {
				r := Runner{
					Entrants: []Entrant{
						{Engine: Engine{Name: fmt.Sprintf("m%d.A", i), Program: fakeBin(b), Args: args}, Setup: []string{"setoption name Width value 10"}},
						{Engine: Engine{Name: fmt.Sprintf("m%d.B", i), Program: fakeBin(b), Args: args}, Setup: []string{"setoption name Width value 20"}},
					},
					Openings:    []Opening{{}, mustOpening(b, "JJ KJJK")},
					Concurrency: 2,
					Processes:   pool,
				}
				t, err := r.Run(context.Background(), HeadToHead(0, 1, 4))
				if err != nil {
					b.Fatal(err)
				}
				games += len(t.Games)
			}
			b.ReportMetric(float64(games)/b.Elapsed().Seconds(), "games/s")
		})
	}
}
