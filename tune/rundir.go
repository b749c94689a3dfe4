// This file holds the housekeeping of a run directory: the names of its
// files, preparing a directory for a new run (prepareDir), reopening one
// to resume (reopenDir: temporary files of interrupted writes removed) and
// the writability check. The running marker is in running.go.

package tune

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/roadtune/roadtune/internal/fileio"
	"github.com/roadtune/roadtune/results"
	"github.com/roadtune/roadtune/tune/report"
)

// The files of a run directory.
const (
	FileConfig     = "config.toml"       // the resolved config, every key; written first
	FileCheckpoint = "checkpoint.json"   // where a resume starts; written after every step
	FileRecords    = "generations.jsonl" // one optimize.Record per step, appended
	FileBest       = "best.json"         // the best vector so far as an engine weight file
	FileValidation = "validation.json"   // the first rung of the verification ladder (tournament.Summary, as arena's summary.json)
	FileReport     = report.File         // setting, best vector, verification ladder and verdict, time, plots
	DirPlots       = report.DirPlots     // PNG and SVG charts
	DirGames       = "games"             // verification games, and fitness games with output.games
)

// prepareDir makes dir ready for a new run: created if missing; if it
// exists it may hold only leftovers of a run stopped before its first
// checkpoint (config.toml, FileRunning, temporary files), which are
// removed.
func prepareDir(dir string) error {
	leftovers, exists, err := checkNewDir(dir)
	if err != nil {
		return err
	}
	if !exists {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return InputErrorf("run directory: %v", err)
		}
		return nil
	}
	if err := CheckWritable(dir); err != nil {
		return err
	}
	for _, n := range leftovers {
		if err := os.Remove(filepath.Join(dir, n)); err != nil {
			return InputErrorf("run directory %s: %v", dir, err)
		}
	}
	return nil
}

// checkNewDir is prepareDir's check, which writes nothing: whether dir
// exists, and the leftovers it holds of a run stopped before its first
// checkpoint; an *InputError when it holds anything else.
func checkNewDir(dir string) (leftovers []string, exists bool, err error) {
	if dir == "" {
		return nil, false, InputErrorf("run directory: empty path")
	}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, InputErrorf("run directory %s: %v", dir, err)
	}
	// A run's or a chain's own files first: a run directory holds
	// best.json, which sorts before checkpoint.json.
	for _, e := range entries {
		switch e.Name() {
		case FileCheckpoint:
			if checkpointPhase(dir) == PhaseDone {
				return nil, true, InputErrorf("run directory %s holds a finished run: nothing to resume; its report.md and best.json are there "+
					"(`tune export %s` writes its weight file); choose another -out for a new run", dir, dir)
			}
			return nil, true, InputErrorf("run directory %s holds a run (checkpoint.json): resume it with `tune -resume %s`, or choose another -out", dir, dir)
		case FileChain:
			return nil, true, InputErrorf("run directory %s holds a chain (%s): resume it with `tune -resume %s`, or choose another -out", dir, FileChain, dir)
		}
	}
	for _, e := range entries {
		switch {
		case fileio.IsTemp(e.Name()) || e.Name() == FileConfig || e.Name() == FileRunning:
			leftovers = append(leftovers, e.Name())
		default:
			return nil, true, InputErrorf("run directory %s is not empty (holds %q) and holds no run: choose another -out, a new or empty directory", dir, e.Name())
		}
	}
	return leftovers, true, nil
}

// CheckWritable fails unless a file can be created in dir (it creates and
// removes one). Errors: an *InputError naming dir.
func CheckWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".write-check.tmp-*")
	if err != nil {
		return InputErrorf("run directory %s is not writable: %v", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// reopenDir opens the run directory dir to resume it: it must be writable;
// temporary files of interrupted writes are removed (fileio.RemoveTemps:
// in dir and every directory below it); it must hold a config.toml.
// Errors: *InputError naming what dir is.
func reopenDir(dir string) (*results.RunDir, error) {
	rd, err := results.OpenRunDir(dir)
	if err != nil {
		return nil, &InputError{err}
	}
	if err := CheckWritable(dir); err != nil {
		return nil, err
	}
	if _, err := fileio.RemoveTemps(dir); err != nil {
		return nil, InputErrorf("run directory %s: %v", dir, err)
	}
	if _, err := os.Stat(rd.Path(FileConfig)); errors.Is(err, os.ErrNotExist) {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			return nil, InputErrorf("%s is not a run directory (it holds no %s): resume a run's own directory, e.g. runs/<time>-<method>", dir, FileConfig)
		}
		return nil, InputErrorf("%s holds no %s: the run stopped before anything usable was written; start it again with the same -out %s", dir, FileConfig, dir)
	}
	return rd, nil
}

// checkpointPhase is the phase the checkpoint in dir records ("optimize",
// "verify" or "done"), "" when it cannot be read: a new run's check only
// words its refusal by it.
func checkpointPhase(dir string) string {
	var cp struct {
		Phase string `json:"phase"`
	}
	data, err := fileio.ReadFile(filepath.Join(dir, FileCheckpoint), fileio.Checkpoint)
	if err != nil || json.Unmarshal(data, &cp) != nil {
		return ""
	}
	return cp.Phase
}
