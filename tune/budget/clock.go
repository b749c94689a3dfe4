package budget

import (
	"context"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/roadtune/roadtune/optimize"
)

// Clock is the clock of a budgeted job in one session: the run's elapsed
// time and what the step in flight takes in and out of the referee. Its
// methods are safe for concurrent use (the referee's games report from
// other goroutines).
type Clock struct {
	now   func() time.Time
	base  float64   // the run's elapsed seconds before this session
	since time.Time // this session's start

	mu         sync.Mutex
	stepStart  time.Time
	refSeconds float64 // in the referee during the step in flight
	// the step just played: its seconds outside the referee, and its
	// time in the referee
	other, inRef float64
}

// NewClock is the clock of a session that started at since, now the
// job's clock (time.Now when nil) and base the run's elapsed seconds
// before the session (State.Elapsed).
func NewClock(now func() time.Time, base float64, since time.Time) *Clock {
	if now == nil {
		now = time.Now
	}
	return &Clock{now: now, base: base, since: since}
}

// Elapsed is the run's own elapsed seconds now.
func (c *Clock) Elapsed() float64 { return c.base + c.now().Sub(c.since).Seconds() }

// BeginStep and EndStep time a step of the method.
func (c *Clock) BeginStep() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stepStart, c.refSeconds = c.now(), 0
}

func (c *Clock) EndStep() {
	c.mu.Lock()
	defer c.mu.Unlock()
	total := c.now().Sub(c.stepStart).Seconds()
	c.inRef, c.other = c.refSeconds, max(total-c.refSeconds, 0)
}

// Fold adds the step just timed (BeginStep, EndStep), which played games
// fitness games and was step step, to m.
func (c *Clock) Fold(m *Measured, games, step int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m.Games += games
	m.GameSeconds += c.inRef
	m.OtherSeconds, m.OtherStep = c.other, step
}

// timed runs f and adds its time to the referee's time of the step.
func (c *Clock) timed(f func()) {
	start := c.now()
	f()
	d := c.now().Sub(start).Seconds()
	c.mu.Lock()
	c.refSeconds += d
	c.mu.Unlock()
}

// Timed is ref with its calls timed by c as the referee's time of the
// step in flight: an optimize.Sampler stays one (Texel samples
// positions), and Close closes ref when it closes.
func Timed(ref optimize.Referee, c *Clock) optimize.Referee {
	if smp, ok := ref.(optimize.Sampler); ok {
		return &timedSampler{timedReferee{smp, c}, smp}
	}
	return &timedReferee{ref, c}
}

type timedReferee struct {
	optimize.Referee
	c *Clock
}

func (t *timedReferee) Play(ctx context.Context, seed uint64, ms []optimize.Match) (out []optimize.Outcome, err error) {
	t.c.timed(func() { out, err = t.Referee.Play(ctx, seed, ms) })
	return out, err
}

// Close closes the referee it times, if it closes.
func (t *timedReferee) Close() error {
	if c, ok := t.Referee.(interface{ Close() error }); ok {
		return c.Close()
	}
	return nil
}

type timedSampler struct {
	timedReferee
	smp optimize.Sampler
}

func (t *timedSampler) Sample(ctx context.Context, seed uint64, ms []optimize.Match) (out []optimize.Outcome, pos []optimize.Position, err error) {
	t.c.timed(func() { out, pos, err = t.smp.Sample(ctx, seed, ms) })
	return out, pos, err
}

// Duration is a number of seconds as a time.Duration (0 for NaN and ±Inf).
func Duration(s float64) time.Duration {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return 0
	}
	return time.Duration(s * float64(time.Second))
}

// Text is a number of seconds in whole seconds as a user reads it: 4320
// → "1h12m", 90 → "1m30s", under a second → "0s".
func Text(s float64) string {
	d := Duration(s).Round(time.Second)
	if d < time.Second && d > -time.Second {
		return "0s"
	}
	t := d.String()
	if strings.HasSuffix(t, "m0s") {
		t = strings.TrimSuffix(t, "0s")
	}
	if strings.HasSuffix(t, "h0m") {
		t = strings.TrimSuffix(t, "0m")
	}
	return t
}
