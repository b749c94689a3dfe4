package texel

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	rt "github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// problem has genes genes with initial range [0, 1000] and bounds
// [0, 100000] clamped (the fit keeps θ0's scale, which may exceed the
// initial range), one game pair a match.
func problem(genes int) rt.Problem {
	p := optimizetest.Problem(optimizetest.Letters(genes)...)
	p.Bounds = rt.UniformBounds(genes, 0, 100000)
	for d := range genes {
		p.InitHi[d] = 1000
	}
	return p
}

// sampler is the synthetic truth of the method tests: zhou2015's
// direction, 200 positions a game.
func sampler() *optimizetest.LogisticSampler {
	return &optimizetest.LogisticSampler{
		Truth: slices.Clone(truthW), K: truthK, Tempo: truthTempo,
		Spread: spread, PerGame: 200,
	}
}

func smallOptions() Settings {
	o := DefaultSettings()
	o.Rounds, o.Opponents = 4, 16
	return o
}

func mustNew(t testing.TB, o Settings, p rt.Problem, seed uint64) *Texel {
	t.Helper()
	m, err := Spec.New(&o, p, rand.NewPCG(seed, 99))
	if err != nil {
		t.Fatal(err)
	}
	return m.(*Texel)
}

func stepOK(t testing.TB, m *Texel, ref rt.Referee) (rt.Record, Round) {
	t.Helper()
	rec, err := m.Step(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := rec.Detail.(Round)
	if !ok {
		t.Fatalf("detail is %T, want texel.Round", rec.Detail)
	}
	return rec, r
}

func stateJSON(t testing.TB, m rt.Method) string {
	t.Helper()
	b, err := m.MarshalState()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestApproachesTheTruth drives the method with the synthetic sampler for
// several seeds: θ0 is uniform in [0, 1000]⁵, far from the truth's
// direction; after the rounds θ's direction is the truth's within 0.05 (a
// distance of unit vectors; the scale is the fit's gauge, θ0's through K),
// and θ outscores its perturbed opponents.
func TestApproachesTheTruth(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 4, 5} {
		smp := sampler()
		m := mustNew(t, smallOptions(), problem(5), seed)
		start := smp.Direction(m.State().Theta)
		var recs []rt.Record
		err := rt.Run(context.Background(), m, smp, rt.Settings{Recorder: func(r rt.Record, _ rt.Status) error {
			recs = append(recs, r)
			return nil
		}}, &rt.Status{})
		if err != nil {
			t.Fatal(err)
		}
		end := smp.Direction(m.Best())
		last := recs[len(recs)-1]
		t.Logf("seed %d: direction error %.3f → %.3f, θ %.0f, score %.3f, held-out log-loss %.4f → %.4f",
			seed, start, end, m.Best(), last.Metrics["score"], last.Metrics["logloss_before"], last.Metrics["logloss"])
		if len(recs) != 4 || !m.Done() || end > 0.05 || end >= start {
			t.Errorf("seed %d: %d rounds, direction error %.3f → %.3f, want < 0.05", seed, len(recs), start, end)
		}
		if first := recs[0].Metrics; !(first["logloss"] < first["logloss_before"]) {
			t.Errorf("seed %d: round 0's fit did not lower the held-out log-loss: %v", seed, first)
		}
		if s := last.Metrics["score"]; !(s > 0.5) {
			t.Errorf("seed %d: the tuned θ scored %.3f against its opponents, want > 0.5", seed, s)
		}
	}
}

// TestRecordAndForecast checks the first round's record against the
// sampler's own numbers, and the forecast.
func TestRecordAndForecast(t *testing.T) {
	o := smallOptions()
	m := mustNew(t, o, problem(5), 9)
	if m.Best() != nil || m.Steps() != 0 {
		t.Error("Best before the first round")
	}
	if f := m.Forecast(); f != (rt.Forecast{Steps: 4, NextGames: 32, Games: 128}) {
		t.Errorf("forecast %+v", f)
	}
	theta0 := m.State().Theta
	smp := sampler()
	rec, r := stepOK(t, m, smp)
	// 16 matches × 2 games × 200 positions × 2 views; games 0, 5, …, 30
	// (7 of 32) held out.
	if r.Batches != 1 || rec.Games != 32 || r.Games != 32 || r.HoldoutPositions != 7*400 || r.Positions != 25*400 {
		t.Errorf("batches %d games %d/%d positions %d held out %d", r.Batches, rec.Games, r.Games, r.Positions, r.HoldoutPositions)
	}
	if !reflect.DeepEqual(r.ThetaBefore, theta0) || !reflect.DeepEqual(rec.Best, r.Theta) || !reflect.DeepEqual(m.Best(), r.Theta) {
		t.Error("θ before/after do not match the state and the record's best")
	}
	// Step 1 takes the fit, rescaled to θ's norm (KeepScale): the direction
	// is the fit's, the norm θ's, and the held-out predictions unchanged.
	nt, nf, nr := 0.0, 0.0, 0.0
	for d := range r.Theta {
		if f := r.Theta[d] / r.Fit.Genes[d]; math.Abs(f-r.Rescale) > 1e-12*r.Rescale {
			t.Errorf("gene %d: θ %g is not %g × the fit %g", d, r.Theta[d], r.Rescale, r.Fit.Genes[d])
		}
		nt += theta0[d] * theta0[d]
		nf += r.Fit.Genes[d] * r.Fit.Genes[d]
		nr += r.Theta[d] * r.Theta[d]
	}
	if math.Abs(math.Sqrt(nr/nt)-1) > 1e-12 || math.Abs(r.Rescale-math.Sqrt(nt/nf)) > 1e-12 {
		t.Errorf("rescale %g: |θ| %g, |θ0| %g", r.Rescale, math.Sqrt(nr), math.Sqrt(nt))
	}
	// Without KeepScale step 1 takes the fit as it is.
	o2 := smallOptions()
	o2.KeepScale = false
	m2 := mustNew(t, o2, problem(5), 9)
	if _, r2 := stepOK(t, m2, sampler()); !reflect.DeepEqual(r2.Theta, r2.Fit.Genes) || r2.Rescale != 1 {
		t.Error("without keep_scale, step 1 must take the fit")
	}
	for i, b := range r.Opponents {
		for d := range b {
			if f := b[d] / theta0[d]; f <= 0 || math.Abs(math.Log(f)) > 5*o.Sigma {
				t.Errorf("opponent %d gene %d: factor %g is not a log-normal σ = %g perturbation", i, d, f, o.Sigma)
			}
		}
	}
	if sc := Score(r.Outcomes); rec.Metrics["score"] != sc || len(r.Outcomes) != 16 {
		t.Errorf("score %g, want %g", rec.Metrics["score"], sc)
	}
	for _, k := range []string{"positions", "holdout_positions", "logloss_before", "logloss", "logloss_train", "k", "tempo", "score", "games", "batches"} {
		if v, ok := rec.Metrics[k]; !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("metric %q: %v, %v", k, v, ok)
		}
	}
	if rec.Metrics["k"] != r.Fit.K || rec.Step != 0 || !strings.Contains(rec.Line, "10000 positions (+2800 held out) from 32 games in 1 batches") {
		t.Errorf("k %g step %d line %q", rec.Metrics["k"], rec.Step, rec.Line)
	}
	if f := m.Forecast(); f != (rt.Forecast{Steps: 3, NextGames: 32, Games: 96}) {
		t.Errorf("forecast %+v", f)
	}
	for !m.Done() {
		stepOK(t, m, smp)
	}
	if _, err := m.Step(context.Background(), smp); !errors.Is(err, rt.ErrDone) {
		t.Errorf("after the budget: %v, want ErrDone", err)
	}
	if m.Forecast() != (rt.Forecast{}) || m.State().Games != 4*32 {
		t.Errorf("forecast %+v games %d", m.Forecast(), m.State().Games)
	}
}

// TestZeroFeatureGenesStay: genes the sampler never gives a feature (a dual
// schema's alert, a set no position selected) keep θ0's value exactly,
// and the record says they were not identified.
func TestZeroFeatureGenesStay(t *testing.T) {
	smp := sampler()
	smp.Truth = append(smp.Truth, 300, 7)
	smp.Spread = []float64{4, 3, 2, 1, 0.5, 2, 1}
	smp.Zero = []bool{false, true, false, false, false, false, true}
	m := mustNew(t, smallOptions(), problem(7), 4)
	theta0 := m.State().Theta
	for range 3 {
		rec, r := stepOK(t, m, smp)
		if !slices.Equal(r.Fit.Fitted, []int{0, 2, 3, 4, 5}) {
			t.Errorf("fitted %v", r.Fit.Fitted)
		}
		if !slices.Equal(rec.Unidentified, []int{1, 6}) {
			t.Errorf("unidentified %v, want [1 6]", rec.Unidentified)
		}
	}
	for _, d := range []int{1, 6} {
		if m.Best()[d] != theta0[d] {
			t.Errorf("gene %d moved from %v to %v", d, theta0[d], m.Best()[d])
		}
	}
}

// failing delegates to a sampler but fails its call number failAt (from 0),
// or every call from then on when sticky.
type failing struct {
	*optimizetest.LogisticSampler
	failAt, n int
}

var errBoom = errors.New("engine crashed")

func (f *failing) Sample(ctx context.Context, seed uint64, ms []rt.Match) ([]rt.Outcome, []rt.Position, error) {
	n := f.n
	f.n++
	if n == f.failAt {
		return nil, nil, errBoom
	}
	return f.LogisticSampler.Sample(ctx, seed, ms)
}

// playOnly is a Referee that cannot sample.
type playOnly struct{ s *optimizetest.LogisticSampler }

func (p playOnly) Play(ctx context.Context, seed uint64, ms []rt.Match) ([]rt.Outcome, error) {
	return p.s.Play(ctx, seed, ms)
}

// TestResumeEqualsUninterrupted: a run checkpointed after two rounds,
// restored through Spec.Restore and continued writes the same records as
// the run that was never stopped; failing, cancelled and non-sampling
// referees leave the state untouched, and the retried round is the same.
func TestResumeEqualsUninterrupted(t *testing.T) {
	o, p := smallOptions(), problem(5)
	whole := mustNew(t, o, p, 11)
	var want []string
	for !whole.Done() {
		rec, _ := stepOK(t, whole, sampler())
		want = append(want, optimizetest.RecordJSON(t, rec))
	}

	m := mustNew(t, o, p, 11)
	var got []string
	for range 2 {
		rec, _ := stepOK(t, m, sampler())
		got = append(got, optimizetest.RecordJSON(t, rec))
	}
	before := stateJSON(t, m)
	// Failures: the second batch's call (a round needing two batches), the
	// first call, a cancelled context, a referee that cannot sample.
	o2 := o
	o2.MinPositions = 12000
	m2, err := Restore(o2, p, m.State())
	if err != nil {
		t.Fatal(err)
	}
	st2 := stateJSON(t, m2)
	if _, err := m2.Step(context.Background(), &failing{LogisticSampler: sampler(), failAt: 1}); !errors.Is(err, errBoom) {
		t.Errorf("failing second batch: %v", err)
	}
	if stateJSON(t, m2) != st2 {
		t.Error("a failed second batch changed the state")
	}
	if _, err := m.Step(context.Background(), &failing{LogisticSampler: sampler()}); !errors.Is(err, errBoom) {
		t.Errorf("failing sampler: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Step(ctx, sampler()); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := m.Step(context.Background(), playOnly{sampler()}); err == nil || !strings.Contains(err.Error(), "not an optimize.Sampler") {
		t.Errorf("non-sampling referee: %v", err)
	}
	if stateJSON(t, m) != before {
		t.Fatal("a failed round changed the state")
	}

	r, err := Spec.Restore(&o, p, []byte(before))
	if err != nil {
		t.Fatal(err)
	}
	for !r.Done() {
		rec, err := r.Step(context.Background(), sampler())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, optimizetest.RecordJSON(t, rec))
	}
	if !slices.Equal(got, want) {
		t.Errorf("resumed records differ from the uninterrupted run's:\n%v\n%v", got, want)
	}
	if stateJSON(t, r) != stateJSON(t, whole) {
		t.Error("final states differ")
	}
}

// TestWindowResumeEqualsUninterrupted: with explore rounds, pairs of
// perturbed copies and a window of every round, a run restored from its
// State JSON (no positions in it) samples the window's rounds again and
// continues record for record; the fit uses the earlier rounds' positions.
func TestWindowResumeEqualsUninterrupted(t *testing.T) {
	for _, tc := range []struct {
		window  int
		explore string
	}{{0, PairingPerturbed}, {2, PairingIndependent}, {3, PairingSelf}} {
		o, p := smallOptions(), problem(5)
		o.Rounds, o.ExploreRounds, o.ExplorePairing, o.Pairing, o.Window, o.Sigma = 5, 1, tc.explore, PairingPerturbed, tc.window, 1
		whole := mustNew(t, o, p, 5)
		var want []string
		for !whole.Done() {
			rec, r := stepOK(t, whole, sampler())
			want = append(want, optimizetest.RecordJSON(t, rec))
			if n := min(r.Round, tc.window-1); r.Round > 0 && (tc.window == 0 || n > 0) && r.WindowPositions == 0 {
				t.Errorf("window %d: round %d fitted no earlier positions", tc.window, r.Round)
			}
			if len(r.Players) != o.Opponents {
				t.Errorf("window %d: round %d has %d players", tc.window, r.Round, len(r.Players))
			}
		}
		if st := whole.State(); tc.window > 0 && len(st.Past) != tc.window-1 {
			t.Errorf("window %d: state keeps %d past rounds", tc.window, len(st.Past))
		}
		got, r := cutAndResume(t, o, p, 5, 3)
		if !slices.Equal(got, want) {
			t.Errorf("window %d: resumed records differ from the uninterrupted run's", tc.window)
		}
		if stateJSON(t, r) != stateJSON(t, whole) {
			t.Errorf("window %d: final states differ", tc.window)
		}
	}
}

func TestRestoreRejectsBadStates(t *testing.T) {
	o, p := smallOptions(), problem(5)
	good := mustNew(t, o, p, 1).State()
	for _, tc := range []struct {
		want string
		edit func(*State)
	}{
		{"RNG", func(s *State) { s.RNG = []byte("x") }},
		{"Round", func(s *State) { s.Round = 5 }},
		{"Round", func(s *State) { s.Round = -1 }},
		{"Theta: has 4 genes", func(s *State) { s.Theta = s.Theta[:4] }},
		{"Theta: gene 2 is NaN", func(s *State) { s.Theta[2] = math.NaN() }},
		{"Games", func(s *State) { s.Games = -1 }},
		{"Past: round 0 has 0 seeds", func(s *State) { s.Past = []PastRound{{Matches: []rt.Match{{A: s.Theta, B: s.Theta}}}} }},
		{"Past: round 0: match 0: B: has 4 genes", func(s *State) {
			s.Past = []PastRound{{Seeds: []uint64{1}, Matches: []rt.Match{{A: s.Theta, B: s.Theta[:4]}}}}
		}},
	} {
		st := good
		st.Theta = slices.Clone(good.Theta)
		tc.edit(&st)
		if _, err := Restore(o, p, st); err == nil || !strings.Contains(err.Error(), "state field "+tc.want) {
			t.Errorf("%s: got %v", tc.want, err)
		}
	}
	if _, err := Spec.Restore(&o, p, []byte(`{"rng":"","round":0,"theta":[],"games":0,"extra":1}`)); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Errorf("unknown field: %v", err)
	}
}

// TestTooFewPositionsPlaysMoreBatches: 4 matches of 2 games and 100
// positions a game give 800 positions a batch, 600 of them training in the
// first batch. min_positions 1500 takes three batches whose games are
// numbered on (0..23, so 0, 5, 10, 15, 20 are held out); 3000 is out of
// reach in four batches and fails clearly, leaving the state as it was.
func TestTooFewPositionsPlaysMoreBatches(t *testing.T) {
	o, p := smallOptions(), problem(5)
	o.Opponents, o.MinPositions, o.MaxBatches = 4, 1500, 4
	smp := sampler()
	smp.PerGame = 50
	m := mustNew(t, o, p, 3)
	rec, r := stepOK(t, m, smp)
	if smp.Calls != 3 || r.Batches != 3 || len(r.Seeds) != 3 || r.Seeds[0] == r.Seeds[1] || r.Games != 24 || rec.Games != 24 || len(r.Outcomes) != 12 {
		t.Errorf("calls %d batches %d seeds %v games %d outcomes %d", smp.Calls, r.Batches, r.Seeds, r.Games, len(r.Outcomes))
	}
	if r.HoldoutPositions != 5*100 || r.Positions != 19*100 || rec.Metrics["batches"] != 3 {
		t.Errorf("held out %d, training %d", r.HoldoutPositions, r.Positions)
	}

	o.MinPositions = 3000
	m = mustNew(t, o, p, 3)
	before := stateJSON(t, m)
	smp = sampler()
	smp.PerGame = 50
	_, err := m.Step(context.Background(), smp)
	if err == nil || !strings.Contains(err.Error(), "2500 training positions after 4 batches (32 games), need min_positions = 3000") {
		t.Errorf("got %v", err)
	}
	if smp.Calls != 4 || stateJSON(t, m) != before {
		t.Errorf("%d calls, state changed %v", smp.Calls, stateJSON(t, m) != before)
	}
}

// badSampler answers with a fault.
type badSampler struct {
	*optimizetest.LogisticSampler
	edit func([]rt.Outcome, []rt.Position) ([]rt.Outcome, []rt.Position)
}

func (b badSampler) Sample(ctx context.Context, seed uint64, ms []rt.Match) ([]rt.Outcome, []rt.Position, error) {
	out, pos, err := b.LogisticSampler.Sample(ctx, seed, ms)
	out, pos = b.edit(out, pos)
	return out, pos, err
}

func TestBadSamplerAnswers(t *testing.T) {
	o, p := smallOptions(), problem(5)
	for _, tc := range []struct {
		want string
		edit func([]rt.Outcome, []rt.Position) ([]rt.Outcome, []rt.Position)
	}{
		{"answered 15 outcomes for 16 matches", func(o []rt.Outcome, p []rt.Position) ([]rt.Outcome, []rt.Position) { return o[1:], p }},
		{"position 7: X: has 4 genes", func(o []rt.Outcome, p []rt.Position) ([]rt.Outcome, []rt.Position) {
			p[7].X = p[7].X[:4]
			return o, p
		}},
		{"position 2: Y is -1", func(o []rt.Outcome, p []rt.Position) ([]rt.Outcome, []rt.Position) { p[2].Y = -1; return o, p }},
	} {
		m := mustNew(t, o, p, 1)
		before := stateJSON(t, m)
		_, err := m.Step(context.Background(), badSampler{sampler(), tc.edit})
		if err == nil || !strings.Contains(err.Error(), tc.want) || stateJSON(t, m) != before {
			t.Errorf("%s: got %v", tc.want, err)
		}
	}
}

// TestAverageReportsTheMeanOfTheLatestRounds: with Average 3 the best
// vector is the mean of the latest three rounds' θ (fewer at the start), θ
// itself goes on unaveraged, and a restored run continues record for
// record.
func TestAverageReportsTheMeanOfTheLatestRounds(t *testing.T) {
	o, p := smallOptions(), problem(5)
	o.Rounds, o.Average = 5, 3
	whole := mustNew(t, o, p, 4)
	var thetas [][]float64
	var want []string
	for !whole.Done() {
		rec, r := stepOK(t, whole, sampler())
		thetas = append(thetas, r.Theta)
		window := thetas[max(0, len(thetas)-3):]
		for d := range rec.Best {
			sum := 0.0
			for _, v := range window {
				sum += v[d]
			}
			if got, w := rec.Best[d], sum/float64(len(window)); math.Abs(got-w) > 1e-9*math.Abs(w) {
				t.Fatalf("round %d gene %d: best %g, want the mean %g of the last %d θ", r.Round, d, got, w, len(window))
			}
		}
		if r.Averaged != len(window) || !slices.Equal(whole.Best(), rec.Best) || !slices.Equal(whole.State().Theta, r.Theta) {
			t.Fatalf("round %d: averaged %d, Best %v, θ %v", r.Round, r.Averaged, whole.Best(), whole.State().Theta)
		}
		want = append(want, optimizetest.RecordJSON(t, rec))
	}
	if slices.Equal(thetas[4], whole.Best()) {
		t.Error("the best vector is the last θ: nothing was averaged")
	}
	if got, _ := cutAndResume(t, o, p, 4, 2); !slices.Equal(got, want) {
		t.Error("a restored averaging run differs from the uninterrupted one")
	}
	bad := whole.State()
	bad.Recent = append(bad.Recent, bad.Theta)
	if _, err := Restore(o, p, bad); err == nil || !strings.Contains(err.Error(), "Recent") {
		t.Errorf("4 recent vectors with average 3: %v", err)
	}
}

// TestStartVector: a Problem's Start is θ0, and the draws after it are a
// random start's.
func TestStartVector(t *testing.T) {
	o, p := smallOptions(), problem(5)
	random := mustNew(t, o, p, 8)
	p.Start = []float64{10, 40, 100, 600, 900}
	started := mustNew(t, o, p, 8)
	if !slices.Equal(started.State().Theta, p.Start) {
		t.Fatalf("θ0 %v, want the start %v", started.State().Theta, p.Start)
	}
	if !slices.Equal(random.State().RNG, started.State().RNG) {
		t.Error("the start changed the random source's state")
	}
}

// cutAndResume runs cut rounds of a new run with seed, restores it from its
// State JSON through Spec.Restore and finishes it on the synthetic
// sampler: the records of the whole run, and the restored method.
func cutAndResume(t *testing.T, o Settings, p rt.Problem, seed uint64, cut int) ([]string, rt.Method) {
	t.Helper()
	m := mustNew(t, o, p, seed)
	var got []string
	for range cut {
		rec, _ := stepOK(t, m, sampler())
		got = append(got, optimizetest.RecordJSON(t, rec))
	}
	r, err := Spec.Restore(&o, p, []byte(stateJSON(t, m)))
	if err != nil {
		t.Fatal(err)
	}
	for !r.Done() {
		rec, err := r.Step(context.Background(), sampler())
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, optimizetest.RecordJSON(t, rec))
	}
	return got, r
}
