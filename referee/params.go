package referee

import (
	"fmt"
	"math"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
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
// so every vector a method can make is a player. Errors: a name in Params
// engine.ParamByName does not know, a vector of the wrong length, a NaN
// or infinite gene or Param value (naming it), a Fixed vector the schema
// refuses.
func (r *VectorReferee) Player(v []float64) (engine.Weights, engine.Settings, error) {
	if r.External != nil {
		return engine.Weights{}, engine.Settings{}, fmt.Errorf("the vectors stand for the external engine %s, not the in-process one", r.External.Program)
	}
	params, err := r.VectorParams()
	if err != nil {
		return engine.Weights{}, engine.Settings{}, err
	}
	genes := len(r.Schema.GeneNames())
	if r.Fixed != nil {
		genes = 0
	}
	if len(v) != genes+len(params) {
		return engine.Weights{}, engine.Settings{}, fmt.Errorf("vector has %d values, want %d (%d genes, %d parameters)", len(v), genes+len(params), genes, len(params))
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
	for i, p := range params {
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

// Entrant is the tournament entrant a match vector stands for, named
// name: the in-process engine of Player, or the External engine with the
// vector's values passed its way (file is then the values file written
// for it, if any). Both play by Time when it is set. Errors: those of
// Player; a NaN or infinite value; a values file that cannot be written.
func (r *VectorReferee) Entrant(name string, v []float64) (e tournament.Entrant, file string, err error) {
	return r.entrant(name, v)
}

func (r *VectorReferee) entrant(name string, v []float64) (tournament.Entrant, string, error) {
	if r.External == nil {
		w, s, err := r.Player(v)
		return tournament.Entrant{Engine: tournament.Engine{Name: name, Weights: w, Settings: s, Time: r.Time}}, "", err
	}
	params := r.External.Params
	if len(v) != len(params) {
		return tournament.Entrant{}, "", fmt.Errorf("vector has %d values, want %d (one per parameter of the external engine)", len(v), len(params))
	}
	values := make([]float64, len(v))
	for i, p := range params {
		if math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
			return tournament.Entrant{}, "", fmt.Errorf("parameter %s is %v", p.Name, v[i])
		}
		values[i] = ParamValue(p, v[i])
	}
	return r.External.Entrant(name, values, r.Time)
}

// Close ends the external engine processes kept between batches; a
// referee without External has none. The referee may be used again (it
// then starts fresh processes). Not safe during a batch.
func (r *VectorReferee) Close() error {
	err := r.processes.Close()
	r.processes = tournament.ProcessPool{}
	return err
}
