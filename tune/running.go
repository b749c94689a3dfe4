package tune

import "github.com/roadtune/roadtune/results"

// FileRunning marks a run directory whose job is being played: Start,
// Resume and Job.Run write it, and Run removes it when it returns,
// finished, failed or interrupted (Ctrl-C). A run whose checkpoint is not
// "done" and which has no FileRunning, or one left by a process that is
// gone (a killed or crashed tune), was interrupted (Running). The marker
// is results.FileRunning, which arena's matches write too.
const FileRunning = results.FileRunning

// markRunning writes FileRunning for this process, once per job until
// Run returns: the job is played here.
func (j *Job) markRunning() error {
	if j.marked {
		return nil
	}
	if err := j.dir.MarkRunning(); err != nil {
		return err
	}
	j.marked = true
	return nil
}

// unmarkRunning removes FileRunning.
func (j *Job) unmarkRunning() {
	j.dir.UnmarkRunning()
	j.marked = false
}

// Running reports whether a process is playing the run in dir
// (results.Running). A run not running whose phase is not "done" was
// interrupted: `tune -resume DIR` continues it.
func Running(dir string) bool { return results.Running(dir) }
