package protocol

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
)

var optionLine = regexp.MustCompile(`^option name (\S+) type (spin|float) default (\S+) min (\S+) max (\S+)$`)

// TestOptions: `options` lists every engine.Param and every gene of the
// loaded schema in UCI's shape, ending with optionsok; setoption sets each
// kind (answering nothing), and options then shows the new value.
func TestOptions(t *testing.T) {
	ss := newSession(t)
	lines := ss.say("options")
	params := engine.Params()
	genes := ss.s.eng.Weights().Schema.GeneNames()
	if len(lines) != len(params)+len(genes)+1 || lines[len(lines)-1] != "optionsok" {
		t.Fatalf("options answered %d lines ending %q; want %d and optionsok", len(lines), lines[len(lines)-1], len(params)+len(genes)+1)
	}
	st := ss.s.eng.Settings()
	for i, l := range lines[:len(lines)-1] {
		m := optionLine.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("%q is not an option line", l)
		}
		def, _ := strconv.ParseFloat(m[3], 64)
		if i < len(params) {
			p := params[i]
			want := fmt.Sprintf("option name %s type %s default %s min %s max %s", p.Name, map[bool]string{false: "spin", true: "float"}[p.Float], num(p.Get(st)), num(p.Min), num(p.Max))
			if l != want {
				t.Errorf("option line %q, want %q", l, want)
			}
			if m[2] == "spin" && strings.ContainsAny(m[3]+m[4]+m[5], ".e") {
				t.Errorf("%q: a spin option's numbers must be integers", l)
			}
		} else if g := i - len(params); m[1] != genes[g] || def != zhou2015[g] {
			t.Errorf("option line %q, want gene %s default %v", l, genes[g], zhou2015[g])
		}
	}

	ss.silent("setoption name width value 4")
	ss.silent("SETOPTION NAME DefendShare VALUE 0.55")
	ss.silent("setoption name s5 value 1234.5")
	if got := ss.s.eng.Settings(); got.Width != 4 || got.Time.DefendShare != 0.55 {
		t.Errorf("after setoption: width %d, DefendShare %v", got.Width, got.Time.DefendShare)
	}
	if w := ss.s.eng.Weights(); w.Genes[4] != 1234.5 {
		t.Errorf("after setoption name s5: genes %v", w.Genes)
	}
	after := strings.Join(ss.say("options"), "\n")
	for _, want := range []string{"option name Width type spin default 4 ", "option name DefendShare type float default 0.55 ", "option name S5 type float default 1234.5 "} {
		if !strings.Contains(after, want) {
			t.Errorf("options after setoption lacks %q", want)
		}
	}
	ss.engineMove("new black", engine.Black) // the engine still plays
}

// TestSetOptionRefusals: a malformed setoption, an unknown name, a value
// out of range, a fraction for an integer setting and a non-number each
// answer one error line and change nothing.
func TestSetOptionRefusals(t *testing.T) {
	ss := newSession(t)
	st, w := ss.s.eng.Settings(), ss.s.eng.Weights()
	for _, tc := range []struct{ line, want string }{
		{"setoption", "setoption takes name NAME value NUMBER"},
		{"setoption name Width", "setoption takes name NAME value NUMBER"},
		{"setoption Width value 3", "setoption takes name NAME value NUMBER"},
		{"setoption name Width value 3 4", "setoption takes name NAME value NUMBER"},
		{"setoption name Width to 3", "setoption takes name NAME value NUMBER"},
		{"setoption name Width value x", `value "x": want a finite number`},
		{"setoption name Width value NaN", "want a finite number"},
		{"setoption name S1 value Inf", "want a finite number"},
		{"setoption name Width value 1e400", "want a finite number"},
		{"setoption name NoSuch value 1", `no option "NoSuch"`},
		{"setoption name M1 value 1", `no option "M1" (send options for the list: the search and time settings, and the symmetric genes S1 S2 S3 S4 S5)`},
		{"setoption name Width value 0", "Width must be at least 1, not 0"},
		{"setoption name Width value 101", "Width must be at most 100, not 101"},
		{"setoption name Width value 2.5", "must be a whole number, not 2.5"},
		{"setoption name DefendShare value 0.95", "DefendShare must be at most 0.9"},
		{"setoption name S1 value 2e6", "out of range -1000000..1000000"},
		{"options now", "options takes no argument"},
	} {
		ss.errorLine(tc.line, tc.want)
	}
	if got := ss.s.eng.Settings(); got.Width != st.Width || got.Time != st.Time {
		t.Errorf("refused setoptions changed the settings: %+v", got)
	}
	if got := ss.s.eng.Weights(); fmt.Sprint(got.Genes) != fmt.Sprint(w.Genes) {
		t.Errorf("refused setoptions changed the genes: %v", got.Genes)
	}
}

// TestSetOptionParse: a setoption line parses to its name and value and
// writes back to a line that parses the same.
func TestSetOptionParse(t *testing.T) {
	for _, line := range []string{"setoption name Width value 12", "setoption  NAME d.m1   VALUE -0.25", "setoption name alert value 1e3"} {
		c, err := ParseCommand(line)
		if err != nil || c.Kind != SetOption {
			t.Fatalf("%q: %+v, %v", line, c, err)
		}
		back, err := ParseCommand(c.String())
		if err != nil || back != c {
			t.Errorf("%q: String %q parses to %+v, %v", line, c.String(), back, err)
		}
	}
}

// TestSetOptionRederives: settings derived from others (Singles from
// Width) follow a setoption as they follow the settings of a new engine,
// so an engine set by setoption searches as one made with those settings;
// a refused value changes nothing.
func TestSetOptionRederives(t *testing.T) {
	ss := newSession(t)
	before := ss.s.eng.Settings()
	if lines := ss.say("setoption name Width value 17"); len(lines) != 0 {
		t.Fatalf("setoption answered %q", lines)
	}
	want := ss.s.settings
	want.Width = 17
	e, err := engine.New(ss.s.eng.Weights(), want)
	if err != nil {
		t.Fatal(err)
	}
	if got := ss.s.eng.Settings(); got != e.Settings() || got.Singles == before.Singles {
		t.Errorf("after setoption Width 17: Singles %d (was %d), an engine made with Width 17 has %d", got.Singles, before.Singles, e.Settings().Singles)
	}
	if lines := ss.say("setoption name Width value 1000"); len(lines) != 1 || !strings.HasPrefix(lines[0], "error") {
		t.Fatalf("an out-of-range width answered %q", lines)
	}
	if ss.s.settings.Width != 17 || ss.s.eng.Settings().Width != 17 {
		t.Errorf("a refused setoption changed the settings: %+v", ss.s.settings)
	}
}
