// This file holds the command line's part of a launch: the flags that
// set config keys (keyFlags, -hours), which flags a resumed run takes, and
// resolving a launch from the flags' values (launchCommandLine); the
// library tune takes the values (tune.Override, launch.New,
// launch.Resume), never flags.

package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/launch"
)

// hoursOverride is the override -hours H gives: the config's budget
// (tune.Config.Budget) as H hours, its source "flag -hours". Errors: a
// *InputError naming the flag when H is not a positive number of hours.
func hoursOverride(h string) (tune.Override, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(h), 64)
	d := time.Duration(x * float64(time.Hour))
	if err != nil || !(x > 0) || x > 1e5 || d <= 0 {
		return tune.Override{}, &tune.InputError{Err: cmdline.Flagf("hours", "must be a positive number of hours (e.g. 8 or 0.5), not %q", h)}
	}
	return tune.Override{Key: "budget", Value: strconv.Quote(d.String()), Source: "flag -hours"}, nil
}

// keyFlag is a command-line flag that sets one config key
// (tune.FlagOverride). Its value is kept as given (a string) so that a
// flag not given leaves the config's value; its usage names the type it
// takes with a `backquoted` placeholder (N, H, NAME).
type keyFlag struct {
	Flag string // the flag's name, e.g. "depth"
	Key  string // the config key, e.g. "engine.depth"; "@budget" is the method's step budget
	Str  bool   // the value is a TOML string
	Help string // the flag's usage: what it sets and where its default comes from
}

// keyFlags are the flags tune offers to override config keys, in the
// order of its usage text.
func keyFlags() []keyFlag {
	cfg := func(key string) string {
		return " (default: the config's " + key + "; with no -config, configs/default.toml's)"
	}
	budget := func(unit, runs string) keyFlag {
		return keyFlag{unit, "@budget", false, fmt.Sprintf("run `N` %s (%s runs only; the same as -steps)", unit, runs)}
	}
	return []keyFlag{
		{"method", "method", true, "the optimiser `NAME`: " + strings.Join(tune.MethodNames(), ", ") + cfg("method")},
		{"schema", "schema", true, "the weight schema `NAME`: " + engine.SchemaNames + cfg("schema")},
		{"seed", "seed", false, "the seed `N` of every random choice of the run, an integer" + cfg("seed")},
		{"concurrency", "concurrency", false, "play `N` games at once, 0 = all cores; may change on -resume" +
			cfg("concurrency, 0 unless set")},
		{"depth", "engine.depth", false, fmt.Sprintf("alpha-beta depth `N` in moves of the tuning games, 1..%d", engine.MaxDepth) +
			cfg("engine.depth")},
		{"width", "engine.width", false, fmt.Sprintf("keep `N` moves per node in the tuning games, 1..%d", engine.MaxWidth) +
			cfg("engine.width")},
		{"steps", "@budget", false, "run `N` steps of the method: generations, iterations or rounds" +
			cfg("budget, e.g. ga.generations")},
		budget("generations", "GA and CMA-ES"),
		budget("iterations", "PSO and SPSA"),
		budget("rounds", "Texel"),
		{"hours", "budget", false, "end within `H` hours, a positive number (e.g. 8 or 0.5): calibrate on this machine and " +
			"size the method's step budget to fit; not with -steps"},
		{"start", "start", true, "start (spsa, texel) from `RUN|FILE|NAME`: a run directory, a weight file or a baseline, " +
			"instead of a random vector" + cfg("start")},
		{"openings", "openings", true, "play the tuning games from the openings `SUITE|FILE`: balanced, generated or an " +
			"opening file" + cfg("openings")},
	}
}

// commandLine is what tune's command line says about the launch: the
// values of its launch flags and the names of every flag given.
type commandLine struct {
	Config string // -config FILE ("" = the embedded default)
	Resume string // -resume DIR ("" = a new launch)
	Out    string // -out DIR ("" = tune.DefaultRunDir)
	Seeds  string // -seeds LIST ("" = one run or chain)
	// Keys are the key flags given (keyFlag.Flag → value, -concurrency
	// among them), applied to the config in keyFlags' order.
	Keys map[string]string
	// Given names every flag given; Free, the command's flags that touch
	// no result (display, pages, where the games are played), which a
	// resumed run also takes.
	Given, Free []string
}

// launchCommandLine resolves the launch c asks for and the -concurrency
// it gives (nil: not given). With -resume the run keeps its config: only
// -concurrency (the config key a resume may change) and the Free flags may
// come with it. A new launch loads the config (tune.LoadEmbedded for ""), sets
// the key flags, and makes one run, a chain (then) or a sweep (-seeds).
// Errors, all bad input: a *InputError naming the flag (a bad
// -concurrency, another flag with -resume, -resume not a directory, a bad
// -seeds list or one given with -seed), the config's *ConfigError, a
// *InputError for a config file that cannot be read.
func launchCommandLine(c commandLine, now time.Time) (*launch.Launch, *int, error) {
	var conc *int
	if v, ok := c.Keys["concurrency"]; ok {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			return nil, nil, &tune.InputError{Err: cmdline.Flagf("concurrency", "must be an integer, not %q", v)}
		case n < 0:
			return nil, nil, &tune.InputError{Err: cmdline.Flagf("concurrency", "must be 0 (all cores) or more, not %d", n)}
		}
		conc = &n
	}
	if c.Resume != "" {
		for _, name := range c.Given {
			if name != "resume" && !tune.Resumable(name) && !slices.Contains(c.Free, name) {
				return nil, nil, &tune.InputError{Err: cmdline.Flagf(name, "cannot be given with -resume: a resumed run keeps its config (only -concurrency, %s may change)", "-"+strings.Join(c.Free, ", -"))}
			}
		}
		if err := cmdline.Dir("resume", c.Resume, "tune writes its runs under runs/ unless -out says otherwise"); err != nil {
			return nil, nil, &tune.InputError{Err: err}
		}
		return launch.Resume(c.Resume), conc, nil
	}
	l, err := launchNew(c.Config, c.Keys, c.Out, c.Seeds, now)
	return l, conc, err
}

// launchNew is launchCommandLine's new launch: the config at path with
// the key flags, the run directory out, the seeds of a -seeds list.
func launchNew(path string, keys map[string]string, out, seeds string, now time.Time) (*launch.Launch, error) {
	var ov []tune.Override
	for _, k := range keyFlags() {
		v, ok := keys[k.Flag]
		switch {
		case !ok:
		case k.Flag == "hours":
			o, err := hoursOverride(v)
			if err != nil {
				return nil, err
			}
			ov = append(ov, o)
		default:
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
		return nil, launch.AsInput(err)
	}
	var list []int64
	if seeds != "" {
		if _, ok := keys["seed"]; ok {
			return nil, &tune.InputError{Err: errors.New("-seed and -seeds cannot be combined")}
		}
		if list, err = launch.ParseSeeds(seeds); err != nil {
			return nil, err
		}
	}
	l, err := launch.New(cfg, out, list, now)
	if err != nil {
		return nil, launch.AsInput(err)
	}
	return l, nil
}
