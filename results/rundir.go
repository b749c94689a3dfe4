package results

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// RunDir is the directory of one tuning run or match: checkpoints, logs,
// plots and report.md live under Dir. The layout inside is the caller's; RunDir
// only guarantees that a new run never writes over an old one.
type RunDir struct{ Dir string }

// CreateRunDir makes dir (and its parents, mode 0755) for a new run. An
// existing empty directory is accepted; an existing non-empty directory, or a
// file at dir, is an error that names it, so that nothing already written is
// ever lost. To continue a run use OpenRunDir.
func CreateRunDir(dir string) (*RunDir, error) {
	if dir == "" {
		return nil, errors.New("results: create run directory: empty path")
	}
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("results: create run directory: %w", err)
		}
		return &RunDir{Dir: dir}, nil
	case err != nil:
		return nil, fmt.Errorf("results: create run directory: %w", err)
	case !st.IsDir():
		return nil, fmt.Errorf("results: create run directory %s: exists and is not a directory", dir)
	}
	d, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("results: create run directory: %w", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("results: create run directory %s: %w", dir, err)
	}
	if len(names) > 0 {
		return nil, fmt.Errorf("results: create run directory %s: not empty (holds %q); choose a new or empty directory", dir, names[0])
	}
	return &RunDir{Dir: dir}, nil
}

// OpenRunDir opens the directory of an existing run, to resume it or to read
// its results. It is an error if dir is missing or not a directory.
func OpenRunDir(dir string) (*RunDir, error) {
	if dir == "" {
		return nil, errors.New("results: open run directory: empty path")
	}
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("results: open run directory: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("results: open run directory %s: not a directory", dir)
	}
	return &RunDir{Dir: dir}, nil
}

// Path joins elem onto the run directory: r.Path("plots", "fitness") is
// filepath.Join(r.Dir, "plots", "fitness"). It creates nothing.
func (r *RunDir) Path(elem ...string) string {
	return filepath.Join(append([]string{r.Dir}, elem...)...)
}

// MkdirAll creates the directory r.Path(elem...) and its parents (mode 0755)
// if missing, and returns its path.
func (r *RunDir) MkdirAll(elem ...string) (string, error) {
	p := r.Path(elem...)
	if err := os.MkdirAll(p, 0o755); err != nil {
		return "", fmt.Errorf("results: %w", err)
	}
	return p, nil
}
