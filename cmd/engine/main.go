// Command engine is roadtune's Connect6 engine as a program speaking the
// Cloudict/ConnectMore text protocol on stdin/stdout (see package
// engine/protocol), so that a tuned weight file can play in the ConnectMore
// GUI, against Cloudict, or in the arena as an external engine.
//
//	engine [-weights NAME|FILE] [-depth N] [-width N] [-vcf=true|false] [-defend N] [-name S] [-time SPEC] [-movetime D]
//
// -weights takes an embedded baseline's name (zhou2015, qi2018-table3-1, …;
// see configs.WeightNames) or a weight file's path; without it the engine
// plays the roadtune-tempo baseline (docs/experiments.md, experiment 16):
// +158 Elo over zhou2015 at depth 3, and 67.2% against Cloudict at depth 2
// by a 1 s game clock over 750 games, where roadtune-asymmetric (experiment
// 15, the default until then) scored 64.8% and roadtune-overnight
// (experiment 14) 60.7%.
//
// The engine plays engine.PlaySettings (the defensive check, a threat
// search of 6 attacker moves and 50,000 positions, killer moves, and under
// a clock the use of an unfinished iteration, with 70% of each move's hard
// limit kept for the defensive check); the flags below override its depth,
// width, threat search and defensive check (-defend 0 -threatdepth 4
// -threatnodes 8000 at a fixed depth play as tune's engine does). By default
// the engine searches to its depth (-depth, the `depth` command). -time makes it play by a clock from the start, in the words of
// the protocol's `time` command: -time 'move 0.5' (0.5 s per move), -time
// 'game 60 0.5' (a 60 s game clock plus 0.5 s a move, kept by the engine),
// -time 'game 120 0 40' (120 s per 40 moves), -time off (the default).
// With a clock the depth is a maximum; without -depth it is then 12 (the
// largest), so the clock alone decides. The commands `time move SECONDS`,
// `time game SECONDS [INC [MOVES]]`, `time left SECONDS` (the GUI's count of
// the engine's remaining time) and `time off` change the clock while
// playing; `help` lists them (see package engine/protocol). -movetime is a
// hard stop on every search, with or without a clock.
//
// The engine reads its input while it searches: `stop` ends the search in
// progress at once and the engine answers the best move found so far (UCI's
// stop), and `quit` does the same and ends the program, within a few
// milliseconds even in a search of minutes (`depth 12` at width 15). A stop
// with no search running does nothing. A stop or quit read after other
// lines waits its turn (see package engine/protocol, "Listening while
// searching"), so a script piped in ending `move XXXX`, `quit` has its last
// search cut short: end such a script with the end of the input instead.
//
// `black XXXX` and `white XXXX` lines may come in any order, one or two
// stones a line (`white KKLL` before `black JJ`); the engine checks the
// stones as a position and takes the side to move from the stone counts. A
// line that would make the position impossible (an occupied point, or one
// colour more than a move ahead of the other) is answered `error ...` and
// changes nothing. Once the game is over (a six, also one set up with
// black/white lines, or a full board) `move XXXX` and `next` answer the one
// line `result black`, `result white` or `result draw`.
//
// Protocol replies go to stdout, diagnostics to stderr. Bad flags or a bad
// weight file: a message on stderr naming the flag or the file and field,
// exit status 2. An I/O error while serving: exit status 1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/engine/protocol"
	"github.com/roadtune/roadtune/internal/cmdline"
)

// baseline is the embedded weight file played without -weights: the
// strongest vector measured against Cloudict (docs/experiments §12).
const baseline = "roadtune-tempo"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// settingFlags name the flags of the engine.Settings fields they set.
var settingFlags = map[string]string{
	"Depth": "depth", "Width": "width", "DefendNodes": "defend", "DefendWide": "defendwide",
	"ThreatDepth": "threatdepth", "ThreatNodes": "threatnodes", "MoveTime": "movetime",
}

// run is the whole program; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	def := engine.PlaySettings()
	fl := flag.NewFlagSet("engine", flag.ContinueOnError)
	fl.SetOutput(stderr)
	weights := fl.String("weights", baseline, "baseline `NAME` ("+strings.Join(configs.WeightNames(), ", ")+") or weight file path (JSON)")
	depth := fl.Int("depth", def.Depth, fmt.Sprintf("alpha-beta depth in moves, 1..%d", protocol.MaxDepth))
	width := fl.Int("width", def.Width, fmt.Sprintf("moves kept per node, 1..%d", protocol.MaxWidth))
	vcf := fl.Bool("vcf", def.ThreatSearch, "threat (forced-win) search before alpha-beta")
	name := fl.String("name", protocol.DefaultName, "engine name for the `name` command (one word)")
	defend := fl.Int64("defend", def.DefendNodes, "node budget of the defensive check per checked move (the opponent's threat wins after a move); 0 = off")
	defendWide := fl.Int("defendwide", def.DefendWide, fmt.Sprintf("further pairs the defensive check tries when all its moves lose, 0..%d; 0 = none", engine.MaxWidth))
	threatDepth := fl.Int("threatdepth", def.ThreatDepth, "the threat search's depth in attacker moves, 1..16 (tune plays 4)")
	threatNodes := fl.Int64("threatnodes", def.ThreatNodes, "the threat search's budget in positions, 1 or more (tune plays 8000)")
	moveTime := fl.Duration("movetime", def.MoveTime, "hard stop on every search, e.g. 500ms; 0 = none (results then depend on the machine)")
	clock := fl.String("time", "off", "`SPEC` of the clock to play by, as the time command takes it: 'move SECONDS', 'game SECONDS [INC [MOVES]]' or off (search to depth); with a clock -depth is a maximum, 12 unless given")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: engine [flags]\nSpeaks the Cloudict/ConnectMore Connect6 protocol on stdin/stdout; send `help` for the commands.\n")
		fl.PrintDefaults()
	}
	if err := cmdline.Parse(fl, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "engine: %v\n", err)
		return 2
	}
	bad := func(err error) int {
		fmt.Fprintf(stderr, "engine: %v\n", err)
		return 2
	}
	if fl.NArg() > 0 {
		return bad(fmt.Errorf("unexpected argument %q (flags only); engine -h lists the flags", fl.Arg(0)))
	}
	if err := cmdline.Setting("depth", engine.CheckDepth(*depth)); err != nil {
		return bad(err)
	}
	if err := cmdline.Setting("width", engine.CheckWidth(*width)); err != nil {
		return bad(err)
	}
	// 0 would mean the engine's default, not these flags'.
	if *threatDepth < 1 {
		return bad(cmdline.Flagf("threatdepth", "must be at least 1, not %d", *threatDepth))
	}
	if *threatNodes < 1 {
		return bad(cmdline.Flagf("threatnodes", "must be at least 1, not %d", *threatNodes))
	}
	tc, err := protocol.ParseCommand("time " + *clock)
	if err == nil && tc.Kind == protocol.TimeLeft {
		err = errors.New("time left needs a game clock; give the game clock with 'game SECONDS'")
	}
	if err != nil {
		return bad(cmdline.Flagf("time", "%q: %v", *clock, err))
	}
	depthSet := false
	fl.Visit(func(f *flag.Flag) { depthSet = depthSet || f.Name == "depth" })
	if tc.Kind != protocol.TimeOff && !depthSet {
		*depth = protocol.MaxDepth
	}
	st := def
	st.Depth, st.Width, st.ThreatSearch, st.MoveTime, st.DefendNodes = *depth, *width, *vcf, *moveTime, *defend
	st.ThreatDepth, st.ThreatNodes, st.DefendWide = *threatDepth, *threatNodes, *defendWide
	if err := st.Validate(); err != nil {
		var se *engine.SettingsError
		if errors.As(err, &se) && settingFlags[se.Field] != "" {
			err = cmdline.Setting(settingFlags[se.Field], err) // the engine's limit, named by its flag
		}
		return bad(err)
	}
	wf, err := configs.LoadWeights(*weights)
	if err != nil {
		return bad(cmdline.File("weights", err))
	}
	srv, err := protocol.NewServer(protocol.Config{Name: *name, Weights: wf.Weights(), Settings: st, Time: tc}, stdout, stderr)
	if err != nil {
		return bad(err)
	}
	fmt.Fprintf(stderr, "engine: playing weights %q (%s) depth %d width %d vcf %t %s\n",
		wf.Name, wf.Schema, st.Depth, st.Width, st.ThreatSearch, tc)
	if err := srv.Run(context.Background(), stdin); err != nil {
		fmt.Fprintf(stderr, "engine: %v\n", err)
		return 1
	}
	return 0
}
