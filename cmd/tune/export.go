package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize/ga"
	"github.com/roadtune/roadtune/optimize/pso"
)

// exportCmd is `tune export RUNDIR [-generation K] [-o FILE]`: the run's best
// vector (or the best of generation/iteration K) as an engine weight file
// (the format cmd/engine -weights and arena load), with its provenance.
// Without -o it goes to standard output. An existing -o file is not
// overwritten unless -force is given.
func exportCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tune export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the weight file here (default: standard output)")
	force := fs.Bool("force", false, "overwrite an existing -o file")
	step := fs.Int("generation", -1, "export the best of this generation (GA) or the global best after this iteration (PSO) instead of the final best")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune export RUNDIR [-generation K] [-o FILE] [-force]\n")
		fs.PrintDefaults()
	}
	// Accept the run directory before or after the flags.
	var dir string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		dir, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if dir == "" && fs.NArg() > 0 {
		dir = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return usageError{fmt.Errorf("export: unexpected argument %q", fs.Arg(0))}
	}
	if dir == "" {
		fs.Usage()
		return usageError{errors.New("export: a run directory is required")}
	}
	var wf *engine.WeightFile
	var err error
	if *step >= 0 {
		wf, err = stepWeightFile(dir, *step)
	} else {
		wf, err = engine.LoadWeightFile(filepath.Join(dir, fileBest))
	}
	if err != nil {
		return usageError{fmt.Errorf("export: %w", err)}
	}
	if *out == "" {
		data, err := weightFileJSON(wf)
		if err != nil {
			return err
		}
		_, err = stdout.Write(data)
		return err
	}
	if _, err := os.Stat(*out); err == nil && !*force {
		return usageError{fmt.Errorf("export: %s exists; use -force to overwrite it", *out)}
	}
	if err := engine.WriteWeightFile(*out, wf); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported %s (%s schema, %s, %s %d) to %s\n", wf.Name, wf.Schema, wf.Provenance.Method, map[string]string{"ga": "generation", "pso": "iteration"}[wf.Provenance.Method], wf.Provenance.Generation, *out)
	return nil
}

// stepWeightFile is the best vector of generation (GA) or iteration (PSO)
// k of the run in dir, read from its config and generations.jsonl.
func stepWeightFile(dir string, k int) (*engine.WeightFile, error) {
	cfg, err := LoadConfig(filepath.Join(dir, fileConfig))
	if err != nil {
		return nil, err
	}
	schema, err := engine.ParseSchema(cfg.Schema)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fileGenerations)
	run := filepath.Base(filepath.Clean(dir))
	switch cfg.Method {
	case "ga":
		recs, err := readRecords[ga.Generation](path, allRecords)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if r.Index == k {
				return bestWeightFile(cfg, schema, run, r.Best.Genes, r.Best.Fitness, k), nil
			}
		}
		return nil, fmt.Errorf("%s: no generation %d (the run has %d, from 0)", path, k, len(recs))
	default:
		recs, err := readRecords[pso.Iteration](path, allRecords)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			if r.Index == k {
				return bestWeightFile(cfg, schema, run, r.GlobalBest, 0, k), nil
			}
		}
		return nil, fmt.Errorf("%s: no iteration %d (the run has %d, from 1)", path, k, len(recs))
	}
}

// weightFileJSON is the weight file as WriteWeightFile writes it.
func weightFileJSON(wf *engine.WeightFile) ([]byte, error) {
	if err := wf.Validate("best.json"); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(wf, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
