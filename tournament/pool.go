package tournament

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament/stats"
)

// Runner plays schedules of game pairs on a pool of workers (style.md,
// after CounterGo's internal/arena: an errgroup with one feeder goroutine,
// Concurrency workers that each own their players and a board, and one
// collector). Results are keyed by game index, so a schedule gives the same
// table whatever the concurrency, as long as the players are deterministic
// (in-process engines at fixed depth without a time budget are).
type Runner struct {
	Entrants []Entrant
	// Openings is the suite; fixture openings index it modulo its length.
	// Empty: every game starts from the empty board.
	Openings []Opening
	// MaxMoves adjudicates a draw after this many moves in all, opening
	// included (0 = no limit; a full board is always a draw).
	MaxMoves int
	// Concurrency is the number of games played at once (default
	// runtime.GOMAXPROCS(0)).
	Concurrency int
	// SPRT, when set, applies to a head-to-head schedule (every fixture the
	// same A against the same B): no new game pair is scheduled once the
	// LLR of the pentanomial counts of the completed prefix of pairs (pairs
	// 0..k−1 all finished, in pair order) crosses a bound, and the table
	// holds exactly that prefix. Games in flight are cancelled and dropped.
	// A schedule of several pairings with SPRT set is an error.
	SPRT *stats.SPRT
	// PairingStop, when set, may end a pairing (the fixtures with the same
	// A and B) before its last fixture, for matches that only need to know
	// who is better: after each completed game pair of a pairing, taken in
	// the pairing's fixture order, it is called with the pairing's entrants
	// A and B, the pentanomial indices
	// of A's pairs so far (stats.PairScore: 0 = LL … 4 = WW) and the number
	// of pairs scheduled for the pairing; true ends the pairing. Its later
	// pairs are not started (or dropped when already in flight), so the
	// table holds exactly the prefix the rule saw, whatever the concurrency.
	// It cannot be combined with SPRT.
	PairingStop func(a, b int, pairs []int, scheduled int) bool
	// Progress, when set, is called from the collector after each game with
	// the games finished so far and the games scheduled.
	Progress func(done, total int)
	// OnGame, when set, receives each game record in game order (a game is
	// passed on once all games before it are); an error stops the run.
	OnGame func(GameRecord) error
	// Engines, when set, lends the workers their in-process engines and
	// takes them back at the end of the run, so that repeated runs do not
	// reallocate transposition tables. Nil: each run allocates its own.
	Engines *EnginePool
}

// job is one scheduled game.
type job struct {
	game, pair   int
	black, white int
	opening      int
}

// Run plays the fixtures and returns the table of the games played. Fixture
// k is game pair k: game 2k has A as Black, game 2k+1 B as Black. Run
// returns ctx.Err() (wrapped) if ctx is cancelled, and the first error of a
// player that cannot start or of OnGame.
func (r *Runner) Run(ctx context.Context, fixtures []Fixture) (*Table, error) {
	if err := checkFixtures(fixtures, len(r.Entrants)); err != nil {
		return nil, err
	}
	for i, e := range r.Entrants {
		if e.New == nil && len(e.Command) == 0 && len(e.Weights.Genes) == 0 {
			return nil, fmt.Errorf("tournament: entrant %d (%q) has no weights, command or player", i, e.Name)
		}
	}
	if r.SPRT != nil {
		if err := r.SPRT.Validate(); err != nil {
			return nil, err
		}
		for _, f := range fixtures {
			if f.A != fixtures[0].A || f.B != fixtures[0].B {
				return nil, errors.New("tournament: SPRT needs a head-to-head schedule (one pairing, fixed A and B)")
			}
		}
	}
	if r.SPRT != nil && r.PairingStop != nil {
		return nil, errors.New("tournament: SPRT and PairingStop cannot be combined")
	}
	jobs := make([]job, 0, 2*len(fixtures))
	for k, f := range fixtures {
		jobs = append(jobs,
			job{game: 2 * k, pair: k, black: f.A, white: f.B, opening: f.Opening},
			job{game: 2*k + 1, pair: k, black: f.B, white: f.A, opening: f.Opening})
	}
	stops := newPairingStops(fixtures, r.PairingStop != nil)
	conc := r.Concurrency
	if conc <= 0 {
		conc = runtime.GOMAXPROCS(0)
	}
	conc = min(conc, len(jobs))

	pool := r.Engines
	if pool == nil {
		pool = &EnginePool{}
	}

	g, gctx := errgroup.WithContext(ctx)
	playCtx, stop := context.WithCancel(gctx) // stop: the SPRT has decided
	defer stop()
	feed := make(chan job)
	results := make(chan GameRecord, conc)

	g.Go(func() error { // feeder
		defer close(feed)
		for _, j := range jobs {
			if stops.ended(j.pair) {
				continue // its pairing is decided: not started
			}
			select {
			case feed <- j:
			case <-playCtx.Done():
				return nil
			}
		}
		return nil
	})

	wg := errgroup.Group{}
	for range conc {
		wg.Go(func() error {
			w := newWorker(r, pool)
			defer w.close()
			for j := range feed {
				rec, err := w.play(playCtx, j)
				if err != nil {
					if playCtx.Err() != nil && gctx.Err() == nil {
						continue // stopped by the SPRT: drop the game
					}
					return fmt.Errorf("game %d (%s vs %s): %w", j.game, r.Entrants[j.black].Name, r.Entrants[j.white].Name, err)
				}
				select {
				case results <- rec:
				case <-gctx.Done():
					return gctx.Err()
				}
			}
			return nil
		})
	}
	g.Go(func() error {
		err := wg.Wait()
		close(results)
		return err
	})

	recs := make([]GameRecord, len(jobs))
	have := make([]bool, len(jobs))
	var sprtState *SPRTStatus
	if r.SPRT != nil {
		lo, hi := r.SPRT.Bounds()
		sprtState = &SPRTStatus{SPRT: *r.SPRT, Lower: lo, Upper: hi, Decision: stats.Continue.String()}
	}
	cutoff := len(jobs)
	g.Go(func() error { // collector
		var penta stats.Pentanomial
		next, finished := 0, 0
		skipped := 0 // games of ended pairings never started
		advance := func() error {
			for next < cutoff && (have[next] || stops.dropped(jobs[next].pair)) {
				if stops.dropped(jobs[next].pair) {
					if !have[next] {
						skipped++
						if r.Progress != nil {
							r.Progress(finished+skipped, len(jobs))
						}
					}
					have[next] = false
					next++
					continue
				}
				if r.OnGame != nil {
					if err := r.OnGame(recs[next]); err != nil {
						return err
					}
				}
				next++
				if next%2 == 0 && r.PairingStop != nil {
					k := jobs[next-1].pair
					stops.add(k, stats.PairScore(recs[next-2].Result.Score(engine.Black), recs[next-1].Result.Score(engine.White)), r.PairingStop)
				}
				if sprtState != nil && next%2 == 0 {
					first := recs[next-2]
					second := recs[next-1]
					penta[stats.PairScore(first.Result.Score(engine.Black), second.Result.Score(engine.White))]++
					llr, dec, err := r.SPRT.Test(penta.Counts())
					if err != nil {
						return err
					}
					sprtState.LLR, sprtState.Pairs = llr, next/2
					if dec != stats.Continue {
						sprtState.Decision = dec.String()
						cutoff = next
						stop()
					}
				}
			}
			return nil
		}
		for rec := range results {
			i := rec.Game
			recs[i], have[i] = rec, true
			finished++
			if r.Progress != nil {
				r.Progress(finished+skipped, len(jobs))
			}
			if err := advance(); err != nil {
				return err
			}
		}
		return advance() // the tail may be games of ended pairings only
	})
	err := g.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("tournament: %w", ctx.Err())
	}
	if err != nil {
		return nil, err
	}
	played := recs[:0:0]
	for i := range cutoff {
		switch {
		case stops.dropped(jobs[i].pair):
		case !have[i]:
			return nil, fmt.Errorf("tournament: game %d was not played", i)
		default:
			played = append(played, recs[i])
		}
	}
	names := make([]string, len(r.Entrants))
	for i, e := range r.Entrants {
		names[i] = e.Name
	}
	t, err := BuildTable(names, played)
	if err != nil {
		return nil, err
	}
	t.SPRT = sprtState
	return t, nil
}

// worker owns the players and the board of one goroutine of the pool.
type worker struct {
	r       *Runner
	pool    *EnginePool
	board   *engine.Board
	engines [2]*EnginePlayer // in-process engine per colour, reused by every engine entrant
	players []Player         // custom and external players by entrant index, made on first use
}

func newWorker(r *Runner, pool *EnginePool) *worker {
	return &worker{r: r, pool: pool, board: engine.NewBoard(), players: make([]Player, len(r.Entrants))}
}

// player returns the worker's player for entrant i with colour c.
func (w *worker) player(i int, c engine.Color) (Player, error) {
	e := &w.r.Entrants[i]
	if e.New == nil && len(e.Command) == 0 {
		ci := colorIndex(c)
		if w.engines[ci] == nil {
			p, err := w.pool.get(e.Weights, e.Settings)
			if err != nil {
				return nil, fmt.Errorf("entrant %q: %w", e.Name, err)
			}
			w.engines[ci] = p
			return p, nil
		}
		if err := w.engines[ci].rebind(e.Weights, e.Settings); err != nil {
			return nil, fmt.Errorf("entrant %q: %w", e.Name, err)
		}
		return w.engines[ci], nil
	}
	if w.players[i] != nil {
		return w.players[i], nil
	}
	var p Player
	var err error
	if e.New != nil {
		p, err = e.New()
	} else {
		p, err = NewExternal(e.Command, e.MoveTime, e.externalOptions())
	}
	if err != nil {
		return nil, fmt.Errorf("entrant %q: %w", e.Name, err)
	}
	w.players[i] = p
	return p, nil
}

func (w *worker) play(ctx context.Context, j job) (GameRecord, error) {
	black, err := w.player(j.black, engine.Black)
	if err != nil {
		return GameRecord{}, err
	}
	white, err := w.player(j.white, engine.White)
	if err != nil {
		return GameRecord{}, err
	}
	var op Opening
	if n := len(w.r.Openings); n > 0 {
		op = w.r.Openings[j.opening%n]
	}
	tcs := [2]TimeControl{w.r.Entrants[j.black].Time, w.r.Entrants[j.white].Time}
	rec, err := PlayGameTimed(ctx, w.board, black, white, op, w.r.MaxMoves, tcs)
	rec.Game, rec.Pair = j.game, j.pair
	rec.BlackIndex, rec.WhiteIndex = j.black, j.white
	rec.Black, rec.White = w.r.Entrants[j.black].Name, w.r.Entrants[j.white].Name
	return rec, err
}

func (w *worker) close() {
	w.pool.put(w.engines[0], w.engines[1])
	for _, p := range w.players {
		if p != nil {
			p.Close()
		}
	}
}

// pairingStops tracks Runner.PairingStop: each fixture's pairing and its
// place in it, the pair scores seen, and where each ended pairing stops.
// The collector decides (add); the feeder reads ended concurrently.
type pairingStops struct {
	on      bool
	pairing []int    // fixture -> pairing
	ordinal []int    // fixture -> its index within the pairing
	count   []int    // pairing -> fixtures scheduled
	ab      [][2]int // pairing -> its entrants A, B
	scores  [][]int
	stopAt  []int          // pairing -> first dropped ordinal (collector only)
	endedAt []atomic.Int64 // pairing -> first dropped ordinal + 1, 0 = running (feeder)
}

func newPairingStops(fixtures []Fixture, on bool) *pairingStops {
	s := &pairingStops{on: on}
	if !on {
		return s
	}
	ids := map[[2]int]int{}
	s.pairing = make([]int, len(fixtures))
	s.ordinal = make([]int, len(fixtures))
	for k, f := range fixtures {
		id, ok := ids[[2]int{f.A, f.B}]
		if !ok {
			id = len(ids)
			ids[[2]int{f.A, f.B}] = id
			s.count = append(s.count, 0)
			s.ab = append(s.ab, [2]int{f.A, f.B})
		}
		s.pairing[k], s.ordinal[k] = id, s.count[id]
		s.count[id]++
	}
	s.scores = make([][]int, len(s.count))
	s.stopAt = make([]int, len(s.count))
	for i := range s.stopAt {
		s.stopAt[i] = s.count[i]
	}
	s.endedAt = make([]atomic.Int64, len(s.count))
	return s
}

// add records fixture k's pair score and asks the rule whether its pairing
// is decided.
func (s *pairingStops) add(k, score int, rule func(a, b int, pairs []int, scheduled int) bool) {
	p := s.pairing[k]
	if s.ordinal[k] >= s.stopAt[p] {
		return
	}
	s.scores[p] = append(s.scores[p], score)
	if len(s.scores[p]) < s.count[p] && rule(s.ab[p][0], s.ab[p][1], s.scores[p], s.count[p]) {
		s.stopAt[p] = len(s.scores[p])
		s.endedAt[p].Store(int64(s.stopAt[p]) + 1)
	}
}

// dropped reports whether fixture k falls after its pairing's end
// (collector only).
func (s *pairingStops) dropped(k int) bool {
	return s.on && s.ordinal[k] >= s.stopAt[s.pairing[k]]
}

// ended reports whether fixture k's pairing has already ended before it
// (safe from any goroutine; a false answer only costs a game).
func (s *pairingStops) ended(k int) bool {
	if !s.on {
		return false
	}
	e := s.endedAt[s.pairing[k]].Load()
	return e != 0 && int64(s.ordinal[k]) >= e-1
}
