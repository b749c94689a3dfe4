package results

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// FileRunning marks a run or match directory that a process is playing:
// tune's jobs and arena's matches write it when they start playing and
// remove it when they return, finished, failed or stopped cleanly
// (Ctrl-C). A directory whose work is not done and which has no
// FileRunning, or one left by a process that is gone (killed or crashed),
// was interrupted (Running): the status pages say so instead of showing
// it live with an estimated end.
const FileRunning = "running.json"

// running is FileRunning's content: who plays the directory.
type running struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
}

// MarkRunning writes FileRunning for this process in d: its work
// is played here. It is a marker a crash may lose, written without a disk
// flush (ReplaceFile).
func (d *RunDir) MarkRunning() error {
	host, _ := os.Hostname()
	data, err := json.Marshal(running{PID: os.Getpid(), Host: host, Started: time.Now().UTC()})
	if err != nil {
		return err
	}
	return ReplaceFile(d.Path(FileRunning), data)
}

// UnmarkRunning removes d's FileRunning.
func (d *RunDir) UnmarkRunning() { os.Remove(d.Path(FileRunning)) }

// Running reports whether a process is playing the directory dir, as far
// as its FileRunning tells: the file is there and its process is alive
// (on this host; a process on another host is taken to be alive). An
// unreadable marker (being replaced) counts as running.
func Running(dir string) bool {
	var r running
	if err := ReadJSON(filepath.Join(dir, FileRunning), &r); err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	if host, _ := os.Hostname(); r.Host != host || r.PID <= 0 {
		return r.PID > 0
	}
	return alive(r.PID)
}

// alive reports whether process pid exists: signal 0 checks without
// sending anything (where signals are not supported, it is taken to be
// alive).
func alive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || !errors.Is(err, os.ErrProcessDone) && !errors.Is(err, syscall.ESRCH)
}
