package runs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune"
)

// Export is the engine weight file of the run in dir (a chain's
// directory: its last stage): the best vector after step k (k < 0: after
// the last checkpointed step) with its provenance (RunResults.WeightFile),
// validated, and the run it was read from. Errors: an *InputError for a
// directory that does not exist or is not a run (isRunDir), a step the run has not reached or a vector
// the engine refuses.
func Export(dir string, k int) (*engine.WeightFile, *RunResults, error) {
	if err := isRunDir(dir); err != nil {
		return nil, nil, err
	}
	r, err := Open(dir)
	if err != nil {
		return nil, nil, &tune.InputError{Err: err}
	}
	wf, err := r.WeightFile(k)
	if err != nil {
		return nil, nil, &tune.InputError{Err: err}
	}
	if err := wf.Validate(r.Dir); err != nil {
		return nil, nil, &tune.InputError{Err: err}
	}
	return wf, r, nil
}

// isRunDir says in a user's words why dir is not a run's or a chain's
// directory, as an *InputError: there is no such directory, it is a file,
// or it holds no config.toml (and is no chain); nil when it is one.
func isRunDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tune.InputErrorf("no run directory %q (tune writes its runs under runs/ unless -out says otherwise)", dir)
	case err != nil:
		return &tune.InputError{Err: err}
	case !st.IsDir():
		return tune.InputErrorf("%s is a file, not a run directory", dir)
	case tune.IsChain(dir) || fileExists(filepath.Join(dir, tune.FileConfig)):
		return nil
	}
	return tune.InputErrorf("%s is not a run directory (it holds no %s): give a run's own directory, e.g. runs/<time>-<method>", dir, tune.FileConfig)
}

// WriteExport writes wf to path atomically (engine.WriteWeightFile). An
// existing path is an *InputError unless force, so no weight file is
// overwritten by mistake.
func WriteExport(path string, wf *engine.WeightFile, force bool) error {
	if _, err := os.Stat(path); err == nil && !force {
		return tune.InputErrorf("%s exists; use -force to overwrite it", path)
	}
	return engine.WriteWeightFile(path, wf)
}

// ExportTo is `tune export`: the weight file of the run in dir after step
// k (Export), as indented JSON on w when path is "", else written to path
// (WriteExport) with a line on w naming it. A run or chain that has not
// ended is exported all the same, with a warning on warn saying what was
// done of what (as its provenance's "unfinished" does). Errors: Export's
// and WriteExport's.
func ExportTo(w, warn io.Writer, dir string, k int, path string, force bool) error {
	wf, r, err := Export(dir, k)
	if err != nil {
		return err
	}
	if u := wf.Provenance.Unfinished; u != "" {
		fmt.Fprintf(warn, "tune: warning: %s has not finished (%s): the vector exported is the best so far; `tune -resume %s` finishes it\n", dir, u, dir)
	}
	if path == "" {
		data, err := json.MarshalIndent(wf, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(data, '\n'))
		return err
	}
	if err := WriteExport(path, wf, force); err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "exported %s (%s schema, %s %s %d) to %s\n", wf.Name, wf.Schema, r.Config.Method, r.Spec.Unit, wf.Provenance.Generation, path)
	return err
}

// CompareOutput is what WriteCompare wrote.
type CompareOutput struct {
	// Files are the paths written, in order.
	Files []string
	// Metric is the metric charted, By its X axis (the runs' step, or
	// "fitness games" for runs of different methods); "" when none was.
	Metric, By string
	// Ladder is the runs' comparison of verification ladders; nil when no
	// run has one.
	Ladder *RunComparison
	// Notes say what was left out and why, one line each ("NAME: why").
	Notes []string
}

// WriteCompare compares the runs of dirs (runs, chains and sweeps, as
// CompareDirs expands them), leaving out with a note what a run lacks:
// it charts metric by step ("" = DefaultMetric: the measured Elo, the
// fitness, …) across the runs that have it (Compare) to base.png,
// base.svg and base.csv, and the verification ladders of the runs that
// have one (CompareRuns) to base.md and base-ladder.png/.svg — e.g. the
// diversity of an original-form and an improved-form GA from the same
// initial population (Chen 2010 §4.5). base.md is written in any case,
// with the notes. Errors: *InputError for a directory that is no run,
// chain or sweep, a metric no run has; a run that cannot be read; a file
// that cannot be written.
func WriteCompare(args []string, metric, base string) (*CompareOutput, error) {
	dirs, notes, err := CompareDirs(args)
	if err != nil {
		return nil, err
	}
	out := &CompareOutput{Notes: notes}
	c, err := CompareRuns(dirs)
	if err != nil {
		return nil, &tune.InputError{Err: err}
	}
	mc, err := Compare(dirs, metric)
	var in *tune.InputError
	switch {
	case errors.As(err, &in) && metric == "" && len(c.Runs) > 0:
		// no curve to draw, but ladders to compare
		out.Notes = append(out.Notes, fmt.Sprintf("no chart by step: %v", err))
	case err != nil:
		if errors.As(err, &in) {
			return nil, err
		}
		return nil, &tune.InputError{Err: err}
	default:
		out.Metric, out.By = mc.Metric, mc.Chart.XLabel
		out.Notes = append(out.Notes, mc.Notes...)
		if err := mc.Chart.Save(base); err != nil {
			return nil, err
		}
		if err := results.WriteFileAtomic(base+".csv", mc.CSV); err != nil {
			return nil, err
		}
		out.Files = append(out.Files, base+".png", base+".svg", base+".csv")
	}
	c.Skipped = slices.Concat(out.Notes, c.Skipped)
	if err := c.Write(base); err != nil {
		return out, err
	}
	out.Ladder = c
	out.Files = append(out.Files, base+".md")
	if len(c.Runs) > 0 {
		out.Files = append(out.Files, base+"-ladder.png", base+"-ladder.svg")
	}
	return out, nil
}

// Summary is what WriteCompare wrote and why anything was left out: the
// metric charted, the ladder table, the notes, the files.
func (o *CompareOutput) Summary() string {
	var b strings.Builder
	if o.Metric != "" {
		fmt.Fprintf(&b, "charted: %s by %s\n", o.Metric, o.By)
	}
	if o.Ladder != nil {
		b.WriteString(o.Ladder.Summary())
	}
	fmt.Fprintf(&b, "wrote %s\n", strings.Join(o.Files, ", "))
	return b.String()
}
