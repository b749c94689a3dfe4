package progress

import (
	"io"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Run follows a whole tuning run: one bar for all its games (steps done of
// all in the description, games of this session against the games the
// method forecasts, games/s, and the ETA at the rate measured since the
// phase began: Plan), with lines (one per step) printed above
// it. When the output is not a terminal it prints a plain line every
// Interval instead. Its methods may be called from any goroutine; the zero
// value is not usable: use NewRun.
type Run struct {
	mu        sync.Mutex
	out       io.Writer
	tty       bool
	quiet     bool
	bar       *progressbar.ProgressBar
	label     string
	status    string    // Status: shown after the label
	end       time.Time // PlannedEnd: shown after the ETA; zero for none
	eta       string    // the ETA shown on the bar (etaText)
	start     time.Time
	lastPrint time.Time
	played    int     // games of completed steps, this session
	total     int     // games forecast for this session
	batches   batches // the batches of the step in flight, as Display counts them
}

// NewRun returns a run display writing to out: a bar when tty is true,
// plain lines otherwise; quiet shows only the lines written to it.
func NewRun(out io.Writer, tty, quiet bool) *Run {
	return &Run{out: out, tty: tty, quiet: quiet}
}

// Plan starts (or restarts, for a new phase) the bar: label is shown
// before it (e.g. "generation 3/40"), total the games forecast for what is
// left.
func (r *Run) Plan(label string, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finish()
	r.label, r.total, r.played, r.eta = label, total, 0, ""
	r.batches = batches{}
	r.start, r.lastPrint = time.Now(), time.Now()
	if r.quiet || !r.tty {
		return
	}
	r.bar = newBar(r.out, r.describe(), total, false)
	_ = r.bar.RenderBlank()
}

// Games reports done of total games of the batch in flight; a step may
// play several batches in a row, which Games adds up.
func (r *Run) Games(done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.batches.add(done, total)
	r.show()
}

// Step marks a step complete: games played in it, the new label and the
// games still forecast after it (the method's own figure).
func (r *Run) Step(label string, games, left int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.played += games
	r.batches = batches{}
	r.label = label
	r.total = r.played + left
	if r.bar != nil {
		r.bar.Describe(r.describe())
	}
	r.show()
}

// show updates the bar or prints a plain line when Interval has passed.
func (r *Run) show() {
	if r.quiet {
		return
	}
	all := r.played + r.batches.offset + r.batches.lastDone
	want := max(r.total, all)
	if r.bar != nil {
		if eta := etaText(all, want, time.Since(r.start)); eta != r.eta {
			r.eta = eta
			r.bar.Describe(r.describe())
		}
		setBar(r.bar, all, want)
		return
	}
	if now := time.Now(); now.Sub(r.lastPrint) >= Interval {
		r.lastPrint = now
		plainLine(r.out, r.label, r.extra(now), all, want, r.start, now)
	}
}

// PlannedEnd sets a budgeted run's planned end (the wall-clock time its
// budget runs out; zero for none), shown as a time of day ("planned end
// 06:00", with the day's name when it is not today) after the ETA, on
// the bar and the plain lines, through every phase.
func (r *Run) PlannedEnd(t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.end = t
	if r.bar != nil {
		r.bar.Describe(r.describe())
	}
}

// endText is the planned end as the bar and lines show it, "" for none.
func (r *Run) endText(now time.Time) string {
	if r.end.IsZero() {
		return ""
	}
	return "planned end " + TimeOfDay(r.end, now)
}

// TimeOfDay writes a wall-clock time as the time of day in local time
// ("06:00"), with the day's name when it is not now's day ("Tue 06:00").
func TimeOfDay(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04")
	}
	return t.Format("Mon 15:04")
}

// extra is what follows the ETA: the planned end, then the status.
func (r *Run) extra(now time.Time) string {
	var parts []string
	for _, s := range []string{r.endText(now), r.status} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " · ")
}

// Status sets a short live text shown after the label, e.g. the
// workers of a cluster run ("" for none): on the bar after " · " from its
// next redraw, at the end of the plain lines. It may change at any time.
func (r *Run) Status(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s == r.status {
		return
	}
	r.status = s
	if r.bar != nil {
		r.bar.Describe(r.describe())
	}
}

// describe is the bar's description: the label, the ETA (once a game of
// the phase is played), the planned end, then the status.
func (r *Run) describe() string {
	s := r.label
	if r.eta != "" {
		s += " · ETA " + r.eta
	}
	if x := r.extra(time.Now()); x != "" {
		s += " · " + x
	}
	return s
}

// Write prints p above the bar (it is how the run's lines reach the
// screen without tearing the bar).
func (r *Run) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.bar == nil {
		return r.out.Write(p)
	}
	_ = r.bar.Clear()
	n, err := r.out.Write(p)
	_ = r.bar.RenderBlank()
	return n, err
}

// End removes the bar.
func (r *Run) End() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finish()
}

func (r *Run) finish() {
	if r.bar != nil {
		_ = r.bar.Finish()
		_ = r.bar.Clear()
		r.bar = nil
	}
}
