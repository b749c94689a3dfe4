package optimize

import (
	"fmt"
	"reflect"
)

// ZeroDefaults sets each field of *s named in fields that holds its zero
// value (0, "", an empty slice) to that field of def: gonum's "zero
// means default" for the options whose zero a method refuses (a
// population of 0, a step size of 0), so a Go program can set only what
// it means and leave the rest to the method. Fields whose zero has a
// meaning of its own (a probability of 0, PSO's VMaxFraction 0 = no
// limit, Texel's Window 0 = every round, RaceBudget 0 = no race) are not
// named and keep it. fields are Go field names, found in embedded
// structs too (NoiseOptions' "RaceCandidates"); s must point to a
// struct of def's type. It panics on a field the type lacks: a
// programming error of the method's list.
func ZeroDefaults[T any](s *T, def T, fields ...string) {
	v, d := reflect.ValueOf(s).Elem(), reflect.ValueOf(def)
	for _, name := range fields {
		f := v.FieldByName(name)
		if !f.IsValid() {
			panic(fmt.Sprintf("optimize: ZeroDefaults: %s has no field %s", v.Type(), name))
		}
		if f.IsZero() || f.Kind() == reflect.Slice && f.Len() == 0 {
			f.Set(d.FieldByName(name))
		}
	}
}
