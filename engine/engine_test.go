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
		{Settings{Depth: -1}, "Depth", "must be at least 1, not -1"},
		{Settings{Depth: MaxDepth + 1}, "Depth", "must be at most 12, not 13"},
		{Settings{Width: -1}, "Width", "must be at least 1, not -1"},
		{Settings{Width: MaxWidth + 1}, "Width", "must be at most 100, not 101"},
		{Settings{ThreatDepth: -1}, "ThreatDepth", "must be at least 1, not -1"},
		{Settings{ThreatDepth: maxThreatPly + 1}, "ThreatDepth", "must be at most 16, not 17"},
		{Settings{ThreatNodes: -1}, "ThreatNodes", "must be 0 or more, not -1"},
		{Settings{Singles: 1}, "Singles", "must be at least 2, not 1"},
		{Settings{Singles: -1}, "Singles", "must be at least 2, not -1"},
		{Settings{Singles: MaxSingles + 1}, "Singles", "must be at most 64, not 65"},
		{Settings{TableBits: MinTableBits - 1}, "TableBits", "must be at least 8, not 7"},
		{Settings{TableBits: MaxTableBits + 1}, "TableBits", "must be at most 28, not 29"},
		{Settings{DefendNodes: -1}, "DefendNodes", "must be 0 or more, not -1"},
		{Settings{DefendDepth: -1}, "DefendDepth", "must be at least 1, not -1"},
		{Settings{DefendDepth: maxThreatPly + 1}, "DefendDepth", "must be at most 16, not 17"},
		{Settings{DefendMoves: -1}, "DefendMoves", "must be at least 1, not -1"},
		{Settings{DefendMoves: MaxWidth + 1}, "DefendMoves", "must be at most 100, not 101"},
		{Settings{WidthByPly: [MaxDepth]int{3: -1}}, "WidthByPly[3]", "must be 0 or more, not -1"},
		{Settings{WidthByPly: [MaxDepth]int{0: MaxWidth + 1, 1: -1}}, "WidthByPly[0]", "must be at most 100, not 101"},
		{Settings{Blocks: -1}, "Blocks", "must be 0 or more, not -1"},
		{Settings{Blocks: MaxWidth + 1}, "Blocks", "must be at most 100, not 101"},
		{Settings{MaxNodes: -1}, "MaxNodes", "must be 0 or more, not -1"},
		{Settings{MoveTime: -time.Millisecond}, "MoveTime", "must be 0 or more, not -1ms"},
		// The first field at fault is named.
		{Settings{Depth: -1, Width: -1}, "Depth", "must be at least 1, not -1"},
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
