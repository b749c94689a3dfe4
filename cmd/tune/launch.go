// This file holds what tune does with its command line before a launch
// runs: the flags that override config keys (keyFlags), the -seeds list,
// the resolution of a new launch from those values (launchFlags), the
// wiring of a job's events to the progress display (displayEvents) and
// what a finished launch tells its user (summary).

package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
)

// launchFlags resolves a new launch from command-line values: the config
// at path ("" = the embedded default, tune.LoadEmbedded) with the key
// flags given (keys: keyFlag.Flag → value, applied in keyFlags' order),
// the run directory out, and seeds, a -seeds list ("" for one run or
// chain). Errors: the config's (*tune.ConfigError, or a *tune.InputError
// for a file that cannot be read), a bad seed list or one given with
// -seed (*tune.InputError), tune.NewLaunch's.
func launchFlags(path string, keys map[string]string, out, seeds string, now time.Time) (*tune.Launch, error) {
	var ov []tune.Override
	for _, k := range keyFlags() {
		if v, ok := keys[k.Flag]; ok {
			ov = append(ov, tune.FlagOverride(k.Flag, k.Key, v, k.Str))
		}
	}
	var cfg tune.Config
	var err error
	if path == "" {
		cfg, err = tune.LoadEmbedded("default", ov...)
	} else {
		cfg, err = tune.Load(path, ov...)
	}
	if err != nil {
		return nil, asInput(err)
	}
	var list []int64
	if seeds != "" {
		if _, ok := keys["seed"]; ok {
			return nil, &tune.InputError{Err: errors.New("-seed and -seeds cannot be combined")}
		}
		if list, err = parseSeeds(seeds); err != nil {
			return nil, err
		}
	}
	l, err := tune.NewLaunch(cfg, out, list, now)
	if err != nil {
		return nil, asInput(err)
	}
	return l, nil
}

// asInput keeps a *tune.ConfigError or *tune.InputError and makes any
// other error a *tune.InputError: bad input, not a failed run.
func asInput(err error) error {
	var ce *tune.ConfigError
	var ie *tune.InputError
	if errors.As(err, &ce) || errors.As(err, &ie) {
		return err
	}
	return &tune.InputError{Err: err}
}

// parseSeeds reads a seed list as the -seeds flag gives it:
// comma-separated non-negative integers, e.g. "1,2,3". Errors: a
// *tune.InputError naming the item that is not a seed.
func parseSeeds(s string) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil || n < 0 {
			return nil, &tune.InputError{Err: fmt.Errorf("flag -seeds: %q is not a seed (want non-negative integers separated by commas, e.g. 1,2,3)", f)}
		}
		out = append(out, n)
	}
	return out, nil
}

// keyFlag is a command-line flag that sets one config key
// (tune.FlagOverride).
type keyFlag struct {
	Flag string // the flag's name, e.g. "depth"
	Key  string // the config key, e.g. "engine.depth"; "@budget" is the method's step budget
	Str  bool   // the value is a TOML string
	Help string // the flag's usage line
}

// keyFlags are the flags tune offers to override config keys, in the
// order of its usage text.
func keyFlags() []keyFlag {
	f := func(flag, key string, str bool, help string) keyFlag {
		return keyFlag{Flag: flag, Key: key, Str: str, Help: "override " + key + help}
	}
	return []keyFlag{
		f("method", "method", true, ": "+fmt.Sprint(tune.MethodNames())),
		f("schema", "schema", true, ": "+engine.SchemaNames),
		f("seed", "seed", false, ""),
		f("concurrency", "concurrency", false, " (games at once; 0 = all cores; may change on -resume)"),
		f("depth", "engine.depth", false, ""),
		f("width", "engine.width", false, ""),
		f("steps", "@budget", false, " (the method's step budget, e.g. ga.generations)"),
		f("generations", "@budget", false, " (GA runs only)"),
		f("iterations", "@budget", false, " (PSO and SPSA runs only)"),
		f("rounds", "@budget", false, " (Texel runs only)"),
		f("start", "start", true, " (spsa, texel: start from a run directory, weight file or baseline instead of a random vector)"),
		f("openings", "openings", true, " (balanced, generated or an opening file)"),
	}
}

// display is a run's progress display (progress.Run: the bar and step
// lines): Plan starts a bar of total games under label, Games moves it,
// Step prints a step line and restarts the bar for the games left.
type display interface {
	Plan(label string, total int)
	Games(done, total int)
	Step(label string, games, left int)
}

// displayEvents wires a job's events to d: one bar for the whole
// optimisation labelled "<unit> <done>/<total>" (the method's forecast),
// a line per step, a bar for the verification ladder.
func displayEvents(d display) tune.Events {
	var unit string
	label := func(st optimize.Status, f optimize.Forecast) string {
		return fmt.Sprintf("%s %d/%d", unit, st.Steps, st.Steps+f.Steps)
	}
	return tune.Events{
		Plan: func(p tune.Plan) {
			unit = p.Unit
			d.Plan(label(p.Status, p.Forecast), p.Forecast.Games)
		},
		Games: d.Games,
		Step: func(rec optimize.Record, st optimize.Status, f optimize.Forecast) {
			d.Step(label(st, f), rec.Games, f.Games)
		},
		Verify: func(games int) { d.Plan("verification", games) },
	}
}

// summary is what a finished launch tells its user: a sweep's comparison
// table and the files it wrote, a chain's stages with its best vector and
// report, a run's steps and games with its best vector (only when
// verbose is false: a run's progress lines have said the rest).
func summary(l *tune.Launch, out *tune.Outcome, verbose bool) string {
	switch {
	case l.Kind == tune.LaunchSweep:
		base := filepath.Join(l.Dir, tune.FileCompare)
		return out.Comparison.Markdown() + fmt.Sprintf("wrote %s.md, %s-ladder.png, %s-ladder.svg\n", base, base, base)
	case l.Kind == tune.LaunchChain:
		return fmt.Sprintf("chain done: %d stages in %s. Best vector: %s\nreport: %s\n", len(out.Dirs), l.Dir, out.Best(), out.Report())
	case !verbose:
		return fmt.Sprintf("done: %d steps, %d games. Best vector: %s\n", out.Status.Steps, out.Status.Games, out.Best())
	}
	return ""
}
