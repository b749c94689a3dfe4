package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/roadtune/roadtune/results"
)

// writeReport writes report.md: config summary, final best vector, the
// validation result, wall time and games/s, and the plots by relative path.
func (j *job) writeReport(plots []plotRef, val *validation) error {
	var b strings.Builder
	c := j.cfg
	fmt.Fprintf(&b, "# roadtune run %s\n\n", filepath.Base(j.dir.Dir))
	fmt.Fprintf(&b, "## Setting\n\n")
	b.WriteString(results.MarkdownTable([]string{"key", "value"}, [][]string{
		{"method", c.Method},
		{"schema", fmt.Sprintf("%s (%d genes: %s)", c.Schema, len(j.names), strings.Join(j.names, ", "))},
		{"seed", fmt.Sprint(c.Seed)},
		{"engine", fmt.Sprintf("depth %d, width %d, threat search %v", c.Engine.Depth, c.Engine.Width, c.Engine.ThreatSearch)},
		{"match", fmt.Sprintf("%d game pair(s), openings generated per batch", c.Match.Pairs)},
		{"initial genes", fmt.Sprintf("[%g, %g]", c.Init.Lo, c.Init.Hi)},
		{"bounds", boundsText(c.Bounds)},
	}))
	b.WriteString("\n")
	for _, line := range j.m.summary(j.names) {
		b.WriteString(line + "\n")
	}
	fmt.Fprintf(&b, "\nThe full config is in `%s`; every generation/iteration is a line of `%s`.\n\n", fileConfig, fileGenerations)

	genes, _, step := j.m.best()
	fmt.Fprintf(&b, "## Best vector (%s %d)\n\n", j.m.unit(), step)
	if genes != nil {
		row := make([]string, len(genes))
		for d, x := range genes {
			row[d] = fmt.Sprintf("%.1f", x)
		}
		b.WriteString(results.MarkdownTable(j.names, [][]string{row}))
		fmt.Fprintf(&b, "\nExported as `%s` (an engine weight file: `go run ./cmd/engine -weights %s`).\n\n", fileBest, j.dir.Path(fileBest))
	}

	b.WriteString("## Validation\n\n")
	if val == nil {
		b.WriteString("No validation match was configured (`validation.opponent` is empty).\n\n")
	} else {
		e := val.Estimate
		b.WriteString(results.MarkdownTable(
			[]string{"opponent", "games", "W/D/L", "as Black", "as White", "score", "Elo ± 95%", "LOS"},
			[][]string{{
				val.Opponent, fmt.Sprint(val.Games.N()),
				fmt.Sprintf("%d/%d/%d", val.Games.W, val.Games.D, val.Games.L),
				fmt.Sprintf("%d/%d/%d", val.AsBlack.W, val.AsBlack.D, val.AsBlack.L),
				fmt.Sprintf("%d/%d/%d", val.AsWhite.W, val.AsWhite.D, val.AsWhite.L),
				fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*val.score(), 100*max(0, e.ScoreLo), 100*min(1, e.ScoreHi)),
				fmt.Sprintf("%+.1f ± %.1f", e.Elo, e.EloCI),
				fmt.Sprintf("%.1f%%", 100*e.LOS),
			}}))
		fmt.Fprintf(&b, "\nGame pairs over generated 3-stone openings at depth %d, width %d; pentanomial [LL, LD, WL+DD, WD, WW] = %v. ", val.Depth, val.Width, val.Penta)
		if val.SPRT != nil {
			fmt.Fprintf(&b, "SPRT %s: LLR %.2f in [%.2f, %.2f] after %d pairs, decision %s.", val.SPRT.SPRT, val.SPRT.LLR, val.SPRT.Lower, val.SPRT.Upper, val.SPRT.Pairs, val.SPRT.Decision)
		}
		b.WriteString("\n\n")
	}

	b.WriteString("## Time\n\n")
	fmt.Fprintf(&b, "%d %ss, %d fitness games in %s (%.1f games/s).",
		j.cp.Steps, j.m.unit(), j.cp.Games, durText(j.cp.Seconds),
		float64(j.cp.Games)/max(j.cp.Seconds, 1e-9))
	if val != nil {
		fmt.Fprintf(&b, " Validation: %d games in %s.", val.Games.N(), durText(val.Seconds))
	}
	b.WriteString("\n\n## Plots\n\n")
	for _, p := range plots {
		fmt.Fprintf(&b, "### %s\n\n![%s](%s.png)\n\n", p.Title, p.Title, filepath.ToSlash(p.File))
	}
	return results.WriteFileAtomic(j.dir.Path(fileReport), []byte(b.String()))
}

func boundsText(bc BoundsConfig) string {
	if bc.Mode == "off" {
		return "off (as in the theses)"
	}
	return fmt.Sprintf("%s to [%g, %g]", bc.Mode, bc.Lo, bc.Hi)
}

// durText writes a wall time: tenths of a second below a minute, whole
// seconds above.
func durText(seconds float64) string {
	if seconds < 60 {
		return fmt.Sprintf("%.1fs", seconds)
	}
	return time.Duration(seconds * float64(time.Second)).Round(time.Second).String()
}
