package runs

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune"
	"github.com/roadtune/roadtune/tune/ladder"
	"gonum.org/v1/gonum/stat"
)

// RunComparison puts finished runs side by side by what decides a tuned
// vector's worth: the Elo of each run's best against the same ladder
// opponents and depths (as fishtest verifies a tune: against fixed opponents), the
// games spent and the wall time. Build it with CompareRuns.
type RunComparison struct {
	Runs []ComparedRun
	// Columns are the ladder's (opponent, depth) rungs, in the first run's
	// order, then any other run's extra rungs.
	Columns []RungKey
	// Skipped says, one line per run, why a run given is not in Runs
	// (it has no verification ladder yet): "NAME: why".
	Skipped []string
}

// RungKey names a ladder rung: an opponent at a depth, or by a clock
// (Rung.Clock) with the depth as its deepest iteration.
type RungKey struct {
	Opponent string
	Depth    int
	Clock    string
}

func (k RungKey) String() string {
	if k.Clock != "" {
		return fmt.Sprintf("%s %s", k.Opponent, k.Clock)
	}
	return fmt.Sprintf("%s d%d", k.Opponent, k.Depth)
}

// ComparedRun is one run of a comparison.
type ComparedRun struct {
	// Name is the run directory's base name, prefixed by its chain's and
	// its sweep's ("e8-ga-30/seed-1", "night/stage-2-ga") when it is a
	// sweep's run or a chain's stage (RunLabel).
	Name string
	// Sweep is the sweep the run belongs to, "" for a run of its own; the
	// per-rung summary groups the runs by it.
	Sweep   string
	Method  string
	Seed    int64
	Steps   int
	Games   int     // optimisation games (the ladder's are in the rungs)
	Seconds float64 // optimisation wall time
	// Rungs holds the run's ladder by rung; a rung the run did not play is
	// absent.
	Rungs map[RungKey]ladder.Rung
}

// RunLabel names a run among others: its directory's base name, prefixed
// by its chain's ("night/stage-2-ga") and its sweep's ("e8/seed-1") names.
func RunLabel(r *RunResults) string {
	name := r.Name()
	if r.Chain() != "" {
		name = r.Chain() + "/" + name
	}
	if r.Sweep() != "" {
		name = r.Sweep() + "/" + name
	}
	return name
}

// CompareDirs expands the directories given to `tune compare` into run
// directories, in order: a run's directory is itself; a chain's
// (IsChain) is its stages that have begun, by stage; a sweep's (tune
// -seeds) is its seed-N runs or chains, by seed. Notes name a chain's
// stages not begun yet. Errors (*InputError) name a directory that is
// none of these.
func CompareDirs(args []string) (dirs, notes []string, err error) {
	for _, a := range args {
		switch {
		case tune.IsChain(a):
			stages, err := filepath.Glob(filepath.Join(a, "stage-*"))
			if err != nil {
				return nil, nil, &tune.InputError{Err: err}
			}
			slices.SortFunc(stages, func(x, y string) int { return cmp.Compare(stageNumber(x), stageNumber(y)) })
			for _, s := range stages {
				if _, err := os.Stat(filepath.Join(s, tune.FileCheckpoint)); err != nil {
					notes = append(notes, fmt.Sprintf("%s: not begun (no %s)", s, tune.FileCheckpoint))
					continue
				}
				dirs = append(dirs, s)
			}
			if len(stages) == 0 {
				notes = append(notes, fmt.Sprintf("%s: a chain with no stage begun", a))
			}
		default:
			if _, err := os.Stat(filepath.Join(a, tune.FileConfig)); err == nil {
				dirs = append(dirs, a)
				continue
			}
			seeds, err := curveRuns(a)
			if err != nil {
				return nil, nil, &tune.InputError{Err: fmt.Errorf("%s is neither a run (no %s), a chain (no %s) nor a sweep (no seed-N runs)", a, tune.FileConfig, tune.FileChain)}
			}
			for _, s := range seeds {
				more, n, err := CompareDirs([]string{s})
				if err != nil {
					return nil, nil, err
				}
				dirs, notes = append(dirs, more...), append(notes, n...)
			}
		}
	}
	return dirs, notes, nil
}

// stageNumber is k of a chain's stage directory stage-k-method, 0 when it
// is not one.
func stageNumber(dir string) int {
	k, _, _ := strings.Cut(strings.TrimPrefix(filepath.Base(dir), "stage-"), "-")
	n, _ := strconv.Atoi(k)
	return n
}

// openCompared opens the run in dir for a comparison: a run that has not
// checkpointed a step yet gives a note ("DIR: why") and no run.
func openCompared(dir string) (*RunResults, string, error) {
	r, err := Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if _, e := os.Stat(filepath.Join(dir, tune.FileCheckpoint)); e != nil {
			return nil, fmt.Sprintf("%s: no %s checkpointed yet", dir, tune.FileCheckpoint), nil
		}
	}
	return r, "", err
}

// CompareRuns reads the runs in dirs (run directories; see CompareDirs).
// A run that has not finished its verification ladder (no ladder.json) is
// left out with a line in Skipped, as is one with no step checkpointed.
// Errors name the run directory or file that cannot be read.
func CompareRuns(dirs []string) (*RunComparison, error) {
	c := &RunComparison{}
	seen := map[RungKey]bool{}
	for _, dir := range dirs {
		r, note, err := openCompared(dir)
		if err != nil {
			return nil, err
		}
		if r == nil {
			c.Skipped = append(c.Skipped, note)
			continue
		}
		name := RunLabel(r)
		var rungs []ladder.Rung
		path := filepath.Join(dir, ladder.File)
		if err := results.ReadJSON(path, &rungs); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				c.Skipped = append(c.Skipped, fmt.Sprintf("%s: no verification ladder (no %s; phase %s)", name, ladder.File, r.Phase))
				continue
			}
			return nil, err
		}
		if len(rungs) == 0 {
			c.Skipped = append(c.Skipped, fmt.Sprintf("%s: its verification ladder played no rung", name))
			continue
		}
		run := ComparedRun{Name: name, Sweep: r.Sweep(), Method: r.Config.Method, Seed: r.Config.Seed, Steps: r.Status.Steps,
			Games: r.Status.Games, Seconds: r.Status.Seconds, Rungs: map[RungKey]ladder.Rung{}}
		for _, g := range rungs {
			if len(g.Summary.Matchups) != 1 {
				return nil, fmt.Errorf("%s: rung %s at depth %d has %d matchups, want 1", path, g.Opponent, g.Depth, len(g.Summary.Matchups))
			}
			k := RungKey{g.Opponent, g.Depth, g.Clock}
			run.Rungs[k] = g
			if !seen[k] {
				seen[k] = true
				c.Columns = append(c.Columns, k)
			}
		}
		c.Runs = append(c.Runs, run)
	}
	// Each opponent's rungs together, by depth, opponents in the order met.
	first := map[string]int{}
	for i, k := range c.Columns {
		if _, ok := first[k.Opponent]; !ok {
			first[k.Opponent] = i
		}
	}
	slices.SortStableFunc(c.Columns, func(a, b RungKey) int {
		return cmp.Or(cmp.Compare(first[a.Opponent], first[b.Opponent]), cmp.Compare(a.Clock, b.Clock), cmp.Compare(a.Depth, b.Depth))
	})
	return c, nil
}

// Markdown writes the comparison as a table (one row per run: method,
// seed, steps, games, wall time, Elo ± 95% CI per rung with its verdict)
// and, per group and rung, the runs' mean Elo, their spread (sample
// standard deviation) and how many runs' intervals lie above 0. A group
// is one method's runs of one sweep, or one method's runs of their own:
// runs of different methods are never averaged as one (a GA run and a
// PSO run are two methods of one run each, not one method over two
// seeds), and the table says so.
func (c *RunComparison) Markdown() string {
	if len(c.Runs) == 0 {
		return "No run given has a verification ladder to compare.\n"
	}
	var b strings.Builder
	b.WriteString("| run | method | seed | steps | games | wall time |")
	for _, k := range c.Columns {
		fmt.Fprintf(&b, " vs %s |", k)
	}
	b.WriteString("\n|---|---|---|---:|---:|---:|" + strings.Repeat("---|", len(c.Columns)) + "\n")
	for _, r := range c.Runs {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %s |", r.Name, r.Method, r.Seed, r.Steps, r.Games, tune.WallText(r.Seconds))
		for _, k := range c.Columns {
			g, ok := r.Rungs[k]
			if !ok {
				b.WriteString(" — |")
				continue
			}
			m := g.Match()
			fmt.Fprintf(&b, " %s (%d games, %s) |", ladder.EloText(m, 0), m.N, g.Verdict)
		}
		b.WriteString("\n")
	}
	type group struct{ sweep, method string }
	var groups []group
	seenGroup := map[group]bool{}
	for _, r := range c.Runs {
		if g := (group{r.Sweep, r.Method}); !seenGroup[g] {
			seenGroup[g] = true
			groups = append(groups, g)
		}
	}
	if len(c.Runs) > 1 {
		b.WriteString("\nBy method (and sweep): each group's mean and spread are over its own runs; runs of different methods are not averaged together.\n")
		b.WriteString("\n| runs (method) | rung | n | mean Elo | spread (SD) | stronger | inconclusive | weaker |\n|---|---|---|---:|---:|---:|---:|---:|\n")
		for _, grp := range groups {
			label := grp.sweep + " (" + grp.method + ")"
			if grp.sweep == "" {
				label = grp.method + " (single runs)"
			}
			for _, k := range c.Columns {
				var elos []float64
				count := map[string]int{}
				for _, r := range c.Runs {
					if g, ok := r.Rungs[k]; ok && (group{r.Sweep, r.Method}) == grp {
						elos = append(elos, g.Match().Elo)
						count[g.Verdict]++
					}
				}
				if len(elos) == 0 {
					continue
				}
				mean, sd := stat.MeanStdDev(elos, nil) // sd is NaN for one run
				if len(elos) < 2 {
					sd = 0
				}
				fmt.Fprintf(&b, "| %s | vs %s | %d | %+.0f | %.0f | %d | %d | %d |\n", label, k, len(elos), mean, sd,
					count["stronger"], count["inconclusive"], count["weaker"])
			}
		}
	}
	return b.String()
}

// Summary is the comparison as text for a terminal: the Markdown tables,
// then one "left out: NAME: why" line per run not compared.
func (c *RunComparison) Summary() string {
	var b strings.Builder
	b.WriteString(c.Markdown())
	for _, s := range c.Skipped {
		fmt.Fprintf(&b, "left out: %s\n", s)
	}
	return b.String()
}

// CompareTable reads the ladders of the runs of args (runs, chains and
// sweeps, as CompareDirs expands them) without writing anything: what
// `tune compare` prints without -o. What CompareDirs and CompareRuns leave
// out is in Skipped. Errors: *InputError for a directory that is no run,
// chain or sweep, or a run that cannot be read.
func CompareTable(args []string) (*RunComparison, error) {
	dirs, notes, err := CompareDirs(args)
	if err != nil {
		return nil, err
	}
	c, err := CompareRuns(dirs)
	if err != nil {
		return nil, &tune.InputError{Err: err}
	}
	c.Skipped = slices.Concat(notes, c.Skipped)
	return c, nil
}

// Chart is a grouped bar chart of every run's Elo ± 95% CI per rung: one
// group of bars per rung (opponent and depth), one colour per run, named
// once in the legend.
func (c *RunComparison) Chart() results.BarChart {
	ch := results.BarChart{
		Title:   "Tuned vectors: Elo against the ladder's opponents (95% CI)",
		YLabel:  "Elo of the run's best vector",
		RefLine: &results.HLine{Name: "equal strength", Y: 0},
		Width:   min(40, max(16, 4+0.9*float64(len(c.Runs)*len(c.Columns)))),
		Note:    "Each bar is a run's best vector against the opponent at that depth, over the ladder's game pairs; the whisker is its 95% interval. A bar whose interval contains 0 is inconclusive.",
	}
	for _, k := range c.Columns {
		for _, r := range c.Runs {
			if g, ok := r.Rungs[k]; ok {
				m := g.Match()
				ch.Bars = append(ch.Bars, results.Bar{Label: r.Name + " vs " + k.String(), Group: k.String(), Series: r.Name,
					Value: m.Elo, Lo: m.Elo - m.EloCI, Hi: m.Elo + m.EloCI})
			}
		}
	}
	return ch
}

// Write writes the comparison as BASE.md (the runs' ladder table, with a
// note on how to read it, and the chart) and BASE-ladder.png/.svg (their
// Elo bars), each atomically. Errors name the file.
func (c *RunComparison) Write(base string) error {
	md := "# Runs compared\n\nEach run's best vector against the verification ladder's opponents (Elo ± 95% CI, pentanomial; " +
		"\"inconclusive\" when the interval contains 0). Games and wall time are the optimisation's.\n\n" + c.Markdown()
	if len(c.Runs) > 0 {
		md += "\n![Elo of each run's best vector](" + filepath.Base(base) + "-ladder.png)\n"
	}
	if len(c.Skipped) > 0 {
		md += "\nLeft out:\n\n"
		for _, s := range c.Skipped {
			md += "- " + s + "\n"
		}
	}
	if err := results.WriteFileAtomic(base+".md", []byte(md)); err != nil {
		return err
	}
	if len(c.Runs) == 0 {
		return nil
	}
	return c.Chart().Save(base + "-ladder")
}
