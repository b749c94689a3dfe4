package cli

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/roadtune/roadtune/configs"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/cmdline"
	"github.com/roadtune/roadtune/internal/progress"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tournament"
)

// openingsOptions are the flags of `arena openings`.
type openingsOptions struct {
	radius, random, depth, width, min, maxMoves, concurrency int
	candidates                                               string
	refs                                                     []string
	seed                                                     uint64
	criteria                                                 tournament.BalanceCriteria
	out                                                      string
	force, json                                              bool
	settings                                                 string // "default" or "play"
}

// defaultRadius is the radius of the generated candidates when neither
// -radius nor -candidates is given: 432 openings, enough to keep 300.
const defaultRadius = 4

const openingsUsage = `usage: arena openings [flags]

Builds a balanced opening suite: plays every candidate opening between every
pair of reference players (one colour-swapped game pair per pairing) and
keeps the openings whose games the players decide rather than the colour:
at most -max-decided of its pairs won twice by the same colour, and Black's
score within [-black-lo, -black-hi]. Prints the report; -o writes the kept
suite as an opening file (one opening per line, # comments) with a header
saying how it was made. Without -o nothing is written: the report's
"before" line is the colour bias of the candidates against the references.

`

func parseOpeningsFlags(args []string, stderr io.Writer) (*openingsOptions, error) {
	def := engine.DefaultSettings()
	o := &openingsOptions{criteria: tournament.DefaultBalanceCriteria()}
	fset := flag.NewFlagSet("arena openings", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() {
		fmt.Fprint(stderr, openingsUsage)
		cmdline.PrintDefaults(fset)
	}
	fset.IntVar(&o.radius, "radius", 0, fmt.Sprintf("candidates: the generated 3-stone suite of radius `R` shuffled by -seed (default %d unless -candidates)", defaultRadius))
	fset.StringVar(&o.candidates, "candidates", "", "candidates: the opening `FILE` (one opening per line, # comments)")
	fset.Func("ref", "reference player: a baseline `NAME_OR_FILE` (repeatable; default every baseline: "+strings.Join(configs.WeightNames(), ", ")+"; none: only the -random ones)", func(s string) error {
		o.refs = append(o.refs, s)
		return nil
	})
	fset.IntVar(&o.random, "random", 0, "add `K` random symmetric references (named random-SEED-k), genes uniform in [0, 4000], drawn from -seed")
	fset.IntVar(&o.depth, "depth", def.Depth, "alpha-beta depth in moves of the references")
	fset.IntVar(&o.width, "width", def.Width, "moves kept per node of the references")
	fset.StringVar(&o.settings, "settings", "default", "the references' engine settings: default (engine.DefaultSettings, as tuning plays) or play (engine.PlaySettings: the defensive check, killers), at -depth and -width")
	fset.Uint64Var(&o.seed, "seed", 1, "seed of the generated candidates' order and of the random references")
	fset.Float64Var(&o.criteria.MaxColourDecided, "max-decided", o.criteria.MaxColourDecided, "keep an opening when at most this `fraction` of its pairs were won twice by the same colour")
	fset.Float64Var(&o.criteria.BlackLo, "black-lo", o.criteria.BlackLo, "keep an opening when Black's score is at least `S`")
	fset.Float64Var(&o.criteria.BlackHi, "black-hi", o.criteria.BlackHi, "keep an opening when Black's score is at most `S`")
	fset.IntVar(&o.min, "min", 1, "fail unless at least `N` openings are kept (and there are N candidates)")
	fset.IntVar(&o.maxMoves, "maxmoves", 0, "adjudicate a draw after N moves in all, opening included (0 = none)")
	fset.IntVar(&o.concurrency, "concurrency", runtime.GOMAXPROCS(0), "games played at once")
	fset.StringVar(&o.out, "o", "", "write the kept suite to `FILE` (atomically; an existing file only with -force)")
	fset.BoolVar(&o.force, "force", false, "let -o replace an existing file")
	fset.BoolVar(&o.json, "json", false, "print the report as JSON")
	if err := cmdline.Parse(fset, args); err != nil {
		return nil, usageError{err}
	}
	if err := cmp.Or(cmdline.Setting("depth", engine.CheckDepth(o.depth)), cmdline.Setting("width", engine.CheckWidth(o.width))); err != nil {
		return nil, usageError{err}
	}
	flagErr := func(flag, format string, a ...any) error { return usageError{cmdline.Flagf(flag, format, a...)} }
	radiusSet := false
	fset.Visit(func(f *flag.Flag) { radiusSet = radiusSet || f.Name == "radius" })
	switch {
	case fset.NArg() > 0:
		return nil, usagef("openings: unexpected argument %q (references are given with -ref)", fset.Arg(0))
	case radiusSet && o.candidates != "":
		return nil, usagef("flags -radius and -candidates exclude each other")
	case radiusSet && (o.radius < 1 || o.radius > engine.Size/2):
		return nil, flagErr("radius", "must be 1..%d, not %d", engine.Size/2, o.radius)
	case o.random < 0:
		return nil, flagErr("random", "must be 0 or more, not %d", o.random)
	case o.settings != "default" && o.settings != "play":
		return nil, flagErr("settings", "must be default or play, not %q", o.settings)
	case o.min < 1:
		return nil, flagErr("min", "must be at least 1, not %d", o.min)
	case o.maxMoves < 0:
		return nil, flagErr("maxmoves", "must be 0 or more, not %d", o.maxMoves)
	case o.concurrency < 1:
		return nil, flagErr("concurrency", "must be at least 1, not %d", o.concurrency)
	case o.force && o.out == "":
		return nil, flagErr("force", "needs -o")
	}
	if err := o.criteria.Validate(); err != nil {
		c := o.criteria
		if c.MaxColourDecided < 0 || c.MaxColourDecided > 1 || math.IsNaN(c.MaxColourDecided) {
			return nil, usagef("-max-decided %v: want a fraction in [0, 1]", c.MaxColourDecided)
		}
		return nil, usagef("-black-lo %v, -black-hi %v: want 0 ≤ lo ≤ hi ≤ 1", c.BlackLo, c.BlackHi)
	}
	if !radiusSet && o.candidates == "" {
		o.radius = defaultRadius
	}
	switch {
	case len(o.refs) == 0:
		o.refs = configs.WeightNames()
	case slices.Contains(o.refs, "none") && len(o.refs) > 1:
		return nil, usagef("-ref none excludes other -ref players")
	case slices.Contains(o.refs, "none"):
		o.refs = nil
	}
	if err := checkOutFile(o.out, o.force); err != nil {
		return nil, err
	}
	return o, nil
}

// checkOutFile is the check of an -o FILE: unless force, it must not exist
// (a usage error otherwise).
func checkOutFile(out string, force bool) error {
	if out == "" || force {
		return nil
	}
	if _, err := os.Lstat(out); err == nil {
		return usagef("-o %s exists: not replaced without -force", out)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return usagef("-o %s: %v", out, err)
	}
	return nil
}

// references builds the reference entrants: the -ref weight files, then
// the random ones.
func (o *openingsOptions) references() ([]tournament.Entrant, []string, error) {
	settings := engine.DefaultSettings()
	if o.settings == "play" {
		settings = engine.PlaySettings()
	}
	settings.Depth, settings.Width = o.depth, o.width
	var refs []tournament.Entrant
	var lines []string          // one description per reference, for the file header
	seen := map[string]string{} // weights → reference name
	for _, f := range o.refs {
		wf, err := configs.LoadWeights(f)
		if err != nil {
			return nil, nil, usagef("-ref: %v", err)
		}
		name := wf.Name
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		}
		w := wf.Weights()
		if other, ok := seen[w.String()]; ok {
			return nil, nil, usagef("-ref %s: the same weights as %s (a pair of equal players is decided by colour alone)", f, other)
		}
		seen[w.String()] = name
		refs = append(refs, tournament.Entrant{Engine: tournament.Engine{Name: name, Weights: w, Settings: settings}})
		lines = append(lines, fmt.Sprintf("%s (%s) %s", name, f, w))
	}
	for k := 1; k <= o.random; k++ {
		w, err := tournament.RandomReference(o.seed, k)
		if err != nil {
			return nil, nil, err
		}
		name := fmt.Sprintf("random-%d-%d", o.seed, k)
		if other, ok := seen[w.String()]; ok {
			return nil, nil, usagef("random reference %s: the same weights as %s", name, other)
		}
		seen[w.String()] = name
		refs = append(refs, tournament.Entrant{Engine: tournament.Engine{Name: name, Weights: w, Settings: settings}})
		lines = append(lines, fmt.Sprintf("%s (seed %d) %s", name, o.seed, w))
	}
	if len(refs) < 2 {
		return nil, nil, usagef("%d reference players: want at least 2 distinct ones (-ref, -random)", len(refs))
	}
	return refs, lines, nil
}

// candidateSuite returns the candidates and their description.
func (o *openingsOptions) candidateSuite() ([]tournament.Opening, string, error) {
	if o.candidates != "" {
		s, err := tournament.LoadOpenings(o.candidates)
		if err != nil {
			return nil, "", usageError{err}
		}
		return s, fmt.Sprintf("file %s", o.candidates), nil
	}
	s, err := tournament.GenerateOpenings(o.radius, o.seed)
	if err != nil {
		return nil, "", usageError{err}
	}
	return s, fmt.Sprintf("generated 3-stone suite, radius %d, seed %d", o.radius, o.seed), nil
}

// openingsReport is the JSON report of `arena openings`.
type openingsReport struct {
	*tournament.BalanceReport
	Source   string  `json:"source"`
	Depth    int     `json:"depth"`
	Width    int     `json:"width"`
	Settings string  `json:"settings"`
	Seconds  float64 `json:"seconds"`
	Output   string  `json:"output,omitempty"`
}

func openingsMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseOpeningsFlags(args, stderr)
	if err == nil {
		err = runOpenings(ctx, o, args, stdout, stderr)
	}
	return exitCode(stderr, "arena openings:", err)
}

func runOpenings(ctx context.Context, o *openingsOptions, args []string, stdout, stderr io.Writer) error {
	refs, refLines, err := o.references()
	if err != nil {
		return err
	}
	cands, source, err := o.candidateSuite()
	if err != nil {
		return err
	}
	if len(cands) < o.min {
		return usagef("%s: %d candidate openings, fewer than -min %d: use a larger -radius or more candidates", source, len(cands), o.min)
	}
	n := len(refs)
	prog := progress.New(stderr, progress.IsTerminal(stdout), false)
	prog.Steps = 10
	prog.Begin("openings", len(cands)*n*(n-1))
	opts := tournament.BalanceOptions{
		BiasOptions: tournament.BiasOptions{
			References: refs, MaxMoves: o.maxMoves, Concurrency: o.concurrency,
			Progress: prog.Update,
		},
		Criteria: o.criteria, MinSuite: o.min,
	}
	start := time.Now()
	kept, rep, err := tournament.BalanceSuite(ctx, cands, opts)
	prog.End()
	if rep == nil {
		return err
	}
	r := openingsReport{BalanceReport: rep, Source: source, Depth: o.depth, Width: o.width, Settings: o.settings, Seconds: time.Since(start).Seconds()}
	if err == nil && o.out != "" {
		r.Output = o.out
	}
	if o.json {
		if jerr := writeJSON(stdout, r); jerr != nil {
			return jerr
		}
	} else {
		printOpeningsReport(stdout, r)
	}
	if err != nil {
		return err
	}
	if o.out == "" {
		return nil
	}
	data := suiteFile(args, r, refLines, kept, time.Now())
	if err := results.WriteFileAtomic(o.out, data); err != nil {
		return err
	}
	if !o.json {
		fmt.Fprintf(stdout, "\nWrote %s (%d openings)\n", o.out, len(kept))
	}
	return nil
}

// printOpeningsReport writes the human report: the candidates' and the
// kept suite's colour bias, and how the colour-decided fractions of the
// candidates are spread.
func printOpeningsReport(w io.Writer, r openingsReport) {
	c := r.Criteria
	fmt.Fprintf(w, "candidates: %s (%d openings)\n", r.Source, r.Candidates)
	fmt.Fprintf(w, "references: %s; %s settings, depth %d, width %d", strings.Join(r.References, ", "), r.Settings, r.Depth, r.Width)
	if r.MaxMoves > 0 {
		fmt.Fprintf(w, ", draw after %d moves", r.MaxMoves)
	}
	fmt.Fprintf(w, "\n%d games in %.1fs\n", r.Games, r.Seconds)
	fmt.Fprintf(w, "keep: colour-decided ≤ %g, Black score in [%g, %g]\n\n", c.MaxColourDecided, c.BlackLo, c.BlackHi)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\topenings\tpairs\tBlack score\tcolour-decided\tBlack both\tWhite both\t")
	for _, row := range []struct {
		name string
		b    tournament.SuiteBias
	}{{"before", r.Before}, {"after", r.After}} {
		b := row.b
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%.3f\t%d\t%d\t\n", row.name, b.Openings, b.Pairs, b.BlackScore, b.ColourDecided, b.BlackBoth, b.WhiteBoth)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nkept %d of %d openings (%.1f%%)\n", r.Kept, r.Candidates, 100*r.KeptFraction)
	// The spread of the candidates' colour-decided fractions, in tenths.
	var bins [11]int
	for _, b := range r.PerOpening {
		bins[int(math.Round(10*b.ColourDecided()))]++
	}
	fmt.Fprint(w, "candidates by colour-decided fraction (rounded to tenths):")
	for i, n := range bins {
		if n > 0 {
			fmt.Fprintf(w, " %.1f:%d", float64(i)/10, n)
		}
	}
	fmt.Fprintln(w)
}

// suiteFile is the kept suite as an opening file
// (tournament.BalancedSuiteFile) under a header saying how it was made:
// the command, the date, the candidates and the references.
func suiteFile(args []string, r openingsReport, refLines []string, kept []tournament.Opening, now time.Time) []byte {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\#$") {
			quoted[i] = fmt.Sprintf("%q", a)
		}
	}
	refs := fmt.Sprintf("references (%s settings, depth %d, width %d", r.Settings, r.Depth, r.Width)
	if r.MaxMoves > 0 {
		refs += fmt.Sprintf(", draw after %d moves", r.MaxMoves)
	}
	header := []string{
		"Balanced opening suite, made by roadtune's `arena openings`.",
		"command: arena openings " + strings.Join(quoted, " "),
		"date: " + now.UTC().Format(time.DateOnly),
		fmt.Sprintf("candidates: %s (%d openings)", r.Source, r.Candidates),
		refs + fmt.Sprintf("), one colour-swapped game pair per pairing and opening, %d games:", r.Games),
	}
	for _, l := range refLines {
		header = append(header, "  "+l)
	}
	return tournament.BalancedSuiteFile(header, kept, r.BalanceReport)
}
