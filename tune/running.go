package tune

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/roadtune/roadtune/results"
)

// FileRunning marks a run directory whose job is being played: Start,
// Resume and Job.Run write it, and Run removes it when it returns,
// finished, failed or interrupted (Ctrl-C). A run whose checkpoint is not "done"
// and which has no FileRunning, or one left by a process that is gone (a
// killed or crashed tune), was interrupted (Running).
const FileRunning = "running.json"

// runningFile is FileRunning: who plays the run.
type runningFile struct {
	PID     int       `json:"pid"`
	Host    string    `json:"host"`
	Started time.Time `json:"started"`
}

// markRunning writes FileRunning for this process, once per job until
// Run returns: the job is played here. It is a marker a crash may lose,
// written without a disk flush (results.ReplaceFile).
func (j *Job) markRunning() error {
	if j.marked {
		return nil
	}
	host, _ := os.Hostname()
	data, err := json.Marshal(runningFile{PID: os.Getpid(), Host: host, Started: time.Now().UTC()})
	if err != nil {
		return err
	}
	if err := results.ReplaceFile(j.dir.Path(FileRunning), data); err != nil {
		return err
	}
	j.marked = true
	return nil
}

// unmarkRunning removes FileRunning.
func (j *Job) unmarkRunning() {
	os.Remove(j.dir.Path(FileRunning))
	j.marked = false
}

// Running reports whether a process is playing the run in dir, as far as
// its FileRunning tells: the file is there and its process is alive (on
// this host; a process on another host is taken to be alive). A run not
// running whose phase is not "done" was interrupted: `tune -resume DIR`
// continues it.
func Running(dir string) bool {
	var rf runningFile
	if err := results.ReadJSON(filepath.Join(dir, FileRunning), &rf); err != nil {
		// Absent: not running. Unreadable (being replaced): say running.
		return !errors.Is(err, fs.ErrNotExist)
	}
	if host, _ := os.Hostname(); rf.Host != host || rf.PID <= 0 {
		return rf.PID > 0
	}
	return alive(rf.PID)
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
