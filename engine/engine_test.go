package engine

import (
	"errors"
	"testing"
	"time"
)

// TestSettingsValidate checks every limit at its edges: the last value
// accepted and the first refused, zero standing for the default.
func TestSettingsValidate(t *testing.T) {
	ok := []Settings{
		{}, DefaultSettings(),
		{Depth: 1}, {Depth: MaxDepth},
		{Width: 1}, {Width: MaxWidth}, // default Singles capped at MaxSingles
		{ThreatDepth: 1}, {ThreatDepth: maxThreatPly},
		{ThreatNodes: 1},
		{Singles: 2}, {Singles: MaxSingles},
		{TableBits: MinTableBits}, {TableBits: MaxTableBits},
		{MaxNodes: 1}, {MoveTime: time.Nanosecond},
		{DefendNodes: 1}, {DefendDepth: 1}, {DefendDepth: maxThreatPly}, {DefendMoves: 1}, {DefendMoves: MaxWidth},
		{WidthByPly: [MaxDepth]int{0: MaxWidth, MaxDepth - 1: 1}}, {Blocks: MaxWidth},
	}
	for _, s := range ok {
		if err := s.Validate(); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
	bad := []struct {
		s     Settings
		field string
		msg   string
	}{
		{Settings{Depth: -1}, "Depth", "-1 out of range 1..12"},
		{Settings{Depth: MaxDepth + 1}, "Depth", "13 out of range 1..12"},
		{Settings{Width: -1}, "Width", "-1 out of range 1..100"},
		{Settings{Width: MaxWidth + 1}, "Width", "101 out of range 1..100"},
		{Settings{ThreatDepth: -1}, "ThreatDepth", "-1 out of range 1..16"},
		{Settings{ThreatDepth: maxThreatPly + 1}, "ThreatDepth", "17 out of range 1..16"},
		{Settings{ThreatNodes: -1}, "ThreatNodes", "-1 is negative"},
		{Settings{Singles: 1}, "Singles", "1 out of range 2..64"},
		{Settings{Singles: -1}, "Singles", "-1 out of range 2..64"},
		{Settings{Singles: MaxSingles + 1}, "Singles", "65 out of range 2..64"},
		{Settings{TableBits: MinTableBits - 1}, "TableBits", "7 out of range 8..28"},
		{Settings{TableBits: MaxTableBits + 1}, "TableBits", "29 out of range 8..28"},
		{Settings{DefendNodes: -1}, "DefendNodes", "-1 is negative"},
		{Settings{DefendDepth: -1}, "DefendDepth", "-1 out of range 1..16"},
		{Settings{DefendDepth: maxThreatPly + 1}, "DefendDepth", "17 out of range 1..16"},
		{Settings{DefendMoves: -1}, "DefendMoves", "-1 out of range 1..100"},
		{Settings{DefendMoves: MaxWidth + 1}, "DefendMoves", "101 out of range 1..100"},
		{Settings{WidthByPly: [MaxDepth]int{3: -1}}, "WidthByPly[3]", "-1 out of range 0..100"},
		{Settings{WidthByPly: [MaxDepth]int{0: MaxWidth + 1, 1: -1}}, "WidthByPly[0]", "101 out of range 0..100"},
		{Settings{Blocks: -1}, "Blocks", "-1 out of range 0..100"},
		{Settings{Blocks: MaxWidth + 1}, "Blocks", "101 out of range 0..100"},
		{Settings{MaxNodes: -1}, "MaxNodes", "-1 is negative"},
		{Settings{MoveTime: -time.Millisecond}, "MoveTime", "-1ms is negative"},
		// The first field at fault is named.
		{Settings{Depth: -1, Width: -1}, "Depth", "-1 out of range 1..12"},
	}
	for _, c := range bad {
		err := c.s.Validate()
		var se *SettingsError
		if !errors.As(err, &se) {
			t.Errorf("%+v: error %v, want a *SettingsError", c.s, err)
			continue
		}
		if se.Field != c.field || se.Msg != c.msg {
			t.Errorf("%+v: Field %q Msg %q, want %q %q", c.s, se.Field, se.Msg, c.field, c.msg)
		}
		if want := "engine: settings: " + c.field + " " + c.msg; err.Error() != want {
			t.Errorf("%+v: %q, want %q", c.s, err, want)
		}
		// New refuses exactly what Validate refuses, with the same error.
		if _, nerr := New(Weights{Schema: Symmetric, Genes: []float64{1, 2, 3, 4, 5}}, c.s); nerr == nil || nerr.Error() != err.Error() {
			t.Errorf("%+v: New error %v, want %v", c.s, nerr, err)
		}
	}
}

// TestSettingsDefaultSingles: zero Singles means Width+4, at least 12 and at
// most MaxSingles.
func TestSettingsDefaultSingles(t *testing.T) {
	for _, c := range []struct{ width, singles int }{{1, 12}, {8, 12}, {10, 14}, {60, 64}, {61, 64}, {MaxWidth, MaxSingles}} {
		s, err := Settings{Width: c.width, TableBits: MinTableBits}.normalized()
		if err != nil || s.Singles != c.singles {
			t.Errorf("Width %d: Singles %d (%v), want %d", c.width, s.Singles, err, c.singles)
		}
	}
}
