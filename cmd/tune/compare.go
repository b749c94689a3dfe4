package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize/ga"
	"github.com/roadtune/roadtune/optimize/pso"
	"github.com/roadtune/roadtune/results"
)

// compareCmd is `tune compare -o BASE [-metric M] RUNDIR...`: one chart (and
// a CSV table) of a metric by generation/iteration for several runs, e.g.
// the population diversity of an original-form and an improved-form GA run
// from the same initial population (Chen 2010 §4.5).
//
// Metrics: "diversity" (mean pairwise Euclidean distance of the population,
// GA, or of the particles' positions, PSO), "gene-std" (mean per-gene
// standard deviation), "gene:NAME" (that gene of the best vector).
func compareCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tune compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write BASE.png, BASE.svg and BASE.csv (required)")
	metric := fs.String("metric", "diversity", "diversity, gene-std or gene:NAME (e.g. gene:S3)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tune compare -o BASE [-metric diversity|gene-std|gene:NAME] RUNDIR...\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return usageError{err}
	}
	if *out == "" || fs.NArg() == 0 {
		fs.Usage()
		return usageError{errors.New("compare: -o and at least one run directory are required")}
	}
	var series []results.Series
	unit := ""
	for _, dir := range fs.Args() {
		s, u, err := runSeries(dir, *metric)
		if err != nil {
			return usageError{fmt.Errorf("compare: %w", err)}
		}
		if unit != "" && u != unit {
			unit = "generation/iteration"
		} else {
			unit = u
		}
		series = append(series, s)
	}
	title := map[string]string{
		"diversity": "Population diversity: mean pairwise distance",
		"gene-std":  "Population diversity: mean per-gene standard deviation",
	}[*metric]
	if title == "" {
		title = "Best vector's " + strings.TrimPrefix(*metric, "gene:")
	}
	ylabel := map[string]string{
		"diversity": "mean pairwise distance (gene units)",
		"gene-std":  "mean per-gene standard deviation (gene units)",
	}[*metric]
	if ylabel == "" {
		ylabel = strings.TrimPrefix(*metric, "gene:") + " (road weight)"
	}
	chart := results.LineChart{Title: title, XLabel: unit, YLabel: ylabel, Series: series}
	if err := chart.Save(*out); err != nil {
		return err
	}
	var csv strings.Builder
	csv.WriteString("run," + unit + "," + *metric + "\n")
	for _, s := range series {
		for i := range s.X {
			fmt.Fprintf(&csv, "%s,%g,%s\n", s.Name, s.X[i], strconv.FormatFloat(s.Y[i], 'g', 10, 64))
		}
	}
	if err := results.WriteFileAtomic(*out+".csv", []byte(csv.String())); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s.png, %s.svg, %s.csv\n", *out, *out, *out)
	return nil
}

// runSeries reads one run's metric by generation/iteration.
func runSeries(dir, metric string) (results.Series, string, error) {
	cfg, err := LoadConfig(filepath.Join(dir, fileConfig))
	if err != nil {
		return results.Series{}, "", err
	}
	s := results.Series{Name: filepath.Base(filepath.Clean(dir))}
	path := filepath.Join(dir, fileGenerations)
	gene := -1
	if name, ok := strings.CutPrefix(metric, "gene:"); ok {
		names := engine.Schema(cfg.Schema).GeneNames()
		for d, n := range names {
			if n == name {
				gene = d
			}
		}
		if gene < 0 {
			return s, "", fmt.Errorf("%s: the %s schema has no gene %q (genes %s)", dir, cfg.Schema, name, strings.Join(names, ", "))
		}
	} else if metric != "diversity" && metric != "gene-std" {
		return s, "", fmt.Errorf("unknown metric %q (want diversity, gene-std or gene:NAME)", metric)
	}
	value := func(pop [][]float64, best []float64) float64 {
		switch {
		case gene >= 0:
			return best[gene]
		case metric == "diversity":
			return ga.PopulationDiversity(pop).MeanDistance
		default:
			std := ga.PopulationDiversity(pop).GeneStd
			m := 0.0
			for _, x := range std {
				m += x / float64(len(std))
			}
			return m
		}
	}
	switch cfg.Method {
	case "ga":
		recs, err := readRecords[ga.Generation](path, allRecords)
		if err != nil {
			return s, "", err
		}
		for _, r := range recs {
			pop := make([][]float64, len(r.Individuals))
			for i, ind := range r.Individuals {
				pop[i] = ind.Genes
			}
			s.X = append(s.X, float64(r.Index))
			s.Y = append(s.Y, value(pop, r.Best.Genes))
		}
		if len(recs) == 0 {
			return s, "", fmt.Errorf("%s: no generations recorded", dir)
		}
		return s, "generation", nil
	default:
		recs, err := readRecords[pso.Iteration](path, allRecords)
		if err != nil {
			return s, "", err
		}
		for _, r := range recs {
			s.X = append(s.X, float64(r.Index))
			s.Y = append(s.Y, value(r.Positions, r.GlobalBest))
		}
		if len(recs) == 0 {
			return s, "", fmt.Errorf("%s: no iterations recorded", dir)
		}
		return s, "iteration", nil
	}
}
