package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/cluster"
	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/internal/suggest"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/enginespec"
	"github.com/roadtune/roadtune/tournament/stats"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // a failure while playing or writing results
	exitUsage = 2 // bad flags, arguments or input files

	exitInterrupted = 130 // stopped by SIGINT or SIGTERM (128 + SIGINT)
)

// usageError marks errors that exit with status 2.
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// options are the parsed flags and arguments.
type options struct {
	pairs, depth, width, concurrency int
	depthSet                         bool // -depth given: also the maximum depth of players with a clock
	openings                         string
	openingOrder                     string // "sequential" or "random"
	openingStart                     int    // 1-based first opening
	randomOpenings                   int
	seed                             uint64
	sprt                             string
	engines                          []enginespec.Spec
	each                             *enginespec.Spec
	moveTime                         time.Duration
	maxMoves                         int
	out                              string
	json                             bool
	schedule                         string // head-to-head, round-robin, gauntlet, knockout
	ratingInterval                   int
	logFile                          string
	http                             string        // serve the -out directory's pages on this address while playing
	cluster                          cluster.Flags // play on workers through NATS (package cluster)
	resume                           bool          // out is an interrupted match's directory
	args                             []string      // the command line, saved for -resume
	files                            []string      // WEIGHTS arguments: baseline names or weight file paths
}

// usageText heads the -h output; the list of baselines follows it.
const usageText = `usage: arena [flags] [WEIGHTS ...] [-engine OPTIONS ...] [-each OPTIONS]
       arena -resume DIR
       arena openings [flags]
       arena losses -player NAME [flags] DIR

Plays a match between players: weight vectors on the in-process roadtune
engine (each WEIGHTS is a baseline name, listed below, or a weight
file path) and external engines speaking the Connect6
protocol (Cloudict/ConnectMore). Games come in pairs: each opening twice,
colours swapped. Two players play head to head, more a round robin
unless -tournament says otherwise.

-engine OPTIONS, after cutechess-cli, is a list of key=value words (repeat
-engine for each player); -each OPTIONS applies to every player unless it
sets the key itself:
  name=NAME       the player's name (default: the engine's reply to "name",
                  or the weight file's name)
  cmd=PROG        an external engine's program (words after it: arg=)
  dir=DIR         its working directory (a relative cmd is taken from DIR)
  arg=A           one argument (repeatable)
  initstr=LINE    a line sent after the "name" handshake (repeatable),
                  e.g. initstr="depth 2" for Cloudict
  proto=connect6  the protocol (the only one; also "cloudict")
  weights=FILE    the in-process engine with these weights, with
  depth=D width=W its own search settings (default -depth, -width; with
                  st= or tc= and no -depth, the depth is a maximum of 12)
  defend=N        its defensive check's node budget per checked move
                  (engine.Settings.DefendNodes; 0 = off)
  settings=default|play  the settings the others start from:
                  engine.DefaultSettings (the default) or PlaySettings
  killers=BOOL history=BOOL blocks=N widths=W0,W1,… partial=BOOL defendgrowth=G
  shallow=K shallowplies=P shallownodes=N mixed=N threatdepth=N threatnodes=N
  defendwide=N defendmaxdepth=N
                  its search knobs (engine.Settings.Killers, History,
                  Blocks, WidthByPly from the root, Time.Partial,
                  Time.DefendGrowth, ShallowDefend, ShallowDefendPlies,
                  ShallowDefendNodes, ThreatMixed, ThreatDepth, ThreatNodes,
                  DefendWide, Time.DefendMaxDepth)
  param=NAME=VALUE  any engine.Params setting by name, after the knobs
                  (repeatable; a tuning run's best-settings.json values)
  st=SECONDS      a fixed time per move
  tc=[MOVES/]SECONDS[+INC]  a game clock (e.g. tc=60+0.5, tc=40/120)
  timemargin=MS   tolerated overrun before a time forfeit
The short form -engine 'CMD ARGS' is an external engine's command line.
Without -openings a match plays the embedded balanced suite (375 openings
cut by colour bias, the tuning job's default) shuffled by -seed. -openings
takes a FILE, a suite name, "generated" (the generated 3-stone suite),
"empty" (the empty board), or file=FILE order=sequential|random
start=N. The openings subcommand builds a balanced opening suite (arena
openings -h); the losses subcommand says where a player lost a match's
games (arena losses -h). Ctrl-C (or SIGTERM) stops the match, writes the table of
the completed game pairs and exits 130; -resume DIR continues it. Exit
status: 0 done, 1 a failure while playing or writing, 2 bad flags,
arguments or input files, 130 interrupted.

`

// parseFlags parses args (the -engine/-each lists taken out first).
func parseFlags(args []string, stderr io.Writer) (*options, error) {
	def := engine.DefaultSettings()
	o := &options{args: append([]string(nil), args...)}
	rest, engines, each, openingWords, err := splitEngineArgs(args)
	if err != nil {
		return nil, err
	}
	o.engines, o.each = engines, each
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		cmdline.Wrap(stderr, "", "Baselines: "+strings.Join(configs.WeightNames(), ", ")+".")
		fmt.Fprintln(stderr)
		cmdline.PrintDefaults(fs)
	}
	var rounds, games int
	fs.IntVar(&o.pairs, "pairs", 10, "game pairs per pairing (with -sprt: the most pairs)")
	fs.IntVar(&rounds, "rounds", 0, "game pairs per pairing (cutechess-cli's name for -pairs)")
	fs.IntVar(&games, "games", 0, "games per pairing: an even number (a pair is the unit)")
	fs.IntVar(&o.depth, "depth", def.Depth, "alpha-beta depth in moves of the in-process engines")
	fs.IntVar(&o.width, "width", def.Width, "moves kept per node of the in-process engines")
	fs.IntVar(&o.concurrency, "concurrency", runtime.GOMAXPROCS(0), "games played at once; by default one per core")
	fs.StringVar(&o.openings, "openings", "", "opening `FILE` (one opening per line in protocol notation, JJ KJJK; # comments), an embedded suite name, 'generated' (the generated 3-stone suite of the smallest radius ≥ 3 with a distinct opening per pair, shuffled by -seed), or 'empty' (every game from the empty board); default: the embedded balanced suite shuffled by -seed, as the tuning job's ladder plays it")
	fs.IntVar(&o.randomOpenings, "random-openings", 0, "use N openings of the generated 3-stone suite shuffled by -seed (0 = the whole suite: radius 3, 162 openings, or the smallest larger radius with -pairs distinct openings)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the generated opening suite and of order=random")
	fs.StringVar(&o.sprt, "sprt", "", "SPRT `elo0,elo1[,alpha,beta]` for a head-to-head match: stop once the LLR crosses a bound")
	fs.DurationVar(&o.moveTime, "movetime", tournament.DefaultMoveTime, "per-move limit of external engines without st= or tc= (a forfeit past it)")
	fs.IntVar(&o.maxMoves, "maxmoves", 0, "adjudicate a draw after N moves in all, opening included (0 = none; a full board is a draw)")
	fs.StringVar(&o.out, "out", "", "`DIR` for summary.json, games.jsonl, sgf/, winrate.png/.svg and with -sprt plots/llr.png/.svg (must be new or empty)")
	fs.BoolVar(&o.json, "json", false, "print the summary as JSON instead of the table")
	fs.StringVar(&o.schedule, "tournament", "", "round-robin, gauntlet (the first player against each other) or knockout (seeded in the order given); default head-to-head for two players, round-robin for more")
	fs.IntVar(&o.ratingInterval, "ratinginterval", 10, "print the score line of the pairing every N games (0 = a progress bar instead)")
	fs.StringVar(&o.http, "http", "", "serve the match's pages (table, games) live on `ADDR` while it plays; needs -out (:8080 binds 127.0.0.1)")
	o.cluster.Register(fs, "the games (weight vectors only)")
	fs.StringVar(&o.logFile, "log", "", "`FILE`: transcript of every line sent to and received from each external engine")
	for {
		if err := cmdline.Parse(fs, rest); err != nil {
			return nil, usageError{err}
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		o.files = append(o.files, rest[0])
		rest = rest[1:]
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	o.depthSet = set["depth"]
	switch {
	case set["rounds"] && set["pairs"], set["games"] && (set["pairs"] || set["rounds"]):
		return nil, usagef("flags -pairs, -rounds and -games exclude each other")
	case set["rounds"]:
		o.pairs = rounds
	case set["games"]:
		if games < 2 || games%2 != 0 {
			return nil, usageError{cmdline.Flagf("games", "must be an even number, at least 2 (games come in colour-swapped pairs), not %d", games)}
		}
		o.pairs = games / 2
	}
	o.openingOrder = "sequential"
	if len(openingWords) > 0 {
		if set["openings"] {
			return nil, usagef("flag -openings given twice")
		}
		for _, w := range openingWords {
			k, v, _ := strings.Cut(w, "=")
			switch k {
			case "file":
				o.openings = v
			case "order":
				if v != "sequential" && v != "random" {
					return nil, usageError{cmdline.Flagf("openings", "order= must be sequential or random, not %q", v)}
				}
				o.openingOrder = v
			case "start":
				n, err := strconv.Atoi(v)
				if err != nil || n < 1 {
					return nil, usageError{cmdline.Flagf("openings", "start= must be an integer, at least 1 (the first opening), not %q", v)}
				}
				o.openingStart = n
			}
		}
		if o.openings == "" {
			return nil, usageError{cmdline.Flagf("openings", "%s: want file=FILE", strings.Join(openingWords, " "))}
		}
	}
	flagErr := cmdline.Flagf
	pairsFlag := "pairs"
	switch {
	case set["rounds"]:
		pairsFlag = "rounds"
	case set["games"]:
		pairsFlag = "games"
	}
	if err := cmp.Or(cmdline.Setting("depth", engine.CheckDepth(o.depth)), cmdline.Setting("width", engine.CheckWidth(o.width))); err != nil {
		return nil, usageError{err}
	}
	switch {
	case o.pairs < 1:
		return nil, usageError{flagErr(pairsFlag, "must be at least 1, not %d", o.pairs)}
	case o.concurrency < 1:
		return nil, usageError{flagErr("concurrency", "must be at least 1, not %d", o.concurrency)}
	case o.randomOpenings < 0:
		return nil, usageError{flagErr("random-openings", "must be 0 or more, not %d", o.randomOpenings)}
	case o.openings != "" && o.randomOpenings > 0:
		return nil, usagef("flags -openings and -random-openings exclude each other")
	case o.moveTime <= 0:
		return nil, usageError{flagErr("movetime", "must be more than 0, not %v", o.moveTime)}
	case o.maxMoves < 0:
		return nil, usageError{flagErr("maxmoves", "must be 0 or more, not %d", o.maxMoves)}
	case o.ratingInterval < 0:
		return nil, usageError{flagErr("ratinginterval", "must be 0 or more, not %d", o.ratingInterval)}
	case (o.cluster.Listen != "" || o.cluster.URL != "") && hasExternal(o.engines):
		return nil, usagef("flags -listen and -nats play weight vectors on workers; an external engine (-engine cmd=…) cannot be shipped to them")
	case o.http != "" && o.out == "":
		return nil, usageError{flagErr("http", "serves the match's -out directory: give -out DIR too")}
	case len(o.files)+len(o.engines) < 2:
		return nil, usagef("need at least two players (weights or -engine), have %d", len(o.files)+len(o.engines))
	}
	switch o.schedule {
	case "", "round-robin", "gauntlet", "knockout":
	case "head-to-head":
		if len(o.files)+len(o.engines) != 2 {
			return nil, usageError{cmdline.Flagf("tournament", "head-to-head needs exactly two players, not %d", len(o.files)+len(o.engines))}
		}
	default:
		return nil, usageError{cmdline.Flagf("tournament", "must be round-robin, gauntlet or knockout, not %q", o.schedule)}
	}
	if o.schedule == "" {
		o.schedule = "round-robin"
		if len(o.files)+len(o.engines) == 2 {
			o.schedule = "head-to-head"
		}
	}
	return o, nil
}

// match is a set-up match: the runner with its entrants and openings, the
// players' descriptions and the schedule.
type match struct {
	r        *tournament.Runner
	players  []tournament.PlayerInfo
	openings string // the openings' description (setupOpenings)
	fixtures []tournament.Fixture
	seeds    []int // knockout
	sprt     *stats.SPRT
	log      *tournament.Transcript
	logFile  *os.File
}

// setup turns the options into a match. External engines without name=
// are started once to learn their names.
func setup(ctx context.Context, o *options, stderr io.Writer) (*match, error) {
	m := &match{r: &tournament.Runner{MaxMoves: o.maxMoves, Concurrency: o.concurrency, Discard: true}}
	r := m.r
	used := map[string]int{}
	unique := func(name string) string {
		used[name]++
		if n := used[name]; n > 1 {
			return fmt.Sprintf("%s#%d", name, n)
		}
		return name
	}
	each := enginespec.Spec{Opts: map[string][]string{}}
	if o.each != nil {
		each = *o.each
	}
	if o.logFile != "" {
		f, err := os.OpenFile(o.logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, usageError{cmdline.File("log", err)}
		}
		m.logFile, m.log = f, tournament.NewTranscript(f)
	}
	var specs []enginespec.Player
	for _, f := range o.files {
		// A WEIGHTS argument takes -each's time control and search settings.
		s := enginespec.Spec{Text: f, Opts: map[string][]string{"weights": {f}}}
		for _, k := range []string{"st", "tc", "timemargin", "depth", "width"} {
			if v, ok := each.Opts[k]; ok {
				s.Opts[k] = v
			}
		}
		p, err := s.Resolve()
		if err != nil {
			return nil, usagef("%s: -each: %v", f, err)
		}
		specs = append(specs, p)
	}
	for _, e := range o.engines {
		p, err := e.With(each).Resolve()
		if err != nil {
			return nil, usagef("-engine %s: %v", e.Text, err)
		}
		specs = append(specs, p)
	}
	for _, p := range specs {
		var info tournament.PlayerInfo
		var ent tournament.Entrant
		if p.WeightSource != "" {
			wf, err := configs.LoadWeights(p.WeightSource)
			if err != nil {
				return nil, usageError{err}
			}
			if ent, info, err = p.InProcess(wf, o.depth, o.width, o.depthSet); err != nil {
				return nil, usagef("%s: %v", p.Text, err)
			}
		} else {
			var err error
			if ent, info, err = p.External(ctx, o.moveTime, m.log); err != nil {
				if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
					return nil, err
				}
				return nil, usagef("-engine %s: %v", p.Text, err) // before anything is written
			}
		}
		ent.Name = unique(ent.Name) // also its transcript's label
		info.Name = ent.Name
		r.Entrants = append(r.Entrants, ent)
		m.players = append(m.players, info)
	}
	var err error
	if m.openings, err = setupOpenings(o, r); err != nil {
		return nil, err
	}
	n := len(m.players)
	switch o.schedule {
	case "head-to-head":
		m.fixtures = tournament.HeadToHead(0, 1, o.pairs)
	case "round-robin":
		m.fixtures = tournament.RoundRobin(tournament.Indices(n), o.pairs)
	case "gauntlet":
		m.fixtures = tournament.Gauntlet(0, tournament.Indices(n)[1:], o.pairs)
	case "knockout":
		m.seeds = tournament.Indices(n)
		if o.resume {
			return nil, usagef("-resume: a knockout cannot be resumed (its later rounds depend on the earlier ones); rerun it")
		}
	}
	if o.sprt != "" {
		s, err := stats.ParseSPRT(o.sprt)
		if err != nil {
			return nil, usageError{cmdline.Flagf("sprt", "%v", err)}
		}
		if n != 2 || o.schedule != "head-to-head" {
			return nil, usageError{cmdline.Flagf("sprt", "needs exactly two players (a head-to-head match), not %d", n)}
		}
		m.sprt = &s
		r.SPRT = m.sprt
	}
	return m, nil
}

// defaultSuite is the embedded opening suite a match plays without
// -openings: the one the tuning job plays by default (tune.Config.Openings).
const defaultSuite = "balanced"

// setupOpenings fills r.Openings from -openings (a file, an embedded suite
// or "empty") or the generated suite, in the order asked for, and returns
// their description for the summary's header, e.g. "suite balanced,
// shuffled by seed 1 (375 openings)".
func setupOpenings(o *options, r *tournament.Runner) (string, error) {
	var err error
	var describe func(n int) string
	switch {
	case o.openings == "empty":
		r.Openings = []tournament.Opening{{}}
		describe = func(int) string { return "the empty board" }
	case o.openings == "" && o.randomOpenings == 0:
		// The default: the suite the tuning job's fitness and ladder play,
		// shuffled by -seed as the ladder shuffles it, so that a match and
		// a ladder rung with the same seed play the same openings.
		if r.Openings, err = configs.LoadOpenings(defaultSuite); err != nil {
			return "", err
		}
		tournament.ShuffleOpenings(r.Openings, o.seed)
		describe = func(n int) string {
			return fmt.Sprintf("suite %s, shuffled by seed %d (%d openings)", defaultSuite, o.seed, n)
		}
	case o.openings != "" && o.openings != "generated":
		if r.Openings, err = configs.LoadOpenings(o.openings); err != nil {
			return "", usageError{cmdline.File("openings", err)}
		}
		describe = func(n int) string {
			d := fmt.Sprintf("file %s (%d openings", o.openings, n)
			if o.openingOrder == "random" {
				d += fmt.Sprintf(", order random by seed %d", o.seed)
			}
			if o.openingStart > 1 {
				d += fmt.Sprintf(", from opening %d", o.openingStart)
			}
			return d + ")"
		}
	default:
		// The smallest suite (radius ≥ 3) in which no opening repeats.
		var radius int
		if r.Openings, radius, err = tournament.SuiteFor(max(o.pairs, o.randomOpenings), o.seed); err != nil {
			return "", usageError{err}
		}
		if o.randomOpenings > 0 {
			r.Openings = r.Openings[:o.randomOpenings]
		}
		describe = func(n int) string {
			return fmt.Sprintf("generated 3-stone suite, radius %d, seed %d (%d openings)", radius, o.seed, n)
		}
	}
	if o.openingOrder == "random" {
		rng := rand.New(rand.NewPCG(o.seed, 0x6f70656e696e6773)) // "openings"
		rng.Shuffle(len(r.Openings), func(i, j int) { r.Openings[i], r.Openings[j] = r.Openings[j], r.Openings[i] })
	}
	if k := o.openingStart; k > 0 {
		if k > len(r.Openings) {
			return "", usagef("-openings start=%d: the suite has %d openings", k, len(r.Openings))
		}
		r.Openings = append(r.Openings[k-1:], r.Openings[:k-1]...)
	}
	return describe(len(r.Openings)), nil
}

// Main runs arena with args (without the program name) and returns the exit
// status. A first argument "openings" runs the openings subcommand,
// "losses" the post-mortem of a match;
// "-resume DIR" continues an interrupted match with the command line saved
// in DIR.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "openings" {
		return openingsMain(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "losses" {
		return lossesMain(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && !slices.Contains(configs.WeightNames(), args[0]) {
		if sub := suggest.Suggest(args[0], []string{"openings", "losses"}); sub != "" {
			if _, err := os.Stat(args[0]); err != nil { // not a weight file either
				fmt.Fprintf(stderr, "arena: unexpected argument %q (did you mean arena %s?)\n", args[0], sub)
				return exitUsage
			}
		}
	}
	resume := ""
	if len(args) > 0 && (args[0] == "-resume" || args[0] == "--resume") {
		if len(args) != 2 {
			fmt.Fprintln(stderr, "arena: flag -resume: takes a directory and no other arguments: the match's own are read from DIR/"+commandFile)
			return exitUsage
		}
		resume = args[1]
		saved, err := readCommand(resume)
		if err != nil {
			fmt.Fprintln(stderr, "arena:", err)
			return exitUsage
		}
		args = saved
	}
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintln(stderr, "arena:", err)
		return exitUsage
	}
	if resume != "" {
		o.out, o.resume = resume, true
	}
	return exitCode(stderr, "arena:", run(ctx, o, stdout, stderr))
}

// exitCode prints err after prefix and returns its exit status: exitOK for
// nil or -h, exitUsage for a usageError or a bad input file (a
// *fileio.Error: a weight, opening or command file, a games log),
// exitFail otherwise.
func exitCode(stderr io.Writer, prefix string, err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(stderr, prefix, err)
		return exitInterrupted
	case cmdline.Internal(strings.TrimSuffix(prefix, ":"), err, stderr):
		return cmdline.ExitInternal
	}
	fmt.Fprintln(stderr, prefix, err)
	var u usageError
	if errors.As(err, &u) || fileio.IsInput(err) {
		return exitUsage
	}
	return exitFail
}

// hasExternal reports whether a -engine player is an external program.
func hasExternal(specs []enginespec.Spec) bool {
	for _, e := range specs {
		if _, ok := e.Opts["weights"]; !ok {
			return true
		}
	}
	return false
}
