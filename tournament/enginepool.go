package tournament

import (
	"sync"

	"github.com/roadtune/roadtune/engine"
)

// EnginePool keeps in-process engines (with their transposition tables)
// between runs, so that a sequence of runs — the batches of an optimizer,
// the rounds of a knockout — allocates each table once. Engines are
// interchangeable: a worker sets the weights and settings of each game's
// entrant and calls NewGame, after which an engine's search depends on
// nothing from its previous games. The zero value is ready to use; safe for
// concurrent use.
type EnginePool struct {
	mu   sync.Mutex
	free []*EnginePlayer
}

// get returns an engine with weights w and settings s, reusing a free one
// (same table size: no reallocation) when there is one.
func (p *EnginePool) get(w engine.Weights, s engine.Settings) (*EnginePlayer, error) {
	p.mu.Lock()
	var e *EnginePlayer
	if n := len(p.free); n > 0 {
		e, p.free = p.free[n-1], p.free[:n-1]
	}
	p.mu.Unlock()
	if e == nil {
		return NewEnginePlayer(w, s)
	}
	if err := e.rebind(w, s); err != nil {
		p.put(e)
		return nil, err
	}
	return e, nil
}

// put returns engines to the pool.
func (p *EnginePool) put(es ...*EnginePlayer) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range es {
		if e != nil {
			p.free = append(p.free, e)
		}
	}
}

// processEngines is the pool of runs given none (Runner.Engines nil,
// PlayScheduled's engines nil): one process's runs in sequence — a resumed
// job's, a sweep's seeds, a chain's stages, the ladder after the tuning —
// borrow the same engines instead of each allocating and zeroing its
// tables (24 MiB each at the default TableBits). It holds at most the
// engines that were in use at once, for the life of the process.
var processEngines EnginePool

// rebind switches the engine to weights w and settings s.
func (e *EnginePlayer) rebind(w engine.Weights, s engine.Settings) error {
	if e.eng.Settings() != s {
		if err := e.eng.SetSettings(s); err != nil {
			return err
		}
	}
	return e.eng.SetWeights(w)
}
