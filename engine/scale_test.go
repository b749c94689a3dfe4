package engine

import (
	"context"
	"fmt"
	"math"
	"testing"
)

// Scale invariance of play in the weight vector (TestScaleInvariance).
//
// Multiplying every gene by c > 0 (the tempo schema's T1, T2, the cross
// schema's XM, XW and the dual schema's alert threshold included: they are
// score terms or a score threshold and must scale too) multiplies every
// heuristic score by c. The search only compares scores with each other,
// except where it compares them with a fixed constant or mixes them with
// one. Every such place (no score is ever converted to an integer; the
// int64 history and node counts hold depths and counts, not scores):
//
//   - Mate = 1e9 (engine.go): leaf and node (movegen.go, search.go) return
//     ±(Mate − ply) for decided positions, next to heuristic scores;
//     search's "win", "lost" and "threat" results are Mate-based.
//   - IsMate(s) = |s| > Mate/2 = 5e8 (engine.go), used by search
//     (search.go): the root returns the ordering's move without alpha-beta
//     when the best ordering score IsMate, and stops iterative deepening
//     when an iteration's score IsMate; by search to skip the defensive
//     check when the score IsMate; by shallowDefend (defend.go) to skip the
//     check of a move whose score IsMate.
//   - refBonus = 1e15 and refBonus/2 (defend.go: defend): the leaf score v
//     of a pair of two refutation points is ranked as v + 1e15, rounded to
//     a multiple of ulp(1e15) = 0.125, and reported as (v + 1e15) − 1e15.
//   - ShallowLost = −Mate/4 = −2.5e8 (defend.go, node): a node whose checked
//     moves all lose (Settings.ShallowDefend > 0 only; off in
//     DefaultSettings and PlaySettings).
//   - addBlocks (movegen.go): block points ranked by blkOn·Mate + static
//     (Settings.Blocks > 0 only; off in both).
//   - Additive constants that are 0 and so scale: the tempo threat term
//     T[0] = 0 (weights.go compile), the full board's 0 (leaf, node), a
//     stopped node's 0 (budgets only), ±Inf as alpha-beta's initial bounds.
//   - The dual schema's alert gene (weights.go dualAdvantage: judge >
//     alert) is a threshold but a gene, so it scales with the others.
//   - TimeSettings.FailLowDrop (time.go timer.done) is in units of
//     evaluator.unit(), the largest |gene|, so it scales; clocks only.
//
// So play at a fixed depth without a clock is invariant when
//
//  1. c·S < Mate/2, S the largest |heuristic score| the search meets
//     (beyond it search takes a road score for a mate: the root returns
//     its ordering at Depth 1, or deepening stops early); in these games S
//     is about 12,800 for roadtune-tempo (T2 = 9837 alone is one threat
//     term) and about 3,800 for zhou2015, so the first divergence came at
//     c ≈ 40,000 and 131,072 (24 suite openings, depths 2 and 3), and
//  2. scaling commutes with floating-point rounding: exactly so for c a
//     power of two (down to the subnormal range; 2^-40 checked); for other
//     c each product and sum may round differently, which matters only for
//     scores that tie or nearly tie. Integer-valued vectors such as
//     zhou2015 tie often (different road counts, equal sums: 880 = 880),
//     and after c = 1/3 or 1/‖w‖ (norm 1) the tied scores differ in the
//     last bit, so betterMove/pushTop (movegen.go), which break exact ties
//     by point index, order them differently, the Width cut keeps other
//     moves and the game changes (TestScaleInvariance "breaks/ties"). c
//     that leave such a vector integer-valued (0.1, 3, 10 for zhou2015)
//     keep its ties. A real-valued vector such as roadtune-tempo has no
//     exact ties between different road counts, and none of 1/3, 0.1, 3,
//     1/‖w‖ changed a game, and
//  3. with the defensive check on (PlaySettings), c·(the smallest gap
//     between two distinct leaf scores) > 0.125 = ulp(refBonus) among the
//     pairs of refutation points that defend ranks; else they tie at
//     v + 1e15 and defend tries them in point order. zhou2015's scores
//     are multiples of 10, so c > 0.0125 is safe; at PlaySettings depth 3
//     c = 2^-40 and 2^-20 changed 2 of 24 games, 2^-12 one, 2^-8 none.
//     roadtune-tempo changed no game down to 2^-40 (and 1/‖w‖: 104
//     openings at depth 2), but defend took that path in only 2 of 24
//     games; a vector of norm 1 has scores of order 1 and is exposed.
//
// For optimizers that search vectors of a fixed L2 norm R: the direction
// alone decides play when R·S/‖w‖ stays well below 5e8 and R is large
// enough that the leaf-score gaps exceed 0.125 where the defensive check
// runs; R between about 1e3 and 1e6 meets both for these vectors (S/‖w‖
// was 1.1 for roadtune-tempo and 3 for zhou2015).

// scaleTempo is configs/weights/roadtune-tempo.json's values.
var scaleTempo = []float64{-6.27383669412527, 199.1742964540098, 912.6663134234168, 3517.8300511231764,
	3515.2891565635127, -1.977573119467044, 132.78965828243884, 377.29581560777314, 655.7098316636791,
	-572.4916693965248, 2511.993342896188, 9837.037852965583}

// scaleZhou is zhou2015 (symmetric).
var scaleZhou = []float64{20, 80, 150, 800, 1000}

// scaleOpenings are the 3-stone openings of the first midgame suite
// positions (engine/testdata/midgame.txt).
var scaleOpenings = []string{"JJ KLLL", "JJ HILJ", "JJ JHJI", "JJ JIKJ", "JJ JHJL", "JJ IKIL"}

// scaledWeights returns w with every gene multiplied by c.
func scaledWeights(t testing.TB, w Weights, c float64) Weights {
	t.Helper()
	g := make([]float64, len(w.Genes))
	for i, x := range w.Genes {
		g[i] = c * x
	}
	return mustWeights(t, w.Schema, g...)
}

// unitScale is 1/‖w‖: the factor that gives w an L2 norm of 1.
func unitScale(w Weights) float64 {
	n := 0.0
	for _, g := range w.Genes {
		n += g * g
	}
	return 1 / math.Sqrt(n)
}

// scaleGame plays opening to the end with Black's engine eb and White's ew
// (the same engine for self-play), after setting their weights to black
// and white, and returns every search's result.
func scaleGame(t testing.TB, eb, ew *Engine, black, white Weights, opening string) []Result {
	t.Helper()
	if err := eb.SetWeights(black); err != nil {
		t.Fatal(err)
	}
	if ew != eb {
		if err := ew.SetWeights(white); err != nil {
			t.Fatal(err)
		}
	}
	b := boardOf(t, opening)
	var out []Result
	for !b.Over() {
		e := eb
		if b.ToMove() == White {
			e = ew
		}
		r := e.Search(context.Background(), b)
		out = append(out, r)
		if err := b.Play(r.Move); err != nil {
			t.Fatalf("%s turn %d: %v: %v", opening, len(out), r.Move, err)
		}
	}
	return out
}

// firstDiff returns the first turn at which the games' moves differ, or -1.
func firstDiff(base, got []Result) int {
	for i := range min(len(base), len(got)) {
		if base[i].Move != got[i].Move {
			return i
		}
	}
	if len(base) != len(got) {
		return min(len(base), len(got))
	}
	return -1
}

// isPow2 reports whether c is a power of two (scaling by it is exact).
func isPow2(c float64) bool {
	frac, _ := math.Frexp(c)
	return frac == 0.5
}

func TestScaleInvariance(t *testing.T) {
	tempo := mustWeights(t, Tempo, scaleTempo...)
	zhou := mustWeights(t, Symmetric, scaleZhou...)
	pow2 := []float64{0x1p-40, 0x1p-20, 0x1p-10, 0.25, 0.5, 2, 4, 1024}
	with := func(s []float64, more ...float64) []float64 { return append(append([]float64(nil), s...), more...) }
	// Invariant: powers of two up to 2^15 (tempo) or 2^16 (zhou2015), and
	// for roadtune-tempo every other factor tried; for zhou2015 only factors that keep
	// its genes integers (0.1 rounds them to 2, 8, 15, 80, 100).
	tempoScales := with(pow2, 32768, 0.1, 1.0/3, 3, 10, 30000, unitScale(tempo))
	zhouScales := with(pow2, 32768, 65536, 0.1, 3, 10)
	mixScales := with(pow2, 32768, 3)

	d2, d3 := DefaultSettings(), DefaultSettings()
	d3.Depth = 3
	play := PlaySettings() // depth 2, width 15, defensive check, killers

	invariant := []struct {
		name         string
		black, white Weights
		set          Settings
		scales       []float64
		long         bool // skipped with -short
	}{
		{"tempo/d2", tempo, tempo, d2, tempoScales, false},
		{"tempo/d3", tempo, tempo, d3, tempoScales, false},
		{"zhou/d2", zhou, zhou, d2, zhouScales, false},
		{"zhou/d3", zhou, zhou, d3, zhouScales, false},
		{"tempo-zhou/d2", tempo, zhou, d2, mixScales, false},
		{"tempo/play-d2", tempo, tempo, play, []float64{0x1p-20, 0.25, 4, 1.0 / 3, unitScale(tempo)}, true},
		{"zhou/play-d2", zhou, zhou, play, []float64{0.25, 4, 0.1}, true},
	}
	for _, tc := range invariant {
		t.Run(tc.name, func(t *testing.T) {
			if tc.long && testing.Short() {
				t.Skip("PlaySettings games: skipped with -short")
			}
			t.Parallel()
			eb := newEngine(t, tc.black, tc.set)
			ew := eb
			if tc.white.Schema != tc.black.Schema {
				ew = newEngine(t, tc.white, tc.set)
			}
			ops := scaleOpenings
			if tc.long {
				ops = ops[:3] // about 50 ms a game
			}
			for _, op := range ops {
				base := scaleGame(t, eb, ew, tc.black, tc.white, op)
				for _, c := range tc.scales {
					got := scaleGame(t, eb, ew, scaledWeights(t, tc.black, c), scaledWeights(t, tc.white, c), op)
					if i := firstDiff(base, got); i >= 0 {
						var b, g Result
						if i < len(base) {
							b = base[i]
						}
						if i < len(got) {
							g = got[i]
						}
						t.Errorf("%s c=%g: turn %d: %+v, unscaled %+v", op, c, i, g, b)
						continue
					}
					for i := range base {
						checkScaledResult(t, op, i, c, base[i], got[i])
					}
				}
			}
		})
	}

	// Outside the range. Above it a road score passes Mate/2 and IsMate
	// takes it for a mate (search.go search: the root returns the
	// ordering's move at Depth 1, or iterative deepening stops before
	// Settings.Depth): the first scaled result that differs is such a
	// score.
	breaksLarge := []struct {
		name string
		w    Weights
		set  Settings
		c    float64
		op   string
	}{
		{"tempo/d2", tempo, d2, 65536, scaleOpenings[0]},
		{"tempo/d3", tempo, d3, 65536, scaleOpenings[0]},
		{"zhou/d2", zhou, d2, 262144, scaleOpenings[1]},
	}
	for _, tc := range breaksLarge {
		t.Run(fmt.Sprintf("breaks/mate/%s/c=%g", tc.name, tc.c), func(t *testing.T) {
			t.Parallel()
			e := newEngine(t, tc.w, tc.set)
			base := scaleGame(t, e, e, tc.w, tc.w, tc.op)
			got := scaleGame(t, e, e, scaledWeights(t, tc.w, tc.c), scaledWeights(t, tc.w, tc.c), tc.op)
			i := firstDiff(base, got)
			if i < 0 || i >= min(len(base), len(got)) {
				t.Fatalf("%s c=%g: no differing move (first difference %d): the documented limit c·S < Mate/2 moved", tc.op, tc.c, i)
			}
			b, g := base[i], got[i]
			t.Logf("%s c=%g turn %d: scaled %+v (score/c %.1f), unscaled %+v", tc.op, tc.c, i, g, g.Score/tc.c, b)
			if !IsMate(g.Score) || IsMate(b.Score) || g.Depth >= b.Depth {
				t.Errorf("first difference is not a road score taken for a mate: scaled %+v, unscaled %+v", g, b)
			}
		})
	}

	// Non-power-of-two factors on an integer-valued vector: zhou2015's
	// exact ties (equal scores from different road counts) come apart in
	// the last bit after c = 1/3 and 1/‖w‖, and the game changes at once.
	for _, c := range []float64{1.0 / 3, unitScale(zhou)} {
		t.Run(fmt.Sprintf("breaks/ties/zhou/d2/c=%g", c), func(t *testing.T) {
			t.Parallel()
			op := scaleOpenings[0]
			e0, e1 := newEngine(t, zhou, d2), newEngine(t, scaledWeights(t, zhou, c), d2)
			base := scaleGame(t, e0, e0, zhou, zhou, op)
			got := scaleGame(t, e1, e1, scaledWeights(t, zhou, c), scaledWeights(t, zhou, c), op)
			i := firstDiff(base, got)
			if i < 0 {
				t.Fatalf("%s c=%g: same game: rounding no longer breaks zhou2015's ties here", op, c)
			}
			t.Logf("%s c=%g: turn %d: scaled %+v (score/c %.6f), unscaled %+v", op, c, i, got[i], got[i].Score/c, base[i])
			// Replay the position and find a tie of the unscaled root list
			// that the scaled scores break.
			b := boardOf(t, op)
			for _, r := range base[:i] {
				if err := b.Play(r.Move); err != nil {
					t.Fatal(err)
				}
			}
			e0.Search(context.Background(), b)
			e1.Search(context.Background(), b)
			scaledOf := map[Move]float64{}
			for _, m := range e1.plies[0].moves {
				scaledOf[m.m] = m.s
			}
			broken := ""
			for x, mx := range e0.plies[0].moves {
				for _, my := range e0.plies[0].moves[x+1:] {
					sx, okx := scaledOf[mx.m]
					sy, oky := scaledOf[my.m]
					if mx.s == my.s && okx && oky && sx != sy && broken == "" {
						broken = fmt.Sprintf("%v and %v both %v unscaled, %v and %v scaled", mx.m, my.m, mx.s, sx, sy)
					}
				}
			}
			if broken == "" {
				t.Fatalf("turn %d: no broken tie in the root lists", i)
			}
			t.Logf("broken tie: %s", broken)
		})
	}

	// PlaySettings at a tiny factor: defend (defend.go) ranks pairs of two
	// refutation points at leaf score + refBonus (1e15, ulp 0.125); at
	// c = 2^-40 every such score rounds to 1e15 and is reported as 0, the
	// pairs are tried in point order, and the defence differs. Without the
	// defensive check both play the same move. (Position: suite opening
	// 10, zhou2015 self-play at PlaySettings depth 3, turn 32.)
	t.Run("breaks/refBonus/zhou/play-d3/c=2^-40", func(t *testing.T) {
		if testing.Short() {
			t.Skip("PlaySettings depth 3: skipped with -short")
		}
		t.Parallel()
		const pos = "JJ IILK IKJL HJHL JIJK JHJM GKHM LFHK MEIL HHLI HGGN LHFO KHLJ LEMF LDNF NGOH KDPI OGKL KCMJ JBIN GOGP KFGM NJOJ KJPJ NKML QHKN KKGQ IMGR JDMD IDOD JEIF MBGH NLNM NINN"
		const c = 0x1p-40
		s := PlaySettings()
		s.Depth = 3
		b := boardOf(t, pos)
		small := scaledWeights(t, zhou, c)
		r0 := newEngine(t, zhou, s).Search(context.Background(), b)
		r1 := newEngine(t, small, s).Search(context.Background(), b)
		t.Logf("c=2^-40: scaled %+v, unscaled %+v", r1, r0)
		if r0.Move == r1.Move || r1.Reason != "defend" || r1.Score != 0 {
			t.Errorf("want a different defence with score 0 (absorbed by refBonus): scaled %+v, unscaled %+v", r1, r0)
		}
		s.DefendNodes = 0
		q0 := newEngine(t, zhou, s).Search(context.Background(), b)
		q1 := newEngine(t, small, s).Search(context.Background(), b)
		if q0.Move != q1.Move || q0.Nodes != q1.Nodes || q1.Score != c*q0.Score {
			t.Errorf("without the defensive check: scaled %+v, unscaled %+v", q1, q0)
		}
	})
}

// checkScaledResult checks that a scaled search's result r matches the
// unscaled one u beyond its move: the same reason, depth and node count
// (the same tree), and the score scaled by c (exactly for a power of two;
// mate scores unscaled). The defensive check's scores are skipped: its
// refutation pairs' scores are rounded to 0.125 (refBonus).
func checkScaledResult(t *testing.T, op string, i int, c float64, u, r Result) {
	t.Helper()
	if r.Reason != u.Reason || r.Depth != u.Depth || r.Nodes != u.Nodes {
		t.Errorf("%s c=%g turn %d: %+v, unscaled %+v", op, c, i, r, u)
		return
	}
	switch {
	case r.Reason == "defend":
	case IsMate(u.Score):
		if r.Score != u.Score {
			t.Errorf("%s c=%g turn %d: mate score %v, unscaled %v", op, c, i, r.Score, u.Score)
		}
	case isPow2(c):
		if r.Score != c*u.Score {
			t.Errorf("%s c=%g turn %d: score %v, want exactly %v", op, c, i, r.Score, c*u.Score)
		}
	default:
		if d := math.Abs(r.Score - c*u.Score); d > 1e-9*math.Abs(c*u.Score) {
			t.Errorf("%s c=%g turn %d: score %v, want %v", op, c, i, r.Score, c*u.Score)
		}
	}
}
