package tournament

import (
	"context"
	"fmt"
	"runtime"

	"github.com/roadtune/roadtune/internal/crash"
	"golang.org/x/sync/errgroup"
)

// ScheduledGame is one game of a Runner's schedule as a Remote receives
// it: the game's index, its pair, the Black and White entrants' indices in
// the GameSet and the opening in protocol notation ("" for the empty
// board).
type ScheduledGame struct {
	Game    int    `json:"game"`
	Pair    int    `json:"pair"`
	Black   int    `json:"black"`
	White   int    `json:"white"`
	Opening string `json:"opening"`
}

// GameSet is what every game of a Runner shares: its entrants' engines
// (in-process engines only, in the Runner's order) and its move limit.
type GameSet struct {
	Entrants []Engine `json:"entrants"`
	MaxMoves int      `json:"max_moves,omitempty"`
}

// Remote plays a Runner's games somewhere else, e.g. on the workers of
// package cluster. PlayGames returns one record per game, in the
// order given, each what PlayScheduled returns for it: with fixed-depth
// engines, the same game wherever it is played. Errors: the games could not
// be played (ctx's error when cancelled).
type Remote interface {
	PlayGames(ctx context.Context, set GameSet, games []ScheduledGame) ([]GameRecord, error)
}

// gameSet is r's entrants as a GameSet. Errors: an entrant that is not an
// in-process engine (an external program or a custom player cannot be
// shipped to another machine).
func (r *Runner) gameSet() (GameSet, error) {
	s := GameSet{MaxMoves: r.MaxMoves, Entrants: make([]Engine, len(r.Entrants))}
	for i, e := range r.Entrants {
		if e.New != nil || e.IsExternal() {
			return GameSet{}, fmt.Errorf("tournament: entrant %d (%q) is not an in-process engine: only weight vectors can be played remotely", i, e.Name)
		}
		s.Entrants[i] = e.Engine
	}
	return s, nil
}

// scheduled is job j as a ScheduledGame.
func (r *Runner) scheduled(j job) ScheduledGame {
	return ScheduledGame{Game: j.game, Pair: j.pair, Black: j.black, White: j.white, Opening: r.opening(j).String()}
}

// playRemote is a Run worker with r.Remote set: it takes up to
// r.RemoteBatch games from feed at a time, has them played remotely, and
// sends their records on.
func (r *Runner) playRemote(ctx context.Context, set GameSet, feed <-chan job, send func(GameRecord) error) error {
	size := r.RemoteBatch
	if size <= 0 {
		size = DefaultRemoteBatch
	}
	for {
		var games []ScheduledGame
		for j := range feed {
			games = append(games, r.scheduled(j))
			if len(games) == size {
				break
			}
		}
		if len(games) == 0 {
			return nil
		}
		recs, err := r.Remote.PlayGames(ctx, set, games)
		if err != nil {
			return err
		}
		if len(recs) != len(games) {
			return fmt.Errorf("tournament: remote play returned %d records for %d games", len(recs), len(games))
		}
		for i, rec := range recs {
			g := games[i]
			if rec.Game != g.Game || rec.Pair != g.Pair || rec.BlackIndex != g.Black || rec.WhiteIndex != g.White {
				return fmt.Errorf("tournament: remote play returned game %d (pair %d, entrants %d–%d) for game %d (pair %d, entrants %d–%d)",
					rec.Game, rec.Pair, rec.BlackIndex, rec.WhiteIndex, g.Game, g.Pair, g.Black, g.White)
			}
			if err := send(rec); err != nil {
				return err
			}
		}
	}
}

// DefaultRemoteBatch is the number of games a Runner hands a Remote at a
// time unless RemoteBatch says otherwise.
const DefaultRemoteBatch = 16

// PlayScheduled plays games of set in this process, concurrency at a time
// (0: GOMAXPROCS), and returns their records in the order given: what a
// Remote's far end runs. engines, when not nil, lends the in-process
// engines (nil: the process's pool, as Runner.Engines). Errors: an
// external engine in the set (its program is never started), a bad
// entrant index or opening (naming the game), an engine that cannot be
// made, ctx's error when cancelled.
func PlayScheduled(ctx context.Context, set GameSet, games []ScheduledGame, concurrency int, engines *EnginePool) ([]GameRecord, error) {
	r := &Runner{MaxMoves: set.MaxMoves, Entrants: make([]Entrant, len(set.Entrants))}
	for i, e := range set.Entrants {
		if e.IsExternal() { // a set names no program for another machine to run
			return nil, fmt.Errorf("tournament: entrant %d (%q) is an external engine: a game set holds in-process engines only", i, e.Name)
		}
		r.Entrants[i] = Entrant{Engine: e}
	}
	jobs := make([]job, len(games))
	for i, g := range games {
		if g.Black < 0 || g.Black >= len(r.Entrants) || g.White < 0 || g.White >= len(r.Entrants) || g.Black == g.White {
			return nil, fmt.Errorf("tournament: game %d: entrants %d and %d of %d", g.Game, g.Black, g.White, len(r.Entrants))
		}
		op, err := ParseOpening(g.Opening)
		if err != nil {
			return nil, fmt.Errorf("tournament: game %d: %w", g.Game, err)
		}
		r.Openings = append(r.Openings, op)
		jobs[i] = job{game: g.Game, pair: g.Pair, black: g.Black, white: g.White, opening: i}
	}
	if engines == nil {
		engines = &processEngines
	}
	if concurrency <= 0 {
		concurrency = runtime.GOMAXPROCS(0)
	}
	out := make([]GameRecord, len(games))
	next := make(chan int)
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(next)
		for i := range jobs {
			select {
			case next <- i:
			case <-gctx.Done():
				return nil
			}
		}
		return nil
	})
	for range min(concurrency, len(jobs)) {
		g.Go(func() (err error) {
			defer crash.Recover(&err)
			w := newWorker(r, engines)
			defer w.close()
			for i := range next {
				rec, err := w.playCaught(gctx, jobs[i])
				if err != nil {
					return fmt.Errorf("game %d (%s vs %s): %w", jobs[i].game, r.Entrants[jobs[i].black].Name, r.Entrants[jobs[i].white].Name, err)
				}
				out[i] = rec
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("tournament: %w", ctx.Err())
		}
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("tournament: %w", ctx.Err())
	}
	return out, nil
}
