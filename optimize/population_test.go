package optimize

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestReflectFoldsIntoBounds(t *testing.T) {
	b := UniformBounds(4, 0, 10)
	x := []float64{12, -3, 25, 5}
	dir := make([]int, 4)
	b.Reflect(x, dir)
	want := []float64{8, 3, 5, 5}
	wantDir := []int{1, -1, 1, 0}
	for d := range x {
		if x[d] != want[d] || dir[d] != wantDir[d] {
			t.Errorf("gene %d: got %g dir %d, want %g dir %d", d, x[d], dir[d], want[d], wantDir[d])
		}
	}
}

func TestClampAndValidate(t *testing.T) {
	b := UniformBounds(2, -1, 1)
	x := []float64{-5, 0.5}
	b.Clamp(x)
	if x[0] != -1 || x[1] != 0.5 {
		t.Fatalf("clamp gave %v", x)
	}
	if err := b.Validate(3); err == nil {
		t.Fatal("want an error for a gene-count mismatch")
	}
	if err := (&Bounds{Lo: []float64{2}, Hi: []float64{1}}).Validate(1); err == nil {
		t.Fatal("want an error for lo > hi")
	}
	var nilB *Bounds
	nilB.Clamp(x) // must not panic
}

func TestUniformPopulationDeterministicAndInRange(t *testing.T) {
	lo, hi := []float64{0, 100}, []float64{4000, 200}
	a := UniformPopulation(rand.New(rand.NewPCG(1, 2)), 50, lo, hi)
	b := UniformPopulation(rand.New(rand.NewPCG(1, 2)), 50, lo, hi)
	for i := range a {
		for d := range a[i] {
			if a[i][d] != b[i][d] {
				t.Fatal("same seed gave different populations")
			}
			if a[i][d] < lo[d] || a[i][d] > hi[d] {
				t.Fatalf("gene out of range: %g", a[i][d])
			}
		}
	}
}

func TestPopulationDiversityByHand(t *testing.T) {
	dv := PopulationDiversity([][]float64{{0, 0}, {3, 4}, {6, 8}})
	// Distances 5, 10, 5 → mean 20/3. Gene 0: values 0, 3, 6 → σ = √6;
	// gene 1: 0, 4, 8 → σ = √(32/3).
	if math.Abs(dv.MeanDistance-20.0/3) > 1e-12 || math.Abs(dv.GeneStd[0]-math.Sqrt(6)) > 1e-12 || math.Abs(dv.GeneStd[1]-math.Sqrt(96.0/9)) > 1e-12 {
		t.Errorf("diversity %+v", dv)
	}
	if want := (math.Sqrt(6) + math.Sqrt(96.0/9)) / 2; math.Abs(dv.MeanGeneStd()-want) > 1e-12 {
		t.Errorf("mean gene std %g, want %g", dv.MeanGeneStd(), want)
	}
	if e := PopulationDiversity(nil); e.MeanDistance != 0 || e.GeneStd != nil || e.MeanGeneStd() != 0 {
		t.Errorf("empty population: %+v", e)
	}
	if one := PopulationDiversity([][]float64{{1, 2}}); one.MeanDistance != 0 || len(one.GeneStd) != 2 {
		t.Errorf("one vector: %+v", one)
	}
}
