// This file turns a resolved Player into a tournament entrant with its
// description for a match summary: the in-process engine with its weight
// file (InProcess) or an external protocol engine (External).

package enginespec

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
)

// probeTimeout bounds the start of an external engine asked for its name.
const probeTimeout = 30 * time.Second

// InProcess is the in-process player p playing the weights of wf (p.Weights
// loaded by the caller: a baseline or a weight file) with Settings(depth,
// width, depthGiven), and its description (kind "weights", its settings
// and clock). Its name is name=, else the weight file's, else the file's
// base name without extension. Errors: Settings'.
func (p Player) InProcess(wf *engine.WeightFile, depth, width int, depthGiven bool) (tournament.Entrant, tournament.PlayerInfo, error) {
	settings, err := p.Settings(depth, width, depthGiven)
	if err != nil {
		return tournament.Entrant{}, tournament.PlayerInfo{}, err
	}
	name := p.Name
	if name == "" {
		name = wf.Name
	}
	if name == "" {
		name = strings.TrimSuffix(filepath.Base(p.Weights), filepath.Ext(p.Weights))
	}
	ent := tournament.Entrant{Engine: tournament.Engine{Name: name, Weights: wf.Weights(), Settings: settings, Time: p.TC}}
	info := tournament.PlayerInfo{Name: name, Kind: "weights", Source: p.Weights,
		Settings: withClock(fmt.Sprintf("depth %d, width %d", settings.Depth, settings.Width)+KnobsText(settings), p.TC)}
	return ent, info, nil
}

// External is the external protocol player p, and its description (kind
// "external", its directory, init lines and clock). Its program is
// checked first (tournament.CheckProgram: before anything is written);
// without name= it is started once to ask its name (tournament.ProbeName,
// at most 30 s), the program's base name when it gives none. moveTime is
// its limit per move when it has no clock (st=, tc=); log, when not nil,
// records every line to and from it. Errors: CheckProgram's, ProbeName's,
// or ctx.Err() itself when ctx ended the probe.
func (p Player) External(ctx context.Context, moveTime time.Duration, log *tournament.Transcript) (tournament.Entrant, tournament.PlayerInfo, error) {
	eng := tournament.Engine{Name: p.Name, Program: p.Argv[0], Args: p.Argv[1:], Dir: p.Dir, InitStrings: p.InitStr, MoveTime: moveTime, Time: p.TC}
	xo := tournament.ExternalOptions{Transcript: log}
	if err := tournament.CheckProgram(p.Argv, p.Dir); err != nil {
		return tournament.Entrant{}, tournament.PlayerInfo{}, err
	}
	if eng.Name == "" {
		probeCtx, cancel := context.WithTimeout(ctx, probeTimeout)
		got, err := tournament.ProbeName(probeCtx, eng, xo)
		cancel()
		switch {
		case err != nil && ctx.Err() != nil:
			return tournament.Entrant{}, tournament.PlayerInfo{}, ctx.Err()
		case err != nil:
			return tournament.Entrant{}, tournament.PlayerInfo{}, err
		}
		eng.Name = got
	}
	if eng.Name == "" {
		eng.Name = filepath.Base(p.Argv[0])
	}
	name := eng.Name
	ent := tournament.Entrant{Engine: eng, External: xo}
	var parts []string
	if p.Dir != "" {
		parts = append(parts, "dir "+p.Dir)
	}
	for _, s := range p.InitStr {
		parts = append(parts, fmt.Sprintf("init %q", s))
	}
	if p.TC.IsZero() {
		parts = append(parts, fmt.Sprintf("%v per move at most", moveTime))
	}
	info := tournament.PlayerInfo{Name: name, Kind: "external", Source: p.Text, Settings: withClock(strings.Join(parts, ", "), p.TC)}
	return ent, info, nil
}

// withClock appends the clock tc to a player's settings text.
func withClock(settings string, tc tournament.TimeControl) string {
	if s := tc.String(); s != "" {
		return strings.TrimPrefix(settings+", "+s, ", ")
	}
	return settings
}
