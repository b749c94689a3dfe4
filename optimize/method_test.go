package optimize

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// fake is a tiny Method: step i plays one batch of one match and reports
// bests[i] as its best vector and games[i] games. It fails with fail[i] if
// set, and numbers its steps from offset (0 for an honest method).
type fake struct {
	bests  [][]float64
	games  []int
	fail   map[int]error
	offset int
	n      int
	calls  int // Play calls made
}

var _ Method = (*fake)(nil)

func (f *fake) Step(ctx context.Context, ref Referee) (Record, error) {
	if f.Done() {
		return Record{}, ErrDone
	}
	if err := f.fail[f.n]; err != nil {
		return Record{}, err
	}
	out, err := Play(ctx, ref, uint64(f.n), []Match{{A: f.bests[f.n], B: f.bests[f.n]}})
	f.calls++
	if err != nil {
		return Record{}, err
	}
	rec := Record{
		Step:    f.n + f.offset,
		Games:   f.games[f.n],
		Best:    slices.Clone(f.bests[f.n]),
		Metrics: map[string]float64{"wins": float64(out[0].Wins)},
	}
	f.n++
	return rec, nil
}

func (f *fake) Done() bool { return f.n >= len(f.bests) }
func (f *fake) Steps() int { return f.n }

func (f *fake) Best() []float64 {
	if f.n == 0 {
		return nil
	}
	return slices.Clone(f.bests[f.n-1])
}

func (f *fake) Forecast() Forecast {
	left := len(f.bests) - f.n
	games := 0
	for _, g := range f.games[f.n:] {
		games += g
	}
	next := 0
	if left > 0 {
		next = f.games[f.n]
	}
	return Forecast{Steps: left, NextGames: next, Games: games}
}

func (f *fake) MarshalState() ([]byte, error) { return json.Marshal(f.n) }

// oneWin answers every match with one win for A.
type oneWin struct{}

func (oneWin) Play(ctx context.Context, _ uint64, ms []Match) ([]Outcome, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]Outcome, len(ms))
	for i := range out {
		out[i].Wins = 1
	}
	return out, nil
}

func vecs(xs ...float64) [][]float64 {
	v := make([][]float64, len(xs))
	for i, x := range xs {
		v[i] = []float64{x, -x}
	}
	return v
}

func TestRunCountsStepsGamesAndStall(t *testing.T) {
	// Bests 1 2 2 2 3 3: the stall count after each step is 0 0 1 2 0 1.
	m := &fake{bests: vecs(1, 2, 2, 2, 3, 3), games: []int{4, 2, 2, 2, 2, 6}}
	var recs []Record
	var stalls []int
	var st Status
	err := Run(context.Background(), m, oneWin{}, Settings{Recorder: func(r Record, s Status) error {
		recs = append(recs, r)
		stalls = append(stalls, s.Stall)
		if s.Steps != len(recs) {
			t.Errorf("recorder saw Status.Steps %d after %d records", s.Steps, len(recs))
		}
		return nil
	}}, &st)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 || st.Steps != 6 || st.Games != 18 || !m.Done() {
		t.Fatalf("%d records, status %+v", len(recs), st)
	}
	if want := []int{0, 0, 1, 2, 0, 1}; !slices.Equal(stalls, want) || st.Stall != 1 {
		t.Errorf("stall counts %v (final %d), want %v", stalls, st.Stall, want)
	}
	sum := 0.0
	for i, r := range recs {
		if r.Step != i || r.Seconds < 0 {
			t.Errorf("record %d: step %d, seconds %g", i, r.Step, r.Seconds)
		}
		sum += r.Seconds
	}
	if st.Seconds != sum {
		t.Errorf("Status.Seconds %g, sum of records %g", st.Seconds, sum)
	}
	// A finished method: Run returns at once.
	if err := Run(context.Background(), m, oneWin{}, Settings{}, &st); err != nil || st.Steps != 6 {
		t.Errorf("Run on a done method: %v, status %+v", err, st)
	}
	if _, err := m.Step(context.Background(), oneWin{}); !errors.Is(err, ErrDone) {
		t.Errorf("Step after Done: %v", err)
	}
}

func TestRunStallRuleStops(t *testing.T) {
	// Bests 1 2 2 2 2 …: unchanged from step 2 on; Stall 3 ends the run
	// after step 4, the third unchanged step, before the budget of 9.
	m := &fake{bests: vecs(1, 2, 2, 2, 2, 2, 2, 2, 2), games: make([]int, 9)}
	s := Settings{Stall: 3}
	var st Status
	if err := Run(context.Background(), m, oneWin{}, s, &st); err != nil {
		t.Fatal(err)
	}
	if st.Steps != 5 || st.Stall != 3 || m.Done() || !s.Stalled(st) {
		t.Fatalf("stopped at %+v, done %v; want 5 steps with stall 3", st, m.Done())
	}
	// Resuming from the checkpointed status stops at once too.
	if err := Run(context.Background(), m, oneWin{}, s, &st); err != nil || m.Steps() != 5 {
		t.Errorf("resumed stalled run: %v, %d steps", err, m.Steps())
	}
	// A resumed run counts on from the status: the method's best before
	// the first new step is the previous one.
	m2 := &fake{bests: vecs(1, 2, 2, 2, 2, 2, 2, 2, 2), games: make([]int, 9)}
	var st2 Status
	if err := Run(context.Background(), m2, oneWin{}, Settings{Recorder: func(_ Record, s Status) error {
		if s.Steps == 3 {
			return errStop
		}
		return nil
	}}, &st2); !errors.Is(err, errStop) {
		t.Fatal(err)
	}
	if st2.Stall != 1 {
		t.Fatalf("stall %d after 3 steps, want 1", st2.Stall)
	}
	if err := Run(context.Background(), m2, oneWin{}, s, &st2); err != nil {
		t.Fatal(err)
	}
	st2.Seconds, st.Seconds = 0, 0
	if st2 != st {
		t.Errorf("interrupted run ends at %+v, uninterrupted at %+v", st2, st)
	}
	if (Settings{}).Stalled(Status{Stall: 100}) {
		t.Error("Stall 0 must be off")
	}
}

var errStop = errors.New("disk full")

func TestRunChecksNumbering(t *testing.T) {
	m := &fake{bests: vecs(1, 2, 3), games: make([]int, 3), offset: 1}
	var st Status
	err := Run(context.Background(), m, oneWin{}, Settings{}, &st)
	if err == nil || !strings.Contains(err.Error(), "numbered its step 1") {
		t.Fatalf("a method numbering from 1: %v", err)
	}
	if st.Steps != 0 {
		t.Errorf("a misnumbered step was counted: %+v", st)
	}
	// A method resumed at step 2 against a status that counts 0.
	m = &fake{bests: vecs(1, 2, 3, 4), games: make([]int, 4), n: 2}
	if err := Run(context.Background(), m, oneWin{}, Settings{}, &Status{}); err == nil {
		t.Error("a method ahead of the status: want an error")
	}
	if err := Run(context.Background(), nil, oneWin{}, Settings{}, &Status{}); err == nil {
		t.Error("nil method: want an error")
	}
	if err := Run(context.Background(), m, nil, Settings{}, &Status{}); err == nil {
		t.Error("nil referee: want an error")
	}
	if err := Run(context.Background(), m, oneWin{}, Settings{}, nil); err == nil {
		t.Error("nil status: want an error")
	}
}

func TestRunReturnsRecorderAndStepErrors(t *testing.T) {
	m := &fake{bests: vecs(1, 2, 3, 4), games: []int{2, 2, 2, 2}}
	var st Status
	n := 0
	err := Run(context.Background(), m, oneWin{}, Settings{Recorder: func(Record, Status) error {
		n++
		if n == 2 {
			return errStop
		}
		return nil
	}}, &st)
	if err != errStop {
		t.Fatalf("recorder error: Run returned %v, want it as is", err)
	}
	// The step was taken and counted; the recorder saw it.
	if st.Steps != 2 || m.Steps() != 2 || st.Games != 4 {
		t.Errorf("after a recorder error: status %+v, method at %d", st, m.Steps())
	}

	boom := errors.New("engine crashed")
	m.fail = map[int]error{2: boom}
	if err := Run(context.Background(), m, oneWin{}, Settings{}, &st); err != boom {
		t.Fatalf("step error: %v", err)
	}
	if st.Steps != 2 || m.Steps() != 2 {
		t.Errorf("a failed step was counted: %+v", st)
	}
	delete(m.fail, 2)
	if err := Run(context.Background(), m, oneWin{}, Settings{}, &st); err != nil || st.Steps != 4 {
		t.Errorf("after the failure: %v, status %+v", err, st)
	}
}

func TestRunCancellation(t *testing.T) {
	// Cancelled before the first step: nothing is played.
	m := &fake{bests: vecs(1, 2, 3), games: make([]int, 3)}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var st Status
	if err := Run(ctx, m, oneWin{}, Settings{}, &st); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Run: %v", err)
	}
	if m.calls != 0 || st.Steps != 0 {
		t.Errorf("a cancelled Run played: %d calls, status %+v", m.calls, st)
	}
	// Cancelled by the recorder after step 0: step 1 is not started.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	err := Run(ctx, m, oneWin{}, Settings{Recorder: func(Record, Status) error { cancel(); return nil }}, &st)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run cancelled mid-way: %v", err)
	}
	if st.Steps != 1 || m.calls != 1 {
		t.Errorf("after cancelling mid-way: status %+v, %d calls", st, m.calls)
	}
}

func TestPlayChecksTheAnswer(t *testing.T) {
	ms := []Match{{A: []float64{1}, B: []float64{2}}, {A: []float64{3}, B: []float64{4}}}
	out, err := Play(context.Background(), oneWin{}, 1, ms)
	if err != nil || len(out) != 2 || CountGames(out) != 2 {
		t.Fatalf("Play: %v, %v", out, err)
	}
	short := refFunc(func(context.Context, uint64, []Match) ([]Outcome, error) { return make([]Outcome, 1), nil })
	if _, err := Play(context.Background(), short, 1, ms); err == nil || !strings.Contains(err.Error(), "1 outcomes for 2 matches") {
		t.Errorf("short answer: %v", err)
	}
	if _, err := Play(context.Background(), nil, 1, ms); err == nil {
		t.Error("nil referee: want an error")
	}
}

type refFunc func(context.Context, uint64, []Match) ([]Outcome, error)

func (f refFunc) Play(ctx context.Context, seed uint64, ms []Match) ([]Outcome, error) {
	return f(ctx, seed, ms)
}

func TestOptionErrorText(t *testing.T) {
	if s := (&OptionError{Key: "population", Msg: "must be at least 2"}).Error(); s != "option population: must be at least 2" {
		t.Errorf("keyed: %q", s)
	}
	if s := (&OptionError{Msg: "init range too wide"}).Error(); s != "init range too wide" {
		t.Errorf("unkeyed: %q", s)
	}
}

func TestDecodeStateIsStrict(t *testing.T) {
	type state struct {
		Next int       `json:"next"`
		Pop  []float64 `json:"pop"`
	}
	var st state
	if err := DecodeState([]byte(`{"next": 3, "pop": [1, 2]}`+"\n"), &st); err != nil || st.Next != 3 || len(st.Pop) != 2 {
		t.Fatalf("good state: %+v, %v", st, err)
	}
	for name, blob := range map[string]string{
		"unknown field": `{"next": 3, "stall": 1}`,
		"trailing data": `{"next": 3} {"next": 4}`,
		"trailing junk": `{"next": 3} x`,
		"wrong type":    `{"next": "3"}`,
		"empty":         ``,
	} {
		if err := DecodeState([]byte(blob), &state{}); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func TestProblemCloneIsDeep(t *testing.T) {
	p := Problem{Genes: []string{"a", "b"}, InitLo: []float64{0, 1}, InitHi: []float64{2, 3},
		Bounds: UniformBounds(2, -5, 5), BoundMode: BoundsClamp, Pairs: 3, Start: []float64{1, 2}}
	c := p.Clone()
	c.Genes[0], c.InitLo[0], c.InitHi[0], c.Bounds.Lo[0], c.Bounds.Hi[0], c.Start[0] = "z", 9, 9, 9, 9, 9
	if p.Genes[0] != "a" || p.InitLo[0] != 0 || p.InitHi[0] != 2 || p.Bounds.Lo[0] != -5 || p.Bounds.Hi[0] != 5 || p.Start[0] != 1 {
		t.Errorf("changing the clone changed the problem: %+v", p)
	}
	if c.BoundMode != p.BoundMode || c.Pairs != p.Pairs {
		t.Errorf("clone %+v lost the problem's mode or pairs", c)
	}
	if c := (Problem{Genes: []string{"a"}}).Clone(); c.Bounds != nil || c.Start != nil || c.InitLo != nil {
		t.Errorf("the clone of nil fields is %+v, want them nil", c)
	}
}
