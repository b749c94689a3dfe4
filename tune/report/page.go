package report

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
)

// Page is what a run's report.md says, as the job gives it in plain
// values: the run's name, its setting as key/value rows, the method's
// description and steps, the best vector with what follows its table, the
// verification ladder's section, the time section and the plots.
type Page struct {
	Run     string     // the run's name (its directory's base name)
	Setting [][]string // key, value rows
	// Method is the method's options in a sentence (optimize.Spec's
	// Describe), Steps the steps run, Spec the method (its Unit names a
	// step).
	Method string
	Steps  int
	Spec   optimize.Spec
	// ConfigFile and RecordsFile name the run's config and records.
	ConfigFile, RecordsFile string
	// BestStep and Best are the best vector and the step it is from (Best
	// nil before the first step); Names name its values; Records are the
	// run's, which say which genes the method left unidentified.
	BestStep int
	Best     []float64
	Names    []string
	Records  []optimize.Record
	// AfterBest are the paragraphs after the best vector's table: where
	// it was written and how to play it.
	AfterBest []string
	// Ladder is the verification ladder's section (ladder.Section's
	// Markdown), Time the body of the time section.
	Ladder, Time string
	Plots        []Plot
}

// Markdown is the page as report.md holds it: a title, "## Setting" (the
// rows, the method, where the config and records are), "## Best vector",
// the ladder's section, "## Time" and "## Plots" (each plot's PNG).
func (p Page) Markdown() string {
	var b strings.Builder
	unit := p.Spec.Unit
	fmt.Fprintf(&b, "# roadtune run %s\n\n## Setting\n\n", p.Run)
	b.WriteString(results.MarkdownTable([]string{"key", "value"}, p.Setting))
	fmt.Fprintf(&b, "\n%s. %d %ss run.\n", strings.TrimSuffix(p.Method, "."), p.Steps, unit)
	fmt.Fprintf(&b, "\nThe full config is in `%s`; every %s is a line of `%s`. Fitness values of different %ss come from different tournaments and are not comparable: the verification ladder is the verdict.\n\n", p.ConfigFile, unit, p.RecordsFile, unit)
	fmt.Fprintf(&b, "## Best vector (%s %d)\n\n", unit, p.BestStep)
	if p.Best != nil {
		row := make([]string, len(p.Best))
		for d, x := range p.Best {
			row[d] = fmt.Sprintf("%.1f", x)
		}
		b.WriteString(results.MarkdownTable(p.Names, [][]string{row}))
		why, _ := Unidentified(p.Records, len(p.Names))
		if note := MarkedNote(p.Spec, p.Names, Seq(len(p.Names)), why, "Not tuned"); note != "" {
			fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(note))
		}
		for _, s := range p.AfterBest {
			b.WriteString(s)
		}
	}
	b.WriteString(p.Ladder)
	fmt.Fprintf(&b, "## Time\n\n%s\n\n## Plots\n\n", p.Time)
	for _, pl := range p.Plots {
		fmt.Fprintf(&b, "### %s\n\n![%s](%s.png)\n\n", pl.Title, pl.Title, filepath.ToSlash(pl.File))
	}
	return b.String()
}
