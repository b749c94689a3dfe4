package ga

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/optimizetest"
)

// hiddenTarget lies inside Chen's initial range [0, 4000]^5.
var hiddenTarget = []float64{700, 1500, 2300, 3100, 400}

func newTarget(temp float64) *optimizetest.TargetReferee {
	return &optimizetest.TargetReferee{Target: hiddenTarget, Temperature: temp}
}

func mustNew(t testing.TB, c config, seed uint64) *GA {
	t.Helper()
	g, err := start(c, rand.NewPCG(seed, 0x6a))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// detail is the GA's own record of a step.
func detail(t testing.TB, rec optimize.Record) Generation {
	t.Helper()
	g, ok := rec.Detail.(Generation)
	if !ok {
		t.Fatalf("record detail is %T, want ga.Generation", rec.Detail)
	}
	return g
}

// runAll drives g with optimize.Run under s and returns its records.
func runAll(t testing.TB, g optimize.Method, ref optimize.Referee, s optimize.Settings, st *optimize.Status) []optimize.Record {
	t.Helper()
	var recs []optimize.Record
	after := s.Recorder
	s.Recorder = func(r optimize.Record, st optimize.Status) error {
		recs = append(recs, r)
		if after != nil {
			return after(r, st)
		}
		return nil
	}
	if st == nil {
		st = &optimize.Status{}
	}
	if err := optimize.Run(context.Background(), g, ref, s, st); err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestDefaultConfigIsChenTable48(t *testing.T) {
	c := defaultConfig(5)
	if err := c.validate(); err != nil {
		t.Fatal(err)
	}
	if c.Population != 49 || c.Groups != 7 || c.GroupSize() != 7 || len(c.Genes) != 5 {
		t.Errorf("population %d in %d groups of %d, %d genes; want 49 in 7 of 7, 5 genes", c.Population, c.Groups, c.GroupSize(), len(c.Genes))
	}
	if c.Pc1 != 0.9 || c.Pc2 != 0.6 || c.PmMode != PmFixed || c.Pm != 0.15 || c.Pm1 != 0.1 || c.Pm2 != 0.001 {
		t.Errorf("rates %+v", c)
	}
	if c.Fitness != FitnessImproved || c.Bounds != nil || c.InitLo[4] != 0 || c.InitHi[4] != 4000 || c.Generations != 30 || c.Pairs != 1 {
		t.Errorf("fitness %q, bounds %v, init [%g, %g], %d generations, %d pairs", c.Fitness, c.Bounds, c.InitLo[4], c.InitHi[4], c.Generations, c.Pairs)
	}
	o := DefaultSettings()
	want := Settings{Population: 49, Groups: 7, Generations: 30, Fitness: "improved", Pc1: 0.9, Pc2: 0.6, PmMode: "fixed", Pm: 0.15, Pm1: 0.1, Pm2: 0.001,
		Variant: VariantChen, Crossover: 0.5, Mutation: 0.3, Sigma: 0.2, SigmaEnd: 0.05, NoiseOptions: optimize.DefaultNoiseOptions()}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("DefaultSettings %+v, want %+v", o, want)
	}
	p := problem(5)
	p.BoundMode, p.Bounds = "off", nil
	if got := o.resolve(p); !reflect.DeepEqual(got, c) {
		t.Errorf("DefaultSettings().Config = %+v, want defaultConfig(5) %+v", got, c)
	}
}

func TestValidateNamesTheField(t *testing.T) {
	optimizetest.CheckProblemFaults(t, DefaultSettings().Validate, func() optimize.Problem { return problem(5) })
	// name is the setting's TOML key, or the config field the problem
	// brought.
	cases := []struct {
		name string
		edit func(*config)
	}{
		{"population", func(c *config) { c.Population = 1 }},
		{"groups", func(c *config) { c.Groups = 0 }},
		{"groups", func(c *config) { c.Groups = 5 }},  // 49 is not a multiple of 5
		{"groups", func(c *config) { c.Groups = 49 }}, // groups of 1
		{"Initial", func(c *config) { c.Initial = [][]float64{{1, 2, 3, 4, 5}} }},
		{"fitness", func(c *config) { c.Fitness = "elo" }},
		{"pc1", func(c *config) { c.Pc1 = 1.5 }},
		{"pc2", func(c *config) { c.Pc2 = -0.1 }},
		{"pm", func(c *config) { c.Pm = math.NaN() }},
		{"pm1", func(c *config) { c.Pm1 = 2 }},
		{"pm2", func(c *config) { c.Pm2 = -1 }},
		{"pm_mode", func(c *config) { c.PmMode = "sometimes" }},
		{"generations", func(c *config) { c.Generations = 0 }},
	}
	for _, tc := range cases {
		c := defaultConfig(5)
		tc.edit(&c)
		err := c.validate()
		var oe *optimize.OptionError
		if !errors.As(err, &oe) {
			t.Errorf("%s: error %#v is not an *optimize.OptionError", tc.name, err)
			continue
		}
		problem := tc.name[0] >= 'A' && tc.name[0] <= 'Z'
		if problem && (oe.Key != "" || !strings.HasPrefix(oe.Msg, "ga: "+tc.name+" from the problem: ")) ||
			!problem && oe.Key != tc.name {
			t.Errorf("%s: error %#v does not name it", tc.name, oe)
		}
	}
	c := defaultConfig(5)
	c.InitLo = nil // ignored when Initial is given
	c.Initial = steppedInitial(49, 5)
	if err := c.validate(); err != nil {
		t.Errorf("explicit Initial without InitLo: %v", err)
	}
	if _, err := New(DefaultSettings(), problem(5), nil); err == nil {
		t.Error("nil *rand.PCG: want an error")
	}
}

// steppedInitial is a small fixed population for tests: individual i has
// every gene equal to 100·i.
func steppedInitial(m, genes int) [][]float64 {
	p := make([][]float64, m)
	for i := range p {
		p[i] = make([]float64, genes)
		for d := range p[i] {
			p[i][d] = 100 * float64(i)
		}
	}
	return p
}

func TestRestoreNamesTheStateField(t *testing.T) {
	c := defaultConfig(5)
	c.Generations = 4
	fresh := mustNew(t, c, 1)
	stepped := mustNew(t, c, 1)
	if _, err := stepped.Step(context.Background(), newTarget(100)); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		field string
		from  *GA
		edit  func(*State)
	}{
		{"State.Next", fresh, func(s *State) { s.Next = -1 }},
		{"State.Next", stepped, func(s *State) { s.Next = 5 }}, // beyond Generations
		{"State.Population", fresh, func(s *State) { s.Population = s.Population[1:] }},
		{"State.Population[3]", fresh, func(s *State) { s.Population[3] = s.Population[3][:2] }},
		{"State.Population[3]", fresh, func(s *State) { s.Population[3][0] = math.Inf(1) }},
		{"State.Population[0]", fresh, func(s *State) { s.Population[0][4] = math.NaN() }},
		{"State.RNG", fresh, func(s *State) { s.RNG = []byte("garbage") }},
		{"State.Games", fresh, func(s *State) { s.Games = -2 }},
		{"State.Best", fresh, func(s *State) { s.Best = &Best{Genes: []float64{1, 2, 3, 4, 5}} }},
		{"State.Best", stepped, func(s *State) { s.Best = nil }},
		{"State.Best.Genes", stepped, func(s *State) { s.Best.Genes = []float64{1} }},
		{"State.Best.Genes", stepped, func(s *State) { s.Best.Genes[2] = math.Inf(-1) }},
		{"State.Best.Index", stepped, func(s *State) { s.Best.Index = 49 }},
		{"State.Best.Fitness", stepped, func(s *State) { s.Best.Fitness = math.NaN() }},
	}
	for _, tc := range cases {
		st := tc.from.State()
		tc.edit(&st)
		_, err := restore(c, st)
		if err == nil || !strings.HasPrefix(err.Error(), "ga: "+tc.field+":") {
			t.Errorf("%s: error %v does not name it", tc.field, err)
		}
	}
	for _, g := range []*GA{fresh, stepped} {
		if _, err := restore(c, g.State()); err != nil {
			t.Errorf("a good State: %v", err)
		}
	}
	// Next = Generations is a finished run; a larger budget extends it.
	st := stepped.State()
	c.Generations = 1
	if r, err := restore(c, st); err != nil || !r.Done() {
		t.Errorf("finished run: %v", err)
	}
	c.Generations = 0
	if _, err := Restore(DefaultSettings(), problem(5), st); err != nil {
		t.Errorf("Restore from settings and a problem: %v", err)
	}
	if err := c.validate(); err == nil {
		t.Error("invalid config: want an error")
	}
}

// withoutTime zeroes the only field allowed to differ between runs.
func withoutTime(rs []optimize.Record) []optimize.Record {
	out := slices.Clone(rs)
	for i := range out {
		out[i].Seconds = 0
	}
	return out
}

func TestResumeEqualsUninterrupted(t *testing.T) {
	improved := defaultConfig(5)
	improved.Generations = 9
	improved.PmMode = PmAdaptive
	improved.Bounds = optimize.UniformBounds(5, 200, 3800)
	original := defaultConfig(5)
	original.Generations = 9
	original.Fitness = FitnessOriginal
	for name, c := range map[string]config{"improved": improved, "original": original} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			g := mustNew(t, c, 42)
			full := runAll(t, g, newTarget(100), optimize.Settings{}, nil)
			if len(full) != c.Generations || !g.Done() || g.Steps() != c.Generations {
				t.Fatalf("ran %d generations, done %v; want %d", len(full), g.Done(), c.Generations)
			}
			// Each batch has a fresh seed: the random state moves on.
			seen := map[uint64]int{}
			for _, rec := range full {
				for _, s := range detail(t, rec).Seeds {
					if at, dup := seen[s]; dup {
						t.Fatalf("generation %d reuses the batch seed of generation %d", rec.Step, at)
					}
					seen[s] = rec.Step
				}
			}

			const k = 4
			h := mustNew(t, c, 42)
			var part []optimize.Record
			for range k {
				rec, err := h.Step(ctx, newTarget(100))
				if err != nil {
					t.Fatal(err)
				}
				part = append(part, rec)
			}
			blob, err := json.Marshal(h.State())
			if err != nil {
				t.Fatal(err)
			}
			var st State
			if err := json.Unmarshal(blob, &st); err != nil {
				t.Fatal(err)
			}
			r, err := restore(c, st)
			if err != nil {
				t.Fatal(err)
			}
			status := optimize.Status{Steps: k}
			part = append(part, runAll(t, r, newTarget(100), optimize.Settings{Recorder: func(rec optimize.Record, _ optimize.Status) error {
				// Records survive a JSON round trip unchanged.
				b, err := json.Marshal(rec.Detail)
				if err != nil {
					return err
				}
				var back Generation
				if err := json.Unmarshal(b, &back); err != nil {
					return err
				}
				if !reflect.DeepEqual(back, rec.Detail) {
					t.Errorf("generation %d changed in a JSON round trip", rec.Step)
				}
				return nil
			}}, &status)...)
			if !reflect.DeepEqual(withoutTime(full), withoutTime(part)) {
				for i := range full {
					if i >= len(part) || !reflect.DeepEqual(withoutTime(full[i:i+1]), withoutTime(part[i:i+1])) {
						t.Fatalf("generation %d differs after resuming at %d", i, k)
					}
				}
				t.Fatalf("resumed run has %d generations, uninterrupted %d", len(part), len(full))
			}
			if !reflect.DeepEqual(g.State(), r.State()) {
				t.Fatal("final states differ")
			}
			// A different seed is a different run.
			other := mustNew(t, c, 43)
			rec, err := other.Step(ctx, newTarget(100))
			if err != nil {
				t.Fatal(err)
			}
			if slices.Equal(detail(t, rec).Seeds, detail(t, full[0]).Seeds) {
				t.Error("seeds 42 and 43 drew the same batch seeds")
			}
		})
	}
}

func TestNewKeepsTheCallersPCG(t *testing.T) {
	// The GA draws the initial population from the caller's PCG and then
	// keeps drawing from it: after each Step the caller's PCG is the
	// State's RNG.
	c := defaultConfig(5)
	c.Generations = 3
	pcg := rand.NewPCG(5, 0x6a)
	g, err := start(c, pcg)
	if err != nil {
		t.Fatal(err)
	}
	want := rand.NewPCG(5, 0x6a)
	optimize.UniformPopulation(rand.New(want), c.Population, c.InitLo, c.InitHi)
	if *pcg != *want {
		t.Fatal("New did not leave the caller's PCG just past the initial population")
	}
	for range 2 {
		if _, err := g.Step(context.Background(), newTarget(100)); err != nil {
			t.Fatal(err)
		}
		b, _ := pcg.MarshalBinary()
		if !slices.Equal(b, g.State().RNG) {
			t.Fatal("the GA's random state is not the caller's PCG")
		}
	}
	if *pcg == *want {
		t.Fatal("Step did not draw from the caller's PCG")
	}
	// Explicit Initial draws nothing at New.
	c.Initial = steppedInitial(49, 5)
	pcg = rand.NewPCG(5, 0x6a)
	if _, err := start(c, pcg); err != nil || *pcg != *rand.NewPCG(5, 0x6a) {
		t.Errorf("New with Initial drew from the PCG (%v)", err)
	}
}

// failOn fails the call-th Play call (1-based) with err, delegating the rest.
type failOn struct {
	ref   optimize.Referee
	call  int
	n     int
	err   error
	games int
}

func (f *failOn) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	f.n++
	if f.n == f.call {
		return nil, f.err
	}
	return f.ref.Play(ctx, seed, ms)
}

func TestCancelLeavesStateUnchanged(t *testing.T) {
	c := defaultConfig(5)
	c.Generations = 3
	g := mustNew(t, c, 9)
	if _, err := g.Step(context.Background(), newTarget(100)); err != nil {
		t.Fatal(err)
	}
	before := g.State()

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Step(ctx, newTarget(100)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Step: error %v, want context.Canceled", err)
	}
	if !reflect.DeepEqual(before, g.State()) {
		t.Fatal("a cancelled Step changed the state")
	}

	// Cancelled during the elite round robin, after the group batch played.
	fail := &failOn{ref: newTarget(100), call: 2, err: context.Canceled}
	if _, err := g.Step(context.Background(), fail); !errors.Is(err, context.Canceled) || fail.n != 2 {
		t.Fatalf("elite batch failure: error %v after %d calls", err, fail.n)
	}
	if !reflect.DeepEqual(before, g.State()) {
		t.Fatal("a Step failing in the elite round robin changed the state")
	}

	// Replaying gives what an undisturbed twin gives.
	twin := mustNew(t, c, 9)
	if _, err := twin.Step(context.Background(), newTarget(100)); err != nil {
		t.Fatal(err)
	}
	a, err := g.Step(context.Background(), newTarget(100))
	if err != nil {
		t.Fatal(err)
	}
	b, err := twin.Step(context.Background(), newTarget(100))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(withoutTime([]optimize.Record{a}), withoutTime([]optimize.Record{b})) || !reflect.DeepEqual(g.State(), twin.State()) {
		t.Fatal("the replayed generation differs from the undisturbed one")
	}

	// A referee answering too few outcomes is an error, not a panic.
	short := refFunc(func(_ context.Context, _ uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
		return make([]optimize.Outcome, len(ms)-1), nil
	})
	before = g.State()
	if _, err := g.Step(context.Background(), short); err == nil {
		t.Fatal("short answer: want an error")
	}
	if !reflect.DeepEqual(before, g.State()) {
		t.Fatal("a short answer changed the state")
	}
	if _, err := g.Step(context.Background(), nil); err == nil || !reflect.DeepEqual(before, g.State()) {
		t.Fatalf("nil referee: error %v, or the state changed", err)
	}
}

type refFunc func(context.Context, uint64, []optimize.Match) ([]optimize.Outcome, error)

func (f refFunc) Play(ctx context.Context, seed uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
	return f(ctx, seed, ms)
}

func TestGenerationRecordInvariants(t *testing.T) {
	for _, form := range []FitnessForm{FitnessImproved, FitnessOriginal} {
		c := defaultConfig(5)
		c.Fitness = form
		g := mustNew(t, c, 5)
		pop := g.State().Population
		rec, err := g.Step(context.Background(), newTarget(100))
		if err != nil {
			t.Fatal(err)
		}
		gen := detail(t, rec)
		next := g.State().Population
		const m, n, k = 49, 7, 7
		if len(gen.Individuals) != m || len(next) != m {
			t.Fatalf("%s: %d individuals, next population %d", form, len(gen.Individuals), len(next))
		}
		groupTotal := make([]float64, n)
		groupSize := make([]int, n)
		var champs []Individual
		for i, ind := range gen.Individuals {
			if !slices.Equal(ind.Genes, pop[i]) {
				t.Fatalf("%s: individual %d genes are not the population's", form, i)
			}
			groupTotal[ind.Group] += ind.GroupFitness
			groupSize[ind.Group]++
			if ind.Champion {
				champs = append(champs, ind)
			}
		}
		// Champions come first in the next population, in group order.
		sort.Slice(champs, func(a, b int) bool { return champs[a].Group < champs[b].Group })
		for j, ch := range champs {
			if ch.Group != j || !slices.Equal(next[j], ch.Genes) {
				t.Fatalf("%s: next[%d] is not group %d's champion", form, j, j)
			}
		}
		if len(champs) != n {
			t.Fatalf("%s: %d champions, want %d", form, len(champs), n)
		}
		games := 2 * (n*k*(k-1)/2 + n*(n-1)/2)
		seeds := 2
		if form == FitnessOriginal {
			games, seeds = 2*n*k*(k-1)/2, 1
		}
		if rec.Games != games || len(gen.Seeds) != seeds || g.State().Games != games {
			t.Errorf("%s: %d games, %d seeds; want %d, %d", form, rec.Games, len(gen.Seeds), games, seeds)
		}
		// m − n = 42 children from 21 pairs.
		if gen.Pc.N != 21 || gen.Pm.N != 42 {
			t.Errorf("%s: %d Pc and %d Pm values, want 21 and 42", form, gen.Pc.N, gen.Pm.N)
		}
		if gen.Pc.Min < 0.6 || gen.Pc.Max > 0.9 || gen.Pc.Mean < gen.Pc.Min || gen.Pc.Mean > gen.Pc.Max || gen.Pm.Min != 0.15 || gen.Pm.Max != 0.15 {
			t.Errorf("%s: Pc %+v, Pm %+v", form, gen.Pc, gen.Pm)
		}
		eliteTotal := 0.0
		for j := range n {
			if groupSize[j] != k {
				t.Errorf("%s: group %d has %d members", form, j, groupSize[j])
			}
			// Improved: k starting points + 2 games per match, 21 matches.
			want := float64(k + 2*k*(k-1)/2)
			if form == FitnessOriginal {
				want = 0
			}
			if groupTotal[j] != want {
				t.Errorf("%s: group %d fitness totals %g, want %g", form, j, groupTotal[j], want)
			}
			ch := champs[j]
			eliteTotal += ch.EliteFitness
			if form == FitnessImproved && ch.Fitness != ch.EliteFitness {
				t.Errorf("champion of group %d: fitness %g ≠ elite fitness %g", j, ch.Fitness, ch.EliteFitness)
			}
			if ch.Fitness > gen.Best.Fitness {
				t.Errorf("%s: champion of group %d beats the best: %g > %g", form, j, ch.Fitness, gen.Best.Fitness)
			}
		}
		if form == FitnessImproved && eliteTotal != float64(n+n*(n-1)) {
			t.Errorf("elite fitness totals %g, want %d", eliteTotal, n+n*(n-1))
		}
		if b := gen.Individuals[gen.Best.Index]; !b.Champion || !slices.Equal(b.Genes, gen.Best.Genes) {
			t.Errorf("%s: best %d is not a champion with its genes", form, gen.Best.Index)
		}
		if len(gen.Diversity.GeneStd) != 5 || gen.Diversity.MeanDistance <= 0 {
			t.Errorf("%s: diversity %+v", form, gen.Diversity)
		}
		if dv := optimize.PopulationDiversity(pop); !reflect.DeepEqual(dv, gen.Diversity) {
			t.Errorf("%s: diversity %+v is not that of the population that played", form, gen.Diversity)
		}

		// The envelope.
		if rec.Step != 0 || g.Steps() != 1 || !slices.Equal(rec.Best, gen.Best.Genes) || !slices.Equal(g.Best(), gen.Best.Genes) {
			t.Errorf("%s: record step %d, best %v; GA steps %d, best %v", form, rec.Step, rec.Best, g.Steps(), g.Best())
		}
		lo, mean := math.Inf(1), 0.0
		for _, ind := range gen.Individuals {
			lo = min(lo, ind.Fitness)
			mean += ind.Fitness / m
		}
		want := map[string]float64{
			"fitness": gen.Best.Fitness, "fitness_mean": mean, "fitness_min": lo,
			"diversity": gen.Diversity.MeanDistance, "gene_std": gen.Diversity.MeanGeneStd(),
			"pc_mean": gen.Pc.Mean, "pm_mean": gen.Pm.Mean,
		}
		if len(rec.Metrics) != len(want) {
			t.Errorf("%s: metrics %v, want the keys of %v", form, rec.Metrics, want)
		}
		for k, v := range want {
			if got, ok := rec.Metrics[k]; !ok || math.Abs(got-v) > 1e-12*max(1, math.Abs(v)) {
				t.Errorf("%s: metric %s = %g, want %g", form, k, got, v)
			}
		}
		wantLine := fmt.Sprintf("best %.2f mean %.2f min %.2f diversity %.0f", gen.Best.Fitness, rec.Metrics["fitness_mean"], lo, gen.Diversity.MeanDistance)
		if rec.Line != wantLine {
			t.Errorf("%s: line %q, want %q", form, rec.Line, wantLine)
		}
		if _, err := json.Marshal(rec); err != nil {
			t.Errorf("%s: record does not encode: %v", form, err)
		}
	}
}

func TestFlatFitnessUsesPc2AndPm2(t *testing.T) {
	// Every game drawn: every fitness is equal, f_max = f_avg, and the rates
	// take their defined value Pc2, Pm2.
	draws := refFunc(func(_ context.Context, _ uint64, ms []optimize.Match) ([]optimize.Outcome, error) {
		out := make([]optimize.Outcome, len(ms))
		for i := range out {
			out[i].Draws = 2
		}
		return out, nil
	})
	c := defaultConfig(5)
	c.PmMode = PmAdaptive
	rec, err := mustNew(t, c, 3).Step(context.Background(), draws)
	if err != nil {
		t.Fatal(err)
	}
	gen := detail(t, rec)
	if gen.Pc.Min != 0.6 || gen.Pc.Max != 0.6 || gen.Pm.Min != 0.001 || gen.Pm.Max != 0.001 {
		t.Errorf("flat population: Pc %+v, Pm %+v; want 0.6 and 0.001", gen.Pc, gen.Pm)
	}
	for i, ind := range gen.Individuals {
		if ind.Fitness != 7 {
			t.Fatalf("individual %d fitness %g, want 7 (1 + 12 draws·½ after eq. 4.5 with 7/7)", i, ind.Fitness)
		}
	}
	// Champions are the first listed in each group: the seeded shuffle
	// decides ties.
	if gen.Best.Index != g0Champion(gen) {
		t.Errorf("best %d is not group 0's champion", gen.Best.Index)
	}
}

func g0Champion(gen Generation) int {
	for i, ind := range gen.Individuals {
		if ind.Champion && ind.Group == 0 {
			return i
		}
	}
	return -1
}

func TestBoundsAndInitial(t *testing.T) {
	c := defaultConfig(5)
	c.Initial = steppedInitial(49, 5) // genes 0 .. 4800
	c.Bounds = optimize.UniformBounds(5, 50, 4000)
	c.Pm = 1
	g := mustNew(t, c, 2)
	st := g.State()
	if st.Population[0][0] != 50 || st.Population[48][0] != 4000 || st.Population[10][0] != 1000 {
		t.Fatalf("initial population not clamped: %v %v %v", st.Population[0], st.Population[10], st.Population[48])
	}
	c.Initial[10][0] = -7 // the GA keeps its own copy
	for range 5 {
		if _, err := g.Step(context.Background(), newTarget(100)); err != nil {
			t.Fatal(err)
		}
		for i, x := range g.State().Population {
			for d, v := range x {
				if v < 50 || v > 4000 {
					t.Fatalf("individual %d gene %d = %g outside the bounds", i, d, v)
				}
			}
		}
	}
}

func TestStallStopsTheRun(t *testing.T) {
	// One individual sits on the target; with a tiny temperature it wins
	// every game, so it is the best of every generation, unchanged; the
	// driver's stall rule stops the run after the third unchanged one.
	c := defaultConfig(5)
	c.Initial = steppedInitial(49, 5)
	c.Initial[17] = slices.Clone(hiddenTarget)
	g := mustNew(t, c, 4)
	var st optimize.Status
	recs := runAll(t, g, newTarget(1e-9), optimize.Settings{Stall: 3}, &st)
	if len(recs) != 4 || g.Steps() != 4 || st.Stall != 3 || g.Done() {
		t.Fatalf("stopped after %d generations, stall %d, done %v; want 4, 3, false", len(recs), st.Stall, g.Done())
	}
	for i, r := range recs {
		if !slices.Equal(r.Best, hiddenTarget) {
			t.Errorf("generation %d best %v, want the target", i, r.Best)
		}
	}
}

func TestStepAfterDone(t *testing.T) {
	c := defaultConfig(5)
	c.Generations = 2
	g := mustNew(t, c, 4)
	runAll(t, g, newTarget(100), optimize.Settings{}, nil)
	before := g.State()
	if _, err := g.Step(context.Background(), newTarget(1)); !errors.Is(err, optimize.ErrDone) {
		t.Errorf("Step after Done: %v, want optimize.ErrDone", err)
	}
	if !g.Done() || g.Steps() != 2 || !reflect.DeepEqual(before, g.State()) {
		t.Error("Step after Done changed the GA")
	}
	if f := g.Forecast(); f != (optimize.Forecast{}) {
		t.Errorf("forecast of a finished run: %+v", f)
	}
}

func TestConvergesOnTargetReferee(t *testing.T) {
	// Chen's setting; games decided by distance to a hidden target with
	// logistic noise of temperature 50 (gene units). From a random start
	// (the best of generation 0 is 1150-1430 away for these seeds), the best
	// of generation 29 (the 30th) must be within 250 of the target (6.25% of
	// the initial range) for each of 5 seeds; they reach 42-87.
	const tol = 250
	for seed := uint64(1); seed <= 5; seed++ {
		c := defaultConfig(5)
		g := mustNew(t, c, seed)
		ref := newTarget(50)
		recs := runAll(t, g, ref, optimize.Settings{}, nil)
		first, last := recs[0], recs[len(recs)-1]
		d0, d := ref.Distance(first.Best), ref.Distance(last.Best)
		t.Logf("seed %d: best %.0f → %.0f from the target in %d generations, %d games", seed, d0, d, last.Step+1, ref.Games)
		if last.Step != 29 || d > tol {
			t.Errorf("seed %d: best %v is %.0f from the target at generation %d, want ≤ %d at 29", seed, last.Best, d, last.Step, tol)
		}
	}
}

func TestImprovedKeepsMoreDiversity(t *testing.T) {
	// Chen 2010 §4.5: the original form converges fast, the improved one
	// keeps diverse genes at generation 15. Same initial population, same
	// seed, same referee; mean pairwise distance at generation 15.
	for seed := uint64(1); seed <= 8; seed++ {
		var div [2]float64
		for f, form := range []FitnessForm{FitnessImproved, FitnessOriginal} {
			c := defaultConfig(5)
			c.Fitness = form
			c.Generations = 16
			recs := runAll(t, mustNew(t, c, seed), newTarget(50), optimize.Settings{}, nil)
			div[f] = recs[15].Metrics["diversity"]
		}
		if div[0] <= div[1] {
			t.Errorf("seed %d: mean distance at generation 15: improved %.0f ≤ original %.0f", seed, div[0], div[1])
		}
	}
}

func TestSingleGroupPlaysNoEliteRound(t *testing.T) {
	// One group: its champion is the elite on its own (elite fitness 1), so
	// eq. 4.5 divides every fitness by the champion's, and no second batch
	// is played.
	c := defaultConfig(3)
	c.Population, c.Groups = 6, 1
	rec, err := mustNew(t, c, 8).Step(context.Background(), newTarget(100))
	if err != nil {
		t.Fatal(err)
	}
	gen := detail(t, rec)
	if len(gen.Seeds) != 1 || rec.Games != 2*15 {
		t.Fatalf("%d seeds, %d games; want 1 and 30", len(gen.Seeds), rec.Games)
	}
	best := gen.Individuals[gen.Best.Index]
	for i, ind := range gen.Individuals {
		if want := ind.GroupFitness * 1 / best.GroupFitness; ind.Fitness != want {
			t.Errorf("individual %d fitness %g, want %g", i, ind.Fitness, want)
		}
	}
	if best.Fitness != 1 || best.EliteFitness != 1 {
		t.Errorf("lone champion: fitness %g, elite %g; want 1, 1", best.Fitness, best.EliteFitness)
	}
}

// defaultConfig returns Chen 2010 Table 4.8 (DefaultSettings) for a genome
// of the given length: initial genes uniform in [0, 4000], no bounds, one
// game pair a match.
func defaultConfig(genes int) config {
	lo := make([]float64, genes)
	hi := make([]float64, genes)
	for d := range hi {
		hi[d] = 4000
	}
	return config{Settings: DefaultSettings(), Problem: optimize.Problem{Genes: optimizetest.Letters(genes), InitLo: lo, InitHi: hi, BoundMode: optimize.BoundsOff, Pairs: 1}}
}
