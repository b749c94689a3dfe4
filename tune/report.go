package tune

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune/budget"
	"github.com/roadtune/roadtune/tune/ladder"
	"github.com/roadtune/roadtune/tune/report"
)

// writeReport writes report.md (report.Page): the setting, the best
// vector, the verification ladder with its verdict, wall time and games/s,
// and the plots; then report.html beside it (report.WriteHTML).
func (j *Job) writeReport(plots []report.Plot, lr *ladder.Result, recs []optimize.Record) error {
	c := j.cfg
	unit := j.spec.Unit
	about := c.Method
	if j.spec.About != "" {
		about += ": " + j.spec.About
	}
	match := fmt.Sprintf("%d game pair(s), openings drawn per batch", c.Match.Pairs)
	setting := [][]string{
		{"method", about},
		{"schema", fmt.Sprintf("%s (%d genes: %s)", c.Schema, len(c.SchemaGenes()), strings.Join(c.SchemaGenes(), ", "))},
		{"seed", fmt.Sprint(c.Seed)},
		{"engine", c.engineLine()},
		{"match", match},
		{"initial genes", fmt.Sprintf("[%g, %g]", c.Init.Lo, c.Init.Hi)},
		{"bounds", boundsText(c.Bounds)},
		{"stall rule", stallText(c.Stall, unit)},
	}
	if c.External != nil {
		// The road weights are the engine's own business: no schema,
		// initial genes or gene bounds, and the engine row says what
		// runs and at which depth.
		setting = [][]string{
			{"method", about},
			{"tuned", fmt.Sprintf("%s: %s", c.tunedText(), c.paramsText())},
			{"seed", fmt.Sprint(c.Seed)},
			{"engine", fmt.Sprintf("%s, searching at %s", c.External.Describe(), c.External.Search())},
			{"match", match},
			{"bounds", paramBoundsText(c.Bounds)},
			{"stall rule", stallText(c.Stall, unit)},
		}
	}
	if bs := j.cp.Budget; bs != nil {
		setting = append(setting, []string{"budget", fmt.Sprintf("%s by the clock: %s = %d, sized on this machine by a calibration (%s)", bs.Budget, bs.Key, bs.Steps, bs.Calibration.Text())})
	}
	if len(c.Params) > 0 && c.External == nil {
		setting = append(setting, []string{"search settings tuned", c.paramsText()})
	}
	page := report.Page{Run: filepath.Base(j.dir.Dir), Setting: setting, Method: j.spec.Describe(c.MethodOptions()), Steps: j.cp.Status.Steps,
		Spec: j.spec, ConfigFile: FileConfig, RecordsFile: FileRecords, BestStep: j.cp.BestStep, Best: j.cp.Best, Names: c.GeneNames(), Records: recs}
	if c.External != nil {
		page.AfterBest = append(page.AfterBest, fmt.Sprintf("\nThe tuned options of the %s are in `%s`; send them to the engine after it starts, as the run sent them (values by %s), or as the protocol's options:\n\n", c.External.Describe(), FileBestSettings, c.External.PassName()))
	} else {
		page.AfterBest = append(page.AfterBest, fmt.Sprintf("\nExported as `%s` (an engine weight file: `go run ./cmd/engine -weights %s`).\n\n", FileBest, j.dir.Path(FileBest)))
	}
	if bs, err := c.bestSettings("", j.cp.Best); err == nil && bs != nil && c.External != nil {
		page.AfterBest = append(page.AfterBest, fmt.Sprintf("```\n%s\n```\n\n", strings.Join(bs.SetOption, "\n")))
	} else if err == nil && bs != nil {
		page.AfterBest = append(page.AfterBest, fmt.Sprintf("The tuned search settings are in `%s`; send them to the engine binary after it starts, as the protocol's options:\n\n```\n%s\n```\n\n", FileBestSettings, strings.Join(bs.SetOption, "\n")))
	}
	sec := ladder.Section{Rungs: lr.Rungs, Notes: lr.Notes, Best: j.dir.Path(FileBest), Validation: FileValidation}
	if x := j.cfg.External; x != nil {
		sec.External = x.Search()
	}
	page.Ladder, page.Time, page.Plots = sec.Markdown(), j.timeText(lr), plots
	if err := results.WriteFileAtomic(j.dir.Path(FileReport), []byte(page.Markdown())); err != nil {
		return err
	}
	return report.WriteHTML(j.dir.Dir)
}

// timeText is the report's time section: the steps, fitness games, wall
// time and games/s, the ladder's games and time, and a budgeted run's
// budget (and its safety valve, when it stopped the run).
func (j *Job) timeText(lr *ladder.Result) string {
	var b strings.Builder
	st, unit := j.cp.Status, j.spec.Unit
	fmt.Fprintf(&b, "%d %ss, %d fitness games in %s (%.1f games/s).", st.Steps, unit, st.Games, WallText(st.Seconds), float64(st.Games)/max(st.Seconds, 1e-9))
	if len(lr.Rungs) > 0 {
		games, secs := 0, 0.0
		for _, r := range lr.Rungs {
			games += r.Match().N
			secs += r.Summary.Seconds
		}
		fmt.Fprintf(&b, " Verification ladder: %d games in %s.", games, WallText(secs))
	}
	if bs := j.cp.Budget; bs != nil {
		fmt.Fprintf(&b, "\n\nBudget: %s; `%s` holds the budget, the calibration and the run's own time (\"budget\").", strings.TrimPrefix(bs.UsedLine(), "by the clock: "), FileCheckpoint)
		if bs.StoppedAt != nil {
			fmt.Fprintf(&b, " The run was %s, the one case where the machine's speed changes a run's results: its records are the first %d %ss of the run `%s` describes.", budget.StopLine(unit, *bs.StoppedAt, bs.Steps, ""), *bs.StoppedAt, unit, FileConfig)
		}
	}
	return b.String()
}

func boundsText(bc BoundsConfig) string {
	if !bc.Mode.Enforced() {
		return "off (as in the theses)"
	}
	return fmt.Sprintf("%s to [%g, %g]", bc.Mode, bc.Lo, bc.Hi)
}

// paramBoundsText is the bounds row of a run that tunes [[param]] tables
// alone: each value kept in its [min, max] as the bound mode says.
func paramBoundsText(bc BoundsConfig) string {
	if !bc.Mode.Enforced() {
		return "off: values outside a [[param]]'s [min, max] are played at the nearest end"
	}
	return string(bc.Mode) + " to each [[param]]'s [min, max]"
}

func stallText(stall int, unit string) string {
	if stall == 0 {
		return "off"
	}
	return fmt.Sprintf("stop after %d %ss with the best vector unchanged", stall, unit)
}
