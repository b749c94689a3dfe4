package param

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/spsa"
)

func ptr(v float64) *float64 { return &v }

// TestExtend: the tables' ranges extend the problem's initial range and
// bounds, a start vector gets the starts, fixed genes are dropped and the
// starts become the start where the method takes one, and a fixed
// opponent plays the starts.
func TestExtend(t *testing.T) {
	ts := []Table{{Name: "DefendWide", Min: 0, Max: 100}, {Name: "DefendShare", Min: 0.3, Max: 0.9, Scale: ScaleLog}}
	starts := []float64{60, 0.7}
	p := optimize.Problem{Genes: []string{"a", "b"}, InitLo: []float64{0, 0}, InitHi: []float64{10, 10},
		Bounds: &optimize.Bounds{Lo: []float64{-1, -1}, Hi: []float64{11, 11}}, Start: []float64{1, 2},
		Opponent: func(string) ([]float64, error) { return []float64{5, 5}, nil }}
	names := []string{"a", "b", "DefendWide", "DefendShare"}
	q := Extend(ts, p, names, starts, true, nil)
	if !slices.Equal(q.Genes, names) || !slices.Equal(q.InitHi, []float64{10, 10, 100, 0.9}) ||
		!slices.Equal(q.Bounds.Lo, []float64{-1, -1, 0, 0.3}) || !slices.Equal(q.Start, []float64{1, 2, 60, 0.7}) {
		t.Fatalf("tuned genes: %+v", q)
	}
	if len(p.Bounds.Lo) != 2 || len(p.Start) != 2 {
		t.Fatalf("Extend changed its problem: %+v", p)
	}
	if w, err := q.Opponent("x"); err != nil || !slices.Equal(w, []float64{5, 5, 60, 0.7}) {
		t.Fatalf("opponent %v %v", w, err)
	}
	fixed := Extend(ts, p, names[2:], starts, false, func(optimize.Problem) bool { return false })
	if !slices.Equal(fixed.Genes, names[2:]) || fixed.Start != nil || fixed.Opponent != nil || !slices.Equal(fixed.Bounds.Hi, []float64{100, 0.9}) {
		t.Fatalf("fixed genes, no start taken: %+v", fixed)
	}
	if q := Extend(ts, p, names[2:], starts, false, nil); !slices.Equal(q.Start, starts) {
		t.Fatalf("fixed genes: start %v, want the starts", q.Start)
	}
	if q := Extend(nil, p, names[:2], nil, true, nil); !slices.Equal(q.Genes, p.Genes) {
		t.Fatalf("no tables: %+v", q)
	}
}

// TestSpaceAndGains: a log-scale table makes a LogCoords space over its
// place in the vector; SPSA's gains take c_end in ln units for it and
// r_end as given, by the engine's name, on a copy.
func TestSpaceAndGains(t *testing.T) {
	ts := []Table{{Name: "defendwide", Min: 1, Max: 100, CEnd: ptr(5)}, {Name: "DefendShare", Min: 0.3, Max: 0.9, Scale: ScaleLog, CEnd: ptr(0.07), REnd: ptr(0.01)}}
	s, ok := Space(ts, 3).(optimize.LogCoords)
	if !ok || !slices.Equal(s.Log, []bool{false, false, false, false, true}) {
		t.Fatalf("space %#v", Space(ts, 3))
	}
	if Space(ts[:1], 3) != nil {
		t.Fatal("a linear table made a space")
	}
	o := &spsa.Settings{}
	starts := []float64{50, 0.7}
	g := SPSAGains(ts, o, starts)
	if o.CEnd.Genes != nil || g.CEnd.Genes["DefendWide"] != 5 || g.CEnd.Genes["DefendShare"] != math.Log1p(*ts[1].CEnd/starts[1]) || g.REnd.Genes["DefendShare"] != 0.01 {
		t.Fatalf("gains %+v from %+v", g, o)
	}
	if got := Text(ts, []float64{50, 0.7}, true); got != "DefendWide in [1, 100] from 50 (c_end 5), DefendShare in [0.3, 0.9] (log) from 0.7 (c_end 0.07, r_end 0.01)" {
		t.Fatalf("text %q", got)
	}
}

// TestCheck: each fault names its table's key.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		ts       []Table
		external bool
		key      string
	}{
		{[]Table{{Name: "NoSuch", Min: 0, Max: 1}}, false, "param[1].name"},
		{[]Table{{Name: "DefendWide", Min: 0, Max: 10}, {Name: "defendwide", Min: 0, Max: 10}}, false, "param[2].name"},
		{[]Table{{Name: "DefendWide", Type: "float", Min: 0, Max: 10}}, false, "param[1].type"},
		{[]Table{{Name: "two words", Min: 0, Max: 1}}, true, "param[1].name"},
		{[]Table{{Name: "x", Min: 2, Max: 1}}, true, "param[1].max"},
		{[]Table{{Name: "x", Min: 0, Max: 1, Scale: "log"}}, true, "param[1].scale"},
		{[]Table{{Name: "x", Min: 0, Max: 1, REnd: ptr(-1)}}, true, "param[1].r_end"},
	} {
		var ke *KeyError
		if err := Check(tc.ts, tc.external); !errors.As(err, &ke) || ke.Key != tc.key {
			t.Errorf("%+v: %v, want a KeyError at %s", tc.ts, err, tc.key)
		}
	}
	if err := CheckStarts([]Table{{Name: "x", Min: 0, Max: 1, Start: ptr(2)}}); err == nil {
		t.Error("a start outside [min, max] passed")
	}
	if err := Check([]Table{{Name: "DefendWide", Min: 0, Max: 10}}, false); err != nil {
		t.Error(err)
	}
}
