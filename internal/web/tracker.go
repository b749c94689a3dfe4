package web

import (
	"slices"
	"sync"
	"time"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/tune"
)

// Tracker holds the Live status of the run this process plays, for
// Options.Live: the job's progress callbacks update it, the server reads
// it. It is safe for concurrent use.
type Tracker struct {
	mu    sync.Mutex
	l     Live
	start time.Time // when games began to be counted
	base  int       // games played before start (a resumed run's)
	left  int       // games the rest of the work needs, at least (tune's forecast)
}

// NewTracker returns a tracker of the run in dir.
func NewTracker(dir string) *Tracker {
	return &Tracker{l: Live{Run: dir, Updated: time.Now()}}
}

// Live returns the status now (a copy).
func (t *Tracker) Live() Live {
	t.mu.Lock()
	defer t.mu.Unlock()
	l := t.l
	l.Players = slices.Clone(l.Players)
	return l
}

// Update changes the status with f and stamps it.
func (t *Tracker) Update(f func(*Live)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f(&t.l)
	t.l.Updated = time.Now()
}

// Games sets the games played of total (0: unknown) and the rate and ETA
// they give since the first call; base is the games that were played
// before this process (a resumed match's).
func (t *Tracker) Games(base, played, total int) {
	t.Update(func(l *Live) {
		if t.start.IsZero() {
			t.start, t.base = time.Now(), base
		}
		l.Games, l.BatchDone, l.BatchTotal = played, played, total
		t.rate(l, max(total-played, 0))
	})
}

// rate sets the games per second since start and the ETA of left games.
func (t *Tracker) rate(l *Live, left int) {
	el := time.Since(t.start).Seconds()
	if el <= 0 || l.Games <= t.base {
		return
	}
	l.GamesPerSecond = float64(l.Games-t.base) / el
	l.ETA = time.Duration(float64(left) / l.GamesPerSecond * float64(time.Second)).Round(time.Millisecond)
}

// TuneEvents returns events that keep the tracker up to date and then
// call next's (any may be nil): the plan and each step set the steps and
// games, each game of a batch the batch's count, the rate and the ETA
// (the method's forecast of the games left, at the rate so far); Verify
// sets the phase "verify".
func (t *Tracker) TuneEvents(next tune.Events) tune.Events {
	var played int // games of the completed steps
	step := func(st optimize.Status, f optimize.Forecast) {
		t.Update(func(l *Live) {
			if t.start.IsZero() {
				t.start, t.base = time.Now(), st.Games
			}
			played, t.left = st.Games, f.Games
			l.Step, l.Steps, l.Games = st.Steps, st.Steps+f.Steps, st.Games
			l.BatchDone, l.BatchTotal = 0, f.NextGames
			if l.Phase == "" {
				l.Phase = "optimize"
			}
			t.rate(l, t.left)
		})
	}
	return tune.Events{
		Plan: func(p tune.Plan) {
			step(p.Status, p.Forecast)
			if next.Plan != nil {
				next.Plan(p)
			}
		},
		Games: func(done, total int) {
			t.Update(func(l *Live) {
				l.BatchDone, l.BatchTotal = done, total
				if l.Phase == "optimize" {
					l.Games = played + done
					t.rate(l, max(t.left-done, 0))
				}
			})
			if next.Games != nil {
				next.Games(done, total)
			}
		},
		Step: func(rec optimize.Record, st optimize.Status, f optimize.Forecast) {
			step(st, f)
			if next.Step != nil {
				next.Step(rec, st, f)
			}
		},
		Verify: func(games int) {
			t.Update(func(l *Live) {
				l.Phase, l.BatchDone, l.BatchTotal, l.ETA = "verify", 0, games, 0
			})
			if next.Verify != nil {
				next.Verify(games)
			}
		},
	}
}
