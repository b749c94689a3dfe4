package tune

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/results"
)

// Export is the engine weight file of the run in dir (a chain's
// directory: its last stage): the best vector after step k (k < 0: after
// the last checkpointed step) with its provenance (RunResults.WeightFile),
// validated, and the run it was read from. Errors: an *InputError for a
// directory that is not a run, a step the run has not reached or a vector
// the engine refuses.
func Export(dir string, k int) (*engine.WeightFile, *RunResults, error) {
	r, err := Open(dir)
	if err != nil {
		return nil, nil, &InputError{err}
	}
	wf, err := r.WeightFile(k)
	if err != nil {
		return nil, nil, &InputError{err}
	}
	if err := wf.Validate(r.Dir); err != nil {
		return nil, nil, &InputError{err}
	}
	return wf, r, nil
}

// WriteExport writes wf to path atomically (engine.WriteWeightFile). An
// existing path is an *InputError unless force, so no weight file is
// overwritten by mistake.
func WriteExport(path string, wf *engine.WeightFile, force bool) error {
	if _, err := os.Stat(path); err == nil && !force {
		return inputErr("%s exists; use -force to overwrite it", path)
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
	// Ladder is the runs' comparison of verification ladders; nil when a
	// run has none, and NoLadder says why.
	Ladder   *RunComparison
	NoLadder error
}

// WriteCompare charts metric by step across the runs in dirs (Compare) to
// base.png, base.svg and base.csv, and when every run has finished its
// verification ladder, writes their comparison (CompareRuns) to base.md
// and base-ladder.png/.svg — e.g. the diversity of an original-form and
// an improved-form GA from the same initial population (Chen 2010 §4.5).
// Errors: Compare's as an *InputError (a run that cannot be read, an
// unknown metric), a file that cannot be written.
func WriteCompare(dirs []string, metric, base string) (*CompareOutput, error) {
	chart, csv, err := Compare(dirs, metric)
	if err != nil {
		return nil, &InputError{err}
	}
	if err := chart.Save(base); err != nil {
		return nil, err
	}
	if err := results.WriteFileAtomic(base+".csv", csv); err != nil {
		return nil, err
	}
	out := &CompareOutput{Files: []string{base + ".png", base + ".svg", base + ".csv"}}
	c, err := CompareRuns(dirs)
	if err != nil {
		out.NoLadder = err
		return out, nil
	}
	if err := c.Write(base); err != nil {
		return out, err
	}
	out.Ladder = c
	out.Files = append(out.Files, base+".md", base+"-ladder.png", base+"-ladder.svg")
	return out, nil
}

// Summary lists what WriteCompare wrote under base, with the ladder
// table, or why there is none.
func (o *CompareOutput) Summary(base string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "wrote %s.png, %s.svg, %s.csv\n", base, base, base)
	if o.Ladder == nil {
		fmt.Fprintf(&b, "no ladder table: %v\n", o.NoLadder)
		return b.String()
	}
	b.WriteString(o.Ladder.Markdown())
	fmt.Fprintf(&b, "wrote %s.md, %s-ladder.png, %s-ladder.svg\n", base, base, base)
	return b.String()
}
