// This file holds Setup, the settings of a referee's games as plain data:
// what a VectorReferee plays by and what package cluster sends its
// workers as it is.

package referee

import (
	"errors"
	"fmt"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
)

// Setup is everything about a VectorReferee's games but the matches and
// how they are run (concurrency, callbacks): plain data that names what
// it needs (engine parameters by name, openings in protocol notation), so
// it is written as JSON as it is. Package cluster sends it to its workers
// in every batch and fingerprints its JSON, so the tags, their order and
// the empty fields left out are part of the cluster's protocol: a setup
// of the in-process engine at a fixed depth without parameters encodes
// as before Params, Fixed, Time and External existed. Check reports what
// a setup names that this build cannot play.
type Setup struct {
	Schema   engine.Schema   `json:"schema"`
	Settings engine.Settings `json:"settings"`
	// Pairs is the number of game pairs per match (default 1).
	Pairs int `json:"pairs"`
	// OpeningRadius is the Chebyshev radius of White's stones in the
	// generated suite; 0 picks the smallest radius ≥ 3 with at least Pairs
	// openings (tournament.SuiteFor), so no opening of a match repeats.
	OpeningRadius int `json:"opening_radius,omitempty"`
	// Openings, when not empty, replaces the generated suite: openings in
	// protocol notation (tournament.Opening.String, ParseOpening).
	Openings []string `json:"openings,omitempty"`
	// EarlyStop is the rule that ends a WinnerOnly match early (checked
	// after each of its completed game pairs, on the pairs so far, so the
	// outcome does not depend on the concurrency): "" or "off" plays every
	// pair; "decided" stops once the remaining pairs cannot change whether
	// A wins (curtailment: the verdict is the full match's, only games are
	// saved); "sprt:ELO0,ELO1[,ALPHA,BETA]" stops when a GSPRT on the
	// pentanomial pair counts (stats.SPRT) accepts either hypothesis, or the
	// match is decided (the verdict may then differ from the full match's).
	EarlyStop string `json:"early_stop,omitempty"`
	// MaxMoves adjudicates a draw after this many moves (0 = none).
	MaxMoves int `json:"max_moves,omitempty"`
	// Params, when not empty, names search settings tuned beside the road
	// weights (engine.Params names, engine.ParamByName): a match's vectors
	// end with one value per Param, which Player sets on a copy of
	// Settings for that player.
	Params []string `json:"params,omitempty"`
	// Fixed, when not nil, is the road-weight vector (genes of Schema) of
	// every player: the match vectors then hold the Params alone.
	Fixed []float64 `json:"fixed,omitempty"`
	// Time, when not zero, is every player's time control (st= or tc=):
	// Settings.Depth is then a maximum, and the games depend on the
	// machine and its load, so a batch's outcomes are no longer a function
	// of its seed.
	Time tournament.TimeControl `json:"time,omitzero"`
	// External, when not nil, is the engine the vectors stand for: an
	// external program whose options (External.Params) the vectors hold
	// the values of alone; Schema, Settings, Params and Fixed are then not
	// used (Params must be empty).
	External *External `json:"external,omitempty"`
}

// Check reports the first thing in s that this build cannot play: a
// schema, engine setting, early-stop rule or time control it cannot read,
// an unknown parameter name ("setup: unknown engine parameter"), an
// opening that does not parse (naming its index), and for an external
// engine Params beside its options, an option without a name or range,
// or what External.Check refuses (each naming the engine).
func (s *Setup) Check() error {
	if _, err := engine.ParseSchema(string(s.Schema)); err != nil {
		return err
	}
	if err := s.Settings.Validate(); err != nil {
		return err
	}
	if _, _, err := ParseEarlyStop(s.EarlyStop); err != nil {
		return err
	}
	if err := s.Time.Validate(); err != nil {
		return err
	}
	if _, err := paramsNamed(s.Params); err != nil {
		return err
	}
	if x := s.External; x != nil {
		if len(s.Params) > 0 {
			return errors.New("setup: engine parameters beside an external engine's options")
		}
		for i, p := range x.Params {
			if p.Name == "" || !(p.Min <= p.Max) {
				return fmt.Errorf("engine %s: parameter %d: name %q, range [%g, %g]", x.Name, i, p.Name, p.Min, p.Max)
			}
		}
		if err := x.Check(); err != nil {
			return fmt.Errorf("engine %s: %w", x.Name, err)
		}
	}
	_, err := s.suite()
	return err
}

// VectorParams are the parameters a match vector holds a value for after
// its genes, in order: the external engine's options (External.Params)
// or the in-process engine's settings Params names. Errors: a name
// engine.ParamByName does not know.
func (s *Setup) VectorParams() ([]engine.Param, error) {
	if s.External != nil {
		return s.External.Params, nil
	}
	return paramsNamed(s.Params)
}

// paramsNamed are the engine.Params of names, in order. Errors: a name
// engine.ParamByName does not know.
func paramsNamed(names []string) ([]engine.Param, error) {
	out := make([]engine.Param, len(names))
	for i, name := range names {
		p, ok := engine.ParamByName(name)
		if !ok {
			return nil, fmt.Errorf("setup: unknown engine parameter %q", name)
		}
		out[i] = p
	}
	return out, nil
}

// suite is Openings read (nil for the generated suite). Errors: an
// opening that does not parse, naming its index.
func (s *Setup) suite() ([]tournament.Opening, error) {
	var out []tournament.Opening
	for i, text := range s.Openings {
		o, err := tournament.ParseOpening(text)
		if err != nil {
			return nil, fmt.Errorf("opening %d: %w", i, err)
		}
		out = append(out, o)
	}
	return out, nil
}

// OpeningTexts are openings in protocol notation, as Setup.Openings
// holds them (nil for none).
func OpeningTexts(openings []tournament.Opening) []string {
	var out []string
	for _, o := range openings {
		out = append(out, o.String())
	}
	return out
}
