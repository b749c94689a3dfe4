package ladder

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// symmetricRun is a run of the in-process engine on the symmetric
// schema, whose start is the start vector.
type symmetricRun struct{ start []float64 }

func (symmetricRun) Referee(depth, width int) (*referee.VectorReferee, error) {
	s := engine.DefaultSettings()
	s.Depth, s.Width = depth, width
	return &referee.VectorReferee{Setup: referee.Setup{Schema: engine.Symmetric, Settings: s}}, nil
}

func (symmetricRun) Played([]float64) []float64 { return nil }

func (symmetricRun) Format(v []float64) string { return fmt.Sprint(v) }

func (e symmetricRun) Start() ([]float64, string, error) { return e.start, "zhou2015", nil }

// TestOpponentsResolve: the ladder resolves baselines, weight files,
// halfway and the start without a Job, numbers slugs two opponents
// share, notes a halfway it cannot play, and finds the start identical to
// a tuned vector with its road weights.
func TestOpponentsResolve(t *testing.T) {
	zhou, err := configs.LoadWeights("zhou2015")
	if err != nil {
		t.Fatal(err)
	}
	data, err := configs.Weights("zhou2015")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "zhou2015.json")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := &Run{Engine: symmetricRun{start: zhou.Values}, Depth: 2, Width: 10, Unit: "generation"}
	recs := []optimize.Record{{Step: 0, Best: []float64{1, 2, 3, 4, 5}}, {Step: 1, Best: []float64{6, 7, 8, 9, 10}}, {Step: 2, Best: []float64{11, 12, 13, 14, 15}}}
	opps, notes, err := r.opponents([]string{"zhou2015", Halfway, StartOpponent, file}, recs)
	if err != nil || len(notes) != 0 {
		t.Fatalf("%v, notes %q", err, notes)
	}
	var slugs, sources []string
	for _, o := range opps {
		slugs, sources = append(slugs, o.slug), append(sources, o.source)
	}
	if want := []string{"zhou2015", "halfway", "start", "zhou2015-2"}; !slices.Equal(slugs, want) {
		t.Errorf("slugs %q, want %q", slugs, want)
	}
	if want := []string{"zhou2015", "halfway: the run's best vector after generation 1 of 3", "start: zhou2015", file}; !slices.Equal(sources, want) {
		t.Errorf("sources %q, want %q", sources, want)
	}
	if h := opps[1]; !slices.Equal(h.weights.Genes, recs[1].Best) || h.vec == nil {
		t.Errorf("halfway plays %v (vector %v), want step 1's best", h.weights.Genes, h.vec)
	}
	tuned, err := r.Player("tuned", "best.json", zhou.Values)
	if err != nil {
		t.Fatal(err)
	}
	if why := r.identical(tuned, opps[2].Player); why != "the tuned vector has start's road weights and search settings" {
		t.Errorf("tuned as the start: %q", why)
	}
	if why := r.identical(tuned, opps[1].Player); why != "" {
		t.Errorf("tuned as halfway: %q", why)
	}
	if got, want := r.line(opps[:2], []int{2, 3}, []tournament.TimeControl{{PerMove: 50e6}}, 10),
		"tuned vs zhou2015, halfway at depth 2 and 3 and by the clock st=0.05, width 10"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}

	_, notes, err = r.opponents([]string{Halfway}, recs[:1])
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], `"halfway" was skipped: the run has only 1 generation`) {
		t.Errorf("halfway of one step: %v, notes %q", err, notes)
	}
}
