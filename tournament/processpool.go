package tournament

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// ErrProcessPoolClosed is the error of a run that needs a process from a
// ProcessPool after its Close.
var ErrProcessPoolClosed = errors.New("tournament: process pool closed")

// ProcessPool keeps external engine processes between games and between
// runs (Runner.Processes), so that a sequence of runs whose entrants
// change from run to run — the batches of a tuning run, each with new
// entrants "m<i>.A", "m<i>.B" — starts each engine process once, not
// once per run and worker. The zero value is ready to use; safe for
// concurrent use.
//
// Identity. Two entrants share processes when everything that makes a
// process is the same: Program, Args, Dir, InitStrings, MoveTime, Handshake and
// External.QuitGrace (each ≤ 0 taken as its default) — not the entrant's
// Name, SHA256, Setup or Time. What differs
// between such entrants goes in their Setup lines, sent at every game.
// A process that received setup lines is lent only to entrants with setup
// lines: an entrant without any always gets a process in the state its
// init strings left it. Entrants with a Transcript are never pooled (a
// worker keeps their processes, as without a pool).
//
// Lending. At each game a worker takes a process for Black and one for
// White (the most recently returned idle one of the same identity, or a
// new one, started by the game's NewGame) and returns both after the
// game. A process that forfeited, or was ended by a cancelled game, is not
// kept; the next game starts a fresh one. Idle processes beyond MaxIdle
// are ended, least recently used first.
type ProcessPool struct {
	// MaxIdle is the number of idle processes kept (0 = 2×GOMAXPROCS+2:
	// both players of every worker of a run at the default concurrency,
	// and a pair to spare).
	MaxIdle int

	mu     sync.Mutex
	idle   []*ExternalPlayer // least recently returned first
	closed bool
}

// processKey is the identity of the processes of external entrant e in a
// ProcessPool.
func processKey(e *Entrant) string {
	x, o := withDefaults(e.Engine, e.External)
	return fmt.Sprintf("%q %q %q %d %d %d", x.Argv(), x.Dir, x.InitStrings, x.MoveTime, x.Handshake, o.QuitGrace)
}

// maxIdle is MaxIdle or its default.
func (pp *ProcessPool) maxIdle() int {
	if pp.MaxIdle > 0 {
		return pp.MaxIdle
	}
	return 2*runtime.GOMAXPROCS(0) + 2
}

// get lends a player for external entrant e, whose processKey is key, with
// e's setup lines: an idle one of the same identity (the most recently
// returned; one that never received setup lines when e has none), else a
// new one whose process starts at its first NewGame. The error is
// NewExternal's or ErrProcessPoolClosed.
func (pp *ProcessPool) get(e *Entrant, key string) (*ExternalPlayer, error) {
	clean := len(e.Setup) == 0
	pp.mu.Lock()
	if pp.closed {
		pp.mu.Unlock()
		return nil, ErrProcessPoolClosed
	}
	for i := len(pp.idle) - 1; i >= 0; i-- {
		p := pp.idle[i]
		if p.poolKey == key && !(clean && p.dirty) {
			pp.idle = append(pp.idle[:i], pp.idle[i+1:]...)
			pp.mu.Unlock()
			p.setSetup(e.Setup)
			return p, nil
		}
	}
	pp.mu.Unlock()
	p, err := NewExternal(e.Engine, e.External)
	if err != nil {
		return nil, err
	}
	p.poolKey = key
	p.setSetup(e.Setup)
	return p, nil
}

// put takes back a player lent by get: kept idle while its process runs
// and the pool is open, else closed. The least recently returned idle
// players beyond MaxIdle are closed.
func (pp *ProcessPool) put(p *ExternalPlayer) {
	if p == nil {
		return
	}
	var end []*ExternalPlayer
	pp.mu.Lock()
	if pp.closed || p.proc == nil || p.proc.exited() {
		end = append(end, p)
	} else {
		pp.idle = append(pp.idle, p)
		if over := len(pp.idle) - pp.maxIdle(); over > 0 {
			end = append(end, pp.idle[:over]...)
			pp.idle = append(pp.idle[:0], pp.idle[over:]...)
		}
	}
	pp.mu.Unlock()
	for _, x := range end {
		x.Close()
	}
}

// Idle returns the number of idle processes the pool keeps.
func (pp *ProcessPool) Idle() int {
	pp.mu.Lock()
	defer pp.mu.Unlock()
	return len(pp.idle)
}

// Close ends every idle process as ExternalPlayer.Close does ("quit",
// QuitGrace, then SIGKILL to its process group; all at once) and closes
// the pool for good: a process returned later by a run still in flight is
// ended at once, and a game that needs a new process fails the run with
// ErrProcessPoolClosed. Nothing the pool started is left running once
// Close and every run using the pool have returned. It returns nil; a
// second Close does nothing.
func (pp *ProcessPool) Close() error {
	pp.mu.Lock()
	idle := pp.idle
	pp.idle, pp.closed = nil, true
	pp.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range idle {
		wg.Go(func() { p.Close() })
	}
	wg.Wait()
	return nil
}
