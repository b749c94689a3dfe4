package pso

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// robustTarget lies inside Chen's initial range [0, 4000]^5.
var robustTarget = []float64{700, 1500, 2300, 3100, 900}

func robustReferee(temp float64) *optimizetest.TargetReferee {
	return &optimizetest.TargetReferee{Target: robustTarget, Temperature: temp}
}

// robustOptions is a small robust swarm: 12 particles (elite 3), a race
// of at most 400 games on the last iteration.
func robustOptions(iters int) Settings {
	o := DefaultSettings()
	o.Variant, o.Particles, o.Iterations = VariantRobust, 12, iters
	o.RaceBudget = 400
	return o
}

func newRobust(t testing.TB, o Settings, p optimize.Problem, seed uint64) *RobustPSO {
	t.Helper()
	m, err := Spec.New(&o, p, rand.NewPCG(seed, 0x70))
	if err != nil {
		t.Fatal(err)
	}
	q, ok := m.(*RobustPSO)
	if !ok {
		t.Fatalf("variant robust made a %T", m)
	}
	return q
}

// robustSteps steps m until it is done and returns its records as JSON
// (optimizetest.RecordJSON: the Detail as a run directory keeps it).
func robustSteps(t testing.TB, m optimize.Method, ref optimize.Referee) []string {
	t.Helper()
	var out []string
	for !m.Done() {
		rec, err := m.Step(context.Background(), ref)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, optimizetest.RecordJSON(t, rec))
	}
	return out
}

// robustRun steps q until it is done and returns the records' Details.
func robustRun(t testing.TB, q *RobustPSO, ref optimize.Referee) ([]optimize.Record, []RobustIteration) {
	t.Helper()
	var recs []optimize.Record
	var its []RobustIteration
	for !q.Done() {
		rec, it := optimizetest.Step[RobustIteration](t, q, ref)
		recs, its = append(recs, rec), append(its, it)
	}
	return recs, its
}

func robustJSON(t testing.TB, q *RobustPSO) string {
	t.Helper()
	b, err := q.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRobustConverges: on the synthetic noisy referee (temperature 300
// weight units, 2 game pairs a match) the robust swarm's answer ends at
// most a quarter as far from the hidden target as the initial swarm's
// centroid, for 5 seeds.
func TestRobustConverges(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		ref := &optimizetest.TargetReferee{Target: robustTarget, Temperature: 300, Pairs: 2}
		p := problem(5)
		p.Pairs = 2
		q := newRobust(t, robustOptions(30), p, seed)
		start := optimize.Centroid(q.s.x)
		robustRun(t, q, ref)
		d0, d1 := ref.Distance(start), ref.Distance(q.Best())
		t.Logf("seed %d: %.0f from the target at the start, %.0f at the end, %d games", seed, d0, d1, ref.Games)
		if d1 > d0/4 {
			t.Errorf("seed %d: distance to the target %.0f at the start, %.0f at the end", seed, d0, d1)
		}
	}
}

// TestRobustResume: a run checkpointed after any iteration and restored
// through Spec.Restore gives the records and final state of the
// uninterrupted run, bit for bit (norm, a pool of two, average and the
// final race included).
func TestRobustResume(t *testing.T) {
	o := robustOptions(5)
	o.Norm, o.Pool, o.Average, o.Memory = 5000, []string{"centroid", "best"}, 3, 0.8
	p := problem(5)
	p.BoundMode = "reflect"
	whole := newRobust(t, o, p, 3)
	want := robustSteps(t, whole, robustReferee(200))
	wantState := robustJSON(t, whole)
	if !strings.Contains(want[4], `"race":{`) {
		t.Fatal("the last iteration did not race")
	}
	for k := range 6 {
		var m optimize.Method = newRobust(t, o, p, 3)
		ref := robustReferee(200)
		var got []string
		for range k {
			rec, err := m.Step(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, optimizetest.RecordJSON(t, rec))
		}
		st, err := m.MarshalState()
		if err != nil {
			t.Fatal(err)
		}
		r, err := Spec.Restore(&o, p, st)
		if err != nil {
			t.Fatal(err)
		}
		if r.Steps() != k || !slices.Equal(r.Best(), m.Best()) || r.Forecast() != m.Forecast() {
			t.Fatalf("restored after %d: step %d, best %v, forecast %+v", k, r.Steps(), r.Best(), r.Forecast())
		}
		got = append(got, robustSteps(t, r, ref)...)
		if !slices.Equal(got, want) {
			t.Errorf("resumed after %d iterations: records differ", k)
		}
		if st, _ := r.MarshalState(); string(st) != wantState {
			t.Errorf("resumed after %d iterations: final state differs", k)
		}
	}
}

// TestRobustReplaysAfterAFailure: a failing referee (in an evaluation or
// in the final race), a cancelled context or a short answer leaves the
// state unchanged, so the iteration replays exactly.
func TestRobustReplaysAfterAFailure(t *testing.T) {
	o := robustOptions(2)
	p := problem(5)
	want := robustSteps(t, newRobust(t, o, p, 4), robustReferee(200))
	for _, failAt := range []int{0, 1, 2, 3} { // evaluations 0 and 1, the race's first two rounds
		q := newRobust(t, o, p, 4)
		ref := &optimizetest.FailingReferee{Ref: robustReferee(200), FailAt: failAt}
		var got []string
		failed := false
		for !q.Done() {
			before := robustJSON(t, q)
			rec, err := q.Step(context.Background(), ref)
			if err != nil {
				if !errors.Is(err, optimizetest.ErrEngine) || failed {
					t.Fatal(err)
				}
				failed = true
				if robustJSON(t, q) != before {
					t.Fatalf("fail at call %d: the state changed", failAt)
				}
				continue
			}
			got = append(got, optimizetest.RecordJSON(t, rec))
		}
		if !failed || !slices.Equal(got, want) {
			t.Errorf("fail at call %d (failed %v): the replayed run differs", failAt, failed)
		}
	}

	q := newRobust(t, o, p, 4)
	before := robustJSON(t, q)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := q.Step(ctx, robustReferee(200)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Step: %v", err)
	}
	short := refereeFunc(func(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
		out, err := robustReferee(200).Play(ctx, seed, ms)
		return out[:len(out)-1], err
	})
	if _, err := q.Step(context.Background(), short); err == nil || !strings.Contains(err.Error(), "outcomes") {
		t.Errorf("short answer: %v", err)
	}
	if _, err := q.Step(context.Background(), nil); err == nil {
		t.Error("nil referee: no error")
	}
	if robustJSON(t, q) != before {
		t.Error("a cancelled or failed Step changed the state")
	}
	robustSteps(t, q, robustReferee(200))
	if _, err := q.Step(context.Background(), robustReferee(200)); !errors.Is(err, optimize.ErrDone) {
		t.Errorf("Step after Done: %v", err)
	}
}

// recordingReferee keeps every batch it is asked to play.
type recordingReferee struct {
	optimize.Referee
	batches [][]optimize.Match
}

func (r *recordingReferee) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	r.batches = append(r.batches, ms)
	return r.Referee.Play(ctx, seed, ms)
}

// TestRobustCommonOpponents: within a batch every played vector meets
// opponent j on opening set j+1 and the same opponent vector; positions
// and the personal bests that differ from them play once each; every
// vector that plays (and every vector the swarm keeps) has the norm.
func TestRobustCommonOpponents(t *testing.T) {
	const norm = 3000
	o := robustOptions(3)
	o.Norm, o.Pool = norm, []string{"centroid", "best"}
	ref := &recordingReferee{Referee: robustReferee(200)}
	q := newRobust(t, o, problem(5), 5)
	_, its := robustRun(t, q, ref)
	onNorm := func(what string, x []float64) {
		t.Helper()
		if n := optimize.Norm(x); math.Abs(n-norm) > 1e-9*norm {
			t.Errorf("%s has norm %g, want %d", what, n, norm)
		}
	}
	if len(ref.batches) < 4 || its[2].Race == nil {
		t.Fatalf("%d batches, race %v: want 3 evaluations and a race", len(ref.batches), its[2].Race)
	}
	for b, batch := range ref.batches {
		if b < 3 {
			if want := its[b].Played * 2; len(batch) != want {
				t.Errorf("evaluation %d: %d matches, want %d", b, len(batch), want)
			}
			if want := 12; b == 0 && its[0].Played != want {
				t.Errorf("iteration 0 played %d vectors, want the 12 positions alone (each its own personal best)", its[0].Played)
			}
		}
		for i, m := range batch {
			j := i % 2
			if m.OpeningSet != j+1 {
				t.Errorf("batch %d match %d (vector %d, opponent %d): opening set %d", b, i, i/2, j, m.OpeningSet)
			}
			if !slices.Equal(m.B, batch[j].B) {
				t.Errorf("batch %d match %d: opponent %d is not the batch's common one", b, i, j)
			}
			onNorm("a played vector", m.A)
			onNorm("an opponent", m.B)
		}
	}
	for k, it := range its {
		shared := 0
		for i, pt := range it.Particles {
			onNorm("a position", pt.Position)
			onNorm("a personal best", pt.PersonalBest)
			if pt.Shared {
				shared++
			}
			// The batch played position i, then the distinct personal bests.
			if !slices.Equal(ref.batches[k][2*i].A, pt.Position) {
				t.Errorf("iteration %d: match %d is not particle %d's position", k, 2*i, i)
			}
		}
		if it.Played != 2*len(it.Particles)-shared {
			t.Errorf("iteration %d: %d played, %d shared", k, it.Played, shared)
		}
		onNorm("the answer", it.Answer)
		onNorm("the mean", it.Mean)
	}
	for _, x := range q.s.x {
		onNorm("a moved position", x)
	}
}

// TestRobustAnswerIsAMean: the answer is the mean of the top-μ personal
// bests by tally mean (averaged over the latest iterations), never a
// single sample unless a personal best won the final race.
func TestRobustAnswerIsAMean(t *testing.T) {
	o := robustOptions(6)
	o.Average, o.Elite = 3, 4
	q := newRobust(t, o, problem(5), 6)
	_, its := robustRun(t, q, robustReferee(200))
	var means [][]float64
	for k, it := range its {
		ranked := slices.Clone(it.Ranked)
		slices.SortStableFunc(ranked, func(a, b int) int {
			return cmp.Compare(it.Particles[b].Tally.Mean(), it.Particles[a].Tally.Mean())
		})
		if !slices.Equal(ranked, it.Ranked) || it.GlobalBestParticle != ranked[0] || !slices.Equal(it.GlobalBest, it.Particles[ranked[0]].PersonalBest) {
			t.Fatalf("iteration %d: ranked %v, g %d, want %v", k, it.Ranked, it.GlobalBestParticle, ranked)
		}
		var top [][]float64
		for _, i := range ranked[:4] {
			top = append(top, it.Particles[i].PersonalBest)
		}
		if mean := optimize.Centroid(top); !slices.Equal(mean, it.Mean) {
			t.Errorf("iteration %d: mean %v, want the top 4's %v", k, it.Mean, mean)
		}
		means = append(means, it.Mean)
		avg := optimize.Centroid(means[max(len(means)-3, 0):])
		if it.Race == nil && !slices.Equal(avg, it.Answer) {
			t.Errorf("iteration %d: answer %v, want the average of the latest 3 means %v", k, it.Answer, avg)
		}
		single := false
		for _, pt := range it.Particles {
			single = single || slices.Equal(pt.PersonalBest, it.Answer) || slices.Equal(pt.Position, it.Answer)
		}
		if r := it.Race; r != nil {
			if got := r.Candidates[:2]; !slices.Equal(got, []string{"answer", "mean"}) || len(r.Candidates) != 2+4 {
				t.Errorf("race candidates %v", r.Candidates)
			}
			if r.Winner >= 2 {
				if want := it.Particles[it.Ranked[r.Winner-2]].PersonalBest; !slices.Equal(it.Answer, want) {
					t.Errorf("the race chose %s, the answer is %v", r.Candidates[r.Winner], it.Answer)
				}
				continue
			}
			want := avg
			if r.Winner == 1 {
				want = it.Mean
			}
			if !slices.Equal(it.Answer, want) {
				t.Errorf("the race chose %s, the answer is %v", r.Candidates[r.Winner], it.Answer)
			}
		}
		if single {
			t.Errorf("iteration %d: the answer is a single particle's vector", k)
		}
	}
	if its[len(its)-1].Race == nil {
		t.Error("the last iteration did not race")
	}
	if !slices.Equal(q.Best(), its[len(its)-1].Answer) {
		t.Error("Best is not the last record's answer")
	}
}

// TestRobustFitnessMemory: each personal best's tally is its previous
// one weighted by memory plus its games of the iteration; a position
// replaces its personal best exactly when its own score beats that
// tally's mean, a personal best equal to its position plays once and
// keeps its tally, and the record's metrics say so.
func TestRobustFitnessMemory(t *testing.T) {
	const memory = 0.5
	o := robustOptions(8)
	o.Memory, o.RaceBudget = memory, 0
	recs, its := robustRun(t, newRobust(t, o, problem(5), 7), robustReferee(300))
	replaced := 0
	for k, it := range its {
		n := 0
		for i, pt := range it.Particles {
			var prev optimize.Tally
			prevBest := pt.Position // iteration 0: p_i = x_i
			if k > 0 {
				prev, prevBest = its[k-1].Particles[i].Tally, its[k-1].Particles[i].PersonalBest
			}
			if pt.Shared != slices.Equal(prevBest, pt.Position) {
				t.Fatalf("iteration %d particle %d: shared %v", k, i, pt.Shared)
			}
			if pt.Shared && pt.PersonalNow != pt.Now {
				t.Errorf("iteration %d particle %d: a shared vector with two outcomes", k, i)
			}
			kept := prev
			kept.Decay(memory)
			kept.Add(pt.PersonalNow)
			fresh := optimize.Tally{}
			fresh.Add(pt.Now)
			wantBest, wantTally := prevBest, kept
			if !pt.Shared && fresh.Mean() > kept.Mean() {
				wantBest, wantTally = pt.Position, fresh
			}
			if pt.Improved != !slices.Equal(wantBest, prevBest) || pt.Tally != wantTally || !slices.Equal(pt.PersonalBest, wantBest) {
				t.Errorf("iteration %d particle %d: improved %v tally %+v, want tally %+v", k, i, pt.Improved, pt.Tally, wantTally)
			}
			if pt.Improved {
				n++
			}
		}
		replaced += n
		if recs[k].Metrics["personal_bests"] != float64(n) || recs[k].Metrics["fitness"] != it.Particles[it.GlobalBestParticle].Tally.Mean() {
			t.Errorf("iteration %d: metrics %v", k, recs[k].Metrics)
		}
	}
	if replaced == 0 {
		t.Error("no personal best was ever replaced")
	}
	// A personal best kept for long carries more games than one iteration's.
	if its[len(its)-1].Particles[its[len(its)-1].GlobalBestParticle].Tally.Steps < 1 || recs[len(recs)-1].Metrics["pbest_games"] <= 2 {
		t.Errorf("final memory: %v", recs[len(recs)-1].Metrics)
	}
}

// TestRobustVelocityFollowsEq51: replaying the documented draws from the
// state before a Step gives its batch seed, Chen's inertia weight from
// the personal bests' focus distances (eq. 5-3..5-6), the velocities of
// eq. 5-1 limited to ±VMax, and the moved, clamped positions; the swarm
// draws nothing more.
func TestRobustVelocityFollowsEq51(t *testing.T) {
	o := robustOptions(3)
	q := newRobust(t, o, problem(5), 8)
	ref := robustReferee(200)
	optimizetest.Step[RobustIteration](t, q, ref)
	before := q.State()
	_, it := optimizetest.Step[RobustIteration](t, q, ref)
	after := q.State()
	pcg := new(rand.PCG)
	if err := pcg.UnmarshalBinary(before.RNG); err != nil {
		t.Fatal(err)
	}
	rr := rand.New(pcg)
	if s := rr.Uint64(); s != it.Seed {
		t.Fatalf("seed %d, replay %d", it.Seed, s)
	}
	pb := make([][]float64, len(it.Particles))
	for i, pt := range it.Particles {
		pb[i] = pt.PersonalBest
	}
	g := it.GlobalBest
	mean, mx, k := FocusDistances(g, pb)
	r := rr.Float64()
	w := InertiaWeight(k, r, 0.3, 0.2)
	if it.R != r || it.W != w || it.K != k || it.MeanDist != mean || it.MaxDist != mx {
		t.Fatalf("r %g w %g k %g, replay r %g w %g k %g", it.R, it.W, it.K, r, w, k)
	}
	for i, x := range before.Positions {
		for d := range x {
			r1, r2 := rr.Float64(), rr.Float64()
			v := w*before.Velocities[i][d] + 2.05*r1*(pb[i][d]-x[d]) + 2.05*r2*(g[d]-x[d])
			v = min(max(v, -800), 800)
			nx := x[d] + v
			if nx < 0 || nx > 4000 {
				nx, v = min(max(nx, 0), 4000), 0
			}
			if after.Velocities[i][d] != v || after.Positions[i][d] != nx || it.Particles[i].Velocity[d] != v {
				t.Errorf("particle %d gene %d: x %g v %g, want x %g v %g", i, d, after.Positions[i][d], after.Velocities[i][d], nx, v)
			}
		}
	}
	if b, _ := pcg.MarshalBinary(); !slices.Equal(b, after.RNG) {
		t.Error("the swarm drew more random numbers than documented")
	}
}

// TestRobustEliteAttractor: with attractor "elite" the swarm is drawn to
// the mean of the elite personal bests (the iteration's Mean, which the
// answer averages), not to the best single tally; the run still converges
// on the synthetic referee.
func TestRobustEliteAttractor(t *testing.T) {
	o := robustOptions(40)
	o.Attractor = AttractorElite
	q := newRobust(t, o, problem(5), 8)
	ref := robustReferee(300)
	start := ref.Distance(optimize.Centroid(q.State().Positions))
	_, its := robustRun(t, q, ref)
	differ := 0
	for i, it := range its {
		if !slices.Equal(it.GlobalBest, it.Mean) {
			t.Fatalf("iteration %d: g %v is not the elite's mean %v", i, it.GlobalBest, it.Mean)
		}
		if !slices.Equal(it.GlobalBest, it.Particles[it.GlobalBestParticle].PersonalBest) {
			differ++
		}
	}
	if differ == 0 {
		t.Error("g was always the best personal best itself: the option changed nothing")
	}
	if end := ref.Distance(q.Best()); end > start/4 {
		t.Errorf("distance %.0f → %.0f, want under a quarter", start, end)
	}
}

// TestRobustForecast: the next iteration's games are forecast exactly
// (its evaluation; on the last, the race's least games as well), and the
// run's total is a lower bound.
func TestRobustForecast(t *testing.T) {
	o := robustOptions(4)
	p := problem(5)
	p.Pairs = 2
	o.Pool = []string{"centroid", "best"}
	q := newRobust(t, o, p, 9)
	ref := &optimizetest.TargetReferee{Target: robustTarget, Temperature: 200, Pairs: 2}
	total := q.Forecast().Games
	if f := q.Forecast(); f.Steps != 4 || f.NextGames != 12*2*4 {
		t.Fatalf("first forecast %+v", f)
	}
	for !q.Done() {
		f := q.Forecast()
		rec, it := optimizetest.Step[RobustIteration](t, q, ref)
		eval := it.Played * 2 * 4
		if it.Race == nil {
			if rec.Games != f.NextGames || rec.Games != eval {
				t.Errorf("iteration %d: %d games, forecast %d", rec.Step, rec.Games, f.NextGames)
			}
			continue
		}
		least := o.Race().MinBudget(1+4, 2, 4) // the answer and 4 personal bests
		if f.NextGames != eval+least || rec.Games != eval+it.Race.Games || it.Race.Games < least || rec.Metrics["race_games"] != float64(it.Race.Games) {
			t.Errorf("last iteration: %d games (race %d), forecast %d", rec.Games, it.Race.Games, f.NextGames)
		}
	}
	if ref.Games < total {
		t.Errorf("played %d games, fewer than the forecast %d", ref.Games, total)
	}
	if f := q.Forecast(); f != (optimize.Forecast{}) {
		t.Errorf("forecast after the budget: %+v", f)
	}
}

// TestRobustWarmStart: with a start vector the first particle is the
// start and the others lie around it; Chen's swarm refuses a start, and
// a start of the wrong length is the problem's fault.
func TestRobustWarmStart(t *testing.T) {
	o := robustOptions(1)
	p := problem(5)
	p.Start = []float64{100, 200, 300, 400, 500}
	q := newRobust(t, o, p, 10)
	if !slices.Equal(q.s.x[0], p.Start) {
		t.Errorf("first particle %v, want the start", q.s.x[0])
	}
	for i, x := range q.s.x[1:] {
		if d := optimize.Distance(x, p.Start); d == 0 || d > 0.5*optimize.Norm(p.Start) {
			t.Errorf("particle %d at distance %g from the start", i+1, d)
		}
	}
	if !slices.Equal(q.s.p[3], q.s.x[3]) {
		t.Error("a personal best is not its particle's start")
	}
	// A warm start with a norm: every particle on the sphere.
	o.Norm = 2000
	q = newRobust(t, o, p, 10)
	for i, x := range q.s.x {
		if n := optimize.Norm(x); math.Abs(n-2000) > 1e-9 {
			t.Errorf("particle %d: norm %g", i, n)
		}
	}
	var oe *optimize.OptionError
	chen := DefaultSettings()
	if err := Spec.Validate(&chen, p); !errors.As(err, &oe) || oe.Field != "Start" || !strings.Contains(oe.Msg, `needs variant = "robust"`) {
		t.Errorf("chen2010 with a start: %v", err)
	}
	p.Start = []float64{1, 2}
	if err := Spec.Validate(&o, p); !errors.As(err, &oe) || oe.Key != "" || !strings.Contains(oe.Msg, "Start") {
		t.Errorf("a start vector of 2 genes for 5: %v", err)
	}
}

// TestRobustOptionLimits: every key the robust swarm reads is checked up
// front, with its name.
func TestRobustOptionLimits(t *testing.T) {
	set := func(f func(*Settings)) func(*Settings, *optimize.Problem) {
		return func(o *Settings, _ *optimize.Problem) { f(o) }
	}
	optimizetest.CheckOptionLimits(t, Spec, func() Settings { return robustOptions(3) }, func() optimize.Problem { return problem(5) },
		[]optimizetest.OptionLimit[Settings]{
			{Key: "variant", In: set(func(o *Settings) { o.Variant = "" }), Out: set(func(o *Settings) { o.Variant = "Robust" })},
			{Key: "particles", In: set(func(o *Settings) { o.Particles = 2 }), Out: set(func(o *Settings) { o.Particles = 1 })},
			{Key: "iterations", In: set(func(o *Settings) { o.Iterations = 1 }), Out: set(func(o *Settings) { o.Iterations = -1 })},
			{Key: "elite", In: set(func(o *Settings) { o.Elite = 12 }), Out: set(func(o *Settings) { o.Elite = 13 })},
			{Key: "elite", In: set(func(o *Settings) { o.Elite = 0 }), Out: set(func(o *Settings) { o.Elite = -1 })},
			{Key: "attractor", In: set(func(o *Settings) { o.Attractor = AttractorElite }), Out: set(func(o *Settings) { o.Attractor = "mean" })},
			{Key: "vel_lo", In: set(func(o *Settings) { o.VelLo = o.VelHi }), Out: set(func(o *Settings) { o.VelLo = o.VelHi + 1 })},
			{Key: "c1", In: set(func(o *Settings) { o.C1 = 0 }), Out: set(func(o *Settings) { o.C1 = -1 })},
			{Key: "c2", In: set(func(o *Settings) { o.C2 = 0 }), Out: set(func(o *Settings) { o.C2 = math.NaN() })},
			{Key: "alpha1", In: set(func(o *Settings) { o.Alpha1 = 0 }), Out: set(func(o *Settings) { o.Alpha1 = math.Inf(1) })},
			{Key: "alpha2", In: set(func(o *Settings) { o.Alpha2 = 0 }), Out: set(func(o *Settings) { o.Alpha2 = -0.1 })},
			{Key: "vmax_fraction", In: set(func(o *Settings) { o.VMaxFraction = 0 }), Out: set(func(o *Settings) { o.VMaxFraction = -0.1 })},
			{Key: "pool", In: set(func(o *Settings) { o.Pool = []string{"best"} }), Out: set(func(o *Settings) { o.Pool = []string{"zhou2015"} })},
			{Key: "norm", In: set(func(o *Settings) { o.Norm = 0 }), Out: set(func(o *Settings) { o.Norm = -1 })},
			{Key: "memory", In: set(func(o *Settings) { o.Memory = 0 }), Out: set(func(o *Settings) { o.Memory = 1.5 })},
			{Key: "prior", In: set(func(o *Settings) { o.Prior = 0 }), Out: set(func(o *Settings) { o.Prior = -1 })},
			{Key: "prior", In: set(func(o *Settings) { o.Prior = 100 }), Out: set(func(o *Settings) { o.Prior = math.Inf(1) })},
			// 6 racers (2 means, 4 personal bests) × 1 opponent × 2 games × 3 rounds = 36 games.
			{Key: "race_budget", In: set(func(o *Settings) { o.RaceBudget = 36 }), Out: set(func(o *Settings) { o.RaceBudget = 35 })},
			{Key: "race_alpha", In: set(func(o *Settings) { o.RaceAlpha = 0.5 }), Out: set(func(o *Settings) { o.RaceAlpha = -0.05 })},
			{Key: "race_rounds", In: set(func(o *Settings) { o.RaceRounds = 2 }), Out: set(func(o *Settings) { o.RaceRounds = 1 })},
			{Key: "race_candidates", In: set(func(o *Settings) { o.RaceCandidates = 1 }), Out: set(func(o *Settings) { o.RaceCandidates = -1 })},
			{Key: "average", In: set(func(o *Settings) { o.Average = 0 }), Out: set(func(o *Settings) { o.Average = -1 })},
			{Key: "warm_spread", In: set(func(o *Settings) { o.WarmSpread = 0 }), Out: set(func(o *Settings) { o.WarmSpread = -1 })},
			// The problem's: an initial range outside the clamped bounds.
			{Key: "", In: func(_ *Settings, p *optimize.Problem) { p.InitHi[1] = 4000 }, Out: func(_ *Settings, p *optimize.Problem) { p.InitHi[1] = 4001 }},
		})
}

// TestRobustRestoreChecks: a corrupt checkpoint is refused naming the
// field.
func TestRobustRestoreChecks(t *testing.T) {
	o := robustOptions(3)
	p := problem(5)
	q := newRobust(t, o, p, 11)
	fresh := q.State()
	robustRun(t, q, robustReferee(200))
	for name, f := range map[string]func(*RobustState){
		"Iteration":     func(s *RobustState) { s.Iteration = 4 },
		"Positions":     func(s *RobustState) { s.Positions = s.Positions[1:] },
		"Velocities":    func(s *RobustState) { s.Velocities[2] = []float64{1} },
		"PersonalBests": func(s *RobustState) { s.PersonalBests[0] = s.PersonalBests[0][1:] },
		"Tally":         func(s *RobustState) { s.Tally[0].Points = s.Tally[0].Games + 1 },
		"Answer":        func(s *RobustState) { s.Answer = nil },
		"Means":         func(s *RobustState) { s.Means = append(s.Means, s.Answer) },
		"Games":         func(s *RobustState) { s.Games = -1 },
		"RNG":           func(s *RobustState) { s.RNG = []byte("x") },
	} {
		bad := q.State()
		f(&bad)
		b, _ := json.Marshal(bad)
		if _, err := Spec.Restore(&o, p, b); err == nil || !strings.Contains(err.Error(), "RobustState."+name) {
			t.Errorf("%s: %v", name, err)
		}
	}
	fresh.Answer = []float64{1, 2, 3, 4, 5}
	b, _ := json.Marshal(fresh)
	if _, err := Spec.Restore(&o, p, b); err == nil || !strings.Contains(err.Error(), "RobustState.Answer") {
		t.Errorf("an answer before any iteration: %v", err)
	}
	for _, st := range []RobustState{q.State()} {
		b, _ := json.Marshal(st)
		if r, err := Spec.Restore(&o, p, b); err != nil || !r.Done() {
			t.Errorf("the good state: %v", err)
		}
	}
	// A larger budget extends a finished run.
	o.Iterations = 5
	b, _ = json.Marshal(q.State())
	r, err := Spec.Restore(&o, p, b)
	if err != nil || r.Done() || r.Forecast().Steps != 2 {
		t.Fatalf("extended: %v", err)
	}
	robustSteps(t, r, robustReferee(200))
}
