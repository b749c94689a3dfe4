package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/tune/runs"
)

// parseSub parses a subcommand's flags with its run directories before or
// after them. help is true after -h (the usage is printed: the command
// ends with status 0); a bad flag is a usageError.
func parseSub(fs *flag.FlagSet, args []string) (dirs []string, help bool, err error) {
	for {
		if err := cmdline.Parse(fs, args); errors.Is(err, flag.ErrHelp) {
			return nil, true, nil
		} else if err != nil {
			return nil, false, usageError{err}
		}
		if fs.NArg() == 0 {
			return dirs, false, nil
		}
		dirs = append(dirs, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// exportCmd is `tune export RUNDIR [-step K] [-o FILE] [-force]`: the
// run's best vector (or the best after step K) as an engine weight file
// with its provenance, to standard output or -o (not overwritten without
// -force).
func exportCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tune export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the weight file here (default: standard output)")
	force := fs.Bool("force", false, "overwrite an existing -o file")
	step := fs.Int("step", -1, "export the best vector after this step (generation or iteration, from 0) instead of the last")
	fs.IntVar(step, "generation", -1, "the same as -step")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune export RUNDIR [-step K] [-o FILE] [-force]\n")
		cmdline.PrintDefaults(fs)
	}
	dirs, help, err := parseSub(fs, args)
	if help || err != nil {
		return err
	}
	if len(dirs) != 1 {
		fs.Usage()
		return usageError{fmt.Errorf("export: want one run directory, have %d", len(dirs))}
	}
	if err := runs.ExportTo(stdout, stderr, dirs[0], *step, *out, *force); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// compareCmd is `tune compare [-o BASE] [-metric M] DIR...` over runs,
// chains and sweeps. Without -o it prints the runs' verification ladders
// side by side (runs.CompareTable: one row per run, then each method's
// mean Elo and spread per rung, a sweep's runs apart) and writes nothing.
// With -o BASE it also writes (runs.WriteCompare) one chart (BASE.png,
// BASE.svg) and a CSV table of a metric by step (by default the measured
// Elo, else the fitness, …), e.g. the population diversity of an
// original-form and an improved-form GA run from the same initial
// population (Chen 2010 §4.5); and BASE.md and BASE-ladder.png with the
// table. A run lacking what is compared is left out with a note, printed
// and in BASE.md. With -curve (and -o) it draws learning curves instead
// (runs.LearningCurves): Elo by games spent, one line per LABEL=DIR,DIR…
// group or sweep.
func compareCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tune compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "also write the charts and tables: BASE.md, BASE-ladder.png, BASE.png, BASE.svg, BASE.csv "+
		"(default: print the table only)")
	metric := fs.String("metric", "", "the metric to chart by step: elo, fitness, diversity, gene-std, gene:NAME (e.g. gene:S3) or any metric of the records (w, logloss, …);\ndefault: of elo, fitness, logloss and diversity the one most runs have")
	curve := fs.Bool("curve", false, "learning curves: the Elo measured during the runs (validation.elo_every) by fitness games and by wall time, one line per argument:\nLABEL=DIR[,DIR…] (one method's seeds: the mean, a band from the lowest to the highest), a sweep's DIR, or a run's DIR")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune compare [-o BASE [-metric M]] RUNDIR...\n       tune compare -curve -o BASE [LABEL=]DIR[,DIR...]...\n")
		cmdline.PrintDefaults(fs)
	}
	dirs, help, err := parseSub(fs, args)
	if help || err != nil {
		return err
	}
	switch {
	case len(dirs) == 0:
		return usageError{errors.New("compare: no run directory given; tune compare -h shows the usage")}
	case *out == "" && (*curve || *metric != ""):
		return usageError{errors.New("compare: -curve and -metric draw charts: give -o BASE for the files to write")}
	case *out == "":
		c, err := runs.CompareTable(dirs)
		if err != nil {
			return fmt.Errorf("compare: %w", err)
		}
		fmt.Fprint(stdout, c.Summary())
		return nil
	}
	if *curve {
		groups, err := runs.ParseCurveGroups(dirs)
		if err != nil {
			return usageError{fmt.Errorf("compare -curve: %w", err)}
		}
		if err := runs.WriteLearningCurves(groups, *out); err != nil {
			return fmt.Errorf("compare -curve: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s.png, %s.svg (by games), %s-time.png, %s-time.svg (by wall time), %s.csv\n", *out, *out, *out, *out, *out)
		return nil
	}
	res, err := runs.WriteCompare(dirs, *metric, *out)
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	fmt.Fprint(stdout, res.Summary())
	return nil
}
