package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/roadtune/roadtune/engine"
	"github.com/roadtune/roadtune/tournament"
)

// kindGames marks a GamesBatch (a Batch has no kind).
const kindGames = "games"

// GamesBatch is a unit of work of a tournament (a verification rung, an
// arena match): games of a tournament.Runner whose entrants are in-process
// engines, played with tournament.PlayScheduled.
type GamesBatch struct {
	Protocol    int                        `json:"protocol"`
	Kind        string                     `json:"kind"`        // kindGames
	Build       string                     `json:"build"`       // the coordinator's EngineBuild
	Fingerprint string                     `json:"fingerprint"` // GamesFingerprint(Build, Set)
	Run         string                     `json:"run"`
	Set         tournament.GameSet         `json:"set"`
	Games       []tournament.ScheduledGame `json:"games"`
}

// GamesFingerprint identifies what the games of a GamesBatch depend on
// besides their schedule: the engine build, the message protocol and the
// entrants as this build encodes them (16 hex digits of a SHA-256).
func GamesFingerprint(build string, set tournament.GameSet) string {
	data, err := json.Marshal(set)
	if err != nil { // numbers and strings only
		panic(err)
	}
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\n%d\ngames\n%s", build, protocol, data))
	return hex.EncodeToString(sum[:8])
}

// Key is the batch's identity, message id and result key: run, first
// game, then a digest of the whole batch.
func (b *GamesBatch) Key() string {
	data, _ := json.Marshal(b)
	sum := sha256.Sum256(data)
	first := 0
	if len(b.Games) > 0 {
		first = b.Games[0].Game
	}
	return fmt.Sprintf("%s.g%d.%s", b.Run, first, hex.EncodeToString(sum[:8]))
}

// subject is where the batch's result goes: its own subject, so a
// coordinator with many batches in flight reads each result once.
func (b *GamesBatch) subject() string {
	sum := sha256.Sum256([]byte(b.Key()))
	return fmt.Sprintf("%s%s.g%s", resultPrefix, b.Run, hex.EncodeToString(sum[:8]))
}

func (b *GamesBatch) describe() string {
	first, last := 0, 0
	if n := len(b.Games); n > 0 {
		first, last = b.Games[0].Game, b.Games[n-1].Game
	}
	return fmt.Sprintf("(run %s, games %d–%d)", b.Run, first, last)
}

// PlayGames plays the games on the workers as one batch and returns their
// records in order (a tournament.Remote: set Runner.Remote to the
// coordinator, Runner.Concurrency batches at once). With fixed-depth
// engines the records are those tournament.PlayScheduled gives in this
// process. Errors: as Play.
func (c *Coordinator) PlayGames(ctx context.Context, set tournament.GameSet, games []tournament.ScheduledGame) ([]tournament.GameRecord, error) {
	if len(games) == 0 {
		return nil, nil
	}
	build := buildOr(c.Build)
	b := &GamesBatch{Protocol: protocol, Kind: kindGames, Build: build, Fingerprint: GamesFingerprint(build, set),
		Run: RunName(c.Run), Set: set, Games: games}
	var out []tournament.GameRecord
	p := newParcel(b, b.describe())
	err := c.exchange(ctx, b.Run, b.subject(), []parcel{p}, nil, nil, func(_ parcel, r Result) error {
		out = r.Records
		return nil
	})
	return out, err
}

// checkResult checks a games batch's result: one record per scheduled
// game, in order, with the game's number, pair, players (indices and
// names) and opening.
func (b *GamesBatch) checkResult(r Result) error {
	if len(r.Records) != len(b.Games) || len(r.Outcomes) > 0 || len(r.Positions) > 0 {
		return fmt.Errorf("%d game records for %d games (and %d outcomes, %d positions)", len(r.Records), len(b.Games), len(r.Outcomes), len(r.Positions))
	}
	for k, g := range r.Records {
		s := b.Games[k]
		if g.Game != s.Game || g.Pair != s.Pair || g.BlackIndex != s.Black || g.WhiteIndex != s.White || g.Opening != s.Opening ||
			s.Black < 0 || s.Black >= len(b.Set.Entrants) || s.White < 0 || s.White >= len(b.Set.Entrants) ||
			g.Black != b.Set.Entrants[s.Black].Name || g.White != b.Set.Entrants[s.White].Name {
			return fmt.Errorf("game record %d (game %d, %s against %s) is not scheduled game %d", k, g.Game, g.Black, g.White, s.Game)
		}
	}
	return nil
}

// maxResult is the most bytes a result of the batch can inflate to
// (resultBound): a record for each scheduled game.
func (b *GamesBatch) maxResult() int64 { return resultBound(len(b.Games), 0, 0, 0) }

// checkedOnly reports whether an entrant plays by the clock: then the
// games are not deterministic, and are checked but never replayed.
func (b *GamesBatch) checkedOnly() bool { return b.timed() }

// queue is the subject of the workers' consumer (games batches have no
// external engines).
func (b *GamesBatch) queue(key string) string { return batchSubject(key) }

// timed reports whether an entrant plays by the clock.
func (b *GamesBatch) timed() bool {
	for _, e := range b.Set.Entrants {
		if e.Settings.MoveTime > 0 || !e.Time.IsZero() {
			return true
		}
	}
	return false
}

// replay plays the batch's games in this process (its entrants are
// in-process engines: engines are not used).
func (b *GamesBatch) replay(ctx context.Context, concurrency int, _ []tournament.Engine) (Result, error) {
	if b.timed() {
		return Result{}, errTimed
	}
	start := time.Now()
	recs, err := tournament.PlayScheduled(ctx, b.Set, b.Games, max(concurrency, 1), nil)
	return Result{Records: recs, Seconds: time.Since(start).Seconds()}, err
}

// again is false: a games batch's result subject follows from its key, so
// a refused batch is played by the coordinator instead.
func (b *GamesBatch) again() (work, bool) { return nil, false }

var _ tournament.Remote = (*Coordinator)(nil)

// refuseGames is why this worker cannot play b's games exactly, "" if it
// can.
func (w *Worker) refuseGames(b *GamesBatch) string {
	build := buildOr(w.Build)
	if fp := GamesFingerprint(build, b.Set); fp != b.Fingerprint {
		return foreign(b.Fingerprint, fp, b.Build, build)
	}
	for _, e := range b.Set.Entrants {
		if e.IsExternal() { // never run a program a batch names
			return fmt.Sprintf("entrant %q: an external engine: a games batch holds in-process engines only", e.Name)
		}
		if err := e.Settings.Validate(); err != nil {
			return fmt.Sprintf("entrant %q: settings this worker cannot play: %v", e.Name, err)
		}
		if _, err := engine.NewWeights(e.Weights.Schema, e.Weights.Genes); err != nil {
			return fmt.Sprintf("entrant %q: weights this worker cannot play: %v", e.Name, err)
		}
	}
	return ""
}

// playGames plays a GamesBatch (its message data), reporting progress to
// the server while it does, and publishes its result, as play does for a
// Batch.
func (w *Worker) playGames(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg, engines *tournament.EnginePool, every time.Duration) {
	var b GamesBatch
	if err := json.Unmarshal(msg.Data(), &b); err != nil {
		reason := fmt.Sprintf("worker %s cannot read the games batch: %v", w.name(), err)
		w.logf("%s", reason)
		msg.TermWithReason(reason)
		return
	}
	res := Result{}
	if reason := w.refuseGames(&b); reason != "" {
		w.giveBack(msg, b.Run, b.Key(), b.describe(), reason)
		return
	}
	stopProgress := repeat(every, func() { msg.InProgress() })
	w.live.batches.Add(1)
	start := time.Now()
	recs, err := tournament.PlayScheduled(ctx, b.Set, b.Games, w.Concurrency, engines)
	stopProgress()
	w.live.batches.Add(-1)
	w.live.games.Add(int64(len(recs)))
	res.Records, res.Seconds = recs, time.Since(start).Seconds()
	for range recs {
		if w.onGame != nil {
			w.onGame()
		}
	}
	switch {
	case ctx.Err() != nil:
		msg.Nak()
		return
	case err != nil:
		res.Records, res.Error = nil, err.Error()
		w.logf("batch %s failed: %v", b.describe(), err)
		w.publishTo(ctx, js, b.Key(), b.subject(), res)
		msg.TermWithReason(res.Error)
		return
	}
	if err := w.publishTo(ctx, js, b.Key(), b.subject(), res); err != nil {
		w.logf("batch %s: %v; it will be delivered again", b.describe(), err)
		msg.Nak()
		return
	}
	msg.Ack()
	w.pause.played()
}
