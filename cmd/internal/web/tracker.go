package web

import (
	"slices"
	"sync"
	"time"

	"github.com/roadtune/roadtune/optimize"
)

// Tracker holds the Live status of the run this process plays, for
// Options.Live: the job's progress callbacks update it, the server reads
// it. It is safe for concurrent use.
type Tracker struct {
	mu     sync.Mutex
	l      Live
	start  time.Time // when games began to be counted
	base   int       // games played before start (a resumed run's)
	played int       // games of a tuning job's steps done (Step)
	left   int       // games the rest of the work needs, at least (tune's forecast)
	// The verification ladder: when it started, its games planned, the
	// games of its finished rungs as played and as planned.
	vStart            time.Time
	vTotal            int
	vPlayed, vPlanned int
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
	l.Rungs = slices.Clone(l.Rungs)
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

// Step sets the steps and games after a tuning job's plan or step: st is
// what is done, f the method's forecast of what is left (steps, games,
// the next step's games). The rate counts from the first call (the games
// before it are a resumed run's) and the ETA is of f's games at that
// rate. The phase becomes "optimize" unless one is set.
func (t *Tracker) Step(st optimize.Status, f optimize.Forecast) {
	t.Update(func(l *Live) {
		if t.start.IsZero() {
			t.start, t.base = time.Now(), st.Games
		}
		t.played, t.left = st.Games, f.Games
		l.Step, l.Steps, l.Games = st.Steps, st.Steps+f.Steps, st.Games
		l.BatchDone, l.BatchTotal = 0, f.NextGames
		if l.Phase == "" {
			l.Phase = "optimize"
		}
		t.rate(l, t.left)
	})
}

// PlannedEnd sets a budgeted tuning run's planned end (zero for none).
func (t *Tracker) PlannedEnd(end time.Time) {
	t.Update(func(l *Live) { l.End = end })
}

// BatchGames sets done of total games of a tuning job's batch in flight;
// while it optimises, they add to the games of the steps done (Step) and
// to the rate and ETA; while it verifies, the rate and ETA are the
// ladder's own (ladderRate).
func (t *Tracker) BatchGames(done, total int) {
	t.Update(func(l *Live) {
		l.BatchDone, l.BatchTotal = done, total
		switch l.Phase {
		case "optimize":
			l.Games = t.played + done
			t.rate(l, max(t.left-done, 0))
		case "verify":
			t.ladderRate(l)
		}
	})
}

// Verify sets the phase "verify" when a tuning job's verification ladder
// starts, with games its most games over all rungs (the ETA's total; each
// rung is then a batch).
func (t *Tracker) Verify(games int) {
	t.Update(func(l *Live) {
		l.Phase, l.BatchDone, l.BatchTotal, l.ETA, l.GamesPerSecond = "verify", 0, 0, 0, 0
		l.Rungs, l.RungsPlanned = nil, 0
		t.vStart, t.vTotal, t.vPlayed, t.vPlanned = time.Now(), games, 0, 0
	})
}

// Rung adds rung k of n of the ladder, played: the page shows it at once.
// Its games played count in the ladder's rate, its batch's games planned
// (BatchGames' total) leave the ETA.
func (t *Tracker) Rung(r Rung, k, n int) {
	t.Update(func(l *Live) {
		l.Rungs, l.RungsPlanned = append(l.Rungs, r), n
		t.vPlayed += r.Match.N
		t.vPlanned += max(l.BatchTotal, r.Match.N)
		l.BatchDone, l.BatchTotal = 0, 0
		t.ladderRate(l)
	})
}

// ladderRate sets the rate of the ladder's games since it started (its
// depths' own speed, not the optimisation's) and the ETA of its games
// left at that rate.
func (t *Tracker) ladderRate(l *Live) {
	played := t.vPlayed + l.BatchDone
	el := time.Since(t.vStart).Seconds()
	if el <= 0 || played == 0 {
		return
	}
	l.GamesPerSecond = float64(played) / el
	left := max(t.vTotal-t.vPlanned-l.BatchDone, 0)
	l.ETA = time.Duration(float64(left) / l.GamesPerSecond * float64(time.Second)).Round(time.Millisecond)
}
