package tournament

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/internal/crash"
	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tournament/wdl"
	"golang.org/x/sync/errgroup"
)

// Runner plays schedules of game pairs on a pool of workers (modelled
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
	// of A's pairs so far (wdl.PairScore: 0 = LL … 4 = WW) and the number
	// of pairs scheduled for the pairing; true ends the pairing. Its later
	// pairs are not started (or dropped when already in flight), so the
	// table holds exactly the prefix the rule saw, whatever the concurrency.
	// It cannot be combined with SPRT.
	PairingStop func(a, b int, pairs []int, scheduled int) bool
	// Progress, when set, is called from the collector after each game with
	// the games done so far (finished, resumed, or skipped because their
	// pairing ended) and the games scheduled; once before any game when
	// games are resumed.
	Progress func(done, total int)
	// OnGame, when set, receives each game record played in game order (a
	// game is passed on once all games before it are; resumed games are
	// not passed on); an error stops the run.
	OnGame func(GameRecord) error
	// Discard, when set, keeps no game records: the table Run returns has
	// nil Games (its Matchups, Played, Reasons and SPRT are whole), and
	// each record goes only to OnGame, so a long match runs in memory that
	// does not grow with its games.
	Discard bool
	// Resume holds games of this same schedule already played, e.g. read
	// with ReadGameLog from the games log of an interrupted run, in any
	// order, with gaps (games lost in flight) and a half pair allowed. Each
	// must match the schedule (game index, pair, Black and White entrant
	// indices and names, opening text of r.Openings) or Run fails naming
	// it. They are not played again and count in the table, the SPRT,
	// PairingStop and Progress as if just played, but are not passed to
	// OnGame; the missing games are played. With deterministic players the
	// table is the uninterrupted run's. Knockout refuses it.
	Resume []GameRecord
	// Engines, when set, lends the workers their in-process engines and
	// takes them back at the end of the run, so that repeated runs do not
	// reallocate transposition tables. Nil: the process's own pool, which
	// every run given none shares.
	Engines *EnginePool
	// Processes, when set, lends the workers the processes of external
	// entrants game by game and keeps them between runs (see
	// ProcessPool: which entrants share processes, and when they are
	// ended), so that runs with new entrants each time reuse running
	// engines. The caller closes it after its last run. Nil: each worker
	// keeps one process per external entrant for the run and ends them
	// all when the run ends.
	Processes *ProcessPool
	// Remote, when set, plays the games elsewhere (the workers of package
	// cluster) in batches of RemoteBatch games (default
	// DefaultRemoteBatch), Concurrency batches at once (default 4); every
	// entrant must then be an in-process engine. The table, SPRT,
	// PairingStop, Resume and OnGame work as in-process: with fixed-depth
	// engines the table equals the in-process run's. Games of a batch in
	// flight when the SPRT or a PairingStop decides are dropped.
	Remote      Remote
	RemoteBatch int
}

// job is one scheduled game.
type job struct {
	game, pair   int
	black, white int
	opening      int
}

// jobOf returns game i of the fixtures: fixture i/2, A Black when i is
// even, B when odd.
func jobOf(fixtures []Fixture, i int) job {
	f := fixtures[i/2]
	j := job{game: i, pair: i / 2, black: f.A, white: f.B, opening: f.Opening}
	if i%2 == 1 {
		j.black, j.white = f.B, f.A
	}
	return j
}

// opening returns job j's opening from the suite.
func (r *Runner) opening(j job) Opening {
	if n := len(r.Openings); n > 0 {
		return r.Openings[j.opening%n]
	}
	return Opening{}
}

// Run plays the fixtures and returns the table of the games played (and
// resumed). Fixture k is game pair k: game 2k has A as Black, game 2k+1 B
// as Black. Run holds the games finished before an earlier one (to pass
// them on in order) and, unless Discard, the table's records; jobs are
// made from the fixtures as they are fed. Run returns an error naming the
// game for a Resume record that does not fit the schedule, ctx.Err()
// (wrapped) if ctx is cancelled, and the first error of a player that
// cannot start or of OnGame.
func (r *Runner) Run(ctx context.Context, fixtures []Fixture) (*Table, error) {
	if err := checkFixtures(fixtures, len(r.Entrants)); err != nil {
		return nil, err
	}
	for i, e := range r.Entrants {
		if e.New == nil && !e.IsExternal() && len(e.Weights.Genes) == 0 {
			return nil, fmt.Errorf("tournament: entrant %d (%q) has no weights, command or player", i, e.Name)
		}
		if len(e.Setup) > 0 && (e.New != nil || !e.IsExternal()) {
			return nil, fmt.Errorf("tournament: entrant %d (%q) has setup lines but is not an external engine", i, e.Name)
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
	total := 2 * len(fixtures)
	resumed, err := r.resumeIndex(fixtures)
	if err != nil {
		return nil, err
	}
	stops := newPairingStops(fixtures, r.PairingStop != nil)
	var set GameSet
	conc := r.Concurrency
	if r.Remote != nil {
		if set, err = r.gameSet(); err != nil {
			return nil, err
		}
		if conc <= 0 {
			conc = 4
		}
	}
	if conc <= 0 {
		conc = runtime.GOMAXPROCS(0)
	}
	conc = min(conc, total-len(resumed))

	pool := r.Engines
	if pool == nil {
		pool = &processEngines
	}

	g, gctx := errgroup.WithContext(ctx)
	playCtx, stop := context.WithCancel(gctx) // stop: the SPRT has decided
	defer stop()
	feed := make(chan job)
	results := make(chan GameRecord, conc)

	g.Go(func() (err error) { // feeder
		defer crash.Recover(&err)
		defer close(feed)
		for i := range total {
			if _, ok := resumed[i]; ok {
				continue // played before the interruption
			}
			if stops.ended(i / 2) {
				continue // its pairing is decided: not started
			}
			select {
			case feed <- jobOf(fixtures, i):
			case <-playCtx.Done():
				return nil
			}
		}
		return nil
	})

	send := func(rec GameRecord) error {
		select {
		case results <- rec:
			return nil
		case <-gctx.Done():
			return gctx.Err()
		}
	}
	// A remote batch that fails cancels the others' with its error.
	remoteCtx, fail := context.WithCancelCause(playCtx)
	defer fail(nil)
	wg := errgroup.Group{}
	for range conc {
		if r.Remote != nil {
			wg.Go(func() error {
				err := r.playRemote(remoteCtx, set, feed, send)
				switch {
				case err == nil:
					return nil
				case playCtx.Err() != nil && gctx.Err() == nil:
					for range feed { // stopped by the SPRT: drop the batch
					}
					return nil
				case remoteCtx.Err() != nil && !errors.Is(context.Cause(remoteCtx), context.Canceled):
					return context.Cause(remoteCtx) // another batch's failure
				}
				fail(err)
				return err
			})
			continue
		}
		wg.Go(func() (err error) {
			defer crash.Recover(&err)
			w := newWorker(r, pool)
			defer w.close()
			for j := range feed {
				rec, err := w.playCaught(playCtx, j)
				if err != nil {
					if playCtx.Err() != nil && gctx.Err() == nil {
						continue // stopped by the SPRT: drop the game
					}
					return fmt.Errorf("game %d (%s vs %s): %w", j.game, r.Entrants[j.black].Name, r.Entrants[j.white].Name, err)
				}
				if err := send(rec); err != nil {
					return err
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

	names := make([]string, len(r.Entrants))
	for i, e := range r.Entrants {
		names[i] = e.Name
	}
	c := &collector{
		r: r, total: total, cutoff: total, resumed: resumed, out: map[int]GameRecord{},
		stops: stops, table: NewTableBuilder(names, !r.Discard), stop: stop,
	}
	if r.SPRT != nil {
		c.sprt = NewSPRTStatus(*r.SPRT, nil)
	}
	g.Go(func() (err error) {
		defer crash.Recover(&err)
		if len(resumed) > 0 {
			c.progress(len(resumed))
		}
		if err := c.advance(); err != nil { // the resumed prefix
			return err
		}
		for rec := range results {
			if err := c.receive(rec); err != nil {
				return err
			}
		}
		return c.advance() // the tail may be games of ended pairings only
	})
	err = g.Wait()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("tournament: %w", ctx.Err())
	}
	if err != nil {
		return nil, err
	}
	if c.next < c.cutoff {
		return nil, fmt.Errorf("tournament: game %d was not played", c.next)
	}
	t := c.table.Table()
	t.SPRT = c.sprt
	return t, nil
}

// resumeIndex checks r.Resume against the schedule (CheckResumed) and
// returns the position in r.Resume of each resumed game by game index.
func (r *Runner) resumeIndex(fixtures []Fixture) (map[int]int, error) {
	check := r.CheckResumed(fixtures)
	idx := make(map[int]int, len(r.Resume))
	for p, g := range r.Resume {
		if err := check(g); err != nil {
			return nil, err
		}
		idx[g.Game] = p
	}
	return idx, nil
}

// CheckResumed is the check of the records of games already played
// (Resume), one at a time in log order, against the schedule of fixtures:
// each a game of the schedule, once, with its pair, entrants (indices and
// names) and opening text, and a result; an error names the game and the
// rule. The same check runs in Run; a reader of a games log (arena
// -resume) calls it per line, to name the line.
func (r *Runner) CheckResumed(fixtures []Fixture) func(GameRecord) error {
	seen := map[int]int{} // game → record
	n := 0
	return func(g GameRecord) error {
		p := n
		n++
		bad := func(format string, a ...any) error {
			return fmt.Errorf("tournament: resumed game %d: %s", g.Game, fmt.Sprintf(format, a...))
		}
		if g.Game < 0 || g.Game >= 2*len(fixtures) {
			return bad("not in the schedule of %d games", 2*len(fixtures))
		}
		if q, ok := seen[g.Game]; ok {
			return bad("given twice (records %d and %d)", q, p)
		}
		j := jobOf(fixtures, g.Game)
		black, white := r.Entrants[j.black].Name, r.Entrants[j.white].Name
		switch {
		case g.Pair != j.pair:
			return bad("pair %d, the schedule's is %d", g.Pair, j.pair)
		case g.BlackIndex != j.black || g.WhiteIndex != j.white || g.Black != black || g.White != white:
			return bad("%q (%d) vs %q (%d), the schedule has %q (%d) vs %q (%d)",
				g.Black, g.BlackIndex, g.White, g.WhiteIndex, black, j.black, white, j.white)
		case g.Opening != r.opening(j).String():
			return bad("opening %q, the schedule's is %q", g.Opening, r.opening(j).String())
		case g.Result == NoResult:
			return bad("no result")
		}
		seen[g.Game] = p
		return nil
	}
}

// collector takes the finished games in any order and passes them on in
// game order (OnGame, the table, PairingStop, the SPRT), holding only the
// games that finished before an earlier one. It runs on one goroutine.
type collector struct {
	r       *Runner
	total   int                // games scheduled
	cutoff  int                // games after this are not counted (SPRT decided)
	next    int                // first game not passed on yet
	done    int                // games finished, resumed or skipped (Progress)
	resumed map[int]int        // game -> position in r.Resume
	out     map[int]GameRecord // reorder buffer: finished games ≥ next
	prev    Result             // result of game next−1
	penta   wdl.Pentanomial
	sprt    *SPRTStatus
	stops   *pairingStops
	table   *TableBuilder
	stop    func() // cancels the games in flight
}

func (c *collector) progress(n int) {
	c.done += n
	if c.r.Progress != nil {
		c.r.Progress(c.done, c.total)
	}
}

// receive takes a finished game. The next game in order is passed on at
// once; others wait in the reorder buffer (a map: a GameRecord is too big
// for a map to hold inline, so an insert allocates).
func (c *collector) receive(rec GameRecord) error {
	if rec.Game < c.next {
		return nil // of an ended pairing, skipped (and counted) while in flight
	}
	c.progress(1)
	switch {
	case rec.Game >= c.cutoff:
		return nil // finished as the SPRT decided
	case rec.Game == c.next && !c.stops.dropped(rec.Game/2):
		if err := c.pass(rec, true); err != nil {
			return err
		}
	default:
		c.out[rec.Game] = rec
	}
	return c.advance()
}

// advance passes on the games from next while they are there.
func (c *collector) advance() error {
	for c.next < c.cutoff {
		i := c.next
		_, finished := c.out[i]
		p, resumed := c.resumed[i]
		switch {
		case c.stops.dropped(i / 2):
			if finished {
				delete(c.out, i)
			} else if !resumed {
				c.progress(1) // never started, or in flight: receive will ignore it
			}
			c.next++
		case finished:
			rec := c.out[i]
			delete(c.out, i)
			if err := c.pass(rec, true); err != nil {
				return err
			}
		case resumed:
			if err := c.pass(c.r.Resume[p], false); err != nil {
				return err
			}
		default:
			return nil
		}
	}
	return nil
}

// pass passes on game next, played now (to OnGame) or resumed, and counts
// a completed pair in PairingStop and the SPRT.
func (c *collector) pass(rec GameRecord, played bool) error {
	if played && c.r.OnGame != nil {
		if err := c.r.OnGame(rec); err != nil {
			return err
		}
	}
	if err := c.table.Add(rec); err != nil {
		return fmt.Errorf("tournament: %w", err)
	}
	c.next++
	if c.next%2 == 1 {
		c.prev = rec.Result
		return nil
	}
	// A pair is complete: A had Black in its first game.
	score := wdl.PairScore(c.prev.Score(engine.Black), rec.Result.Score(engine.White))
	if c.r.PairingStop != nil {
		c.stops.add(rec.Game/2, score, c.r.PairingStop)
	}
	if c.sprt != nil {
		c.penta[score]++
		llr, dec, err := c.r.SPRT.Test(c.penta.Counts())
		if err != nil {
			return err
		}
		c.sprt.LLR, c.sprt.Pairs = llr, c.next/2
		if dec != stats.Continue {
			c.sprt.Decision = dec.String()
			c.cutoff = c.next
			c.stop()
		}
	}
	return nil
}

// worker owns the players and the board of one goroutine of the pool.
type worker struct {
	r        *Runner
	pool     *EnginePool
	board    *engine.Board
	engines  [2]*EnginePlayer   // in-process engine per colour, reused by every engine entrant
	players  []Player           // custom and external players by entrant index, made on first use
	keys     []string           // processKey by entrant index, made on first use (Runner.Processes)
	borrowed [2]*ExternalPlayer // per colour: the game's players lent by Runner.Processes
}

func newWorker(r *Runner, pool *EnginePool) *worker {
	w := &worker{r: r, pool: pool, board: engine.NewBoard(), players: make([]Player, len(r.Entrants))}
	if r.Processes != nil {
		w.keys = make([]string, len(r.Entrants))
	}
	return w
}

// pooled reports whether entrant e's processes come from Runner.Processes.
func (w *worker) pooled(e *Entrant) bool {
	return w.r.Processes != nil && e.New == nil && e.IsExternal() && e.External.Transcript == nil
}

// borrow lends the worker a player of Runner.Processes for entrant i with
// colour c, for one game (giveBack).
func (w *worker) borrow(i int, c engine.Color) (Player, error) {
	e := &w.r.Entrants[i]
	if w.keys[i] == "" {
		w.keys[i] = processKey(e)
	}
	p, err := w.r.Processes.get(e, w.keys[i])
	if err != nil {
		return nil, fmt.Errorf("entrant %q: %w", e.Name, err)
	}
	w.borrowed[colorIndex(c)] = p
	return p, nil
}

// giveBack returns the game's borrowed players to Runner.Processes.
func (w *worker) giveBack() {
	for i, p := range w.borrowed {
		if p != nil {
			w.r.Processes.put(p)
			w.borrowed[i] = nil
		}
	}
}

// player returns the worker's player for entrant i with colour c.
func (w *worker) player(i int, c engine.Color) (Player, error) {
	e := &w.r.Entrants[i]
	if e.New == nil && !e.IsExternal() {
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
	if w.pooled(e) {
		return w.borrow(i, c)
	}
	if w.players[i] != nil {
		return w.players[i], nil
	}
	var p Player
	var err error
	if e.New != nil {
		p, err = e.New()
	} else {
		var x *ExternalPlayer
		if x, err = NewExternal(e.Engine, e.External); err == nil {
			x.setSetup(e.Setup)
			p = x
		}
	}
	if err != nil {
		return nil, fmt.Errorf("entrant %q: %w", e.Name, err)
	}
	w.players[i] = p
	return p, nil
}

// playCaught is play with a panic of the game's code (a player's, the
// engine's) returned as a *crash.Panic error, which the worker's caller
// names by game and the command turns into its internal-error exit.
func (w *worker) playCaught(ctx context.Context, j job) (rec GameRecord, err error) {
	if p := crash.Catch(func() { rec, err = w.play(ctx, j) }); p != nil {
		return GameRecord{}, p
	}
	return rec, err
}

func (w *worker) play(ctx context.Context, j job) (GameRecord, error) {
	defer w.giveBack()
	black, err := w.player(j.black, engine.Black)
	if err != nil {
		return GameRecord{}, err
	}
	white, err := w.player(j.white, engine.White)
	if err != nil {
		return GameRecord{}, err
	}
	op := w.r.opening(j)
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
