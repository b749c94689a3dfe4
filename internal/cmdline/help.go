// This file holds the help text's layout: flag.PrintDefaults's, wrapped
// to the width of a terminal (HelpWidth) with spaces instead of a tab.

package cmdline

import (
	"flag"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// HelpWidth is the widest line of a command's -h text, in characters: a
// terminal of 100 columns shows it unbroken.
const HelpWidth = 100

// helpIndent starts each line of a flag's description, as far in as
// flag.PrintDefaults's tab shows it.
const helpIndent = "        "

// PrintDefaults writes the flags of fs to fs.Output() as
// flag.PrintDefaults does — "  -name TYPE" (TYPE from the usage's
// `backquoted` word, else the value's type), then the usage and
// "(default X)" unless X is the zero value — with the description
// indented by spaces and wrapped at HelpWidth; a "\n" in a usage starts a
// new line.
func PrintDefaults(fs *flag.FlagSet) {
	w := fs.Output()
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		head := "  -" + f.Name
		if name != "" {
			head += " " + name
		}
		fmt.Fprintln(w, head)
		if d := defaultText(f); d != "" {
			usage += " (default " + d + ")"
		}
		for _, para := range strings.Split(usage, "\n") {
			Wrap(w, helpIndent, para)
		}
	})
}

// Wrap writes text to w in lines of at most HelpWidth characters, each
// starting with indent, broken between words (a word longer than a line
// stands alone on its line).
func Wrap(w io.Writer, indent, text string) {
	line := indent
	for _, word := range strings.Fields(text) {
		if line != indent && len([]rune(line))+1+len([]rune(word)) > HelpWidth {
			fmt.Fprintln(w, line)
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += word
	}
	fmt.Fprintln(w, line)
}

// defaultText is f's default as flag.PrintDefaults shows it: "" for the
// zero value of its type, a string's quoted.
func defaultText(f *flag.Flag) string {
	if f.DefValue == zeroText(f.Value) {
		return ""
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if _, isString := g.Get().(string); isString {
			return fmt.Sprintf("%q", f.DefValue)
		}
	}
	return f.DefValue
}

// zeroText is the text of the zero value of v's type (flag's
// isZeroValue): a new value of the type pointed to, as a string.
func zeroText(v flag.Value) (s string) {
	t := reflect.TypeOf(v)
	var z reflect.Value
	if t.Kind() == reflect.Pointer {
		z = reflect.New(t.Elem())
	} else {
		z = reflect.Zero(t)
	}
	defer func() {
		if recover() != nil {
			s = "" // a Value whose String needs more than its zero value
		}
	}()
	return z.Interface().(flag.Value).String()
}
