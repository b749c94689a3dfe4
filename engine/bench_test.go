package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// Speed targets (issue 2): Place+Unplace ≤ 40 ns (issue 40: ≤ 30 ns, on a
// core of its own: pin it with taskset, a busy machine reads ~50),
// Evaluate ≤ 10 ns, move generation ≤ 50 µs, search depth 2/width 10
// ≤ 5 ms and depth 4/width 20 ≤ 300 ms median per move over the midgame
// suite, a depth-2 self-play game ≤ 150 ms. Run:
//
//	go test ./engine -run '^$' -bench . -benchtime 2x   (searches)
//	go test ./engine -run '^$' -bench 'Place|Evaluate|GenMoves' -benchtime 200ms
//
// Play by time (issue 14): BenchmarkTimeBudget and BenchmarkTimeToDepth,
// see there.
//
//	go test ./engine -run '^$' -bench Time -count 5

var sinkF float64

func BenchmarkPlaceUnplace(b *testing.B) {
	board := loadSuite(b)[0]
	pts := board.candidates(nil)
	b.ResetTimer()
	j := 0
	for i := 0; i < b.N; i++ {
		board.Place(pts[j])
		board.Unplace()
		if j++; j == len(pts) {
			j = 0
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	board := loadSuite(b)[0]
	for _, w := range []Weights{
		zhou(b),
		mustWeights(b, Asymmetric, 1, 5, 10, 25, 25, 1, 10, 15, 35, 25),
		mustWeights(b, Dual, 1, 5, 10, 25, 25, 1, 10, 15, 35, 25, 1, 15, 30, 50, 50, 1, 10, 15, 35, 25, 0),
	} {
		b.Run(string(w.Schema), func(b *testing.B) {
			var s float64
			for i := 0; i < b.N; i++ {
				s += w.Evaluate(board, Color(1+i&1))
			}
			sinkF = s
		})
	}
}

// BenchmarkGenMoves: candidates, single scores, pairs and ordering at the
// suite's midgame positions (one op = one position, width 10).
func BenchmarkGenMoves(b *testing.B) {
	suite := loadSuite(b)
	e := newEngine(b, zhou(b), DefaultSettings())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pos := suite[i%len(suite)]
		e.board.CopyFrom(pos)
		e.root = pos.ToMove()
		e.genMoves(0, &e.ts[0], 0)
	}
}

// benchSearch searches every suite position once per op and reports the
// median time per move and nodes per second.
func benchSearch(b *testing.B, s Settings) {
	suite := loadSuite(b)
	e := newEngine(b, zhou(b), s)
	times := make([]float64, 0, b.N*len(suite))
	var nodes int64
	var total time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, pos := range suite {
			e.NewGame()
			t0 := time.Now()
			r := e.Search(context.Background(), pos)
			el := time.Since(t0)
			total += el
			nodes += r.Nodes
			times = append(times, float64(el.Microseconds())/1000)
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(times[len(times)/2], "median-ms/move")
	b.ReportMetric(times[len(times)-1], "max-ms/move")
	b.ReportMetric(float64(nodes)/total.Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(len(times)), "nodes/move")
}

func BenchmarkSearchDepth2Width10(b *testing.B) { benchSearch(b, DefaultSettings()) }

func BenchmarkSearchDepth3Width10(b *testing.B) {
	s := DefaultSettings()
	s.Depth = 3
	benchSearch(b, s)
}

func BenchmarkSearchDepth4Width20(b *testing.B) {
	s := DefaultSettings()
	s.Depth, s.Width = 4, 20
	benchSearch(b, s)
}

// BenchmarkSelfPlayGame: zhou2015 against itself at depth 2, width 10 from
// the suite's 3-stone openings, played to the end (one op = one game).
func BenchmarkSelfPlayGame(b *testing.B) { benchSelfPlay(b, zhou(b), DefaultSettings()) }

// BenchmarkSelfPlayGameCross: the same games' cost with the cross schema
// (roadtune-tempo's genes and cross-point weights), which keeps its live
// 3-stone roads and counts cross points at every leaf.
func BenchmarkSelfPlayGameCross(b *testing.B) {
	benchSelfPlay(b, mustWeights(b, Cross, -6, 199, 913, 3518, 3515, -2, 133, 377, 656, -572, 2512, 9837, 1500, 1500), DefaultSettings())
}

// BenchmarkSelfPlayGamePlay: roadtune-tempo against itself under
// PlaySettings at a fixed depth 3 (tune's settings = "play"), with the
// defensive check's DefendWide at 0 and at PlaySettings' 60: what the
// wide defence costs where it runs, in positions whose checked moves all
// lose.
func BenchmarkSelfPlayGamePlay(b *testing.B) {
	for _, wide := range []int{0, PlaySettings().DefendWide} {
		b.Run(fmt.Sprintf("wide=%d", wide), func(b *testing.B) {
			s := PlaySettings()
			s.Depth, s.DefendWide = 3, wide
			benchSelfPlay(b, tempoBaseline(b), s)
		})
	}
}

func benchSelfPlay(b *testing.B, w Weights, s Settings) {
	var openings []string
	for _, pos := range loadSuite(b) {
		h := pos.History()
		openings = append(openings, h[0].String()+" "+Pair(h[1], h[2]).String())
	}
	e := newEngine(b, w, s)
	board := NewBoard()
	var turns, nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		board.Reset()
		play(b, board, strings.Fields(openings[i%len(openings)])...)
		e.NewGame()
		for !board.Over() {
			r := e.Search(context.Background(), board)
			nodes += r.Nodes
			if err := board.Play(r.Move); err != nil {
				b.Fatal(err)
			}
		}
		turns += int64(board.Turn())
	}
	b.ReportMetric(float64(turns)/float64(b.N), "turns/game")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N), "ms/game")
}

// BenchmarkTimeToDepth: the time and nodes a search of the midgame suite
// takes to reach depth D (a fixed-depth Search) at the play settings
// before PlaySettings ("old": DefaultSettings with the defensive check at
// PlayDefendNodes) and at PlaySettings ("play"); the results are the same
// move for move (Killers only reorders), so the difference is the
// ordering's. Reports the mean time and nodes per move and nodes/s; one op
// = one search of every suite position.
func BenchmarkTimeToDepth(b *testing.B) {
	old := DefaultSettings()
	old.DefendNodes = PlayDefendNodes
	for _, depth := range []int{4, 5} {
		for _, c := range []struct {
			name string
			s    Settings
		}{{"old", old}, {"play", PlaySettings()}} {
			b.Run(fmt.Sprintf("%s,depth=%d", c.name, depth), func(b *testing.B) {
				s := c.s
				s.Depth = depth
				suite := loadSuite(b)
				e := newEngine(b, zhou(b), s)
				var nodes int64
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					for _, pos := range suite {
						e.NewGame()
						nodes += e.Search(context.Background(), pos).Nodes
					}
				}
				b.StopTimer()
				n := float64(b.N * len(suite))
				b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/n, "ms/move")
				b.ReportMetric(float64(nodes)/n, "nodes/move")
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			})
		}
	}
}

// BenchmarkTimeBudget searches every suite position with SearchClock under
// a per-move clock T (st=T) at the engine binary's play settings before
// PlaySettings ("st=T": depth up to MaxDepth, width 10, defensive check
// 20000 nodes) and at PlaySettings ("play,st=T", depth up to MaxDepth) and
// reports how well the budget is kept: the largest and the mean overrun,
// elapsed − T in ms (negative: time left over), the mean time per move and
// the mean depth reached (the last completed iteration). One op = one
// search of every suite position.
func BenchmarkTimeBudget(b *testing.B) {
	old := DefaultSettings()
	old.DefendNodes = PlayDefendNodes
	for _, c := range []struct {
		name string
		s    Settings
	}{{"", old}, {"play,", PlaySettings()}} {
		for _, budget := range []time.Duration{20 * time.Millisecond, 100 * time.Millisecond} {
			b.Run(c.name+"st="+budget.String(), func(b *testing.B) {
				benchClock(b, c.s, Clock{Move: budget})
			})
		}
	}
}

// BenchmarkPlayClock is the engine binary's search at the clock it plays
// against Cloudict at depth 4: roadtune-tempo's weights, PlaySettings up
// to MaxDepth, under the per-move clock of `-time 'move 4'` (the searches
// stop well before it once the defensive check's deepening ends; in those
// games forced moves bring the mean down further). Reports nodes/s
// (alpha-beta nodes, leaves and threat-search positions, Result.Nodes),
// the mean depth reached and ms/move, as BenchmarkTimeBudget. One op = one
// search of every suite position (about 20 s); run with -benchtime 1x and
// compare with benchstat.
func BenchmarkPlayClock(b *testing.B) {
	benchClockWeights(b, tempoBaseline(b), PlaySettings(), Clock{Move: 4 * time.Second})
}

// benchClock is one BenchmarkTimeBudget case: settings s (searching up to
// MaxDepth) under clock c.
func benchClock(b *testing.B, s Settings, clock Clock) { benchClockWeights(b, zhou(b), s, clock) }

// benchClockWeights is benchClock with weights w.
func benchClockWeights(b *testing.B, w Weights, s Settings, clock Clock) {
	budget := clock.Move
	s.Depth = MaxDepth
	suite := loadSuite(b)
	e := newEngine(b, w, s)
	worst := time.Duration(math.MinInt64)
	var over, total time.Duration
	var depths, n int
	var nodes int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, pos := range suite {
			e.NewGame()
			t0 := time.Now()
			r := e.SearchClock(context.Background(), pos, clock)
			el := time.Since(t0)
			worst = max(worst, el-budget)
			over += el - budget
			total += el
			depths += r.Depth
			nodes += r.Nodes
			n++
		}
	}
	b.StopTimer()
	msOf := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(msOf(worst), "max-overrun-ms")
	b.ReportMetric(msOf(over)/float64(n), "mean-overrun-ms")
	b.ReportMetric(msOf(total)/float64(n), "ms/move")
	b.ReportMetric(float64(depths)/float64(n), "mean-depth")
	b.ReportMetric(float64(nodes)/total.Seconds(), "nodes/s")
}
