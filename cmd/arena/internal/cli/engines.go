// This file holds the splitting of arena's command line into its flags
// and the option lists of -engine, -each and -openings (package
// enginespec reads the engines' lists).

package cli

import (
	"strings"

	"github.com/roadtune/roadtune/tournament/enginespec"
)

// splitEngineArgs takes the -engine, -each and key=value -openings option
// lists out of args (cutechess-cli style: the words after the flag up to
// the next word that is not key=value), leaving the other flags and
// arguments for the flag package. A -engine followed by one word that is
// not key=value is the short form: an engine command line.
func splitEngineArgs(args []string) (rest []string, engines []enginespec.Spec, each *enginespec.Spec, openings []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name := strings.TrimLeft(a, "-")
		if !strings.HasPrefix(a, "-") || (name != "engine" && name != "each" && name != "openings") {
			if a == "--" {
				return append(rest, args[i:]...), engines, each, openings, nil
			}
			rest = append(rest, a)
			continue
		}
		var words []string
		for i+1 < len(args) && enginespec.IsWord(args[i+1]) && name != "openings" ||
			name == "openings" && i+1 < len(args) && isOpeningsWord(args[i+1]) {
			i++
			words = append(words, args[i])
		}
		switch {
		case name == "openings" && len(words) == 0:
			rest = append(rest, a) // -openings FILE: the plain flag
		case name == "openings":
			openings = words
		case len(words) == 0 && name == "engine":
			if i+1 >= len(args) {
				return nil, nil, nil, nil, usagef("-engine: missing engine")
			}
			i++
			argv, err := enginespec.SplitCommand(args[i])
			if err != nil {
				return nil, nil, nil, nil, usagef("-engine %q: %v", args[i], err)
			}
			s := enginespec.Spec{Text: args[i], Opts: map[string][]string{"cmd": {argv[0]}}}
			if len(argv) > 1 {
				s.Opts["arg"] = argv[1:]
			}
			engines = append(engines, s)
		case len(words) == 0:
			return nil, nil, nil, nil, usagef("-each: want key=value options (%s)", strings.Join(enginespec.Keys(), ", "))
		default:
			s, err := enginespec.Parse(words)
			if err != nil {
				return nil, nil, nil, nil, usagef("-%s: %v", name, err)
			}
			if name == "each" {
				if each != nil {
					return nil, nil, nil, nil, usagef("-each given twice")
				}
				each = &s
			} else {
				engines = append(engines, s)
			}
		}
	}
	return rest, engines, each, openings, nil
}

func isOpeningsWord(w string) bool {
	k, _, ok := strings.Cut(w, "=")
	return ok && (k == "file" || k == "order" || k == "start")
}
