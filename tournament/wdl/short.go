package wdl

import (
	"bytes"
	"encoding/json"
)

// Short is a Count written in JSON as {"w": …, "d": …, "l": …}: the games of
// a match summary (tournament.MatchSummary, StandingSummary), as arena's
// summary.json and the tuning job's validation.json hold them. It embeds
// the Count, so its counts and methods are the Count's.
type Short struct{ Count }

// short is Short's JSON shape.
type short struct {
	W int `json:"w"`
	D int `json:"d"`
	L int `json:"l"`
}

// MarshalJSON writes s as {"w": …, "d": …, "l": …}.
func (s Short) MarshalJSON() ([]byte, error) {
	return json.Marshal(short{W: s.Wins, D: s.Draws, L: s.Losses})
}

// UnmarshalJSON reads {"w": …, "d": …, "l": …} (keys without regard to
// case, as encoding/json reads struct fields); a key left out keeps its
// count. Any other key is an error, as roadtune's strict readers of its
// files (summary.json, validation.json, ladder.json) want of every field;
// the error is encoding/json's.
func (s *Short) UnmarshalJSON(data []byte) error {
	v := short{W: s.Wins, D: s.Draws, L: s.Losses}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	s.Count = Count{Wins: v.W, Draws: v.D, Losses: v.L}
	return nil
}
