package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/referee"
	"github.com/roadtune/roadtune/tournament"
)

// DefaultVerifySample is the share of batches the coordinator replays
// itself to verify the workers' results unless Coordinator.VerifySample
// says otherwise: 3 %.
const DefaultVerifySample = 0.03

// maxPositionsPerGame bounds the positions one game can give
// (referee.VectorReferee.SampleRange: two per move, and a game has at
// most one move per cell of the board).
const maxPositionsPerGame = 2 * engine.Size * engine.Size

// errTimed says a batch cannot be replayed: its games play by the clock.
var errTimed = errors.New("timed games are not deterministic")

// checkResult is why r cannot be b's result, nil when it can: the
// consistency checks every result passes before it is used. One outcome
// per match, no negative count, each match's games those it asked for
// (2·Pairs, or for a WinnerOnly match under an early-stop rule an even
// count from 2 to 2·Pairs: referee.Decided settles a match after whole
// game pairs, at least one); game records (Batch.Games) one per game
// counted, numbered, named and indexed as the batch's range numbers them
// (referee.Range) with the results the outcomes count; positions (Sample)
// of the batch's games, at most maxPositionsPerGame per game, with
// features of the match's length, tempo ±1 and a result of 0, ½ or 1.
// Counts are bounded before they are summed, so no sum overflows.
func (b *Batch) checkResult(r Result) error {
	n, pairs := len(b.Matches), max(b.Setup.Pairs, 1)
	if len(r.Outcomes) != n {
		return fmt.Errorf("%d outcomes for %d matches", len(r.Outcomes), n)
	}
	_, early, err := referee.ParseEarlyStop(b.Setup.EarlyStop)
	if err != nil {
		return err
	}
	games := 0
	for i, o := range r.Outcomes {
		for _, c := range []int{o.Wins, o.Draws, o.Losses} {
			if c < 0 || c > 2*pairs {
				return fmt.Errorf("match %d: outcome %+v: each count must be from 0 to %d", b.First+i, o, 2*pairs)
			}
		}
		g := o.Games()
		switch {
		case early && b.Matches[i].WinnerOnly:
			if g < 2 || g > 2*pairs || g%2 != 0 {
				return fmt.Errorf("match %d: outcome %+v: %d games, want an even count from 2 to %d (early stop %q)", b.First+i, o, g, 2*pairs, b.Setup.EarlyStop)
			}
		case g != 2*pairs:
			return fmt.Errorf("match %d: outcome %+v: %d games, want %d", b.First+i, o, g, 2*pairs)
		}
		games += g
	}
	if b.Games {
		if err := b.checkRecords(r); err != nil {
			return err
		}
		if len(r.Records) != games {
			return fmt.Errorf("%d game records for %d games", len(r.Records), games)
		}
	} else if len(r.Records) > 0 {
		return fmt.Errorf("%d game records where none were asked for", len(r.Records))
	}
	if !b.Sample {
		if len(r.Positions) > 0 {
			return fmt.Errorf("%d positions where none were asked for", len(r.Positions))
		}
		return nil
	}
	if len(r.Positions) > maxPositionsPerGame*games {
		return fmt.Errorf("%d positions from %d games (at most %d a game)", len(r.Positions), games, maxPositionsPerGame)
	}
	for k, p := range r.Positions {
		i, ok := b.matchOf(p.Game)
		switch {
		case !ok:
			return fmt.Errorf("position %d: game %d is not one of the batch's", k, p.Game)
		case len(p.X) != len(b.Matches[i].A):
			return fmt.Errorf("position %d: %d features, want %d", k, len(p.X), len(b.Matches[i].A))
		case p.Tempo != 1 && p.Tempo != -1:
			return fmt.Errorf("position %d: tempo %v, want ±1", k, p.Tempo)
		case p.Y != 0 && p.Y != 0.5 && p.Y != 1:
			return fmt.Errorf("position %d: result %v, want 0, ½ or 1", k, p.Y)
		}
		for _, x := range p.X {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("position %d: feature %v", k, x)
			}
		}
	}
	return nil
}

// matchOf is the index in b.Matches of the match game (numbered in the
// whole call) belongs to; ok is false for a game outside the batch.
func (b *Batch) matchOf(game int) (int, bool) {
	pair := game / 2
	if game < 0 || b.Total <= 0 {
		return 0, false
	}
	k, m := pair/b.Total, pair%b.Total
	i := m - b.First
	if i < 0 || i >= len(b.Matches) || k >= max(b.Setup.Pairs, 1) {
		return 0, false
	}
	return i, true
}

// checkRecords checks the game records of a Games batch: each a game of
// the batch, once, between its match's players, the results from A's view
// tallying to the match's outcome.
func (b *Batch) checkRecords(r Result) error {
	seen := map[int]bool{}
	tally := make([]optimize.Outcome, len(b.Matches))
	for k, g := range r.Records {
		i, ok := b.matchOf(g.Game)
		if !ok || g.Pair != g.Game/2 || seen[g.Game] {
			return fmt.Errorf("game record %d: game %d (pair %d) is not a game of the batch, or comes twice", k, g.Game, g.Pair)
		}
		seen[g.Game] = true
		a, bb := 2*(b.First+i), 2*(b.First+i)+1
		aName, bName := fmt.Sprintf("m%d.A", b.First+i), fmt.Sprintf("m%d.B", b.First+i)
		var aColor engine.Color
		switch {
		case g.BlackIndex == a && g.WhiteIndex == bb && g.Black == aName && g.White == bName:
			aColor = engine.Black
		case g.BlackIndex == bb && g.WhiteIndex == a && g.Black == bName && g.White == aName:
			aColor = engine.White
		default:
			return fmt.Errorf("game record %d: players %s (%d) and %s (%d) are not match %d's", k, g.Black, g.BlackIndex, g.White, g.WhiteIndex, b.First+i)
		}
		tally[i].Add(g.Result.Score(aColor)) // 0, ½ or 1, which Add always takes
	}
	for i, t := range tally {
		if o := r.Outcomes[i]; t != o {
			return fmt.Errorf("match %d: the game records count %d/%d/%d, the outcome %d/%d/%d (W/D/L from A's view)", b.First+i, t.Wins, t.Draws, t.Losses, o.Wins, o.Draws, o.Losses)
		}
	}
	return nil
}

// timed reports whether a batch's games play by the clock: then they are
// not deterministic, and are checked but never replayed.
func (b *Batch) timed() bool { return b.Setup.Settings.MoveTime > 0 || !b.Setup.Time.IsZero() }

// checkedOnly reports whether a batch's results are only checked, never
// replayed to verify them: its games play by the clock, or by an external
// engine, whose games repeat only if the engine is deterministic (which
// the cluster cannot know: a replay that differed would quarantine an
// honest worker).
func (b *Batch) checkedOnly() bool { return b.timed() || b.Setup.External != nil }

// queue is the subject the batch with key is queued on: the workers'
// consumer's, or for an external engine's batch that engine's
// (engineSubjects), which only workers with the engine consume.
func (b *Batch) queue(key string) string {
	if x := b.Setup.External; x != nil {
		return engineSubjects(x.ID()) + key
	}
	return batchSubject(key)
}

// replay plays b in this process (concurrency games at once), an external
// engine's games with engines (the coordinator's own engine: a batch it
// plays itself when no worker it can trust played it).
func (b *Batch) replay(ctx context.Context, concurrency int, engines []tournament.Engine) (Result, error) {
	if b.timed() {
		return Result{}, errTimed
	}
	ref, done, err := localReferee(b.Setup, concurrency, engines)
	if err != nil {
		return Result{}, err
	}
	defer done()
	return b.Play(ctx, ref, nil)
}

// sameResult reports whether a worker's result equals the coordinator's
// replay of the batch: outcomes, positions (features to 1e-9, relative:
// a platform may fuse multiply-adds) and game records without their
// timings.
func sameResult(got, want Result) bool {
	if !slices.Equal(got.Outcomes, want.Outcomes) || len(got.Positions) != len(want.Positions) || len(got.Records) != len(want.Records) {
		return false
	}
	for i, p := range got.Positions {
		q := want.Positions[i]
		if p.Game != q.Game || p.Tempo != q.Tempo || p.Y != q.Y || len(p.X) != len(q.X) {
			return false
		}
		for d, x := range p.X {
			if math.Abs(x-q.X[d]) > 1e-9*max(1, math.Abs(q.X[d])) {
				return false
			}
		}
	}
	for i, g := range got.Records {
		if !reflect.DeepEqual(untimed(g), untimed(want.Records[i])) {
			return false
		}
	}
	return true
}

// untimed is a game record without what the clock decides: thinking
// times, clocks and node counts.
func untimed(g tournament.GameRecord) tournament.GameRecord {
	g.Time, g.Clock, g.MoveTimes, g.Nodes = [2]time.Duration{}, [2]time.Duration{}, nil, [2]int64{}
	return g
}

// sampled reports whether the batch with key is among the share of
// batches replayed, chosen by a SHA-256 of the coordinator's VerifySeed
// and the key: the same batches in every run with that seed, and none a
// worker can foresee without the seed.
func sampled(seed uint64, key string, share float64) bool {
	if share <= 0 {
		return false
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], seed)
	sum := sha256.Sum256(append(buf[:], key...))
	return float64(binary.LittleEndian.Uint64(sum[:8])>>11)/(1<<53) < share
}
