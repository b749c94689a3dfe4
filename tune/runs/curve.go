package runs

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune"
)

// CurveGroup is one line of a learning-curve chart: the runs of one
// method (usually one config over several seeds) under a label.
type CurveGroup struct {
	Label string
	Dirs  []string
}

// ParseCurveGroups reads the run arguments of `tune compare -curve`: each
// is LABEL=DIR[,DIR…] (the runs of one line), or a DIR, a line of its own
// named by the run's directory, or a sweep's directory (tune -seeds),
// whose seed-N runs make one line named by the sweep. Errors name the
// argument: an empty label or directory, a directory that is neither a
// run nor a sweep.
func ParseCurveGroups(args []string) ([]CurveGroup, error) {
	var groups []CurveGroup
	for _, a := range args {
		label, list, named := strings.Cut(a, "=")
		if !named {
			label, list = filepath.Base(filepath.Clean(a)), a
		}
		if label == "" {
			return nil, fmt.Errorf("%q: an empty label before =", a)
		}
		g := CurveGroup{Label: label}
		for _, dir := range strings.Split(list, ",") {
			if dir == "" {
				return nil, fmt.Errorf("%q: an empty run directory", a)
			}
			runs, err := curveRuns(dir)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", a, err)
			}
			g.Dirs = append(g.Dirs, runs...)
		}
		groups = append(groups, g)
	}
	return groups, nil
}

// curveRuns is dir when it holds a run (its config), else the seed-N runs
// of the sweep in dir, by seed.
func curveRuns(dir string) ([]string, error) {
	if _, err := os.Stat(filepath.Join(dir, tune.FileConfig)); err == nil {
		return []string{dir}, nil
	}
	seeds, err := filepath.Glob(filepath.Join(dir, "seed-*"))
	if err != nil {
		return nil, err
	}
	type seedDir struct {
		seed int64
		dir  string
	}
	var found []seedDir
	for _, s := range seeds {
		n, err := strconv.ParseInt(strings.TrimPrefix(filepath.Base(s), "seed-"), 10, 64)
		if err != nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(s, tune.FileConfig)); err == nil {
			found = append(found, seedDir{n, s})
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%s is neither a run (no %s) nor a sweep (no seed-N runs)", dir, tune.FileConfig)
	}
	slices.SortFunc(found, func(a, b seedDir) int { return int(a.seed - b.seed) })
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = f.dir
	}
	return out, nil
}

// CurvePoint is one Elo measurement of a run during tuning
// (validation.elo_every): after Games fitness games and Seconds of wall
// time (all steps up to and including Step; the measurements' own games
// and time are not counted), the returned vector's Elo ± CI (95%) over N
// games.
type CurvePoint struct {
	Step    int
	Games   int
	Seconds float64
	Elo, CI float64
	N       int
}

// LearningCurve reads the Elo measurements of the run in dir. Errors: the
// run cannot be opened, or it measured no Elo (validation.elo_every 0).
func LearningCurve(dir string) ([]CurvePoint, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, err
	}
	var pts []CurvePoint
	games, seconds := 0, 0.0
	for _, rec := range r.Records {
		games += rec.Games
		seconds += rec.Seconds
		e, ok := rec.Metrics[tune.MetricElo]
		if !ok {
			continue
		}
		pts = append(pts, CurvePoint{Step: rec.Step, Games: games, Seconds: seconds, Elo: e, CI: rec.Metrics[tune.MetricEloCI], N: int(rec.Metrics[tune.MetricEloGames])})
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("%s: no %s measured its Elo (set validation.elo_every)", dir, r.Spec.Unit)
	}
	return pts, nil
}

// LearningCurves draws the learning curves of groups of runs on two
// charts: fitness games spent (byGames) or the tuning's wall time in
// minutes (byTime) on x, the returned vector's Elo against the run's
// measuring opponent on y (validation.elo_every, elo_pairs, elo_depth),
// one line per group. A group's k-th point is the mean over its runs of
// their k-th measurements (runs with fewer measurements drop out of later
// points): x the mean games or minutes, y the mean Elo. Its band is the
// lowest to the highest run's Elo at that point when the group has
// several runs (the spread across seeds), or the run's own 95% interval
// when it has one. The CSV has one row per run and measurement
// ("label,run,step,games,seconds,elo,elo_ci,elo_games"). Errors: a run
// that cannot be read or measured no Elo.
func LearningCurves(groups []CurveGroup) (byGames, byTime results.LineChart, csvData []byte, err error) {
	chart := results.LineChart{
		Title:  "Learning curves: Elo of the returned vector by games spent",
		XLabel: "fitness games",
		HLines: []results.HLine{{Name: "0 Elo", Y: 0}},
	}
	timed := chart
	timed.Title, timed.XLabel = "Learning curves: Elo of the returned vector by wall time", "tuning wall time (minutes, this machine)"
	var csv strings.Builder
	csv.WriteString("label,run,step,games,seconds,elo,elo_ci,elo_games\n")
	var cfgs []tune.Config
	for gi, g := range groups {
		var curves [][]CurvePoint
		for _, dir := range g.Dirs {
			pts, err := LearningCurve(dir)
			if err != nil {
				return byGames, byTime, nil, err
			}
			r, err := Open(dir)
			if err != nil {
				return byGames, byTime, nil, err
			}
			cfgs = append(cfgs, r.Config)
			for _, p := range pts {
				fmt.Fprintf(&csv, "%s,%s,%d,%d,%s,%s,%s,%d\n", g.Label, r.Name(), p.Step, p.Games,
					strconv.FormatFloat(p.Seconds, 'f', 3, 64), strconv.FormatFloat(p.Elo, 'f', 2, 64), strconv.FormatFloat(p.CI, 'f', 2, 64), p.N)
			}
			curves = append(curves, pts)
		}
		s, b := groupCurve(g.Label, curves, func(p CurvePoint) float64 { return float64(p.Games) })
		b.Series = gi
		chart.Series = append(chart.Series, s)
		chart.Bands = append(chart.Bands, b)
		s, b = groupCurve(g.Label, curves, func(p CurvePoint) float64 { return p.Seconds / 60 })
		b.Series = gi
		timed.Series = append(timed.Series, s)
		timed.Bands = append(timed.Bands, b)
	}
	chart.YLabel = eloLabel(cfgs)
	chart.Note = "Each line is the mean over a method's runs (seeds); its band spans the lowest to the highest run (a single run: its 95% interval). x counts fitness games only, not the measurements'."
	timed.YLabel = chart.YLabel
	timed.Note = "Each line is the mean over a method's runs (seeds); its band spans the lowest to the highest run (a single run: its 95% interval). x is the wall time of the tuning steps on the machine that ran them, not the measurements' or the ladder's."
	return chart, timed, []byte(csv.String()), nil
}

// eloLabel names the Y axis of the Elo the runs of cfgs measured during
// tuning (validation.elo_every): "Elo against zhou2015 at depth 3", or
// each opponent and depth when the runs differ ("Elo against zhou2015 at
// depth 3 or 4, chen2010-pso15 at depth 3").
func eloLabel(cfgs []tune.Config) string {
	var opps []string
	depths := map[string][]int{}
	for _, c := range cfgs {
		o := c.EloOpponent()
		if _, ok := depths[o]; !ok {
			opps = append(opps, o)
		}
		if d := c.EloDepth(); !slices.Contains(depths[o], d) {
			depths[o] = append(depths[o], d)
		}
	}
	parts := make([]string, len(opps))
	for i, o := range opps {
		ds := slices.Sorted(slices.Values(depths[o]))
		words := make([]string, len(ds))
		for k, d := range ds {
			words[k] = strconv.Itoa(d)
		}
		parts[i] = fmt.Sprintf("%s at depth %s", o, strings.Join(words, " or "))
	}
	return "Elo against " + strings.Join(parts, ", ")
}

// groupCurve averages the runs' curves point by point (see
// LearningCurves) into a series and its band, x(p) on the x axis.
func groupCurve(label string, curves [][]CurvePoint, x func(CurvePoint) float64) (results.Series, results.Band) {
	s := results.Series{Name: fmt.Sprintf("%s (%d runs)", label, len(curves))}
	if len(curves) == 1 {
		s.Name = label
	}
	b := results.Band{}
	for k := 0; ; k++ {
		var xs, elo, lo, hi float64
		n := 0
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, c := range curves {
			if k >= len(c) {
				continue
			}
			p := c[k]
			xs += x(p)
			elo += p.Elo
			if len(curves) == 1 {
				lo, hi = p.Elo-p.CI, p.Elo+p.CI
			} else {
				lo, hi = min(lo, p.Elo), max(hi, p.Elo)
			}
			n++
		}
		if n == 0 {
			break
		}
		s.X, s.Y = append(s.X, xs/float64(n)), append(s.Y, elo/float64(n))
		b.X, b.Lo, b.Hi = append(b.X, xs/float64(n)), append(b.Lo, lo), append(b.Hi, hi)
	}
	return s, b
}

// WriteLearningCurves draws LearningCurves to base.png and base.svg (by
// games) and base-time.png and base-time.svg (by wall time) and writes
// its CSV to base.csv. Errors: LearningCurves' as an *InputError, a file
// that cannot be written.
func WriteLearningCurves(groups []CurveGroup, base string) error {
	chart, timed, csv, err := LearningCurves(groups)
	if err != nil {
		return &tune.InputError{Err: err}
	}
	if err := chart.Save(base); err != nil {
		return err
	}
	if err := timed.Save(base + "-time"); err != nil {
		return err
	}
	return results.WriteFileAtomic(base+".csv", csv)
}
