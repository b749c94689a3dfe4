package pso

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// scripted is a Referee whose outcomes come from a function of the call
// number (from 0) and the match index; it records every call.
type scripted struct {
	decide func(call, i int, m optimize.Match) optimize.Outcome
	calls  [][]optimize.Match
	seeds  []uint64
}

func (s *scripted) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	call := len(s.calls)
	s.calls = append(s.calls, ms)
	s.seeds = append(s.seeds, seed)
	out := make([]optimize.Outcome, len(ms))
	for i, m := range ms {
		out[i] = s.decide(call, i, m)
	}
	return out, nil
}

var (
	aWins = optimize.Outcome{Wins: 2}
	bWins = optimize.Outcome{Losses: 2}
	tie   = optimize.Outcome{Wins: 1, Losses: 1}
	draws = optimize.Outcome{Draws: 2}
)

// failing delegates to ref but fails its call number failAt (from 0).
type failing struct {
	ref    optimize.Referee
	failAt int
	n      int
}

var errBoom = errors.New("engine crashed")

func (f *failing) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	n := f.n
	f.n++
	if n == f.failAt {
		return nil, errBoom
	}
	return f.ref.Play(ctx, seed, ms)
}

func mustNew(t testing.TB, c config, a, b uint64) *PSO {
	t.Helper()
	p, err := start(c, rand.NewPCG(a, b))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// detail is the swarm's own record of a step.
func detail(t testing.TB, rec optimize.Record) Iteration {
	t.Helper()
	it, ok := rec.Detail.(Iteration)
	if !ok {
		t.Fatalf("record detail is %T, want pso.Iteration", rec.Detail)
	}
	return it
}

// step runs one Step and returns its record and Iteration.
func step(t testing.TB, p *PSO, ref optimize.Referee) (optimize.Record, Iteration) {
	t.Helper()
	rec, err := p.Step(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	return rec, detail(t, rec)
}

// runAll drives m with optimize.Run under s and returns its records.
func runAll(t testing.TB, m optimize.Method, ref optimize.Referee, s optimize.Settings, st *optimize.Status) []optimize.Record {
	t.Helper()
	var recs []optimize.Record
	s.Recorder = func(r optimize.Record, _ optimize.Status) error { recs = append(recs, r); return nil }
	if st == nil {
		st = &optimize.Status{}
	}
	if err := optimize.Run(context.Background(), m, ref, s, st); err != nil {
		t.Fatal(err)
	}
	return recs
}

func stateJSON(t testing.TB, s State) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func smallConfig() config {
	c := defaultConfig(3)
	c.Particles = 8
	c.Iterations = 6
	return c
}

func TestConfigs(t *testing.T) {
	c := chenConfig(5)
	if c.Particles != 49 || len(c.Genes) != 5 || c.Iterations != 15 || c.C1 != 2.05 || c.C2 != 2.05 ||
		c.Alpha1 != 0.3 || c.Alpha2 != 0.2 || c.VelLo != -200 || c.VelHi != 200 ||
		c.BoundMode != optimize.BoundsOff || c.VMax != nil || c.InitLo[4] != 0 || c.InitHi[4] != 4000 {
		t.Errorf("chenConfig differs from Table 5.1: %+v", c)
	}
	d := defaultConfig(5)
	if d.BoundMode != optimize.BoundsClamp || d.Bounds.Lo[2] != 0 || d.Bounds.Hi[2] != 4000 || d.VMax[2] != 800 || d.Pairs != 1 {
		t.Errorf("DefaultConfig: mode %q bounds %+v vmax %v pairs %d", d.BoundMode, d.Bounds, d.VMax, d.Pairs)
	}
	o := DefaultSettings()
	want := Settings{Particles: 49, Iterations: 15, VelLo: -200, VelHi: 200, C1: 2.05, C2: 2.05, Alpha1: 0.3, Alpha2: 0.2, VMaxFraction: 0.2,
		Variant: VariantChen, NoiseOptions: optimize.DefaultNoiseOptions()}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("DefaultSettings %+v, want %+v", o, want)
	}
	// With Chen's problem and bounds [0, 4000] clamped, the default options
	// give DefaultConfig.
	if got := o.resolve(problem(5)); !reflect.DeepEqual(got, d) {
		t.Errorf("DefaultSettings().Config = %+v, want defaultConfig(5) %+v", got, d)
	}
	for _, c := range []config{c, d} {
		if err := c.validate(); err != nil {
			t.Error(err)
		}
	}
}

func TestValidateNamesTheField(t *testing.T) {
	optimizetest.CheckProblemFaults(t, DefaultSettings().Validate, func() optimize.Problem { return problem(3) })
	for _, tc := range []struct {
		field string
		edit  func(*config)
	}{
		{"particles", func(c *config) { c.Particles = 1 }},
		{"InitLo[2]", func(c *config) { c.InitHi[2] = 4001 }},
		{"Initial", func(c *config) { c.Initial = [][]float64{{1, 2, 3}} }},
		{"Initial[1]", func(c *config) {
			c.Initial = make([][]float64, c.Particles)
			for i := range c.Initial {
				c.Initial[i] = []float64{1, 2, 3}
			}
			c.Initial[1] = []float64{1}
		}},
		{"vel_lo", func(c *config) { c.VelLo, c.VelHi = 1, -1 }},
		{"c2", func(c *config) { c.C2 = math.NaN() }},
		{"alpha1", func(c *config) { c.Alpha1 = -0.3 }},
		{"vmax_fraction", func(c *config) { c.VMax = []float64{1} }},
		{"vmax_fraction", func(c *config) { c.VMax[0] = -1 }},
		{"vel_hi", func(c *config) { c.VelHi = math.Inf(1) }},
		{"iterations", func(c *config) { c.Iterations = 0 }},
	} {
		c := defaultConfig(3)
		tc.edit(&c)
		// field is a setting's TOML key, or the Config field (and index)
		// the problem brought.
		err := c.validate()
		var oe *optimize.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("field %s: error %#v is not an *optimize.OptionError", tc.field, err)
			continue
		}
		problem := tc.field[0] >= 'A' && tc.field[0] <= 'Z'
		if problem && (oe.Key != "" || !strings.HasPrefix(oe.Msg, "pso: "+tc.field+" from the problem: ")) ||
			!problem && oe.Key != tc.field {
			t.Errorf("field %s: error %#v does not name it", tc.field, oe)
		}
	}
	// An Initial position outside the bounds is rejected, but accepted with
	// the bounds off.
	c := defaultConfig(2)
	c.Particles = 2
	c.Initial = [][]float64{{1, 2}, {3, -4}}
	if err := c.validate(); err == nil || !strings.Contains(err.Error(), "Initial[1][1]") {
		t.Errorf("out-of-bounds Initial: got %v", err)
	}
	c.BoundMode = optimize.BoundsOff
	if err := c.validate(); err != nil {
		t.Errorf("bounds off: %v", err)
	}
}

func TestNewDrawsTheSharedInitialPopulation(t *testing.T) {
	c := chenConfig(5)
	p := mustNew(t, c, 2010, 0)
	want := optimize.UniformPopulation(rand.New(rand.NewPCG(2010, 0)), 49, c.InitLo, c.InitHi)
	st := p.State()
	if !reflect.DeepEqual(st.Positions, want) {
		t.Fatal("initial positions are not optimize.UniformPopulation of the same seed")
	}
	if !reflect.DeepEqual(st.PersonalBests, want) || st.GlobalBest != nil && len(st.GlobalBest) != 0 || st.GlobalBestParticle != -1 {
		t.Fatal("p_i must equal x_i and g be unset before the knockout")
	}
	lo, hi := 0.0, 0.0
	for _, v := range st.Velocities {
		for _, x := range v {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if lo < -200 || hi > 200 || lo > -150 || hi < 150 {
		t.Errorf("initial velocities span [%g, %g], want inside and filling [−200, 200]", lo, hi)
	}
	if q := mustNew(t, c, 2010, 0); stateJSON(t, q.State()) != stateJSON(t, st) {
		t.Error("the same seed gave a different swarm")
	}

	c.Particles, c.Genes = 2, optimizetest.Letters(2)
	c.Initial = [][]float64{{1, 2}, {3, 4}}
	c.VMax = []float64{10, 0}
	p = mustNew(t, c, 1, 1)
	c.Initial[0][0] = 99 // New copied it
	st = p.State()
	if !reflect.DeepEqual(st.Positions, [][]float64{{1, 2}, {3, 4}}) {
		t.Errorf("Initial not used: %v", st.Positions)
	}
	for i := range st.Velocities {
		if math.Abs(st.Velocities[i][0]) > 10 || st.Velocities[i][1] != 0 {
			t.Errorf("VMax not applied to initial velocity %v", st.Velocities[i])
		}
	}
	prob := optimize.Problem{Genes: optimizetest.Letters(2), InitLo: []float64{0, 0}, InitHi: []float64{1, 1}, Pairs: 1, BoundMode: optimize.BoundsOff}
	if _, err := New(DefaultSettings(), prob, nil); err == nil || err.Error() != "pso: New: nil *rand.PCG" {
		t.Errorf("New and a nil PCG: %v", err)
	}
}

func TestKnockoutPicksTheClosestParticle(t *testing.T) {
	c := smallConfig()
	c.Genes = optimizetest.Letters(2)
	c.Bounds = optimize.UniformBounds(2, 0, 4000)
	c.VMax = nil
	c.Particles = 6
	c.Initial = [][]float64{{3000, 3000}, {100, 100}, {1100, 900}, {2500, 0}, {1000, 1000 + 400}, {4000, 4000}}
	ref := &optimizetest.TargetReferee{Target: []float64{1000, 1000}, Temperature: 1e-9}
	p := mustNew(t, c, 5, 5)
	rec, it := step(t, p, ref)
	if len(it.Knockout) != 5 {
		t.Fatalf("%d knockout matches, want m − 1 = 5", len(it.Knockout))
	}
	// Survivors: 0 → 1 (1273 vs 2828) → 2 (141) → 2 → 2 (400 > 141) → 2.
	wantInc := []int{0, 1, 2, 2, 2}
	wantWon := []bool{true, true, false, false, false}
	for j, m := range it.Knockout {
		if m.Kind != KnockoutMatch || m.Particle != j+1 || m.Incumbent != wantInc[j] || m.ChallengerWon != wantWon[j] {
			t.Errorf("knockout match %d: %+v", j, m)
		}
		if !reflect.DeepEqual(m.B, c.Initial[wantInc[j]]) || !reflect.DeepEqual(m.A, c.Initial[j+1]) {
			t.Errorf("knockout match %d played %v against %v", j, m.A, m.B)
		}
	}
	// Each knockout match is its own Play call with its own seed, then the
	// personal-best batch, then the challenges.
	if len(it.Seeds) < 6 || it.Seeds[0] == it.Seeds[1] {
		t.Errorf("seeds %v", it.Seeds)
	}
	if rec.Step != 0 || it.Matches[0].Kind != PersonalMatch {
		t.Errorf("step %d, first match %+v", rec.Step, it.Matches[0])
	}
	// g is the knockout winner unless a new position beat it; either way g
	// is at least as close to the target as particle 2's initial position.
	if d := ref.Distance(it.GlobalBest); d > ref.Distance(c.Initial[2]) {
		t.Errorf("global best %v at distance %g, farther than the knockout winner", it.GlobalBest, d)
	}
	if rec2, it2 := step(t, p, ref); len(it2.Knockout) != 0 || rec2.Step != 1 {
		t.Error("the knockout ran twice")
	}
}

func TestBestUpdatesFollowOutcomes(t *testing.T) {
	c := smallConfig()
	c.Particles = 6
	const m = 6
	// Knockout: calls 0..4 all ties, so particle 0 survives (the incumbent
	// keeps its place). Call 5 is the personal-best batch: particles 1, 3, 4
	// win, 2 draws every game, the others lose. Calls 6, 7, 8 are the
	// challenges of 1, 3, 4: win, lose, win.
	ref := &scripted{decide: func(call, i int, _ optimize.Match) optimize.Outcome {
		switch {
		case call < m-1:
			return tie
		case call == m-1:
			switch i {
			case 1, 3, 4:
				return aWins
			case 2:
				return draws
			}
			return bWins
		case call == m+1:
			return bWins
		}
		return aWins
	}}
	p := mustNew(t, c, 11, 3)
	before := p.State()
	rec, it := step(t, p, ref)
	if len(ref.calls) != m-1+1+3 {
		t.Fatalf("%d Play calls, want 5 knockout + 1 batch + 3 challenges", len(ref.calls))
	}
	for j := range m - 1 {
		if len(ref.calls[j]) != 1 || it.Knockout[j].Incumbent != 0 || it.Knockout[j].ChallengerWon {
			t.Fatalf("knockout call %d: %d matches, record %+v", j, len(ref.calls[j]), it.Knockout[j])
		}
	}
	if len(ref.calls[m-1]) != m {
		t.Fatalf("personal-best batch had %d matches, want %d in one call", len(ref.calls[m-1]), m)
	}
	x := it.Positions
	for i := range m {
		batch := ref.calls[m-1][i]
		if !reflect.DeepEqual(batch.A, x[i]) || !reflect.DeepEqual(batch.B, before.PersonalBests[i]) {
			t.Errorf("batch match %d is not new position against personal best", i)
		}
		want := before.PersonalBests[i]
		if i == 1 || i == 3 || i == 4 {
			want = x[i]
		}
		if !reflect.DeepEqual(it.PersonalBests[i], want) {
			t.Errorf("particle %d: personal best %v, want %v", i, it.PersonalBests[i], want)
		}
	}
	// Challenges in particle order against the updated g.
	g0 := before.Positions[0]
	wantB := [][]float64{g0, x[1], x[1]}
	wantInc := []int{0, 1, 1}
	for j, i := range []int{1, 3, 4} {
		call := ref.calls[m+j]
		r := it.Matches[m+j]
		if len(call) != 1 || !reflect.DeepEqual(call[0].A, x[i]) || !reflect.DeepEqual(call[0].B, wantB[j]) {
			t.Errorf("challenge %d: played %v against %v", j, call[0].A, call[0].B)
		}
		if r.Kind != GlobalMatch || r.Particle != i || r.Incumbent != wantInc[j] || r.ChallengerWon != (j != 1) {
			t.Errorf("challenge record %d: %+v", j, r)
		}
	}
	if !reflect.DeepEqual(it.GlobalBest, x[4]) || it.GlobalBestParticle != 4 || !it.GlobalBestChanged {
		t.Errorf("global best %v from %d, want particle 4's position %v", it.GlobalBest, it.GlobalBestParticle, x[4])
	}
	if !reflect.DeepEqual(it.Seeds, ref.seeds) || rec.Games != 2*len(it.Knockout)+2*len(it.Matches) {
		t.Errorf("seeds %v vs %v, games %d", it.Seeds, ref.seeds, rec.Games)
	}
	// The envelope: g, the improvements and the metrics.
	if !reflect.DeepEqual(rec.Best, x[4]) || !reflect.DeepEqual(p.Best(), x[4]) || rec.Step != 0 || p.Steps() != 1 {
		t.Errorf("record best %v step %d; swarm best %v steps %d", rec.Best, rec.Step, p.Best(), p.Steps())
	}
	if pb, gb := it.Improvements(); pb != 3 || gb != 2 {
		t.Errorf("improvements %d, %d; want 3 personal, 2 global", pb, gb)
	}
	dv := optimize.PopulationDiversity(x)
	wantM := map[string]float64{
		"w": it.W, "k": it.K, "mean_dist": it.MeanDist, "max_dist": it.MaxDist,
		"personal_bests": 3, "global_bests": 2, "games_saved": 0, // the stub plays every game
		"diversity": dv.MeanDistance, "gene_std": dv.MeanGeneStd(),
	}
	if !reflect.DeepEqual(rec.Metrics, wantM) {
		t.Errorf("metrics %v, want %v", rec.Metrics, wantM)
	}
	wantLine := fmt.Sprintf("w %.3f k %.3f focus %.0f/%.0f, 3 new personal bests, 2 global", it.W, it.K, it.MeanDist, it.MaxDist)
	if rec.Line != wantLine {
		t.Errorf("line %q, want %q", rec.Line, wantLine)
	}
	// The record's focus distances and w are those of the updated bests.
	mean, mx, k := FocusDistances(it.GlobalBest, it.PersonalBests)
	if it.MeanDist != mean || it.MaxDist != mx || it.K != k || it.W != InertiaWeight(k, it.R, c.Alpha1, c.Alpha2) {
		t.Errorf("record w %g k %g mean %g max %g; recomputed k %g mean %g max %g", it.W, it.K, it.MeanDist, it.MaxDist, k, mean, mx)
	}
}

func TestTiesKeepTheIncumbentAndStall(t *testing.T) {
	c := smallConfig()
	c.Iterations = 20
	ref := &scripted{decide: func(call, i int, _ optimize.Match) optimize.Outcome { return tie }}
	p := mustNew(t, c, 4, 4)
	start := p.State()
	// The driver's stall rule: iteration 0 sets g by the knockout, 1..3
	// leave it unchanged, and Stall 3 stops the run there.
	var st optimize.Status
	recs := runAll(t, p, ref, optimize.Settings{Stall: 3}, &st)
	if len(recs) != 4 || st.Stall != 3 || p.Done() || p.Steps() != 4 {
		t.Fatalf("ran %d iterations, stall %d; want 4 and 3", len(recs), st.Stall)
	}
	now := p.State()
	if !reflect.DeepEqual(now.PersonalBests, start.PersonalBests) || !reflect.DeepEqual(now.GlobalBest, start.Positions[0]) || now.GlobalBestParticle != 0 {
		t.Error("a tied match replaced an incumbent")
	}
	for _, rec := range recs {
		it := detail(t, rec)
		if len(it.Matches) != c.Particles || it.GlobalBestChanged || rec.Metrics["personal_bests"] != 0 || rec.Metrics["global_bests"] != 0 {
			t.Errorf("iteration %d: %d matches, changed %v; ties must not challenge g", rec.Step, len(it.Matches), it.GlobalBestChanged)
		}
	}
	if games := 2*(c.Particles-1) + 4*2*c.Particles; now.Games != games || st.Games != games {
		t.Errorf("games %d (status %d), want %d", now.Games, st.Games, games)
	}
}

func TestStepAfterDone(t *testing.T) {
	c := smallConfig()
	c.Iterations = 2
	p := mustNew(t, c, 4, 4)
	ref := &optimizetest.TargetReferee{Target: []float64{1, 2, 3}}
	if recs := runAll(t, p, ref, optimize.Settings{}, nil); len(recs) != 2 || !p.Done() {
		t.Fatalf("%d iterations, done %v", len(recs), p.Done())
	}
	before := stateJSON(t, p.State())
	if _, err := p.Step(context.Background(), ref); !errors.Is(err, optimize.ErrDone) {
		t.Errorf("Step after the end: %v, want optimize.ErrDone", err)
	}
	if stateJSON(t, p.State()) != before || p.Steps() != 2 {
		t.Error("Step after the end changed the swarm")
	}
	if f := p.Forecast(); f != (optimize.Forecast{}) {
		t.Errorf("forecast when done: %+v", f)
	}
}

// boundsRun runs 40 iterations towards a target outside [0, 4000] in genes 0
// and 1 and calls check on every iteration.
func boundsRun(t *testing.T, c config, check func(Iteration)) {
	t.Helper()
	c.Iterations = 40
	ref := &optimizetest.TargetReferee{Target: []float64{-3000, 9000, 2000}, Temperature: 100}
	p := mustNew(t, c, 8, 9)
	for _, rec := range runAll(t, p, ref, optimize.Settings{}, nil) {
		check(detail(t, rec))
	}
}

func TestBoundsAndVelocityLimitsHold(t *testing.T) {
	for _, mode := range []optimize.BoundMode{optimize.BoundsClamp, optimize.BoundsReflect} {
		c := defaultConfig(3)
		c.Particles = 20
		c.BoundMode = mode
		c.VMax = []float64{300, 500, 800}
		atLimit := 0
		boundsRun(t, c, func(it Iteration) {
			vecs := append(append([][]float64{it.GlobalBest}, it.Positions...), it.PersonalBests...)
			for _, x := range vecs {
				for d, v := range x {
					if v < 0 || v > 4000 {
						t.Fatalf("%s: gene %d = %g outside [0, 4000]", mode, d, v)
					}
					if v == 0 || v == 4000 {
						atLimit++
					}
				}
			}
			for _, vel := range it.Velocities {
				for d, v := range vel {
					if math.Abs(v) > c.VMax[d] {
						t.Fatalf("%s: velocity %g beyond VMax %g", mode, v, c.VMax[d])
					}
				}
			}
		})
		if mode == optimize.BoundsClamp && atLimit == 0 {
			t.Errorf("clamp: no gene ever reached a bound; the test does not push against them")
		}
	}

	// Bounds and VMax off (Chen): positions leave [0, 4000].
	c := chenConfig(3)
	c.Particles = 20
	outside := false
	boundsRun(t, c, func(it Iteration) {
		for _, x := range it.Positions {
			for _, v := range x {
				outside = outside || v < 0 || v > 4000
			}
		}
	})
	if !outside {
		t.Error("with bounds off no position ever left [0, 4000]")
	}
}

func TestMoveRespondsToBoundsAsDocumented(t *testing.T) {
	// One particle at 3900 moving +300 (VMax off): clamp stops it at 4000
	// with velocity 0 before eq. 5-1; reflect puts it at 3800 moving −300.
	for _, tc := range []struct {
		mode optimize.BoundMode
		x, v float64
	}{{optimize.BoundsClamp, 4000, 0}, {optimize.BoundsReflect, 3800, -300}, {optimize.BoundsOff, 4200, 300}} {
		c := defaultConfig(1)
		c.Particles, c.Iterations, c.BoundMode, c.VMax = 2, 1, tc.mode, nil
		c.Initial = [][]float64{{3900}, {100}}
		c.VelLo, c.VelHi = 300, 300
		c.C1, c.C2 = 0, 0 // the velocity update is then w·v alone
		ref := &scripted{decide: func(call, i int, _ optimize.Match) optimize.Outcome { return tie }}
		p := mustNew(t, c, 1, 2)
		_, it := step(t, p, ref)
		if it.Positions[0][0] != tc.x || it.Velocities[0][0] != it.W*tc.v {
			t.Errorf("%s: x %g v %g, want x %g v %g·w(%g)", tc.mode, it.Positions[0][0], it.Velocities[0][0], tc.x, tc.v, it.W)
		}
	}
}

func TestResumeEqualsUninterrupted(t *testing.T) {
	c := smallConfig()
	c.Iterations = 8
	target := []float64{500, 2500, 1200}
	var want []string
	full := mustNew(t, c, 42, 1)
	for _, rec := range runAll(t, full, &optimizetest.TargetReferee{Target: target, Temperature: 200}, optimize.Settings{}, nil) {
		want = append(want, optimizetest.RecordJSON(t, rec))
	}
	wantFinal := stateJSON(t, full.State())
	for _, cut := range []int{0, 1, 5} {
		p := mustNew(t, c, 42, 1)
		ref := &optimizetest.TargetReferee{Target: target, Temperature: 200}
		var got []string
		for range cut {
			rec, _ := step(t, p, ref)
			got = append(got, optimizetest.RecordJSON(t, rec))
		}
		var st State
		if err := json.Unmarshal([]byte(stateJSON(t, p.State())), &st); err != nil {
			t.Fatal(err)
		}
		q, err := restore(c, st)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range runAll(t, q, ref, optimize.Settings{}, &optimize.Status{Steps: cut}) {
			got = append(got, optimizetest.RecordJSON(t, rec))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("cut after %d: resumed iterations differ", cut)
		}
		if s := stateJSON(t, q.State()); s != wantFinal {
			t.Errorf("cut after %d: final state differs", cut)
		}
	}
}

func TestFailedStepLeavesStateUnchanged(t *testing.T) {
	c := smallConfig()
	target := []float64{1000, 1000, 1000}
	good := func() optimize.Referee { return &optimizetest.TargetReferee{Target: target, Temperature: 100} }
	// Reference: two clean Steps.
	clean := mustNew(t, c, 3, 3)
	var want []string
	for range 2 {
		rec, _ := step(t, clean, good())
		want = append(want, optimizetest.RecordJSON(t, rec))
	}
	// Fail the second Step at its first call (the batch) and at a later
	// one (a challenge, if any), and the first Step inside the knockout.
	for _, tc := range []struct{ step, failAt int }{{0, 3}, {0, c.Particles - 1}, {1, 0}, {1, 1}} {
		p := mustNew(t, c, 3, 3)
		for s := range tc.step {
			if _, err := p.Step(context.Background(), good()); err != nil {
				t.Fatal(err, s)
			}
		}
		before := stateJSON(t, p.State())
		_, err := p.Step(context.Background(), &failing{ref: good(), failAt: tc.failAt})
		if !errors.Is(err, errBoom) {
			t.Fatalf("step %d fail at %d: error %v", tc.step, tc.failAt, err)
		}
		if after := stateJSON(t, p.State()); after != before {
			t.Fatalf("step %d fail at %d: state changed by a failed Step", tc.step, tc.failAt)
		}
		rec, _ := step(t, p, good())
		if optimizetest.RecordJSON(t, rec) != want[tc.step] {
			t.Errorf("step %d fail at %d: the retried Step differs from the clean one", tc.step, tc.failAt)
		}
	}
	// A cancelled context also leaves the swarm alone.
	p := mustNew(t, c, 3, 3)
	before := stateJSON(t, p.State())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Step(ctx, good()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Step: %v", err)
	}
	if stateJSON(t, p.State()) != before {
		t.Error("a cancelled Step changed the state")
	}
	// A referee answering the wrong number of outcomes is an error.
	short := &scripted{decide: func(call, i int, _ optimize.Match) optimize.Outcome { return tie }}
	bad := refereeFunc(func(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
		out, _ := short.Play(ctx, seed, ms)
		return out[:len(out)-1], nil
	})
	if _, err := p.Step(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "outcomes") {
		t.Errorf("short answer: %v", err)
	}
	if stateJSON(t, p.State()) != before {
		t.Error("a short answer changed the state")
	}
	if _, err := p.Step(context.Background(), nil); err == nil || stateJSON(t, p.State()) != before {
		t.Errorf("nil referee: %v, or the state changed", err)
	}
}

type refereeFunc func(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error)

func (f refereeFunc) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	return f(ctx, seed, ms)
}

func TestRestoreRejectsBadStates(t *testing.T) {
	c := smallConfig()
	fresh := mustNew(t, c, 1, 1)
	p := mustNew(t, c, 1, 1)
	if _, err := p.Step(context.Background(), &optimizetest.TargetReferee{Target: []float64{1, 2, 3}}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		field string
		from  *PSO
		edit  func(*State)
	}{
		{"RNG", p, func(s *State) { s.RNG = []byte("junk") }},
		{"Iteration", p, func(s *State) { s.Iteration = -1 }},
		{"Iteration", p, func(s *State) { s.Iteration = c.Iterations + 1 }},
		{"Games", p, func(s *State) { s.Games = -1 }},
		{"Positions", p, func(s *State) { s.Positions = s.Positions[1:] }},
		{"Velocities[2]", p, func(s *State) { s.Velocities[2] = []float64{1} }},
		{"PersonalBests[0]", p, func(s *State) { s.PersonalBests[0][1] = math.Inf(1) }},
		{"GlobalBest", p, func(s *State) { s.GlobalBest = nil }},
		{"GlobalBest", p, func(s *State) { s.GlobalBest[0] = math.NaN() }},
		{"GlobalBestParticle", p, func(s *State) { s.GlobalBestParticle = 99 }},
		{"KnockoutDone", p, func(s *State) { s.KnockoutDone = false }},
		{"KnockoutDone", fresh, func(s *State) { s.KnockoutDone = true }},
		{"GlobalBest", fresh, func(s *State) { s.GlobalBest = []float64{1, 2, 3} }},
		{"GlobalBestParticle", fresh, func(s *State) { s.GlobalBestParticle = 0 }},
		{"W", p, func(s *State) { s.W = math.NaN() }},
		{"K", p, func(s *State) { s.K = 1.5 }},
		{"R", p, func(s *State) { s.R = 1 }},
		{"MeanDist", p, func(s *State) { s.MaxDist = -1 }},
	} {
		st := tc.from.State()
		tc.edit(&st)
		_, err := restore(c, st)
		if err == nil || !strings.HasPrefix(err.Error(), "pso: Restore: state field "+tc.field+":") {
			t.Errorf("%s: got %v", tc.field, err)
		}
	}
	for _, q := range []*PSO{fresh, p} {
		if _, err := restore(c, q.State()); err != nil {
			t.Errorf("a good state: %v", err)
		}
	}
	// A finished run restores as finished; a larger budget extends it.
	st := p.State()
	c.Iterations = 1
	if r, err := restore(c, st); err != nil || !r.Done() {
		t.Errorf("finished run: %v", err)
	}
	c.Iterations = 0
	if err := c.validate(); err == nil {
		t.Error("invalid config: want an error")
	}
}

func TestConvergesOnTargetReferee(t *testing.T) {
	// Chen's swarm (49 particles, 5 genes, roadtune's default bounds and
	// VMax), games decided by distance to the target with temperature 50
	// weight units, 2 game pairs per match. The knockout's g starts 700–1350
	// away; after 20 iterations g must be within 150 of the target, for each
	// of 5 seeds.
	target := []float64{700, 1500, 2300, 3100, 900}
	for seed := uint64(1); seed <= 5; seed++ {
		c := defaultConfig(5)
		c.Iterations = 20
		ref := &optimizetest.TargetReferee{Target: target, Temperature: 50, Pairs: 2}
		p := mustNew(t, c, seed, 7)
		recs := runAll(t, p, ref, optimize.Settings{}, nil)
		it := detail(t, recs[0])
		first := ref.Distance(it.Knockout[0].B) // particle 0, for the log
		for _, m := range it.Knockout {
			if m.ChallengerWon {
				first = ref.Distance(m.A)
			}
		}
		last := ref.Distance(p.Best())
		t.Logf("seed %d: knockout winner at %.0f, after 20 iterations %.0f, %d games", seed, first, last, ref.Games)
		if last > 150 || last > first/4 || len(recs) != 20 || recs[19].Step != 19 {
			t.Errorf("seed %d: global best %v is %.0f from the target (knockout winner %.0f)", seed, p.Best(), last, first)
		}
	}
}

func TestVelocityUpdateFollowsEq51AndTheDrawOrder(t *testing.T) {
	c := chenConfig(2)
	c.Particles = 3
	c.Initial = [][]float64{{100, 200}, {1000, 3000}, {2500, 50}}
	// Knockout ties (particle 0 survives); in the batch only particle 1
	// beats its personal best, then it beats g.
	ref := &scripted{decide: func(call, i int, _ optimize.Match) optimize.Outcome {
		if call == 2 && i != 1 {
			return bWins
		}
		if call < 2 {
			return tie
		}
		return aWins
	}}
	p := mustNew(t, c, 77, 78)
	before := p.State()
	_, it := step(t, p, ref)
	// Replay the documented draws: 2 knockout seeds, the batch seed, one
	// challenge seed, r, then r1, r2 per particle and gene.
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(before.RNG); err != nil {
		t.Fatal(err)
	}
	rr := rand.New(pcg)
	if len(it.Seeds) != 4 {
		t.Fatalf("%d Play calls, want 4", len(it.Seeds))
	}
	for j, s := range it.Seeds {
		if got := rr.Uint64(); got != s {
			t.Fatalf("seed %d: %d, replay %d", j, s, got)
		}
	}
	r := rr.Float64()
	x := make([][]float64, 3)
	for i := range x {
		x[i] = []float64{c.Initial[i][0] + before.Velocities[i][0], c.Initial[i][1] + before.Velocities[i][1]}
	}
	pb := [][]float64{c.Initial[0], x[1], c.Initial[2]}
	g := x[1]
	mean, mx, k := FocusDistances(g, pb)
	w := InertiaWeight(k, r, 0.3, 0.2)
	if it.R != r || it.W != w || it.MeanDist != mean || it.MaxDist != mx {
		t.Fatalf("r %g w %g, replay r %g w %g", it.R, it.W, r, w)
	}
	for i := range 3 {
		for d := range 2 {
			r1, r2 := rr.Float64(), rr.Float64()
			want := w*before.Velocities[i][d] + 2.05*r1*(pb[i][d]-x[i][d]) + 2.05*r2*(g[d]-x[i][d])
			if it.Positions[i][d] != x[i][d] || math.Abs(it.Velocities[i][d]-want) > 1e-9 {
				t.Errorf("particle %d gene %d: x %g v %g, want x %g v %g", i, d, it.Positions[i][d], it.Velocities[i][d], x[i][d], want)
			}
		}
	}
	if st := p.State(); !reflect.DeepEqual(st.RNG, func() []byte { b, _ := pcg.MarshalBinary(); return b }()) {
		t.Error("the swarm drew more random numbers than documented")
	}
}

// defaultConfig is Chen 2010 Table 5.1 for genes genes, plus roadtune's
// remedies for the negative weights Chen §6.2 complains of: bounds [0, 4000]
// on every gene in clamp mode (the initial range) and a velocity limit of
// DefaultVMaxFraction of the bound width (800).
func defaultConfig(genes int) config {
	c := chenConfig(genes)
	c.VMaxFraction = DefaultVMaxFraction
	c.Bounds = optimize.UniformBounds(genes, 0, 4000)
	c.BoundMode = optimize.BoundsClamp
	c.VMax = make([]float64, genes)
	for d := range c.VMax {
		c.VMax[d] = DefaultVMaxFraction * (c.Bounds.Hi[d] - c.Bounds.Lo[d])
	}
	return c
}

// chenConfig is Chen 2010 Table 5.1 as printed (DefaultSettings without
// the velocity limit): positions uniform in [0, 4000], no bounds; one game
// pair a match (Chen plays one).
func chenConfig(genes int) config {
	s := DefaultSettings()
	s.VMaxFraction = 0
	c := config{
		Settings: s,
		Problem: optimize.Problem{
			Genes:     optimizetest.Letters(genes),
			InitLo:    make([]float64, genes),
			InitHi:    make([]float64, genes),
			BoundMode: optimize.BoundsOff,
			Pairs:     1,
		},
	}
	for d := range genes {
		c.InitHi[d] = 4000
	}
	return c
}
