package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// Interval is how often plain mode prints a line.
const Interval = 10 * time.Second

// Display follows one task (a generation, a match) at a time. Its Update
// method may be called from any goroutine. The zero value is not usable:
// use New.
type Display struct {
	mu        sync.Mutex
	out       io.Writer
	tty       bool
	quiet     bool
	label     string
	bar       *progressbar.ProgressBar
	start     time.Time
	lastPrint time.Time
	batches   batches // the task's batches so far
	expected  int
	lastShown int
	// Steps, when > 0, also prints a plain line each time another
	// 1/Steps of the task's games is done (arena uses 10).
	Steps int
}

// IsTerminal reports whether w is a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// New returns a display writing to out: a bar when tty is true, plain
// lines otherwise (pass IsTerminal of the stream the user watches); quiet
// shows nothing.
func New(out io.Writer, tty, quiet bool) *Display {
	return &Display{out: out, tty: tty, quiet: quiet}
}

// Begin starts a task of about expected games (0 if unknown; the total
// grows as batches report theirs).
func (d *Display) Begin(label string, expected int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.label, d.expected = label, expected
	d.start, d.lastPrint = time.Now(), time.Now()
	d.batches, d.lastShown = batches{}, 0
	if d.quiet || !d.tty {
		return
	}
	d.bar = newBar(d.out, label, expected, true)
}

// Update reports done of total games of the current batch; a task may run
// several batches in a row (a GA generation plays its groups, then its
// elite), which Update adds up.
func (d *Display) Update(done, total int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	all := d.batches.add(done, total)
	want := max(d.expected, d.batches.offset+total)
	if d.quiet {
		return
	}
	if d.bar != nil {
		setBar(d.bar, all, want)
		return
	}
	now := time.Now()
	step := d.Steps > 0 && (all-d.lastShown >= max(want/d.Steps, 1) || all == want)
	if step || now.Sub(d.lastPrint) >= Interval {
		d.lastPrint, d.lastShown = now, all
		plainLine(d.out, d.label, "", all, want, d.start, now)
	}
}

// setBar shows all of want games on a bar, growing its end if needed.
func setBar(bar *progressbar.ProgressBar, all, want int) {
	if int64(want) != bar.GetMax64() {
		bar.ChangeMax(want)
	}
	_ = bar.Set(all)
}

// plainLine is the progress line printed where no bar can be drawn;
// status, when not empty, ends it after " · ".
func plainLine(out io.Writer, label, status string, all, want int, start, now time.Time) {
	rate := float64(all) / max(now.Sub(start).Seconds(), 1e-9)
	eta := etaText(all, want, now.Sub(start))
	if eta == "" {
		eta = "?"
	}
	if status != "" {
		status = " · " + status
	}
	fmt.Fprintf(out, "%s: %d/%d games, %.1f games/s, elapsed %s, ETA %s%s\n", label, all, want, rate, now.Sub(start).Round(time.Second), eta, status)
}

// etaText is the time the want − all games left take at the rate of the
// all games played in elapsed (the rate measured in this phase: the
// verification ladder's depths play at another speed than the
// optimisation), in whole seconds; "" before the first game.
func etaText(all, want int, elapsed time.Duration) string {
	if all <= 0 || elapsed <= 0 || want < all {
		return ""
	}
	left := time.Duration(float64(want-all) / float64(all) * float64(elapsed))
	return left.Round(time.Second).String()
}

// End finishes the task's bar.
func (d *Display) End() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.bar != nil {
		_ = d.bar.Finish()
		_ = d.bar.Clear()
		d.bar = nil
	}
}

// newBar is the games bar both displays use: count, games/s, elapsed
// and, with predict, the bar's own predicted time (from its last few
// updates; Run shows its own ETA instead), cleared when finished.
func newBar(out io.Writer, label string, total int, predict bool) *progressbar.ProgressBar {
	return progressbar.NewOptions(max(total, 1),
		progressbar.OptionSetWriter(out),
		progressbar.OptionSetDescription(label),
		progressbar.OptionSetItsString("games"),
		progressbar.OptionShowIts(),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(predict),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	)
}

// batches adds up the games of batches reported one after the other as
// done of total (a task may play several: a GA generation plays its
// groups, then its elite): a new total, or done going back, starts the
// next batch.
type batches struct {
	offset, lastDone, lastTotal int // offset: games of the earlier batches
}

// add records done of total games of the batch in flight and returns the
// games done over all batches.
func (b *batches) add(done, total int) int {
	if total != b.lastTotal || done < b.lastDone {
		if b.lastTotal > 0 {
			b.offset += b.lastTotal
		}
		b.lastTotal = total
	}
	b.lastDone = done
	return b.offset + done
}
