package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament/enginespec"
)

// FuzzEngineOptions reads arbitrary arena arguments (one a line) for their
// -engine, -each and -openings option lists and resolves every engine as
// arena does: no panic; a resolved engine is in-process or has a command,
// its time control (tc=, st=, timemargin=) is valid and its search knobs
// apply. The whole text is also an -engine command line (the short form):
// one that splits quotes back to the same words.
func FuzzEngineOptions(f *testing.F) {
	for _, s := range []string{
		"-engine\ncmd=./e -depth 1\nname=x\narg=-width\narg=4\ninitstr=width 4\nst=2\ntimemargin=200\n-engine\nweights=zhou2015\ndepth=1\nwidth=4",
		"-each\ntc=30+0.1\n-engine\nweights=chen2010-pso15\nkillers=true\nwidths=15,10,0\ndefendgrowth=2\n-engine\nweights=x\nst=1",
		"-engine\n/bin/engine -weights 'a b.json' \"-depth\" 1\\ 2",
		"-engine\ncmd=e\ntc=40/60+0.5\nst=1",
		"-engine\ncmd=e\ndir=.\nproto=cloudict\n-openings\nfile=x\norder=random",
		"-engine\nweights=w\nthreatdepth=4\nthreatnodes=8000\ndefend=0\nsettings=play\nmixed=2\nshallow=1",
		"-engine\n'unterminated",
		"-engine\ncmd=e\ncmd=f",
		"--\n-engine\ncmd=e",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if argv, err := enginespec.SplitCommand(text); err == nil {
			quoted := make([]string, len(argv))
			for i, w := range argv {
				quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
			}
			back, err := enginespec.SplitCommand(strings.Join(quoted, " "))
			if err != nil || !slices.Equal(back, argv) {
				t.Fatalf("command line %q splits to %q, quoted back to %q (%v)", text, argv, back, err)
			}
		}
		_, engines, each, _, err := splitEngineArgs(strings.Split(text, "\n"))
		if err != nil {
			return
		}
		ev := enginespec.Spec{Opts: map[string][]string{}}
		if each != nil {
			ev = *each
		}
		for _, e := range engines {
			p, err := e.With(ev).Resolve()
			if err != nil {
				continue
			}
			if (p.WeightSource == "") == (p.Program == "") {
				t.Fatalf("-engine %s: resolved to weights %q and command %q", e.Text, p.WeightSource, p.Argv())
			}
			if err := p.Time.Validate(); err != nil {
				t.Fatalf("-engine %s: time control %+v: %v", e.Text, p.Time, err)
			}
			if p.Depth < 0 || p.Width < 0 || p.Defend < -1 {
				t.Fatalf("-engine %s: depth %d width %d defend %d", e.Text, p.Depth, p.Width, p.Defend)
			}
			if p.Knobs != nil {
				st := engine.DefaultSettings()
				p.Knobs(&st)
				_ = st.Validate() // may refuse the values; must not panic
			}
		}
	})
}
