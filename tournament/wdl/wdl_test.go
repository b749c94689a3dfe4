package wdl

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

func TestPairScore(t *testing.T) {
	scores := []float64{0, 0.5, 1}
	want := [3][3]int{
		{0, 1, 2}, // L then L, D, W
		{1, 2, 3}, // D then ...
		{2, 3, 4}, // W then ...
	}
	for i, a := range scores {
		for j, b := range scores {
			if got := PairScore(a, b); got != want[i][j] {
				t.Errorf("PairScore(%g, %g) = %d, want %d", a, b, got, want[i][j])
			}
		}
	}
	for _, bad := range [][2]float64{{0.25, 0}, {0, 2}, {-1, 1}, {math.NaN(), 0}} {
		if got := PairScore(bad[0], bad[1]); got != -1 {
			t.Errorf("PairScore(%g, %g) = %d, want -1", bad[0], bad[1], got)
		}
	}
}

func TestCountBuilders(t *testing.T) {
	var r Count
	for _, s := range []float64{1, 1, 0.5, 0, 1} {
		if err := r.Add(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Add(0.7); err == nil {
		t.Error("Count.Add(0.7): no error")
	}
	if r != (Count{Wins: 3, Draws: 1, Losses: 1}) || !slices.Equal(r.Counts(), []int{1, 1, 3}) || r.Games() != 5 {
		t.Errorf("Count = %+v, counts %v", r, r.Counts())
	}
	var p Pentanomial
	for _, g := range [][2]float64{{1, 0}, {0.5, 0.5}, {1, 1}, {0, 0.5}, {0.5, 1}, {0, 1}} {
		if err := p.Add(g[0], g[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := p.Add(1, 3); err == nil {
		t.Error("Pentanomial.Add(1, 3): no error")
	}
	if p != (Pentanomial{0, 1, 3, 1, 1}) || !slices.Equal(p.Counts(), []int{0, 1, 3, 1, 1}) || p.N() != 6 {
		t.Errorf("Pentanomial = %v", p)
	}
}

func TestScoreAndViews(t *testing.T) {
	for _, tc := range []struct {
		t     Count
		score float64
		aWins bool
	}{
		{Count{}, 0, false},
		{Count{Wins: 3, Draws: 1, Losses: 2}, 3.5, true},
		{Count{Wins: 2, Draws: 2, Losses: 2}, 3, false}, // a tie is no win for A
		{Count{Draws: 1, Losses: 1}, 0.5, false},
	} {
		f := tc.t.Flip()
		if tc.t.Score() != tc.score || tc.t.AWins() != tc.aWins ||
			f.Games() != tc.t.Games() || f.Score() != float64(tc.t.Games())-tc.score || f.Flip() != tc.t {
			t.Errorf("%+v: score %g, A wins %v, flipped %+v", tc.t, tc.t.Score(), tc.t.AWins(), f)
		}
	}
	sum := Count{Wins: 1, Draws: 2, Losses: 3}
	sum.Merge(Count{Wins: 10, Draws: 20, Losses: 30})
	if sum != (Count{Wins: 11, Draws: 22, Losses: 33}) {
		t.Errorf("merged %+v", sum)
	}
	if p := (Pentanomial{1, 2, 3, 4, 5}).Flip(); p != (Pentanomial{5, 4, 3, 2, 1}) {
		t.Errorf("flipped pentanomial %v", p)
	}
}

// TestJSON pins the JSON shapes: a Count's keys (which read without regard
// to case, so optimize.Outcome's older {"Wins": …} reads), flat in a
// record that embeds it, and Short's {"w": …, "d": …, "l": …}.
func TestJSON(t *testing.T) {
	w := Count{Wins: 3, Draws: 1, Losses: 2}
	for _, tc := range []struct {
		v    any
		want string
	}{
		{w, `{"wins":3,"draws":1,"losses":2}`},
		{Short{w}, `{"w":3,"d":1,"l":2}`},
		{struct {
			K string `json:"k"`
			Count
			R int `json:"r"`
		}{"x", w, 1}, `{"k":"x","wins":3,"draws":1,"losses":2,"r":1}`},
		{Pentanomial{0, 1, 2, 3, 4}, `[0,1,2,3,4]`},
	} {
		if data, err := json.Marshal(tc.v); err != nil || string(data) != tc.want {
			t.Errorf("%+v writes %s (%v), want %s", tc.v, data, err, tc.want)
		}
	}
	for _, in := range []string{`{"wins":3,"draws":1,"losses":2}`, `{"Wins":3,"Draws":1,"Losses":2}`} {
		var back Count
		if err := json.Unmarshal([]byte(in), &back); err != nil || back != w {
			t.Errorf("%s reads as %+v (%v)", in, back, err)
		}
	}
	for _, tc := range []struct {
		in   string
		want Short
	}{
		{`{"w":3,"d":1,"l":2}`, Short{w}},
		{`{"W":3,"D":1,"L":2}`, Short{w}},
		{`{"w":3}`, Short{Count{Wins: 3, Draws: 9, Losses: 9}}}, // left-out keys keep their counts
		{`null`, Short{Count{Draws: 9, Losses: 9}}},
	} {
		back := Short{Count{Draws: 9, Losses: 9}}
		if err := json.Unmarshal([]byte(tc.in), &back); err != nil || back != tc.want {
			t.Errorf("%s reads as %+v (%v), want %+v", tc.in, back, err, tc.want)
		}
	}
	for _, in := range []string{`{"w":"3"}`, `{"w":3,"x":1}`, `[3,1,2]`} {
		var bad Short
		if err := json.Unmarshal([]byte(in), &bad); err == nil {
			t.Errorf(`%s reads as %+v`, in, bad)
		}
	}
}
