package cli

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
)

// engineKeys are the keys of an -engine or -each option list, after
// cutechess-cli; repeatable ones may be given more than once.
var engineKeys = map[string]bool{
	"name": false, "cmd": false, "dir": false, "arg": true, "initstr": true,
	"proto": false, "tc": false, "st": false, "timemargin": false,
	"weights": false, "depth": false, "width": false, "defend": false,
	"settings": false, "killers": false, "history": false, "blocks": false, "widths": false, "partial": false,
	"defendgrowth": false, "shallow": false, "shallownodes": false, "shallowplies": false, "mixed": false,
	"threatdepth": false, "threatnodes": false, "defendwide": false, "defendmaxdepth": false,
}

// engineSpec is one -engine (or -each) option list.
type engineSpec struct {
	text string              // as given, for messages and the summary
	opts map[string][]string // key -> values in order
}

func (s engineSpec) get(key string) (string, bool) {
	v, ok := s.opts[key]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// parseSpec reads "key=value" words. Errors name the word.
func parseSpec(words []string) (engineSpec, error) {
	s := engineSpec{text: strings.Join(words, " "), opts: map[string][]string{}}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		rep, known := engineKeys[k]
		if !ok || !known {
			return s, fmt.Errorf("%q: want key=value with key one of %s", w, strings.Join(sortedKeys(), ", "))
		}
		if _, dup := s.opts[k]; dup && !rep {
			return s, fmt.Errorf("%q: %s given twice", w, k)
		}
		s.opts[k] = append(s.opts[k], v)
	}
	return s, nil
}

func sortedKeys() []string { return slices.Sorted(maps.Keys(engineKeys)) }

// isSpecWord reports whether w starts a key=value option list.
func isSpecWord(w string) bool {
	k, _, ok := strings.Cut(w, "=")
	_, known := engineKeys[k]
	return ok && known
}

// withEach returns s completed by the -each options it does not set.
func (s engineSpec) withEach(each engineSpec) engineSpec {
	out := engineSpec{text: s.text, opts: map[string][]string{}}
	for k, v := range each.opts {
		out.opts[k] = v
	}
	for k, v := range s.opts {
		out.opts[k] = v
	}
	// st= and tc= exclude each other: the engine's own choice wins.
	if _, ok := s.opts["st"]; ok {
		if _, own := s.opts["tc"]; !own {
			delete(out.opts, "tc")
		}
	}
	if _, ok := s.opts["tc"]; ok {
		if _, own := s.opts["st"]; !own {
			delete(out.opts, "st")
		}
	}
	return out
}

// splitEngineArgs takes the -engine, -each and key=value -openings option
// lists out of args (cutechess-cli style: the words after the flag up to
// the next word that is not key=value), leaving the other flags and
// arguments for the flag package. A -engine followed by one word that is
// not key=value is the short form: an engine command line.
func splitEngineArgs(args []string) (rest []string, engines []engineSpec, each *engineSpec, openings []string, err error) {
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
		for i+1 < len(args) && isSpecWord(args[i+1]) && name != "openings" ||
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
			argv, err := splitCommand(args[i])
			if err != nil {
				return nil, nil, nil, nil, usagef("-engine %q: %v", args[i], err)
			}
			s := engineSpec{text: args[i], opts: map[string][]string{"cmd": {argv[0]}}}
			if len(argv) > 1 {
				s.opts["arg"] = argv[1:]
			}
			engines = append(engines, s)
		case len(words) == 0:
			return nil, nil, nil, nil, usagef("-each: want key=value options (%s)", strings.Join(sortedKeys(), ", "))
		default:
			s, err := parseSpec(words)
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

// playerSpec is a resolved player: an in-process engine or an external
// protocol engine, with its time control.
type playerSpec struct {
	name    string                 // given by name= (or the weight file's name); "" = ask the engine
	weights string                 // in-process: baseline name or weight file
	depth   int                    // in-process; 0 = -depth
	width   int                    // in-process; 0 = -width
	defend  int64                  // in-process: engine.Settings.DefendNodes; -1 = the default
	play    bool                   // in-process: settings=play, engine.PlaySettings as the base
	knobs   func(*engine.Settings) // in-process: killers=, history=, blocks=, widths=, partial=
	argv    []string
	dir     string
	initStr []string
	tc      tournament.TimeControl
	text    string // how it was given
}

// resolve checks an option list and turns it into a player. Errors name
// the option.
func (s engineSpec) resolve() (playerSpec, error) {
	p := playerSpec{text: s.text, defend: -1}
	p.name, _ = s.get("name")
	cmd, hasCmd := s.get("cmd")
	w, hasW := s.get("weights")
	switch {
	case hasCmd && hasW:
		return p, fmt.Errorf("cmd= and weights= exclude each other (an external engine or the in-process one)")
	case !hasCmd && !hasW:
		return p, fmt.Errorf("want cmd=PROG (an external engine) or weights=FILE (the in-process engine)")
	case hasW && w == "":
		return p, fmt.Errorf("weights=: want a baseline name or a weight file")
	}
	if proto, ok := s.get("proto"); ok && proto != "connect6" && proto != "cloudict" {
		return p, fmt.Errorf("proto=%s: the only protocol is connect6 (Cloudict/ConnectMore; also accepted as cloudict)", proto)
	}
	var err error
	if st, ok := s.get("st"); ok {
		if p.tc.PerMove, err = tournament.ParseSeconds(st); err != nil || p.tc.PerMove <= 0 {
			return p, fmt.Errorf("st=%s: want a positive time in seconds", st)
		}
	}
	if tc, ok := s.get("tc"); ok {
		t, err := tournament.ParseTC(tc)
		if err != nil {
			return p, err
		}
		if p.tc.PerMove > 0 && !t.IsZero() {
			return p, fmt.Errorf("st= and tc= exclude each other")
		}
		t.PerMove = p.tc.PerMove
		p.tc = t
	}
	if m, ok := s.get("timemargin"); ok {
		ms, err := strconv.Atoi(m)
		if err != nil || ms < 0 {
			return p, fmt.Errorf("timemargin=%s: want milliseconds ≥ 0", m)
		}
		p.tc.Margin = time.Duration(ms) * time.Millisecond
	}
	for _, k := range []string{"depth", "width"} {
		v, ok := s.get(k)
		if !ok {
			continue
		}
		if hasCmd {
			return p, fmt.Errorf("%s= applies to the in-process engine (weights=); send an external engine its settings with initstr=", k)
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, fmt.Errorf("%s=%s: want a positive integer", k, v)
		}
		if k == "depth" {
			p.depth = n
		} else {
			p.width = n
		}
	}
	if v, ok := s.get("defend"); ok {
		if hasCmd {
			return p, fmt.Errorf("defend= applies to the in-process engine (weights=)")
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return p, fmt.Errorf("defend=%s: want a node count ≥ 0 (0 = no defensive check)", v)
		}
		p.defend = n
	}
	if p.knobs, err = s.searchKnobs(hasCmd); err != nil {
		return p, err
	}
	if v, ok := s.get("settings"); ok {
		if hasCmd {
			return p, fmt.Errorf("settings= applies to the in-process engine (weights=)")
		}
		if v != "play" && v != "default" {
			return p, fmt.Errorf("settings=%s: want default (engine.DefaultSettings) or play (engine.PlaySettings)", v)
		}
		p.play = v == "play"
	}
	if hasW {
		for _, k := range []string{"dir", "arg", "initstr"} {
			if _, ok := s.opts[k]; ok {
				return p, fmt.Errorf("%s= applies to an external engine (cmd=)", k)
			}
		}
		p.weights = w
		return p, nil
	}
	argv, err := splitCommand(cmd)
	if err != nil {
		return p, fmt.Errorf("cmd=%s: %v", cmd, err)
	}
	p.argv = append(argv, s.opts["arg"]...)
	p.initStr = s.opts["initstr"]
	if dir, ok := s.get("dir"); ok {
		st, err := os.Stat(dir)
		if err != nil || !st.IsDir() {
			return p, fmt.Errorf("dir=%s: not a directory", dir)
		}
		if p.dir, err = filepath.Abs(dir); err != nil {
			return p, fmt.Errorf("dir=%s: %v", dir, err)
		}
		// A relative program path is relative to dir, as the engine sees it.
		if strings.ContainsRune(p.argv[0], '/') && !filepath.IsAbs(p.argv[0]) {
			p.argv[0] = filepath.Join(p.dir, p.argv[0])
		}
	}
	return p, nil
}

// searchKnobs reads the in-process engine's search knobs: killers=BOOL,
// history=BOOL, partial=BOOL (engine.Settings.Killers, History,
// Time.Partial), blocks=N (Blocks), widths=W0,W1,… (WidthByPly, the
// root first; 0 = width=), defendgrowth=G (Time.DefendGrowth; 0 = off),
// shallow=K (ShallowDefend; 0 = off), shallowplies=P (ShallowDefendPlies),
// shallownodes=N (ShallowDefendNodes), mixed=N (ThreatMixed; 0 = off),
// defendwide=N (DefendWide; 0 = off), defendmaxdepth=N
// (Time.DefendMaxDepth; 0 = off),
// threatdepth=N and threatnodes=N (the attacker's threat search before
// alpha-beta: ThreatDepth in attacker moves, ThreatNodes in positions; 0
// = the engine's default). It returns nil when none is given. Errors name
// the option; the values' limits are engine.Settings.Validate's.
func (s engineSpec) searchKnobs(external bool) (func(*engine.Settings), error) {
	var set []func(*engine.Settings)
	for _, k := range searchKnobKeys {
		v, ok := s.get(k)
		if !ok {
			continue
		}
		if external {
			return nil, fmt.Errorf("%s= applies to the in-process engine (weights=)", k)
		}
		var f func(*engine.Settings)
		if setBool, ok := boolKnobs[k]; ok {
			on, err := strconv.ParseBool(v)
			if err != nil {
				return nil, fmt.Errorf("%s=%s: want true or false (1 or 0)", k, v)
			}
			f = func(st *engine.Settings) { setBool(st, on) }
		} else if setCount, ok := countKnobs[k]; ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("%s=%s: want a count ≥ 0", k, v)
			}
			f = func(st *engine.Settings) { setCount(st, n) }
		} else if k == "defendgrowth" {
			g, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("defendgrowth=%s: want a factor (0 = off)", v)
			}
			f = func(st *engine.Settings) { st.Time.DefendGrowth = g }
		} else { // widths
			var w [engine.MaxDepth]int
			parts := strings.Split(v, ",")
			if len(parts) > len(w) {
				return nil, fmt.Errorf("widths=%s: at most %d widths (one a ply)", v, len(w))
			}
			for i, p := range parts {
				n, err := strconv.Atoi(p)
				if err != nil || n < 0 {
					return nil, fmt.Errorf("widths=%s: want widths ≥ 0 separated by commas (0 = width=)", v)
				}
				w[i] = n
			}
			f = func(st *engine.Settings) { st.WidthByPly = w }
		}
		set = append(set, f)
	}
	if len(set) == 0 {
		return nil, nil
	}
	return func(st *engine.Settings) {
		for _, f := range set {
			f(st)
		}
	}, nil
}

// searchKnobKeys are the search knobs' option keys, in the order they
// apply.
var searchKnobKeys = []string{"killers", "history", "partial", "blocks", "widths", "defendgrowth", "shallow", "shallowplies", "shallownodes", "mixed", "threatdepth", "threatnodes", "defendwide", "defendmaxdepth"}

// boolKnobs and countKnobs set the search knobs that take a boolean or a
// count ≥ 0.
var (
	boolKnobs = map[string]func(*engine.Settings, bool){
		"killers": func(s *engine.Settings, on bool) { s.Killers = on },
		"history": func(s *engine.Settings, on bool) { s.History = on },
		"partial": func(s *engine.Settings, on bool) { s.Time.Partial = on },
	}
	countKnobs = map[string]func(*engine.Settings, int){
		"blocks":         func(s *engine.Settings, n int) { s.Blocks = n },
		"shallow":        func(s *engine.Settings, n int) { s.ShallowDefend = n },
		"shallowplies":   func(s *engine.Settings, n int) { s.ShallowDefendPlies = n },
		"shallownodes":   func(s *engine.Settings, n int) { s.ShallowDefendNodes = int64(n) },
		"mixed":          func(s *engine.Settings, n int) { s.ThreatMixed = n },
		"threatdepth":    func(s *engine.Settings, n int) { s.ThreatDepth = n },
		"threatnodes":    func(s *engine.Settings, n int) { s.ThreatNodes = int64(n) },
		"defendwide":     func(s *engine.Settings, n int) { s.DefendWide = n },
		"defendmaxdepth": func(s *engine.Settings, n int) { s.Time.DefendMaxDepth = n },
	}
)

// knobsText lists the search knobs of s that are on, for the summary's
// player settings ("" when none).
func knobsText(s engine.Settings) string {
	def := engine.DefaultSettings()
	var out []string
	for _, k := range []struct {
		on   bool
		text string
	}{
		{s.Killers, "killers"}, {s.History, "history"}, {s.Blocks > 0, fmt.Sprintf("blocks %d", s.Blocks)},
		{s.WidthByPly != [engine.MaxDepth]int{}, fmt.Sprintf("widths %v", s.WidthByPly)}, {s.Time.Partial, "partial"},
		{s.Time.DefendGrowth > 1, fmt.Sprintf("defendgrowth %g", s.Time.DefendGrowth)},
		{s.ShallowDefend > 0, fmt.Sprintf("shallow defence %d", s.ShallowDefend)},
		{s.ThreatMixed > 0, fmt.Sprintf("mixed threats %d", s.ThreatMixed)},
		{s.DefendWide > 0, fmt.Sprintf("wide defence %d", s.DefendWide)},
		{s.Time.DefendMaxDepth > 0, fmt.Sprintf("defence depth up to %d", s.Time.DefendMaxDepth)},
		{s.ThreatDepth != def.ThreatDepth || s.ThreatNodes != def.ThreatNodes,
			fmt.Sprintf("threat search %d moves, %d positions", s.ThreatDepth, s.ThreatNodes)},
	} {
		if k.on {
			out = append(out, k.text)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return ", " + strings.Join(out, ", ")
}
