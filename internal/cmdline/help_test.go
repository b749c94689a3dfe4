package cmdline

import (
	"bytes"
	"flag"
	"strings"
	"testing"
	"time"
)

// TestPrintDefaults: flag.PrintDefaults's content (the type or the
// backquoted placeholder, the default unless zero, a string's quoted)
// with the description indented by spaces and wrapped at HelpWidth.
func TestPrintDefaults(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	var out bytes.Buffer
	fs.SetOutput(&out)
	fs.Int("depth", 2, "alpha-beta depth in moves")
	fs.Int("pairs", 0, "game pairs")
	fs.Duration("movetime", time.Second, "per-move limit")
	fs.Bool("vcf", true, "threat search first")
	fs.Bool("json", false, "print JSON")
	fs.String("name", "roadtune", "the engine's `NAME`")
	fs.String("long", "", strings.Repeat("word ", 40)+"\nsecond paragraph")
	PrintDefaults(fs)
	want := `  -depth int
        alpha-beta depth in moves (default 2)
  -json
        print JSON
  -long string
        word word word word word word word word word word word word word word word word word word
        word word word word word word word word word word word word word word word word word word
        word word word word
        second paragraph
  -movetime duration
        per-move limit (default 1s)
  -name NAME
        the engine's NAME (default "roadtune")
  -pairs int
        game pairs
  -vcf
        threat search first (default true)
`
	if out.String() != want {
		t.Errorf("PrintDefaults:\n%s\nwant:\n%s", out.String(), want)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if len(line) > HelpWidth {
			t.Errorf("line over %d: %q", HelpWidth, line)
		}
	}
}
