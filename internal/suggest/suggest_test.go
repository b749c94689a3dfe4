package suggest

import "testing"

func TestSuggest(t *testing.T) {
	names := []string{"depth", "width", "export", "compare", "engine.depth", "ga.population"}
	for _, c := range []struct{ word, want string }{
		{"dpeth", "depth"},   // a swap counts once
		{"exprot", "export"}, // …in a longer word too
		{"widht", "width"},   //
		{"ga.populaton", "ga.population"},
		{"engine.dept", "engine.depth"},
		{"depht", "depth"},
		{"comprae", "compare"},
		{"dep", ""},   // 3 letters: one edit at most, and "depth" is two away
		{"xx", ""},    // too short to guess
		{"serve", ""}, // nothing near
		{"depth", ""}, // a candidate is not misspelt
	} {
		if got := Suggest(c.word, names); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	if got := DidYouMean("widht", names); got != ` (did you mean "width"?)` {
		t.Errorf("DidYouMean = %q", got)
	}
}
