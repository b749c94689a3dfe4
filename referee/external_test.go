package referee

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fakeengine/fakeenginetest"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tournament"
)

func TestMain(m *testing.M) { os.Exit(fakeenginetest.Main(m)) }

// externalParams are the fake engine's two options as a referee's Params.
var externalParams = []engine.Param{
	{Name: "Width", Min: 1, Max: 100},
	{Name: "Share", Float: true, Min: 0.01, Max: 0.9},
}

const fakeOptions = "Width:int:15:1:100,Share:float:0.7:0.01:0.9"

// TestExternalValuesArrive plays two batches of matches between distinct
// candidates through every way of passing values and reads back, from the
// fake engine's record, the values each process held at each game: every
// candidate's values (clamped and rounded as played) arrive exactly, in
// exactly its games, and the values files are gone after each batch.
func TestExternalValuesArrive(t *testing.T) {
	bin := fakeenginetest.Build(t)
	templates := map[Pass]string{PassInitStr: "param {name} {value}", PassArg: "--{name}={value}",
		PassFileArg: "-valuesfile={file}", PassFileInitStr: "valuesfile {file}"}
	for _, pass := range Passes {
		t.Run(string(pass), func(t *testing.T) {
			dir := t.TempDir()
			rec := filepath.Join(dir, "record.jsonl")
			r := &VectorReferee{Setup: Setup{Pairs: 2, MaxMoves: 40,
				External: &External{Engine: tournament.Engine{Program: bin, Args: []string{"-options", fakeOptions, "-record", rec}}, Params: externalParams,
					Pass: pass, Template: templates[pass], FileDir: filepath.Join(dir, "values")}}, Concurrency: 2}
			defer r.Close()
			if err := r.External.Check(); err != nil {
				t.Fatal(err)
			}
			batches := [][]optimize.Match{
				{{A: []float64{7.4, 0.25}, B: []float64{30, 0.5}}, {A: []float64{1e6, -3}, B: []float64{15, 0.7}}},
				{{A: []float64{8, 0.125}, B: []float64{9.6, 0.875}}},
			}
			var want []string
			for k, ms := range batches {
				if _, err := r.Play(context.Background(), uint64(k+1), ms); err != nil {
					t.Fatal(err)
				}
				for _, m := range ms {
					for _, v := range [][]float64{m.A, m.B} {
						for range 2 * r.Pairs { // every game of the candidate
							want = append(want, fmt.Sprintf("Width=%g Share=%g", ParamValue(externalParams[0], v[0]), ParamValue(externalParams[1], v[1])))
						}
					}
				}
				if files, _ := filepath.Glob(filepath.Join(dir, "values", "*")); len(files) > 0 {
					t.Errorf("batch %d left values files %v", k, files)
				}
			}
			var got []string
			pids := map[int]bool{}
			for _, x := range fakeenginetest.ReadRecords(t, rec) {
				got = append(got, fmt.Sprintf("Width=%g Share=%g", x.Values["Width"], x.Values["Share"]))
				pids[x.PID] = true
			}
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Errorf("values at each game:\n got %v\nwant %v", got, want)
			}
			// The ways by lines reuse processes across candidates and
			// batches: at most two per game at once.
			if pass == PassSetOption || pass == PassInitStr || pass == PassFileInitStr {
				if len(pids) > 2*r.Concurrency {
					t.Errorf("%d processes for %d games at once: the processes were not reused", len(pids), r.Concurrency)
				}
			}
		})
	}
}

// TestExternalCheck refuses templates that cannot pass the values.
func TestExternalCheck(t *testing.T) {
	for _, tc := range []struct {
		x    External
		want string
	}{
		{External{}, "no command"},
		{External{Engine: tournament.Engine{Program: "e"}, Pass: "pipe"}, `pass "pipe" is not one of setoption, initstr`},
		{External{Engine: tournament.Engine{Program: "e"}, Pass: PassInitStr, Template: "param {name}"}, "has no {value}"},
		{External{Engine: tournament.Engine{Program: "e"}, Pass: PassArg, Template: "--v={value}"}, "has no {name}: with 2 parameters"},
		{External{Engine: tournament.Engine{Program: "e"}, Pass: PassFileArg, Template: "-f", FileDir: "x"}, "has no {file}"},
		{External{Engine: tournament.Engine{Program: "e"}, Pass: PassFileInitStr, Template: "file {file}"}, "needs a directory"},
		{External{Engine: tournament.Engine{Program: "e"}, Pass: PassSetOption, Template: "x {value}"}, "is not used by pass"},
		{External{Engine: tournament.Engine{Program: "e"}, Pass: PassInitStr, Template: "a {name}\n{value}"}, "line break"},
	} {
		tc.x.Params = externalParams
		err := tc.x.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.x, err, tc.want)
		}
	}
	ok := External{Engine: tournament.Engine{Program: "e"}, Params: externalParams[:1], Pass: PassArg, Template: "--{value}"}
	if err := ok.Check(); err != nil {
		t.Errorf("one parameter needs no {name}: %v", err)
	}
}

// TestExternalRefusesInProcessUses: the vectors of an external referee are
// not in-process players and have no road features.
func TestExternalRefusesInProcessUses(t *testing.T) {
	r := &VectorReferee{Setup: Setup{External: &External{Engine: tournament.Engine{Program: "engine"}, Params: externalParams}}}
	if _, _, err := r.Player([]float64{1, 0.5}); err == nil {
		t.Error("Player of an external referee: no error")
	}
	if _, _, err := r.Sample(context.Background(), 1, []optimize.Match{{A: []float64{1, 0.5}, B: []float64{2, 0.5}}}); err == nil || !strings.Contains(err.Error(), "external engine") {
		t.Errorf("Sample of an external referee: %v", err)
	}
	if _, _, err := r.Entrant("x", []float64{1}); err == nil || !strings.Contains(err.Error(), "want 2") {
		t.Errorf("a short vector: %v", err)
	}
}

// TestSetOptionLine: a parameter's value reaches the engine in the
// protocol's one setoption line: an integer parameter rounded, a large
// integral value without an exponent, a fraction as it is.
func TestSetOptionLine(t *testing.T) {
	for _, tc := range []struct {
		p    engine.Param
		v    float64
		want string
	}{
		{engine.Param{Name: "Width"}, 11.6, "setoption name Width value 12"},
		{engine.Param{Name: "Nodes"}, 1e6, "setoption name Nodes value 1000000"},
		{engine.Param{Name: "Share", Float: true}, 0.7, "setoption name Share value 0.7"},
		{engine.Param{Name: "Big", Float: true}, 2e6, "setoption name Big value 2000000"},
	} {
		if got := SetOptionLine(tc.p, tc.v); got != tc.want {
			t.Errorf("SetOptionLine(%+v, %v) = %q, want %q", tc.p, tc.v, got, tc.want)
		}
	}
}
