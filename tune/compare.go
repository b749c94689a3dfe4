package tune

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/results"
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
}

// RungKey names a ladder rung: an opponent at a depth.
type RungKey struct {
	Opponent string
	Depth    int
}

func (k RungKey) String() string { return fmt.Sprintf("%s d%d", k.Opponent, k.Depth) }

// ComparedRun is one run of a comparison.
type ComparedRun struct {
	// Name is the run directory's base name, prefixed by its sweep's
	// ("e8-ga-30/seed-1") when it is a sweep's run.
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
	Rungs map[RungKey]Rung
}

// CompareRuns reads the runs in dirs; each must have finished its ladder
// (ladder.json). Errors name the run directory.
func CompareRuns(dirs []string) (*RunComparison, error) {
	c := &RunComparison{}
	seen := map[RungKey]bool{}
	for _, dir := range dirs {
		r, err := Open(dir)
		if err != nil {
			return nil, err
		}
		var rungs []Rung
		path := filepath.Join(dir, FileLadder)
		if err := results.ReadJSON(path, &rungs); err != nil {
			if os.IsNotExist(err) {
				return nil, fmt.Errorf("%s: no %s: the run has not finished its verification ladder (phase %s)", dir, FileLadder, r.Phase)
			}
			return nil, err
		}
		name := r.Name()
		if r.Chain() != "" {
			name = r.Chain() + "/" + name
		}
		if r.Sweep() != "" {
			name = r.Sweep() + "/" + name
		}
		run := ComparedRun{Name: name, Sweep: r.Sweep(), Method: r.Config.Method, Seed: r.Config.Seed, Steps: r.Status.Steps,
			Games: r.Status.Games, Seconds: r.Status.Seconds, Rungs: map[RungKey]Rung{}}
		for _, g := range rungs {
			if len(g.Summary.Matchups) != 1 {
				return nil, fmt.Errorf("%s: rung %s at depth %d has %d matchups, want 1", path, g.Opponent, g.Depth, len(g.Summary.Matchups))
			}
			k := RungKey{g.Opponent, g.Depth}
			run.Rungs[k] = g
			if !seen[k] {
				seen[k] = true
				c.Columns = append(c.Columns, k)
			}
		}
		c.Runs = append(c.Runs, run)
	}
	return c, nil
}

// Markdown writes the comparison as a table (one row per run: method,
// seed, steps, games, wall time, Elo ± 95% CI per rung with its verdict)
// and, per sweep and rung, the runs' mean Elo, their spread (sample
// standard deviation) and how many runs' intervals lie above 0 (runs of
// their own form one group).
func (c *RunComparison) Markdown() string {
	var b strings.Builder
	b.WriteString("| run | method | seed | steps | games | wall time |")
	for _, k := range c.Columns {
		fmt.Fprintf(&b, " vs %s |", k)
	}
	b.WriteString("\n|---|---|---|---:|---:|---:|" + strings.Repeat("---|", len(c.Columns)) + "\n")
	for _, r := range c.Runs {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %s |", r.Name, r.Method, r.Seed, r.Steps, r.Games, durText(r.Seconds))
		for _, k := range c.Columns {
			g, ok := r.Rungs[k]
			if !ok {
				b.WriteString(" — |")
				continue
			}
			m := g.Match()
			fmt.Fprintf(&b, " %+.0f ± %.0f (%d games, %s) |", m.Elo, m.EloCI, m.N, g.Verdict)
		}
		b.WriteString("\n")
	}
	var groups []string
	seenGroup := map[string]bool{}
	for _, r := range c.Runs {
		if !seenGroup[r.Sweep] {
			seenGroup[r.Sweep] = true
			groups = append(groups, r.Sweep)
		}
	}
	if len(c.Runs) > 1 {
		b.WriteString("\n| runs | rung | n | mean Elo | spread (SD) | stronger | inconclusive | weaker |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
		for _, grp := range groups {
			label := grp
			if label == "" {
				label = "(single runs)"
			}
			for _, k := range c.Columns {
				var elos []float64
				count := map[string]int{}
				for _, r := range c.Runs {
					if g, ok := r.Rungs[k]; ok && r.Sweep == grp {
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

// Chart is a bar chart of every run's Elo ± 95% CI per rung.
func (c *RunComparison) Chart() results.BarChart {
	ch := results.BarChart{
		Title:   "Tuned vectors: Elo against the ladder's opponents (95% CI)",
		YLabel:  "Elo of the run's best vector",
		RefLine: &results.HLine{Name: "equal strength", Y: 0},
		Width:   max(16, 1.2*float64(len(c.Runs)*len(c.Columns))),
	}
	for _, k := range c.Columns {
		for _, r := range c.Runs {
			if g, ok := r.Rungs[k]; ok {
				m := g.Match()
				ch.Bars = append(ch.Bars, results.Bar{Label: r.Name + " vs " + k.String(), Value: m.Elo, Lo: m.Elo - m.EloCI, Hi: m.Elo + m.EloCI})
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
		"\"inconclusive\" when the interval contains 0). Games and wall time are the optimisation's.\n\n" + c.Markdown() +
		"\n![Elo of each run's best vector](" + filepath.Base(base) + "-ladder.png)\n"
	if err := results.WriteFileAtomic(base+".md", []byte(md)); err != nil {
		return err
	}
	return c.Chart().Save(base + "-ladder")
}
