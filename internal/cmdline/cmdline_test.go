package cmdline

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/roadtune/roadtune/engine"
)

func TestParseWordsErrorsWithoutUsage(t *testing.T) {
	newSet := func(out *bytes.Buffer) *flag.FlagSet {
		fs := flag.NewFlagSet("arena", flag.ContinueOnError)
		fs.SetOutput(out)
		fs.Int("depth", 2, "")
		fs.Uint64("seed", 1, "")
		fs.Float64("share", 0.5, "")
		fs.Bool("vcf", true, "")
		fs.Duration("movetime", time.Second, "")
		fs.Func("sprt", "", func(string) error { return errors.New("want elo0,elo1") })
		fs.Usage = func() { fmt.Fprint(fs.Output(), "USAGE\n") }
		return fs
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-dpeth", "3"}, "flag -dpeth: no such flag (did you mean -depth?); arena -h lists the flags"},
		{[]string{"-zzz"}, "flag -zzz: no such flag; arena -h lists the flags"},
		{[]string{"-depth", "x"}, `flag -depth: must be an integer, not "x"`},
		{[]string{"-seed", "-1"}, `flag -seed: must be an integer, 0 or more, not "-1"`},
		{[]string{"-share", "half"}, `flag -share: must be a number, not "half"`},
		{[]string{"-vcf=maybe"}, `flag -vcf: must be true or false, not "maybe"`},
		{[]string{"-movetime", "5"}, `flag -movetime: must be a duration such as 500ms, 1.5s or 2m, not "5"`},
		{[]string{"-sprt", "5"}, "flag -sprt: want elo0,elo1"},
		{[]string{"-depth"}, "flag -depth: needs a value"},
	} {
		var out bytes.Buffer
		err := Parse(newSet(&out), c.args)
		var fe *FlagError
		if !errors.As(err, &fe) || err.Error() != c.want || out.Len() > 0 {
			t.Errorf("Parse(%q) = %v (printed %q), want %q and nothing printed", c.args, err, out.String(), c.want)
		}
	}
	var out bytes.Buffer
	if err := Parse(newSet(&out), []string{"-h"}); !errors.Is(err, flag.ErrHelp) || out.String() != "USAGE\n" {
		t.Errorf("-h: %v, printed %q", err, out.String())
	}
}

func TestSettingAndFile(t *testing.T) {
	if err := Setting("depth", engine.CheckDepth(engine.MaxDepth+1)); err == nil || err.Error() != fmt.Sprintf("flag -depth: must be at most %d, not %d", engine.MaxDepth, engine.MaxDepth+1) {
		t.Errorf("Setting: %v", err)
	}
	if Setting("depth", nil) != nil || File("weights", nil) != nil {
		t.Error("no error became one")
	}
	inner := errors.New("w.json:3: field \"values\": want 5, got 2")
	if err := File("weights", inner); !errors.Is(err, inner) || err.Error() != "flag -weights: "+inner.Error() {
		t.Errorf("File: %v", err)
	}
}

func TestDir(t *testing.T) {
	dir := t.TempDir()
	if err := Dir("resume", dir, "hint"); err != nil {
		t.Fatal(err)
	}
	if err := Dir("resume", dir+"/none", "HINT"); err == nil || err.Error() != fmt.Sprintf("flag -resume: no directory %q (HINT)", dir+"/none") {
		t.Errorf("missing: %v", err)
	}
}
