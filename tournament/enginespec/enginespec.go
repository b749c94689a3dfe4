// This file holds the option lists (Spec), their resolution into a
// Player and an in-process player's engine settings.

package enginespec

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
)

// keys are the keys of an -engine or -each option list, after
// cutechess-cli; repeatable ones may be given more than once.
var keys = map[string]bool{
	"name": false, "cmd": false, "dir": false, "arg": true, "initstr": true,
	"proto": false, "tc": false, "st": false, "timemargin": false,
	"weights": false, "depth": false, "width": false, "defend": false,
	"settings": false, "killers": false, "history": false, "blocks": false, "widths": false, "partial": false,
	"defendgrowth": false, "shallow": false, "shallownodes": false, "shallowplies": false, "mixed": false,
	"threatdepth": false, "threatnodes": false, "defendwide": false, "defendmaxdepth": false,
	"param": true,
}

// Spec is one option list of an engine (arena's -engine or -each): the
// key=value words as given.
type Spec struct {
	Text string              // as given, for messages and the summary
	Opts map[string][]string // key → values in the order given
}

// Get is the last value given for key, and whether one was.
func (s Spec) Get(key string) (string, bool) {
	v, ok := s.Opts[key]
	if !ok || len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// Parse reads "key=value" words (Keys; arg= and initstr= repeatable).
// Errors name the word: an unknown key, a key given twice.
func Parse(words []string) (Spec, error) {
	s := Spec{Text: strings.Join(words, " "), Opts: map[string][]string{}}
	for _, w := range words {
		k, v, ok := strings.Cut(w, "=")
		rep, known := keys[k]
		if !ok || !known {
			return s, fmt.Errorf("%q: want key=value with key one of %s", w, strings.Join(Keys(), ", "))
		}
		if _, dup := s.Opts[k]; dup && !rep {
			return s, fmt.Errorf("%q: %s given twice", w, k)
		}
		s.Opts[k] = append(s.Opts[k], v)
	}
	return s, nil
}

// Keys are the option keys, sorted.
func Keys() []string { return slices.Sorted(maps.Keys(keys)) }

// IsWord reports whether w is a key=value word of an option list.
func IsWord(w string) bool {
	k, _, ok := strings.Cut(w, "=")
	_, known := keys[k]
	return ok && known
}

// With returns s completed by the options of each that it does not set
// (arena's -each); st= and tc= of s replace both of each's.
func (s Spec) With(each Spec) Spec {
	out := Spec{Text: s.Text, Opts: map[string][]string{}}
	for k, v := range each.Opts {
		out.Opts[k] = v
	}
	for k, v := range s.Opts {
		out.Opts[k] = v
	}
	// st= and tc= exclude each other: the engine's own choice wins.
	if _, ok := s.Opts["st"]; ok {
		if _, own := s.Opts["tc"]; !own {
			delete(out.Opts, "tc")
		}
	}
	if _, ok := s.Opts["tc"]; ok {
		if _, own := s.Opts["st"]; !own {
			delete(out.Opts, "st")
		}
	}
	return out
}

// Player is a resolved option list: the engine's description
// (tournament.Engine: name=, an external engine's cmd= and arg= as
// Program and Args, dir=, initstr=, the clock st=, tc=, timemargin= as
// Time) and, for the in-process engine, what its entrant takes from the
// match: the weights to load and the search's changes to the match's
// settings (depth=, width=, defend=, settings=, the knobs), which need the
// match's depth and width and so stay deltas until InProcess.
type Player struct {
	// Engine is the description as far as the list gives it: for an
	// external engine all of it but its per-move limit (External); for the
	// in-process engine its Name and Time (InProcess adds the weights and
	// settings). Name "" = the weight file's name, or ask the engine.
	tournament.Engine
	WeightSource string                 // in-process: weights=, a baseline name or weight file
	Depth        int                    // in-process: depth= in moves; 0 = the match's
	Width        int                    // in-process: width=; 0 = the match's
	Defend       int64                  // in-process: engine.Settings.DefendNodes; -1 = the default
	Play         bool                   // in-process: settings=play, engine.PlaySettings as the base
	Knobs        func(*engine.Settings) // in-process: the search knobs (killers=, history=, blocks=, …); nil = none
	Text         string                 // how it was given
}

// Resolve checks an option list and turns it into a player: exactly one
// of cmd= and weights=; the in-process engine's settings only with
// weights=, dir=, arg= and initstr= only with cmd= (dir= must be a
// directory; a relative program path is taken from it, and made absolute
// with it). Errors name the option.
func (s Spec) Resolve() (Player, error) {
	p := Player{Text: s.Text, Defend: -1}
	p.Name, _ = s.Get("name")
	cmd, hasCmd := s.Get("cmd")
	w, hasW := s.Get("weights")
	switch {
	case hasCmd && hasW:
		return p, fmt.Errorf("cmd= and weights= exclude each other (an external engine or the in-process one)")
	case !hasCmd && !hasW:
		return p, fmt.Errorf("want cmd=PROG (an external engine) or weights=FILE (the in-process engine)")
	case hasW && w == "":
		return p, fmt.Errorf("weights=: want a baseline name or a weight file")
	}
	if proto, ok := s.Get("proto"); ok && proto != "connect6" && proto != "cloudict" {
		return p, fmt.Errorf("proto=%s: the only protocol is connect6 (Cloudict/ConnectMore; also accepted as cloudict)", proto)
	}
	var err error
	if p.Time, err = tournament.ClockOptions(s.Get); err != nil {
		return p, err
	}
	for _, k := range []string{"depth", "width"} {
		v, ok := s.Get(k)
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
			p.Depth = n
		} else {
			p.Width = n
		}
	}
	if v, ok := s.Get("defend"); ok {
		if hasCmd {
			return p, fmt.Errorf("defend= applies to the in-process engine (weights=)")
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return p, fmt.Errorf("defend=%s: want a node count ≥ 0 (0 = no defensive check)", v)
		}
		p.Defend = n
	}
	if p.Knobs, err = s.searchKnobs(hasCmd); err != nil {
		return p, err
	}
	if p.Knobs, err = s.params(hasCmd, p.Knobs); err != nil {
		return p, err
	}
	if v, ok := s.Get("settings"); ok {
		if hasCmd {
			return p, fmt.Errorf("settings= applies to the in-process engine (weights=)")
		}
		if v != "play" && v != "default" {
			return p, fmt.Errorf("settings=%s: want default (engine.DefaultSettings) or play (engine.PlaySettings)", v)
		}
		p.Play = v == "play"
	}
	if hasW {
		for _, k := range []string{"dir", "arg", "initstr"} {
			if _, ok := s.Opts[k]; ok {
				return p, fmt.Errorf("%s= applies to an external engine (cmd=)", k)
			}
		}
		p.WeightSource = w
		return p, nil
	}
	argv, err := SplitCommand(cmd)
	if err != nil {
		return p, fmt.Errorf("cmd=%s: %v", cmd, err)
	}
	p.Program, p.Args = argv[0], append(argv[1:], s.Opts["arg"]...)
	p.InitStrings = s.Opts["initstr"]
	if dir, ok := s.Get("dir"); ok {
		st, err := os.Stat(dir)
		if err != nil || !st.IsDir() {
			return p, fmt.Errorf("dir=%s: not a directory", dir)
		}
		if p.Dir, err = filepath.Abs(dir); err != nil {
			return p, fmt.Errorf("dir=%s: %v", dir, err)
		}
		// A relative program path is relative to dir, as the engine sees it.
		if strings.ContainsRune(p.Program, '/') && !filepath.IsAbs(p.Program) {
			p.Program = filepath.Join(p.Dir, p.Program)
		}
	}
	return p, nil
}

// params reads param=NAME=VALUE (repeatable): any engine.Params setting of
// the in-process engine by its name (any case), e.g. a tuning run's
// best-settings.json values, set after the other knobs (then). Errors
// name the word: an unknown name (listing the known ones), a value that
// is not a number or outside the setting's range.
func (s Spec) params(external bool, then func(*engine.Settings)) (func(*engine.Settings), error) {
	words := s.Opts["param"]
	if len(words) == 0 {
		return then, nil
	}
	if external {
		return nil, fmt.Errorf("param= applies to the in-process engine (weights=); send an external engine its options with initstr=\"setoption name NAME value V\"")
	}
	type set struct {
		p engine.Param
		v float64
	}
	var sets []set
	for _, w := range words {
		name, val, ok := strings.Cut(w, "=")
		p, known := engine.ParamByName(name)
		if !ok || !known {
			return nil, fmt.Errorf("param=%s: want param=NAME=VALUE, NAME one of %s", w, strings.Join(engine.ParamNames(), ", "))
		}
		v, err := strconv.ParseFloat(val, 64)
		if err == nil {
			st := engine.DefaultSettings()
			err = p.Set(&st, v)
		} else {
			err = fmt.Errorf("want a number")
		}
		if err != nil {
			return nil, fmt.Errorf("param=%s: %v", w, err)
		}
		sets = append(sets, set{p, v})
	}
	return func(st *engine.Settings) {
		if then != nil {
			then(st)
		}
		for _, x := range sets {
			x.p.Set(st, x.v) // checked above
		}
	}, nil
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
func (s Spec) searchKnobs(external bool) (func(*engine.Settings), error) {
	var set []func(*engine.Settings)
	for _, k := range searchKnobKeys {
		v, ok := s.Get(k)
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

// KnobsText lists the search knobs of s that are on, for a summary's
// player settings: ", killers, blocks 2, …" ("" when none).
func KnobsText(s engine.Settings) string {
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
		{s.QuietSafe > 0, quietText(s)},
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

// Settings are the engine settings of an in-process player: from
// engine.DefaultSettings (or engine.PlaySettings with settings=play), at
// the match's depth and width unless depth= or width= say otherwise; with
// a clock (st= or tc=) and no depth given for the match (depthGiven false)
// the depth is engine.MaxDepth, a maximum the clock cuts short; then
// defend= and the search knobs. Errors: engine.Settings.Validate's,
// naming the option that sets the refused field (e.g. "blocks=: …").
func (p Player) Settings(depth, width int, depthGiven bool) (engine.Settings, error) {
	settings := engine.DefaultSettings()
	if p.Play {
		settings = engine.PlaySettings()
	}
	settings.Depth, settings.Width = depth, width
	if !p.Time.IsZero() && !depthGiven {
		settings.Depth = engine.MaxDepth // with a clock the depth is a maximum
	}
	if p.Depth > 0 {
		settings.Depth = p.Depth
	}
	if p.Width > 0 {
		settings.Width = p.Width
	}
	if p.Defend >= 0 {
		settings.DefendNodes = p.Defend
	}
	if p.Knobs != nil {
		p.Knobs(&settings)
	}
	if err := settings.Validate(); err != nil {
		var se *engine.SettingsError
		if errors.As(err, &se) {
			err = fmt.Errorf("%s=: %s", strings.ToLower(se.Field), se.Msg) // the option that sets it
		}
		return settings, err
	}
	return settings, nil
}

// TakeLists takes the option lists of flag -name (or --name) out of a
// command line, cutechess-cli style: the key=value words after each
// -name (any word with "=" not starting with "-", so that a misspelt key
// reaches its reader, which names it), -name=WORD counting as its first
// word; the other args stay, in order, for the flag package
// ("--" and what follows stay as they are). Errors: a -name without
// words.
func TakeLists(args []string, name string) (rest []string, lists [][]string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i:]...), lists, nil
		}
		flag, first, inline := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || flag != name {
			rest = append(rest, a)
			continue
		}
		var words []string
		if inline {
			words = append(words, first)
		}
		for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && strings.Contains(args[i+1], "=") {
			i++
			words = append(words, args[i])
		}
		if len(words) == 0 {
			return nil, nil, fmt.Errorf("flag -%s: want key=value words after it", name)
		}
		lists = append(lists, words)
	}
	return rest, lists, nil
}

// quietText names the quiet-attack check: "quiet check N", with "at K
// moves" when it runs at more than White's first move.
func quietText(s engine.Settings) string {
	if s.QuietMoves > 1 {
		return fmt.Sprintf("quiet check %d at %d moves", s.QuietSafe, s.QuietMoves)
	}
	return fmt.Sprintf("quiet check %d", s.QuietSafe)
}
