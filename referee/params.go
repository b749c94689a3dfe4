package referee

import (
	"fmt"
	"math"

	"github.com/roadtune/roadtune/engine"
)

// Player is the engine a match vector stands for: the road weights of
// the referee's schema and the search settings, Settings with each of
// Params set from the vector.
//
// A vector is the schema's genes followed by one value per Param (in
// Params' order); with Fixed set it holds the Params alone and every
// player's road weights are Fixed. A Param's value is clamped to the
// Param's [Min, Max] (a method whose bounds mode is "off" may step past
// them) and an integer Param's is rounded to the nearest whole number,
// so every vector a method can make is a player. Errors: a vector of the
// wrong length, a NaN or infinite gene or Param value (naming it), a
// Fixed vector the schema refuses.
func (r *VectorReferee) Player(v []float64) (engine.Weights, engine.Settings, error) {
	genes := len(r.Schema.GeneNames())
	if r.Fixed != nil {
		genes = 0
	}
	if len(v) != genes+len(r.Params) {
		return engine.Weights{}, engine.Settings{}, fmt.Errorf("vector has %d values, want %d (%d genes, %d parameters)", len(v), genes+len(r.Params), genes, len(r.Params))
	}
	gv := v[:genes]
	if r.Fixed != nil {
		gv = r.Fixed
	}
	w, err := engine.NewWeights(r.Schema, gv)
	if err != nil {
		return engine.Weights{}, engine.Settings{}, err
	}
	s := r.Settings
	for i, p := range r.Params {
		x := v[genes+i]
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return engine.Weights{}, engine.Settings{}, fmt.Errorf("parameter %s is %v", p.Name, x)
		}
		if err := p.Set(&s, ParamValue(p, x)); err != nil {
			return engine.Weights{}, engine.Settings{}, fmt.Errorf("parameter %s: %w", p.Name, err)
		}
	}
	return w, s, nil
}

// ParamValue is the value a Param takes for x: x clamped to [p.Min,
// p.Max], rounded to the nearest whole number for an integer Param.
func ParamValue(p engine.Param, x float64) float64 {
	x = min(max(x, p.Min), p.Max)
	if !p.Float {
		x = math.Round(x)
	}
	return x
}
