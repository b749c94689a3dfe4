package optimize

import (
	"slices"
	"testing"
)

// TestZeroDefaults: the named fields left at zero (or empty) take the
// defaults, in embedded structs too; a set field and an unnamed zero
// field keep their values; an unknown name is a programming error.
func TestZeroDefaults(t *testing.T) {
	type settings struct {
		Size, Steps int
		Rate        float64
		Name        string
		NoiseOptions
	}
	def := settings{Size: 49, Steps: 30, Rate: 0.5, Name: "chen", NoiseOptions: DefaultNoiseOptions()}
	s := settings{Steps: 5}
	s.Memory = 0 // a meaningful zero: not named
	ZeroDefaults(&s, def, "Size", "Steps", "Name", "Pool", "RaceCandidates")
	if s.Size != 49 || s.Steps != 5 || s.Rate != 0 || s.Name != "chen" || !slices.Equal(s.Pool, []string{PoolCentroid}) || s.RaceCandidates != 4 || s.Memory != 0 {
		t.Errorf("got %+v", s)
	}
	defer func() {
		if recover() == nil {
			t.Error("an unknown field did not panic")
		}
	}()
	ZeroDefaults(&s, def, "Nope")
}
