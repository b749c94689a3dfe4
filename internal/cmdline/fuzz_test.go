package cmdline

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"
)

// fuzzFlags is a flag set with one flag of each standard kind, writing
// its usage to out.
func fuzzFlags(out *bytes.Buffer) *flag.FlagSet {
	fs := flag.NewFlagSet("prog", flag.ContinueOnError)
	fs.Int("depth", 4, "search `depth`")
	fs.Uint("n", 0, "count")
	fs.Float64("x", 0.5, "a number")
	fs.Bool("v", false, "verbose")
	fs.Duration("d", time.Second, "a duration")
	fs.String("s", "", "a string")
	fs.SetOutput(out)
	return fs
}

// FuzzParse parses arbitrary command lines (words one per line) with a
// flag set of every standard kind: no panic; an error is flag.ErrHelp,
// after the usage was printed, or a *FlagError that names a flag and says
// what is wrong, with nothing printed; the flag set keeps its usage and
// output; and a command line that parses sets the flags and leaves the
// arguments as the flag package does.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"-depth\n3\nfile", "--depth=x", "-dpeth\n3", "-v=maybe", "-n\n-1", "-d\n5", "-h", "-help", "-x", "-s",
		"---x", "-=1", "-", "--", "a\n-v", "-v\n-x\n1e400", "-d=1h\n-s=\n--\n-v"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Split(s, "\n")
		var out bytes.Buffer
		fs := fuzzFlags(&out)
		usage := func() { out.WriteString("usage\n") }
		fs.Usage = usage
		err := Parse(fs, args)
		if fs.Output() != &out {
			t.Fatalf("%q: the flag set's output was not restored", args)
		}
		fs.Usage()
		if !strings.HasSuffix(out.String(), "usage\n") {
			t.Fatalf("%q: the flag set's usage was not restored", args)
		}
		printed := out.Len() > len("usage\n")
		var fe *FlagError
		switch {
		case errors.Is(err, flag.ErrHelp):
			if !printed {
				t.Fatalf("%q: help without the usage", args)
			}
			return
		case printed:
			t.Fatalf("%q: printed %q (error %v)", args, out.String(), err)
		case err == nil:
		case !errors.As(err, &fe) || fe.Flag == "" || fe.Msg == "":
			t.Fatalf("%q: error %#v is not a *FlagError naming a flag and what is wrong", args, err)
		default:
			return
		}
		var quiet bytes.Buffer
		want := fuzzFlags(&quiet)
		if err := want.Parse(args); err != nil {
			t.Fatalf("%q parses, but not with the flag package: %v", args, err)
		}
		want.VisitAll(func(w *flag.Flag) {
			if got := fs.Lookup(w.Name).Value.String(); got != w.Value.String() {
				t.Fatalf("%q: -%s is %s, the flag package's %s", args, w.Name, got, w.Value)
			}
		})
		if strings.Join(fs.Args(), "\n") != strings.Join(want.Args(), "\n") || fs.NArg() != want.NArg() {
			t.Fatalf("%q: arguments %q, the flag package's %q", args, fs.Args(), want.Args())
		}
	})
}
