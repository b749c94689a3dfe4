package enginespec

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
)

func TestSplitCommand(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"engine -depth 3", []string{"engine", "-depth", "3"}},
		{"  /opt/my engine/x  ", []string{"/opt/my", "engine/x"}},
		{`'/opt/my engine/x' -name "a \"b\" c"`, []string{"/opt/my engine/x", "-name", `a "b" c`}},
		{`a\ b c''`, []string{"a b", "c"}},
	} {
		got, err := SplitCommand(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "   ", "a 'b", `a "b`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) accepted", bad)
		}
	}
}

// TestResolve: With fills what a list leaves unset (st= drops the other
// list's tc=); a list is refused naming the option that does not fit the
// player (cmd= or weights=) or has a bad value; the in-process engine's
// search knobs apply to its settings.
func TestResolve(t *testing.T) {
	// With fills what an engine leaves unset; st= on the engine drops
	// -each's tc=.
	each, err := Parse([]string{"tc=60+1", "timemargin=50"})
	if err != nil {
		t.Fatal(err)
	}
	s := Spec{Opts: map[string][]string{"cmd": {"e"}, "st": {"1"}}}.With(each)
	p, err := s.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if p.Time != (tournament.TimeControl{PerMove: time.Second, Margin: 50 * time.Millisecond}) {
		t.Errorf("time control %+v", p.Time)
	}
	for _, c := range []struct {
		words []string
		want  string
	}{
		{[]string{"name=A"}, "want cmd=PROG"},
		{[]string{"cmd=x", "weights=zhou2015"}, "exclude"},
		{[]string{"cmd=x", "depth=3"}, "initstr="},
		{[]string{"cmd=x", "defend=0"}, "in-process"},
		{[]string{"weights=zhou2015", "defend=-1"}, "defend=-1"},
		{[]string{"weights=zhou2015", "initstr=x"}, "external engine"},
		{[]string{"cmd=x", "killers=1"}, "in-process"},
		{[]string{"cmd=x", "settings=play"}, "in-process"},
		{[]string{"weights=zhou2015", "settings=fast"}, "settings=fast"},
		{[]string{"weights=zhou2015", "history=maybe"}, "history=maybe"},
		{[]string{"weights=zhou2015", "blocks=-1"}, "blocks=-1"},
		{[]string{"weights=zhou2015", "widths=15,x"}, "widths=15,x"},
		{[]string{"weights=zhou2015", "defendgrowth=x"}, "defendgrowth=x"},
		{[]string{"cmd=x", "defendgrowth=2"}, "in-process"},
		{[]string{"weights=zhou2015", "shallow=-1"}, "shallow=-1"},
		{[]string{"cmd=x", "shallow=4"}, "in-process"},
		{[]string{"weights=zhou2015", "widths=1,1,1,1,1,1,1,1,1,1,1,1,1"}, "at most 12"},
		{[]string{"cmd=x", "st=0"}, "st=0"},
		{[]string{"cmd=x", "tc=abc"}, `"abc"`},
		{[]string{"cmd=x", "st=1", "tc=60"}, "exclude"},
		{[]string{"cmd=x", "timemargin=-5"}, "timemargin"},
		{[]string{"cmd=x", "proto=uci"}, "proto=uci"},
		{[]string{"cmd=x", "dir=/no/such/dir"}, "not a directory"},
		{[]string{"cmd=x", "param=Width=9"}, "in-process"},
		{[]string{"weights=zhou2015", "param=Wdith=9"}, "NAME one of Width"},
		{[]string{"weights=zhou2015", "param=Width"}, "param=NAME=VALUE"},
		{[]string{"weights=zhou2015", "param=Width=x"}, "want a number"},
		{[]string{"weights=zhou2015", "param=DefendShare=2"}, "param=DefendShare=2"},
	} {
		s, err := Parse(c.words)
		if err == nil {
			_, err = s.Resolve()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.words, err, c.want)
		}
	}
	// The search knobs of the in-process engine.
	ks, err := Parse([]string{"weights=zhou2015", "settings=play", "killers=0", "history=true", "blocks=2", "widths=15,0,6", "partial=1", "defendgrowth=3", "shallow=4", "shallowplies=3", "shallownodes=500", "mixed=8", "threatdepth=6", "threatnodes=50000", "defendwide=0", "defendmaxdepth=12"})
	if err != nil {
		t.Fatal(err)
	}
	kp, err := ks.Resolve()
	if err != nil || !kp.Play || kp.Knobs == nil {
		t.Fatalf("knobs: %+v, %v", kp, err)
	}
	got := engine.PlaySettings()
	kp.Knobs(&got)
	want := engine.PlaySettings()
	want.Killers, want.History, want.Blocks, want.WidthByPly, want.Time.Partial = false, true, 2, [engine.MaxDepth]int{15, 0, 6}, true
	want.Time.DefendGrowth = 3
	want.ShallowDefend, want.ShallowDefendPlies, want.ShallowDefendNodes = 4, 3, 500
	want.ThreatMixed = 8
	want.ThreatDepth, want.ThreatNodes = 6, 50000
	want.DefendWide, want.Time.DefendMaxDepth = 0, 12
	if got != want {
		t.Errorf("knobs: %+v, want %+v", got, want)
	}
	// param= sets any engine.Params setting by name, after the knobs.
	ps, err := Parse([]string{"weights=zhou2015", "width=9", "defendwide=3", "param=defendwide=40", "param=DefendShare=0.55", "param=GameMoves=12", "param=QuietSafe=60", "param=QuietMoves=3"})
	if err != nil {
		t.Fatal(err)
	}
	pp, err := ps.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	got = engine.PlaySettings()
	pp.Knobs(&got)
	want = engine.PlaySettings()
	want.DefendWide, want.Time.DefendShare, want.Time.GameMoves, want.QuietSafe, want.QuietMoves = 40, 0.55, 12, 60, 3
	if got != want {
		t.Errorf("param=: %+v, want %+v", got, want)
	}
	if text := KnobsText(got); !strings.Contains(text, "quiet check 60 at 3 moves") {
		t.Errorf("KnobsText with QuietSafe 60 at 3 moves: %q, want it named", text)
	}
	got.QuietMoves = 1
	if text := KnobsText(got); !strings.Contains(text, "quiet check 60") || strings.Contains(text, "at 1") {
		t.Errorf("KnobsText with QuietSafe 60 at White's first move: %q, want \"quiet check 60\" alone", text)
	}
	if _, err := Parse([]string{"colour=red"}); err == nil || !strings.Contains(err.Error(), "colour=red") {
		t.Errorf("unknown key: %v", err)
	}
}

// TestSettings: an in-process player's settings start from the match's
// depth and width, with a clock the depth is a maximum unless the match
// gives one, depth=, width=, defend= and knobs apply last, and a refused
// value names its option.
func TestSettings(t *testing.T) {
	player := func(words ...string) Player {
		return resolve(t, append([]string{"weights=zhou2015"}, words...)...)
	}
	st, err := player().Settings(3, 7, false)
	if want := engine.DefaultSettings(); err != nil || st.Depth != 3 || st.Width != 7 || st.DefendNodes != want.DefendNodes || st.Killers != want.Killers {
		t.Errorf("plain: %+v, %v", st, err)
	}
	if st, err := player("st=1").Settings(3, 7, false); err != nil || st.Depth != engine.MaxDepth {
		t.Errorf("with a clock, no match depth: depth %d, %v; want %d", st.Depth, err, engine.MaxDepth)
	}
	if st, err := player("st=1").Settings(3, 7, true); err != nil || st.Depth != 3 {
		t.Errorf("with a clock and a match depth: depth %d, %v; want 3", st.Depth, err)
	}
	st, err = player("settings=play", "depth=2", "width=9", "defend=0", "blocks=1").Settings(3, 7, true)
	want := engine.PlaySettings()
	want.Depth, want.Width, want.DefendNodes, want.Blocks = 2, 9, 0, 1
	if err != nil || st != want {
		t.Errorf("own settings: %+v, %v; want %+v", st, err, want)
	}
	if _, err := player("depth=99").Settings(3, 7, false); err == nil || !strings.HasPrefix(err.Error(), "depth=: ") {
		t.Errorf("depth=99: %v, want an error naming depth=", err)
	}
}

// TestTakeLists: the words of each -engine list are taken out of the
// arguments (several lists, -engine=WORD, --engine, the other flags
// between them kept in order, an unknown key=value taken for its reader
// to name), and a list without words is an error.
func TestTakeLists(t *testing.T) {
	rest, lists, err := TakeLists([]string{"-connect", "u", "-engine", "name=a", "cmd=/x", "-slots", "1", "--engine=cmd=/y", "path=d", "-name", "w", "--", "-engine"}, "engine")
	if err != nil || strings.Join(rest, " ") != "-connect u -slots 1 -name w -- -engine" || len(lists) != 2 ||
		strings.Join(lists[0], " ") != "name=a cmd=/x" || strings.Join(lists[1], " ") != "cmd=/y path=d" {
		t.Errorf("TakeLists: %q, %q, %v", rest, lists, err)
	}
	if _, _, err := TakeLists([]string{"-engine", "-slots", "1"}, "engine"); err == nil || !strings.Contains(err.Error(), "-engine") {
		t.Errorf("an empty list: %v", err)
	}
}
