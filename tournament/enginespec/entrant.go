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

// InProcess is the in-process player p playing the weights of wf
// (p.WeightSource loaded by the caller: a baseline or a weight file) with
// Settings(depth, width, depthGiven), and its description (kind
// "weights", its settings and clock). Its name is name=, else the weight
// file's, else the file's base name without extension. Errors:
// Settings'.
func (p Player) InProcess(wf *engine.WeightFile, depth, width int, depthGiven bool) (tournament.Entrant, tournament.PlayerInfo, error) {
	settings, err := p.Settings(depth, width, depthGiven)
	if err != nil {
		return tournament.Entrant{}, tournament.PlayerInfo{}, err
	}
	eng := p.Engine
	if eng.Name == "" {
		eng.Name = wf.Name
	}
	if eng.Name == "" {
		eng.Name = strings.TrimSuffix(filepath.Base(p.WeightSource), filepath.Ext(p.WeightSource))
	}
	eng.Weights, eng.Settings = wf.Weights(), settings
	info := tournament.PlayerInfo{Name: eng.Name, Kind: "weights", Source: p.WeightSource,
		Settings: withClock(fmt.Sprintf("depth %d, width %d", settings.Depth, settings.Width)+KnobsText(settings), p.Time)}
	return tournament.Entrant{Engine: eng}, info, nil
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
	eng := p.Engine
	eng.MoveTime = moveTime
	xo := tournament.ExternalOptions{Transcript: log}
	if err := tournament.CheckProgram(eng.Argv(), eng.Dir); err != nil {
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
		eng.Name = filepath.Base(eng.Program)
	}
	var parts []string
	if eng.Dir != "" {
		parts = append(parts, "dir "+eng.Dir)
	}
	for _, s := range eng.InitStrings {
		parts = append(parts, fmt.Sprintf("init %q", s))
	}
	if eng.Time.IsZero() {
		parts = append(parts, fmt.Sprintf("%v per move at most", moveTime))
	}
	info := tournament.PlayerInfo{Name: eng.Name, Kind: "external", Source: p.Text, Settings: withClock(strings.Join(parts, ", "), eng.Time)}
	return tournament.Entrant{Engine: eng, External: xo}, info, nil
}

// withClock appends the clock tc to a player's settings text.
func withClock(settings string, tc tournament.TimeControl) string {
	if s := tc.String(); s != "" {
		return strings.TrimPrefix(settings+", "+s, ", ")
	}
	return settings
}
