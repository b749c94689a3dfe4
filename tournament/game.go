package tournament

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/roadtune/roadtune/engine"
)

// Result is the result of a game: who won, or a draw.
type Result int8

// Results. NoResult is the zero value (a game not played).
const (
	NoResult Result = iota
	BlackWins
	WhiteWins
	Draw
)

// String returns the SGF RE notation: "B+", "W+", "0"; NoResult is "?".
func (r Result) String() string {
	switch r {
	case BlackWins:
		return "B+"
	case WhiteWins:
		return "W+"
	case Draw:
		return "0"
	}
	return "?"
}

// ParseResult reads "B+", "W+" or "0".
func ParseResult(s string) (Result, error) {
	switch s {
	case "B+":
		return BlackWins, nil
	case "W+":
		return WhiteWins, nil
	case "0":
		return Draw, nil
	}
	return NoResult, fmt.Errorf("result %q: want B+, W+ or 0", s)
}

// MarshalText implements encoding.TextMarshaler ("B+", "W+", "0").
func (r Result) MarshalText() ([]byte, error) {
	if r == NoResult {
		return nil, errors.New("tournament: no result")
	}
	return []byte(r.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (r *Result) UnmarshalText(b []byte) error {
	v, err := ParseResult(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// Score returns the points of colour c in a game with result r: 1 for a
// win, ½ for a draw, 0 for a loss.
func (r Result) Score(c engine.Color) float64 {
	switch {
	case r == Draw:
		return 0.5
	case r == BlackWins && c == engine.Black, r == WhiteWins && c == engine.White:
		return 1
	}
	return 0
}

// Why a game ended (GameRecord.Reason). Forfeits are "forfeit:" followed by
// a Forfeit kind ("forfeit:timeout", "forfeit:crash", "forfeit:illegal",
// "forfeit:malformed", "forfeit:exit").
const (
	ReasonSix       = "six"        // six or more in a row (connect6.md "Rules")
	ReasonFullBoard = "full-board" // all 361 points filled without six: draw
	ReasonMoveLimit = "move-limit" // the move limit was reached: draw
)

// ReasonWords says how a game ended in words for a summary line:
// "by six in a row", "on a full board (drawn)", "at the move limit
// (drawn)", "by forfeit (timeout)"; an unknown reason as it is.
func ReasonWords(reason string) string {
	switch reason {
	case ReasonSix:
		return "by six in a row"
	case ReasonFullBoard:
		return "on a full board (drawn)"
	case ReasonMoveLimit:
		return "at the move limit (drawn)"
	}
	if kind, ok := strings.CutPrefix(reason, "forfeit:"); ok {
		return "by forfeit (" + kind + ")"
	}
	return reason
}

// GameRecord is one game as played: the players, the opening, every move
// from the empty board, the result and why, time and nodes per colour. It
// is the line format of the games log (JSON Lines, see MarshalJSON).
type GameRecord struct {
	Game       int           // index of the game in its schedule (0-based)
	Pair       int           // index of its game pair (games 2k and 2k+1 form pair k)
	Black      string        // name of the player with Black
	White      string        // name of the player with White
	BlackIndex int           // entrant index of Black in the schedule
	WhiteIndex int           // entrant index of White
	Opening    string        // protocol notation, "" for the empty board
	Moves      []engine.Move // all moves from the empty board, the opening's first; a winning move may be one stone
	Result     Result
	Reason     string           // ReasonSix, ReasonFullBoard, ReasonMoveLimit or "forfeit:<kind>"
	Detail     string           // forfeit detail (offending line, engine error, stderr tail)
	Time       [2]time.Duration // wall-clock thinking time of Black, White as measured by the referee (see PlayGame)
	Nodes      [2]int64         // search nodes of Black, White (0 for external engines)
	// TC are the time controls of Black, White (TimeControl.String; ""
	// for none); Clock their game clocks at the end (tc= only); MoveTimes
	// the thinking time of each move after the opening, in order (kept
	// only when a side has a time control).
	TC        [2]string
	Clock     [2]time.Duration
	MoveTimes []time.Duration
}

// gameJSON is the JSON Lines form of a GameRecord: times in seconds, moves
// in protocol notation.
type gameJSON struct {
	Game       int         `json:"game"`
	Pair       int         `json:"pair"`
	Black      string      `json:"black"`
	White      string      `json:"white"`
	BlackIndex int         `json:"black_index"`
	WhiteIndex int         `json:"white_index"`
	Opening    string      `json:"opening"`
	Result     Result      `json:"result"`
	Reason     string      `json:"reason"`
	Detail     string      `json:"detail,omitempty"`
	Moves      []string    `json:"moves"`
	TimeS      [2]float64  `json:"time_s"`
	Nodes      [2]int64    `json:"nodes"`
	TC         *[2]string  `json:"tc,omitempty"`
	ClockS     *[2]float64 `json:"clock_s,omitempty"`
	MoveS      []float64   `json:"move_s,omitempty"`
}

// MarshalJSON writes the record as one JSON object: game, pair, black,
// white, black_index, white_index, opening, result ("B+", "W+", "0"),
// reason, detail (when not empty), moves (protocol notation), time_s
// (seconds of Black, White) and nodes (of Black, White); with a time
// control also tc (Black's, White's), clock_s (clocks left, seconds) and
// move_s (seconds per move after the opening).
func (g GameRecord) MarshalJSON() ([]byte, error) {
	j := gameJSON{
		Game: g.Game, Pair: g.Pair, Black: g.Black, White: g.White,
		BlackIndex: g.BlackIndex, WhiteIndex: g.WhiteIndex, Opening: g.Opening,
		Result: g.Result, Reason: g.Reason, Detail: g.Detail,
		Moves: make([]string, len(g.Moves)), Nodes: g.Nodes,
		TimeS: [2]float64{g.Time[0].Seconds(), g.Time[1].Seconds()},
	}
	for i, m := range g.Moves {
		j.Moves[i] = m.String()
	}
	if g.TC != [2]string{} {
		tc := g.TC
		clock := [2]float64{g.Clock[0].Seconds(), g.Clock[1].Seconds()}
		j.TC, j.ClockS = &tc, &clock
		j.MoveS = make([]float64, len(g.MoveTimes))
		for i, d := range g.MoveTimes {
			j.MoveS[i] = d.Seconds()
		}
	}
	return json.Marshal(j)
}

// gameJSONIn is gameJSON as read: the fields every record has are
// pointers, so that a missing one is told from a zero one.
type gameJSONIn struct {
	Game       *int        `json:"game"`
	Pair       *int        `json:"pair"`
	Black      *string     `json:"black"`
	White      *string     `json:"white"`
	BlackIndex *int        `json:"black_index"`
	WhiteIndex *int        `json:"white_index"`
	Opening    *string     `json:"opening"`
	Result     *Result     `json:"result"`
	Reason     *string     `json:"reason"`
	Detail     string      `json:"detail,omitempty"`
	Moves      *[]string   `json:"moves"`
	TimeS      [2]float64  `json:"time_s"`
	Nodes      [2]int64    `json:"nodes"`
	TC         *[2]string  `json:"tc,omitempty"`
	ClockS     *[2]float64 `json:"clock_s,omitempty"`
	MoveS      []float64   `json:"move_s,omitempty"`
}

// UnmarshalJSON reads the form written by MarshalJSON; a bad move names its
// index. The fields every record has — game, pair, black, white,
// black_index, white_index, opening, result, reason and moves — are
// required (an empty object is not a game: no result, no players); the
// players' names must not be empty and the numbers not negative.
func (g *GameRecord) UnmarshalJSON(b []byte) error {
	var j gameJSONIn
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	var missing []string
	for _, f := range []struct {
		name string
		nil  bool
	}{
		{"game", j.Game == nil}, {"pair", j.Pair == nil}, {"black", j.Black == nil}, {"white", j.White == nil},
		{"black_index", j.BlackIndex == nil}, {"white_index", j.WhiteIndex == nil}, {"opening", j.Opening == nil},
		{"result", j.Result == nil}, {"reason", j.Reason == nil}, {"moves", j.Moves == nil},
	} {
		if f.nil {
			missing = append(missing, strconv.Quote(f.name))
		}
	}
	switch {
	case len(missing) == 1:
		return fmt.Errorf("field %s missing", missing[0])
	case len(missing) > 1:
		return fmt.Errorf("fields %s missing", strings.Join(missing, ", "))
	case *j.Black == "" || *j.White == "":
		return errors.New("a player's name is empty")
	case *j.Game < 0 || *j.Pair < 0 || *j.BlackIndex < 0 || *j.WhiteIndex < 0:
		return errors.New("game, pair, black_index and white_index must not be negative")
	case *j.Result == NoResult:
		return errors.New("field \"result\": no result")
	}
	moves := make([]engine.Move, len(*j.Moves))
	for i, s := range *j.Moves {
		m, err := engine.ParseMove(s)
		if err != nil {
			return fmt.Errorf("moves[%d]: %w", i, err)
		}
		moves[i] = m
	}
	*g = GameRecord{
		Game: *j.Game, Pair: *j.Pair, Black: *j.Black, White: *j.White,
		BlackIndex: *j.BlackIndex, WhiteIndex: *j.WhiteIndex, Opening: *j.Opening,
		Moves: moves, Result: *j.Result, Reason: *j.Reason, Detail: j.Detail,
		Nodes: j.Nodes,
		Time: [2]time.Duration{
			secondsDuration(j.TimeS[0]), secondsDuration(j.TimeS[1]),
		},
	}
	if j.TC != nil {
		g.TC = *j.TC
	}
	if j.ClockS != nil {
		g.Clock = [2]time.Duration{secondsDuration(j.ClockS[0]), secondsDuration(j.ClockS[1])}
	}
	for _, x := range j.MoveS {
		g.MoveTimes = append(g.MoveTimes, secondsDuration(x))
	}
	return nil
}

func secondsDuration(x float64) time.Duration { return time.Duration(x * float64(time.Second)) }

// colorIndex maps Black to 0 and White to 1.
func colorIndex(c engine.Color) int {
	if c == engine.White {
		return 1
	}
	return 0
}

// PlayGame referees one game between black and white from opening, on the
// scratch board b (reset first; its position at return is the final one).
// Every move is checked by engine.Board.Play, which also detects a six
// after each stone; a full board is a draw, and so is reaching maxMoves
// moves in all (opening included; 0 = no limit). A player's *Forfeit
// (and an illegal move, "forfeit:illegal") loses the game for that player.
// The returned record has the moves, result, reason, detail, times and
// nodes; the caller fills the indices and names. An error other than a
// forfeit (a cancelled ctx, an illegal opening, a player that cannot start)
// is returned as is.
func PlayGame(ctx context.Context, b *engine.Board, black, white Player, opening Opening, maxMoves int) (GameRecord, error) {
	return PlayGameTimed(ctx, b, black, white, opening, maxMoves, [2]TimeControl{})
}

// PlayGameTimed is PlayGame with time controls for Black and White
// (tcs[0], tcs[1]; zero: none). Before each move of a side with a time
// control a Timed player is told its MoveClock; a move that overruns the
// side's time plus its margin loses the game on time (forfeit:timeout),
// even when the move came. The record holds the time controls, the clocks
// at the end and each move's time.
func PlayGameTimed(ctx context.Context, b *engine.Board, black, white Player, opening Opening, maxMoves int, tcs [2]TimeControl) (GameRecord, error) {
	rec := GameRecord{Opening: opening.String(), Moves: make([]engine.Move, 0, 64)}
	timed := !tcs[0].IsZero() || !tcs[1].IsZero()
	clocks := [2]gameClock{newGameClock(tcs[0]), newGameClock(tcs[1])}
	if timed {
		rec.TC = [2]string{tcs[0].String(), tcs[1].String()}
	}
	rec, err := playGame(ctx, b, black, white, opening, maxMoves, tcs, &clocks, rec)
	if timed {
		for i := range clocks {
			if tcs[i].PerMove == 0 {
				rec.Clock[i] = clocks[i].game.Remaining
			}
		}
	}
	return rec, err
}

// playGame is PlayGameTimed's game loop; clocks are the colours' clocks.
func playGame(ctx context.Context, b *engine.Board, black, white Player, opening Opening, maxMoves int, tcs [2]TimeControl, clocks *[2]gameClock, rec GameRecord) (GameRecord, error) {
	timed := rec.TC != [2]string{}
	b.Reset()
	for i, m := range opening.Moves {
		if err := b.Play(m); err != nil {
			return rec, fmt.Errorf("opening %q, move %d: %w", rec.Opening, i+1, err)
		}
		rec.Moves = append(rec.Moves, m)
	}
	players := [2]Player{black, white}
	for ci, p := range players {
		c := engine.Black
		if ci == 1 {
			c = engine.White
		}
		if err := p.NewGame(ctx, opening, c); err != nil {
			var f *Forfeit
			if errors.As(err, &f) {
				forfeitGame(&rec, c, f)
				return rec, nil
			}
			return rec, err
		}
	}
	last := NoMove
	// One clock reading per move: a player's time runs from the end of the
	// previous move's reading to the end of its own reply, so it includes
	// the referee's validation of the previous move (about 0.1 µs).
	clock := time.Now()
	for {
		switch {
		case b.Winner() != engine.Empty:
			rec.Reason = ReasonSix
			rec.Result = BlackWins
			if b.Winner() == engine.White {
				rec.Result = WhiteWins
			}
			return rec, nil
		case b.Full():
			rec.Result, rec.Reason = Draw, ReasonFullBoard
			return rec, nil
		case maxMoves > 0 && b.Turn() >= maxMoves:
			rec.Result, rec.Reason = Draw, ReasonMoveLimit
			return rec, nil
		}
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		c := b.ToMove()
		ci := colorIndex(c)
		onClock := !tcs[ci].IsZero()
		if t, ok := players[ci].(Timed); ok && onClock {
			t.SetClock(clocks[ci].next())
			clock = time.Now() // the player's time starts now
		}
		reply, err := players[ci].Play(ctx, b, last)
		now := time.Now()
		took := now.Sub(clock)
		rec.Time[ci] += took
		clock = now
		rec.Nodes[ci] += reply.Nodes
		if timed {
			rec.MoveTimes = append(rec.MoveTimes, took)
		}
		if err != nil {
			var f *Forfeit
			if errors.As(err, &f) {
				forfeitGame(&rec, c, f)
				return rec, nil
			}
			return rec, err
		}
		if onClock {
			if detail := clocks[ci].spend(took); detail != "" {
				forfeitGame(&rec, c, &Forfeit{Kind: ForfeitTimeout, Detail: detail})
				return rec, nil
			}
		}
		before := b.Stones()
		if err := b.Play(reply.Move); err != nil {
			forfeitGame(&rec, c, &Forfeit{Kind: ForfeitIllegal, Detail: fmt.Sprintf("move %d %s: %v", b.Turn()+1, moveText(reply.Move), err)})
			return rec, nil
		}
		played := reply.Move
		if played.Len() == 2 && b.Stones()-before == 1 {
			played = engine.Single(played.A) // the first stone won; the second was not placed
		}
		rec.Moves = append(rec.Moves, played)
		last = played
	}
}

// moveText prints a move that may hold off-board points without failing.
func moveText(m engine.Move) string {
	s := m.String()
	if strings.TrimSpace(s) == "" {
		return fmt.Sprintf("{%d %d}", m.A, m.B)
	}
	return s
}

// forfeitGame records that colour c lost by forfeit f.
func forfeitGame(rec *GameRecord, c engine.Color, f *Forfeit) {
	rec.Result = BlackWins
	if c == engine.Black {
		rec.Result = WhiteWins
	}
	rec.Reason = "forfeit:" + f.Kind
	rec.Detail = c.String() + ": " + f.Detail
}
