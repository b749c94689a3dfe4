package tune

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/roadtune/roadtune/tune/budget"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/results"
)

// checkpointVersion is the layout of checkpoint.json this roadtune writes
// and reads. Version 1 (before the tune library) is not resumable.
const checkpointVersion = 2

// The phases of a job, in order: a checkpoint's and a RunState's Phase.
const (
	PhaseOptimize = "optimize" // steps remain
	PhaseVerify   = "verify"   // optimisation over; plots, verification and report remain
	PhaseDone     = "done"
)

// checkpoint is checkpoint.json: everything a resumed run needs besides
// config.toml. It is written atomically after every step (after the record
// and best.json), so a stop at any moment resumes from the last one.
type checkpoint struct {
	Version int    `json:"version"`
	Method  string `json:"method"`
	Phase   string `json:"phase"`
	// Fingerprint is a SHA-256 of Config without the keys a resume may
	// change; Config is the resolved config, key by key, so a changed
	// config.toml is refused naming what changed.
	Fingerprint string            `json:"fingerprint"`
	Config      map[string]string `json:"config"`
	// Status is the driver's count: steps, stall, games, seconds.
	Status optimize.Status `json:"status"`
	// RecordsBytes is the size of generations.jsonl holding exactly the
	// Status.Steps checkpointed records; anything after it is dropped.
	RecordsBytes int64 `json:"records_bytes"`
	// Best is the best vector after the last step (nil before the first),
	// from step BestStep, with its fitness when the method has one. It is
	// what best.json holds and the verification plays.
	Best        []float64 `json:"best"`
	BestStep    int       `json:"best_step"`
	BestFitness *float64  `json:"best_fitness,omitempty"`
	// State is the method's MarshalState.
	State json.RawMessage `json:"state"`
	// Budget is a budgeted run's budget, calibration and clock (budget.go);
	// nil for a run without one.
	Budget *budget.State `json:"budget,omitempty"`
}

// saveCheckpoint writes the checkpoint, refusing one whose counts a
// resume would refuse (checkStatus): the file keeps the last good one.
func (j *Job) saveCheckpoint() error {
	j.stampBudget()
	if err := checkStatus(j.cp.Status, j.cp.RecordsBytes); err != nil {
		return fmt.Errorf("%s not written: %w", j.dir.Path(FileCheckpoint), err)
	}
	return results.WriteJSONAtomic(j.dir.Path(FileCheckpoint), j.cp)
}

// checkStatus is why a checkpoint's counts are impossible, nil when they
// are not: steps, stall, games, seconds and records_bytes must be ≥ 0
// (seconds finite), with stall ≤ steps. The error names the field.
func checkStatus(st optimize.Status, recordsBytes int64) error {
	for _, f := range []struct {
		name string
		n    int64
	}{{"status.steps", int64(st.Steps)}, {"status.stall", int64(st.Stall)}, {"status.games", int64(st.Games)}, {"records_bytes", recordsBytes}} {
		if f.n < 0 {
			return fmt.Errorf("%s %d: must be ≥ 0", f.name, f.n)
		}
	}
	if !(st.Seconds >= 0) || math.IsInf(st.Seconds, 0) {
		return fmt.Errorf("status.seconds %g: must be finite and ≥ 0", st.Seconds)
	}
	if st.Stall > st.Steps {
		return fmt.Errorf("status.stall %d: must be at most status.steps %d", st.Stall, st.Steps)
	}
	return nil
}

// addGames is total + games, refusing a negative count and a sum that
// would overflow.
func addGames(total, games int) (int, error) {
	if games < 0 || total < 0 || games > math.MaxInt-total {
		return 0, fmt.Errorf("%d games on top of %d: counts must be ≥ 0 and their sum fit an int", games, total)
	}
	return total + games, nil
}

// restore reads and checks the checkpoint, restores the method, trims the
// records to the checkpoint and rebuilds best.json.
func (j *Job) restore() error {
	path := j.dir.Path(FileCheckpoint)
	var cp checkpoint
	if err := results.ReadJSON(path, &cp); err != nil {
		return &InputError{err}
	}
	if err := cp.checkHead(path, j.cfg.Method); err != nil {
		return err
	}
	flat, err := j.cfg.Flat()
	if err != nil {
		return err
	}
	if diff := diffFlat(cp.Config, flat); len(diff) > 0 {
		return InputErrorf("%s changed since the run started (only concurrency may change on resume; put it back or start a new run):\n  %s",
			j.dir.Path(FileConfig), strings.Join(diff, "\n  "))
	}
	if fp := fingerprint(flat); cp.Fingerprint != fp {
		return InputErrorf("%s: fingerprint %q does not match the config's %q", path, cp.Fingerprint, fp)
	}
	m, _, err := j.cfg.checkRun(j.dir.Dir, j.spec, &cp, true)
	if err != nil {
		return err
	}
	j.m, j.cp = m, cp
	return j.ensureBest()
}

// checkHead checks what a checkpoint at path says of itself: its version,
// its method (the config's, method) and its phase. Errors are
// *InputError naming path and the field.
func (cp *checkpoint) checkHead(path, method string) error {
	switch {
	case cp.Version != checkpointVersion:
		return InputErrorf("%s: version %d: this roadtune reads checkpoint version %d only (a run from another version cannot be resumed)", path, cp.Version, checkpointVersion)
	case cp.Method != method:
		return InputErrorf("%s: method %q does not match the config's %q", path, cp.Method, method)
	}
	switch cp.Phase {
	case PhaseOptimize, PhaseVerify, PhaseDone:
		return nil
	}
	return InputErrorf("%s: phase %q: want %q, %q or %q", path, cp.Phase, PhaseOptimize, PhaseVerify, PhaseDone)
}

// checkRun checks the checkpoint cp of the run in dir against the config
// c, the method's state and the run's records, and returns the restored
// method and the records. It is the one check of a run directory's
// records, shared by a resume (restore; trim cuts the records written
// after the checkpoint off generations.jsonl) and by the readers of a
// run's results (export, compare, the status pages; no trim): counts ≥ 0,
// the state the method restores with as many steps and the same best
// vector, a phase past the optimisation only when it is over, and records
// of games ≥ 0 that add up to the checkpoint's. Errors are *InputError
// naming the file, the line or field, and the rule.
func (c *Config) checkRun(dir string, spec optimize.Spec, cp *checkpoint, trim bool) (optimize.Method, []optimize.Record, error) {
	path := filepath.Join(dir, FileCheckpoint)
	bad := func(format string, args ...any) error {
		return InputErrorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
	st := cp.Status
	if err := checkStatus(st, cp.RecordsBytes); err != nil {
		return nil, nil, bad("%v", err)
	}
	m, err := c.restoreMethod(spec, cp.State)
	if err != nil {
		return nil, nil, bad("state: %v", err)
	}
	if m.Steps() != st.Steps {
		return nil, nil, bad("status counts %d steps but the method's state %d", st.Steps, m.Steps())
	}
	if !slices.Equal(m.Best(), cp.Best) {
		return nil, nil, bad("best vector %v is not the method's best %v", cp.Best, m.Best())
	}
	if st.Steps > 0 && cp.BestStep != st.Steps-1 {
		return nil, nil, bad("best_step %d: the best after %d steps comes from step %d", cp.BestStep, st.Steps, st.Steps-1)
	}
	if b := cp.Budget; b != nil {
		if !(b.Seconds > 0) || !(b.Elapsed >= 0) || math.IsInf(b.Elapsed, 0) || math.IsInf(b.Seconds, 0) {
			return nil, nil, bad("budget: seconds %g and elapsed %g must be finite, seconds > 0 and elapsed ≥ 0", b.Seconds, b.Elapsed)
		}
		if b.StoppedAt != nil && *b.StoppedAt != st.Steps {
			return nil, nil, bad("budget: stopped by the clock at step %d, but the status counts %d steps", *b.StoppedAt, st.Steps)
		}
	}
	over := m.Done() || (c.Stall > 0 && st.Stall >= c.Stall) || cp.Budget != nil && cp.Budget.StoppedAt != nil
	if cp.Phase != PhaseOptimize && (!over || cp.Best == nil) {
		return nil, nil, bad("phase %q, but the optimisation is not over (%d steps)", cp.Phase, st.Steps)
	}
	recPath := filepath.Join(dir, FileRecords)
	recs, err := readRecords(recPath, st.Steps, cp.RecordsBytes, trim)
	if err != nil {
		return nil, nil, &InputError{err}
	}
	games := 0
	for _, r := range recs {
		if games, err = addGames(games, r.Games); err != nil {
			return nil, nil, InputErrorf("%s:%d: %v", recPath, r.Step+1, err)
		}
	}
	if games != st.Games {
		return nil, nil, InputErrorf("%s: its records count %d games where %s's status counts %d", recPath, games, path, st.Games)
	}
	if len(recs) > 0 && !slices.Equal(recs[len(recs)-1].Best, cp.Best) {
		return nil, nil, InputErrorf("%s:%d: the last record's best vector is not %s's", recPath, len(recs), path)
	}
	return m, recs, nil
}

// ensureBest rewrites best.json from the checkpoint when it is missing or
// holds another vector.
func (j *Job) ensureBest() error {
	if j.cp.Best == nil {
		return nil
	}
	if j.cfg.External != nil {
		if j.bestSettingsHold() {
			return nil
		}
		j.logf("%s was missing or did not hold the checkpoint's best vector: rebuilt it\n", j.dir.Path(FileBestSettings))
		return j.writeBest(j.cp)
	}
	wf, err := engine.LoadWeightFile(j.dir.Path(FileBest))
	genes, _, verr := j.cfg.splitVector(j.cp.Best)
	if err == nil && verr == nil && slices.Equal(wf.Values, genes) && wf.Schema == j.cfg.Schema && j.bestSettingsHold() {
		return nil
	}
	j.logf("%s was missing or did not hold the checkpoint's best vector: rebuilt it\n", j.dir.Path(FileBest))
	return j.writeBest(j.cp)
}

// readRecords reads the first n records of a generations.jsonl whose first
// n lines take size bytes. With trim, anything after them (records written
// after the checkpoint, a torn last line) is cut off the file; without, it
// is only ignored. Errors name the file and line.
func readRecords(path string, n int, size int64, trim bool) ([]optimize.Record, error) {
	f, have, err := fileio.Open(path, fileio.Records)
	if errors.Is(err, os.ErrNotExist) && n == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size < 0 {
		return nil, fileio.Bad(fmt.Errorf("%s: the checkpoint's records_bytes %d: must be ≥ 0", path, size))
	}
	if have < size {
		return nil, fileio.Bad(fmt.Errorf("%s: %d bytes, but the checkpoint counts %d bytes of records: the file lost records", path, have, size))
	}
	// Only the checkpointed records are read: what follows them (a step
	// written after the checkpoint, a torn line, anything appended) is
	// never loaded.
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, &fileio.Error{Path: path, Err: err}
	}
	recs, err := parseRecords(path, data)
	if err != nil {
		return nil, fileio.Bad(err)
	}
	if len(recs) != n {
		return nil, fileio.Bad(fmt.Errorf("%s: holds %d records where the checkpoint counts %d", path, len(recs), n))
	}
	if trim && have > size {
		if err := os.Truncate(path, size); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// parseRecords decodes JSON Lines records, checking they are numbered
// 0, 1, 2, … and each has the fields every record has (step, games and
// best). Detail stays a json.RawMessage.
func parseRecords(path string, data []byte) ([]optimize.Record, error) {
	var recs []optimize.Record
	err := fileio.ScanJSONL(path, bytes.NewReader(data), func(l fileio.JSONLine) error {
		line := l.Number
		if !l.Terminated {
			return fmt.Errorf("%s:%d: torn record (no newline)", path, line)
		}
		var raw json.RawMessage
		r := optimize.Record{Detail: &raw}
		if err := fileio.DecodeJSON(l.Text, &r); err != nil {
			return fmt.Errorf("%s:%d: %v", path, line, err)
		}
		r.Detail = raw
		var has struct {
			Step  json.RawMessage `json:"step"`
			Games json.RawMessage `json:"games"`
			Best  json.RawMessage `json:"best"`
		}
		_ = json.Unmarshal(l.Text, &has) // it decoded above
		for _, f := range []struct {
			name string
			raw  json.RawMessage
		}{{"step", has.Step}, {"games", has.Games}, {"best", has.Best}} {
			if len(f.raw) == 0 || string(f.raw) == "null" {
				return fmt.Errorf("%s:%d: field %q missing: every record has step, games and best", path, line, f.name)
			}
		}
		if r.Games < 0 {
			return fmt.Errorf("%s:%d: field \"games\" %d: must be ≥ 0", path, line, r.Games)
		}
		if r.Step != len(recs) {
			return fmt.Errorf("%s:%d: record of step %d where step %d belongs", path, line, r.Step, len(recs))
		}
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return recs, nil
}
