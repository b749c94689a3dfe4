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
// strongest vector measured (docs/results.md).
const baseline = "roadtune-tempo"

func main() {
	defer cmdline.ExitOnPanic("engine", os.Stderr, os.Exit)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// settingFlags name the flags of the engine.Settings fields they set.
var settingFlags = map[string]string{
	"Depth": "depth", "Width": "width", "DefendNodes": "defend", "DefendWide": "defendwide",
	"ThreatDepth": "threatdepth", "ThreatNodes": "threatnodes", "MoveTime": "movetime",
	"QuietSafe": "quiet", "QuietMoves": "quietmoves",
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
	quiet := fl.Int("quiet", engine.PlayQuietSafe, fmt.Sprintf("root moves the quiet-attack check tries at White's first -quietmoves moves after the opening, 0..%d; 0 = off", engine.MaxWidth))
	quietMoves := fl.Int("quietmoves", engine.PlayQuietMoves, fmt.Sprintf("White's moves after a three-stone opening at which the quiet-attack check runs, 1..%d", engine.MaxQuietMoves))
	threatDepth := fl.Int("threatdepth", def.ThreatDepth, "the threat search's depth in attacker moves, 1..16 (tune plays 4)")
	threatNodes := fl.Int64("threatnodes", def.ThreatNodes, "the threat search's budget in positions, 1 or more (tune plays 8000)")
	moveTime := fl.Duration("movetime", def.MoveTime, "hard stop on every search, e.g. 500ms; 0 = none (results then depend on the machine)")
	clock := fl.String("time", "off", "`SPEC` of the clock to play by, as the time command takes it: 'move SECONDS', 'game SECONDS [INC [MOVES]]' or off (search to depth); with a clock -depth is a maximum, 12 unless given")
	fl.Usage = func() {
		fmt.Fprintf(fl.Output(), "usage: engine [flags]\nSpeaks the Cloudict/ConnectMore Connect6 protocol on stdin/stdout; send `help` for the commands.\n")
		cmdline.PrintDefaults(fl)
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
	st.ThreatDepth, st.ThreatNodes, st.DefendWide, st.QuietSafe, st.QuietMoves = *threatDepth, *threatNodes, *defendWide, *quiet, *quietMoves
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
