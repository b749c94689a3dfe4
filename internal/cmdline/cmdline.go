package cmdline

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"time"

	"github.com/roadtune/roadtune/internal/suggest"
)

// FlagError is a bad flag value: Flag is the flag's name without the dash,
// Msg what is wrong, in the words of the limit's owner; Err, when set, is
// the error Msg is taken from (a file's "FILE:LINE: …").
type FlagError struct {
	Flag string
	Msg  string
	Err  error
}

func (e *FlagError) Error() string { return "flag -" + e.Flag + ": " + e.Msg }

// Unwrap returns Err.
func (e *FlagError) Unwrap() error { return e.Err }

// File returns err, the error of a file a flag names, as a *FlagError of
// flag that keeps err's words ("flag -openings: bad.txt:2: …") and wraps
// it; nil for nil.
func File(flag string, err error) error {
	if err == nil {
		return nil
	}
	return &FlagError{Flag: flag, Msg: err.Error(), Err: err}
}

// Flagf returns a *FlagError for flag with the message format and a.
func Flagf(flag, format string, a ...any) error {
	return &FlagError{Flag: flag, Msg: fmt.Sprintf(format, a...)}
}

// valueError is an error that says what is wrong with a value without
// naming it: engine.SettingsError, whose limits are the engine's.
type valueError interface {
	error
	ValueMsg() string
}

// Setting returns the engine.SettingsError (any error with a ValueMsg) in
// err as a *FlagError of flag that keeps its words ("flag -depth: must be
// at most 12, not 13") and wraps it; nil for nil, any other error
// unchanged.
func Setting(flag string, err error) error {
	var ve valueError
	if errors.As(err, &ve) {
		return &FlagError{Flag: flag, Msg: ve.ValueMsg(), Err: err}
	}
	return err
}

var (
	undefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	badValue  = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]*): (.*)$`)
	noValue   = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
	badSyntax = regexp.MustCompile(`^bad flag syntax: -(.*)$`)
)

// Parse parses args with fs and words its errors in this package's voice:
// an unknown flag names the nearest defined one and `NAME -h` (NAME is
// fs.Name()), a value that does not parse says what the flag takes
// ("flag -depth: must be an integer, not \"x\""); neither prints the
// usage text. -h and -help print fs.Usage to fs.Output() and return
// flag.ErrHelp. Errors are *FlagError values.
func Parse(fs *flag.FlagSet, args []string) error {
	usage, out := fs.Usage, fs.Output()
	var quiet bytes.Buffer
	fs.Usage = func() {}
	fs.SetOutput(&quiet)
	err := fs.Parse(args)
	fs.Usage = usage
	fs.SetOutput(out)
	if err == nil {
		return nil
	}
	if errors.Is(err, flag.ErrHelp) {
		if usage != nil {
			usage()
		} else {
			PrintDefaults(fs)
		}
		return err
	}
	msg := err.Error()
	if m := undefined.FindStringSubmatch(msg); m != nil {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		hint := ""
		if s := suggest.Suggest(m[1], names); s != "" {
			hint = " (did you mean -" + s + "?)"
		}
		return &FlagError{Flag: m[1], Msg: fmt.Sprintf("no such flag%s; %s -h lists the flags", hint, fs.Name())}
	}
	if m := noValue.FindStringSubmatch(msg); m != nil {
		return &FlagError{Flag: m[1], Msg: "needs a value"}
	}
	if m := badSyntax.FindStringSubmatch(msg); m != nil {
		return &FlagError{Flag: m[1], Msg: fmt.Sprintf("not a flag: want -name or -name=value; %s -h lists the flags", fs.Name())}
	}
	if m := badValue.FindStringSubmatch(msg); m != nil {
		value, name, why := m[1], m[2], m[3]
		if f := fs.Lookup(name); f != nil {
			if want := kind(f.Value); want != "" {
				return &FlagError{Flag: name, Msg: fmt.Sprintf("must be %s, not %q", want, value)}
			}
		}
		return &FlagError{Flag: name, Msg: why}
	}
	return errors.New(msg)
}

// kind says what a standard flag's value takes, "" for others.
func kind(v flag.Value) string {
	g, ok := v.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case int, int64:
		return "an integer"
	case uint, uint64:
		return "an integer, 0 or more"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	case time.Duration:
		return "a duration such as 500ms, 1.5s or 2m"
	}
	return ""
}

// Dir checks that the directory a flag names exists: nil, or a *FlagError
// saying plainly that it does not, or that it is a file, followed by hint
// (where the command writes such directories): "flag -resume: no
// directory \"runs/x\" (tune writes its runs under runs/ unless -out says
// otherwise)".
func Dir(flag, dir, hint string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Flagf(flag, "no directory %q (%s)", dir, hint)
	case err != nil:
		return Flagf(flag, "%v", err)
	case !st.IsDir():
		return Flagf(flag, "%q is a file, not a directory (%s)", dir, hint)
	}
	return nil
}
