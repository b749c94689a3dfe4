package tournament

import (
	"context"
	"fmt"

	"github.com/roadtune/roadtune/engine"
)

// NoMove stands for "no move": the last argument of Player.Play when the
// opponent has not moved since the opening (or since the empty board).
var NoMove = engine.Move{A: engine.NoPoint, B: engine.NoPoint}

// Reply is a player's answer to Play.
type Reply struct {
	Move  engine.Move
	Nodes int64 // search nodes spent on the move; 0 when unknown (external engines)
}

// Player is one side of a game. A Player is owned by one goroutine (a
// worker of the pool) and reused for many games: NewGame starts each game,
// then Play is called once per own move.
type Player interface {
	// NewGame starts a game that begins with opening (already on the
	// referee's board) in which the player has colour c (engine.Black or
	// engine.White). A *Forfeit error loses the game for this player; any
	// other error aborts the run.
	NewGame(ctx context.Context, opening Opening, c engine.Color) error
	// Play returns the player's move for position b, where b.ToMove() is
	// the player's colour and b.StonesLeft() stones are to be placed. last
	// is the opponent's move played just before (NoMove if none since the
	// opening). b belongs to the referee: Play must leave it unchanged. The
	// referee validates the move; a *Forfeit error loses the game for this
	// player; ctx.Err() or any other error aborts the run.
	Play(ctx context.Context, b *engine.Board, last engine.Move) (Reply, error)
	// Close releases the player's resources (processes, tables).
	Close() error
}

// Forfeit kinds: why a player lost a game without a six (GameRecord.Reason
// is "forfeit:" + kind).
const (
	ForfeitTimeout   = "timeout"   // no move within the per-move limit
	ForfeitCrash     = "crash"     // the engine process died (signal or non-zero exit status)
	ForfeitIllegal   = "illegal"   // occupied or off-board point, wrong stone count
	ForfeitMalformed = "malformed" // a "move " line that does not parse
	ForfeitExit      = "exit"      // the engine process exited with status 0 in the middle of a game
)

// Forfeit is the error a Player returns (or the referee raises) when the
// player loses the game by breaking the rules of play rather than on the
// board.
type Forfeit struct {
	Kind   string // one of the Forfeit* constants
	Detail string // what happened, e.g. the offending line and the engine's stderr tail
}

// Error implements error.
func (f *Forfeit) Error() string {
	if f.Detail == "" {
		return "forfeit: " + f.Kind
	}
	return fmt.Sprintf("forfeit: %s: %s", f.Kind, f.Detail)
}

// EnginePlayer is an in-process roadtune engine (engine.Engine) playing
// with its own weights and settings. It allocates its transposition table
// once, in NewEnginePlayer; NewGame only clears it (engine.Engine.NewGame).
type EnginePlayer struct {
	eng   *engine.Engine
	clock engine.Clock // the clock of the next Play (SetClock)
	timed bool         // SetClock was called for the next Play; false: search to depth
}

// NewEnginePlayer creates an engine player; errors are engine.New's.
func NewEnginePlayer(w engine.Weights, s engine.Settings) (*EnginePlayer, error) {
	e, err := engine.New(w, s)
	if err != nil {
		return nil, err
	}
	return &EnginePlayer{eng: e}, nil
}

// Engine returns the player's engine (for example to change its weights
// between games with SetWeights, which reuses the table).
func (p *EnginePlayer) Engine() *engine.Engine { return p.eng }

// NewGame forgets the previous game (no allocation).
func (p *EnginePlayer) NewGame(context.Context, Opening, engine.Color) error {
	p.eng.NewGame()
	p.timed = false
	return nil
}

// SetClock implements Timed: the next Play searches by the engine's time
// manager (engine.Engine.SearchClock; its knobs are the engine's
// Settings.Time, see engine.TimeSettings), by iterative deepening up to the
// engine's Depth, with the engine's clock of c (MoveClock.Clock): the
// per-move time Move (st=), or the game clock Remaining, Inc and MovesToGo
// (tc=; with none of them left the engine moves at once). The time manager keeps a safety margin (5% of the
// clock and at least 2 ms by default) for the search's stop latency.
func (p *EnginePlayer) SetClock(c MoveClock) {
	p.clock, p.timed = c.Clock, true
}

// Play searches b (engine.Engine.Search), or within the clock of the last
// SetClock if any (engine.Engine.SearchClock). It returns ctx.Err() if ctx
// was cancelled during the search.
func (p *EnginePlayer) Play(ctx context.Context, b *engine.Board, _ engine.Move) (Reply, error) {
	var r engine.Result
	if p.timed {
		p.timed = false
		r = p.eng.SearchClock(ctx, b, p.clock)
	} else {
		r = p.eng.Search(ctx, b)
	}
	if err := ctx.Err(); err != nil {
		return Reply{}, err
	}
	return Reply{Move: r.Move, Nodes: r.Nodes}, nil
}

// Close does nothing: the table is left to the garbage collector.
func (p *EnginePlayer) Close() error { return nil }
