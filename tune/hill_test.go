package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// hill is a test-only method registered from this file alone: a (1+1)
// hill climber that plays a Gaussian step from the incumbent against it
// and keeps the winner. It shows that a method needs no change outside its
// own package (here: file) to run through tune with progress, checkpoints,
// resume, plots and the report.
type hill struct {
	opts  hillOptions
	pcg   *rand.PCG
	st    hillState
	genes int
}

type hillOptions struct {
	Steps int     `toml:"steps"`
	Sigma float64 `toml:"sigma"`
}

type hillState struct {
	Step  int       `json:"step"`
	Best  []float64 `json:"best"`
	Start []float64 `json:"start"`
	RNG   []byte    `json:"rng"`
}

func init() {
	Register(optimize.Spec{
		Name: "hill", Unit: "step", BudgetKey: "steps", About: "test-only (1+1) hill climber",
		Options: func() optimize.Options { return &hillOptions{Steps: 5, Sigma: 300} },
		Charts:  []optimize.Chart{{Name: "sigma", Title: "Step size", YLabel: "gene units", Metrics: []string{"sigma"}}},
	})
}

func (o *hillOptions) Validate(p optimize.Problem) error {
	if o.Steps < 1 {
		return &optimize.OptionError{Key: "steps", Msg: fmt.Sprintf("must be at least 1, not %d", o.Steps)}
	}
	if !(o.Sigma > 0) {
		return &optimize.OptionError{Key: "sigma", Msg: "must be positive"}
	}
	return p.Validate()
}

func (o *hillOptions) New(p optimize.Problem, rng *rand.PCG) (optimize.Method, error) {
	h := &hill{opts: *o, pcg: rng, genes: len(p.Genes)}
	r := rand.New(rng)
	h.st.Start = optimize.UniformPopulation(r, 1, p.InitLo, p.InitHi)[0]
	return h, nil
}

func (o *hillOptions) Restore(p optimize.Problem, state []byte) (optimize.Method, error) {
	h := &hill{opts: *o, genes: len(p.Genes), pcg: &rand.PCG{}}
	if err := json.Unmarshal(state, &h.st); err != nil {
		return nil, err
	}
	if err := h.pcg.UnmarshalBinary(h.st.RNG); err != nil {
		return nil, fmt.Errorf("RNG: %w", err)
	}
	if h.st.Step < 0 || h.st.Step > h.opts.Steps {
		return nil, errors.New("step out of range")
	}
	return h, nil
}

func (o *hillOptions) Describe() string { return fmt.Sprintf("hill climber, sigma %g", o.Sigma) }

func (h *hill) Done() bool      { return h.st.Step >= h.opts.Steps }
func (h *hill) Steps() int      { return h.st.Step }
func (h *hill) Best() []float64 { return slices.Clone(h.st.Best) }

func (h *hill) Forecast() optimize.Forecast {
	left := h.opts.Steps - h.st.Step
	return optimize.Forecast{Steps: left, NextGames: min(left, 1) * 2, Games: 2 * left}
}

func (h *hill) MarshalState() ([]byte, error) {
	st := h.st
	st.RNG, _ = h.pcg.MarshalBinary()
	return json.Marshal(st)
}

func (h *hill) Step(ctx context.Context, ref optimize.Referee) (optimize.Record, error) {
	if h.Done() {
		return optimize.Record{}, optimize.ErrDone
	}
	pcg := optimize.ClonePCG(h.pcg)
	r := rand.New(pcg)
	inc := h.st.Best
	if inc == nil {
		inc = h.st.Start
	}
	ch := slices.Clone(inc)
	for d := range ch {
		ch[d] = max(0, ch[d]+r.NormFloat64()*h.opts.Sigma)
	}
	out, err := optimize.Play(ctx, ref, r.Uint64(), []optimize.Match{{A: ch, B: slices.Clone(inc)}})
	if err != nil {
		return optimize.Record{}, err
	}
	best := inc
	if out[0].AWins() {
		best = ch
	}
	h.pcg = pcg
	h.st.Best = slices.Clone(best)
	rec := optimize.Record{Step: h.st.Step, Games: out[0].Games(), Best: slices.Clone(best),
		Metrics: map[string]float64{"sigma": h.opts.Sigma}, Detail: map[string]any{"challenger": ch, "won": out[0].AWins()}}
	h.st.Step++
	return rec, nil
}
