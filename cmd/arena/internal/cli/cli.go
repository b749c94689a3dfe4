// Package cli is the logic of cmd/arena: flags, players, the run, and the
// report (table on stdout, summary.json, games.jsonl, SGF records and the
// win-rate chart in -out).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
	"github.com/roadtune/roadtune/tournament/stats"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // a failure while playing or writing results
	exitUsage = 2 // bad flags, arguments or input files
)

// usageError marks errors that exit with status 2.
type usageError struct{ error }

func (u usageError) Unwrap() error { return u.error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// options are the parsed flags and arguments.
type options struct {
	pairs, depth, width, concurrency int
	openings                         string
	randomOpenings                   int
	radius                           int // of the generated suite used
	seed                             uint64
	sprt                             string
	engines                          []string
	moveTime                         time.Duration
	maxMoves                         int
	out                              string
	json                             bool
	files                            []string // WEIGHTS arguments: baseline names or weight file paths
}

// usageText heads the -h output; %s is the list of baselines.
const usageText = `usage: arena [flags] WEIGHTS WEIGHTS [WEIGHTS ...]

Plays weight vectors (in-process roadtune engine) and any -engine
external protocol engines: two players play a head-to-head match of -pairs
game pairs (each opening twice, colours swapped), more play a round robin.
Each WEIGHTS is a baseline name (%s)
or a weight file path (JSON). Flags may come before or after the weights.

       arena openings [flags]

builds a balanced opening suite (see arena openings -h); write ./openings
for a weight file of that name.

`

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	def := engine.DefaultSettings()
	o := &options{}
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, usageText, strings.Join(configs.WeightNames(), ", "))
		fs.PrintDefaults()
	}
	fs.IntVar(&o.pairs, "pairs", 10, "game pairs per pairing (with -sprt: the most pairs)")
	fs.IntVar(&o.depth, "depth", def.Depth, "alpha-beta depth in moves of the in-process engines")
	fs.IntVar(&o.width, "width", def.Width, "moves kept per node of the in-process engines")
	fs.IntVar(&o.concurrency, "concurrency", runtime.GOMAXPROCS(0), "games played at once")
	fs.StringVar(&o.openings, "openings", "", "opening `FILE`: one opening per line in protocol notation (JJ KJJK), # comments")
	fs.IntVar(&o.randomOpenings, "random-openings", 0, "use N openings of the generated 3-stone suite shuffled by -seed (0 = the whole suite: radius 3, 162 openings, or the smallest larger radius with -pairs distinct openings)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the generated opening suite")
	fs.StringVar(&o.sprt, "sprt", "", "SPRT `elo0,elo1[,alpha,beta]` for a head-to-head match: stop once the LLR crosses a bound")
	fs.Func("engine", "external protocol engine `'CMD ARGS'` as a player (repeatable; split on blanks, '…' and \"…\" quote)", func(s string) error {
		o.engines = append(o.engines, s)
		return nil
	})
	fs.DurationVar(&o.moveTime, "movetime", tournament.DefaultMoveTime, "per-move limit of external engines (a forfeit past it); in-process engines search to -depth")
	fs.IntVar(&o.maxMoves, "maxmoves", 0, "adjudicate a draw after N moves in all, opening included (0 = none; a full board is a draw)")
	fs.StringVar(&o.out, "out", "", "`DIR` for summary.json, games.jsonl, sgf/ and winrate.png/.svg (must be new or empty)")
	fs.BoolVar(&o.json, "json", false, "print the summary as JSON instead of the table")
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, usageError{err}
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		o.files = append(o.files, rest[0])
		rest = rest[1:]
	}
	switch {
	case o.pairs < 1:
		return nil, usagef("-pairs %d: want at least 1", o.pairs)
	case o.depth < 1:
		return nil, usagef("-depth %d: want at least 1", o.depth)
	case o.width < 1:
		return nil, usagef("-width %d: want at least 1", o.width)
	case o.concurrency < 1:
		return nil, usagef("-concurrency %d: want at least 1", o.concurrency)
	case o.randomOpenings < 0:
		return nil, usagef("-random-openings %d: want 0 or more", o.randomOpenings)
	case o.openings != "" && o.randomOpenings > 0:
		return nil, usagef("-openings and -random-openings exclude each other")
	case o.moveTime <= 0:
		return nil, usagef("-movetime %v: want a positive duration", o.moveTime)
	case o.maxMoves < 0:
		return nil, usagef("-maxmoves %d: want 0 or more", o.maxMoves)
	case len(o.files)+len(o.engines) < 2:
		return nil, usagef("need at least two players (weights or -engine), have %d", len(o.files)+len(o.engines))
	}
	return o, nil
}

// setup turns the options into a runner and its players.
func setup(o *options) (*tournament.Runner, []tournament.PlayerInfo, *stats.SPRT, error) {
	r := &tournament.Runner{MaxMoves: o.maxMoves, Concurrency: o.concurrency}
	var players []tournament.PlayerInfo
	used := map[string]int{}
	unique := func(name string) string {
		used[name]++
		if n := used[name]; n > 1 {
			return fmt.Sprintf("%s#%d", name, n)
		}
		return name
	}
	settings := engine.DefaultSettings()
	settings.Depth, settings.Width = o.depth, o.width
	for _, f := range o.files {
		wf, err := configs.LoadWeights(f)
		if err != nil {
			return nil, nil, nil, usageError{err}
		}
		name := wf.Name
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		}
		name = unique(name)
		r.Entrants = append(r.Entrants, tournament.Entrant{Name: name, Weights: wf.Weights(), Settings: settings})
		players = append(players, tournament.PlayerInfo{Name: name, Kind: "weights", Source: f})
	}
	for _, e := range o.engines {
		argv, err := splitCommand(e)
		if err != nil {
			return nil, nil, nil, usagef("-engine %q: %v", e, err)
		}
		name := unique(filepath.Base(argv[0]))
		r.Entrants = append(r.Entrants, tournament.Entrant{Name: name, Command: argv, MoveTime: o.moveTime})
		players = append(players, tournament.PlayerInfo{Name: name, Kind: "external", Source: e})
	}
	var err error
	switch {
	case o.openings != "":
		if r.Openings, err = tournament.LoadOpenings(o.openings); err != nil {
			return nil, nil, nil, usageError{err}
		}
	default:
		// The smallest suite (radius ≥ 3) in which no opening repeats.
		if r.Openings, o.radius, err = tournament.SuiteFor(max(o.pairs, o.randomOpenings), o.seed); err != nil {
			return nil, nil, nil, usageError{err}
		}
		if o.randomOpenings > 0 {
			r.Openings = r.Openings[:o.randomOpenings]
		}
	}
	var sprt *stats.SPRT
	if o.sprt != "" {
		s, err := stats.ParseSPRT(o.sprt)
		if err != nil {
			return nil, nil, nil, usagef("-sprt: %v", err)
		}
		if len(players) != 2 {
			return nil, nil, nil, usagef("-sprt needs exactly two players (a head-to-head match), have %d", len(players))
		}
		sprt = &s
		r.SPRT = sprt
	}
	return r, players, sprt, nil
}

// Main runs arena with args (without the program name) and returns the exit
// status. A first argument "openings" runs the openings subcommand.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "openings" {
		return openingsMain(ctx, args[1:], stdout, stderr)
	}
	o, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintln(stderr, "arena:", err)
		return exitUsage
	}
	return exitCode(stderr, "arena:", run(ctx, o, stdout, stderr))
}

// exitCode prints err after prefix and returns its exit status: exitOK for
// nil or -h, exitUsage for a usageError, exitFail otherwise.
func exitCode(stderr io.Writer, prefix string, err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	}
	fmt.Fprintln(stderr, prefix, err)
	var u usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	return exitFail
}

func run(ctx context.Context, o *options, stdout, stderr io.Writer) error {
	r, players, _, err := setup(o)
	if err != nil {
		return err
	}
	if len(r.Openings) < o.pairs {
		fmt.Fprintf(stderr, "arena: warning: %d openings for %d game pairs: openings repeat, and deterministic engines replay the same games, which narrows the interval without information\n", len(r.Openings), o.pairs)
	}
	var dir *results.RunDir
	if o.out != "" {
		if dir, err = results.CreateRunDir(o.out); err != nil {
			return usageError{err}
		}
	}
	var fixtures []tournament.Fixture
	schedule := "head-to-head"
	if len(players) == 2 {
		fixtures = tournament.HeadToHead(0, 1, o.pairs)
	} else {
		schedule = "round-robin"
		fixtures = tournament.RoundRobin(tournament.Indices(len(players)), o.pairs)
	}
	prog := progress.New(stderr, progress.IsTerminal(stdout), false)
	prog.Steps = 10
	prog.Begin("arena", 2*len(fixtures))
	r.Progress = prog.Update
	if dir != nil {
		logPath := dir.Path("games.jsonl")
		sgfDir := dir.Path("sgf")
		r.OnGame = func(g tournament.GameRecord) error {
			if err := tournament.AppendGameLog(logPath, g); err != nil {
				return err
			}
			_, err := tournament.WriteSGF(sgfDir, g)
			return err
		}
	}
	start := time.Now()
	tab, err := r.Run(ctx, fixtures)
	prog.End()
	if err != nil {
		return err
	}
	sum := summarize(o, schedule, players, r, tab, time.Since(start))
	if o.json {
		if err := writeJSON(stdout, sum); err != nil {
			return err
		}
	} else {
		printTable(stdout, sum)
	}
	if dir != nil {
		if err := results.WriteJSONAtomic(dir.Path("summary.json"), sum); err != nil {
			return err
		}
		if err := winRateChart(sum).Save(dir.Path("winrate")); err != nil {
			return err
		}
		if !o.json {
			fmt.Fprintf(stdout, "\nWrote %s (summary.json, games.jsonl, sgf/, winrate.png, winrate.svg)\n", o.out)
		}
	}
	return nil
}
