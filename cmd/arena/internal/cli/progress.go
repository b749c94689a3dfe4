package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows games done: a bar with ETA on stderr when stdout is a
// terminal, otherwise a plain line on stderr every 10% of the games or 10
// seconds, whichever comes first.
type progress struct {
	bar       *progressbar.ProgressBar
	w         io.Writer
	total     int
	start     time.Time
	lastTime  time.Time
	lastShown int
}

func newProgress(stdout, stderr io.Writer, total int) *progress {
	p := &progress{w: stderr, total: total, start: time.Now()}
	p.lastTime = p.start
	if isTerminal(stdout) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(stderr),
			progressbar.OptionSetDescription("games"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("games"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionFullWidth(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

// update is the Runner's Progress callback (called from one goroutine).
func (p *progress) update(done, total int) {
	if p.bar != nil {
		if total != p.total {
			p.bar.ChangeMax(total)
			p.total = total
		}
		_ = p.bar.Set(done)
		return
	}
	now := time.Now()
	if done != total && done-p.lastShown < max(total/10, 1) && now.Sub(p.lastTime) < 10*time.Second {
		return
	}
	p.lastShown, p.lastTime = done, now
	el := now.Sub(p.start)
	rate := float64(done) / el.Seconds()
	eta := "?"
	if done > 0 {
		eta = (time.Duration(float64(el) / float64(done) * float64(total-done))).Round(time.Second).String()
	}
	fmt.Fprintf(p.w, "arena: %d/%d games, %.1f games/s, elapsed %s, ETA %s\n", done, total, rate, el.Round(time.Second), eta)
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
