package budget

import (
	"fmt"
	"strings"
)

// A calibration sample plays batches until it has taken SampleSeconds or
// played SampleGames games, more for a long budget (SampleLimits);
// Texel's fit is timed on the sample's training positions repeated up to
// FitPositions.
const (
	SampleSeconds = 2.0
	SampleGames   = 64
	FitPositions  = 20000
	// SampleShare is the share of a budget one sample may take, at most
	// MaxSampleSeconds: an 8-hour night samples each setting for 28.8 s
	// instead of 2 (a few dozen games mismeasure the seconds a game of a
	// run that plays hundreds of thousands); budgets under 33 minutes
	// keep the 2-second, 64-game sample.
	SampleShare      = 0.001
	MaxSampleSeconds = 30.0
)

// SampleLimits are the seconds and games one sample of a calibration may
// take for a budget of budget seconds (0: none; see SampleShare): the
// games grow with the seconds, 32 a second.
func SampleLimits(budget float64) (seconds float64, games int) {
	if budget*SampleShare <= SampleSeconds {
		return SampleSeconds, SampleGames
	}
	seconds = min(budget*SampleShare, MaxSampleSeconds)
	return seconds, int(seconds * SampleGames / SampleSeconds)
}

// Sample is the games a calibration played at one setting (At: "depth 3,
// width 10", "st=0.05, depth 3") and the seconds they took (by the job's
// clock, the games of a batch played at once as the run plays them).
type Sample struct {
	At      string  `json:"at"`
	Games   int     `json:"games"`
	Seconds float64 `json:"seconds"`
}

// PerGame is the seconds a game took (0 without games).
func (s Sample) PerGame() float64 {
	if s.Games == 0 {
		return 0
	}
	return s.Seconds / float64(s.Games)
}

func (s Sample) String() string {
	return fmt.Sprintf("%s: %d games, %.4f s a game", s.At, s.Games, s.PerGame())
}

// Calibration is what a calibration measured.
type Calibration struct {
	// Seconds is the calibration's own time, spent from the budget.
	Seconds float64 `json:"seconds"`
	// Fitness is the job's referee at the tuning settings.
	Fitness Sample `json:"fitness"`
	// Ladder is one sample per setting of the ladder's rungs (a depth or
	// a clock), in the ladder's order.
	Ladder []Sample `json:"ladder,omitempty"`
	// Elo is the setting of the Elo measurements (validation.elo_every),
	// nil without them.
	Elo *Sample `json:"elo,omitempty"`
	// PositionsPerGame is Texel's training positions a game gives, and
	// FitSecondsPerPosition the seconds a fit took per training position.
	PositionsPerGame      float64 `json:"positions_per_game,omitempty"`
	FitSecondsPerPosition float64 `json:"fit_seconds_per_position,omitempty"`
}

// LadderTime is the seconds and games of a ladder that plays games games
// at each of the settings ats (Sample.At's words: every opponent's rung
// at that setting), at the calibration's seconds per game of each
// setting; a setting it did not sample counts its games and no time.
func (c *Calibration) LadderTime(ats []string, games int) (seconds float64, total int) {
	for _, at := range ats {
		total += games
		for _, s := range c.Ladder {
			if s.At == at {
				seconds += float64(games) * s.PerGame()
				break
			}
		}
	}
	return seconds, total
}

// EloSeconds is one Elo measurement's seconds, 2·pairs games at the
// calibration's seconds per game (0 without its sample).
func (c *Calibration) EloSeconds(pairs int) float64 {
	if c.Elo == nil {
		return 0
	}
	return float64(2*pairs) * c.Elo.PerGame()
}

// FitSeconds is the estimated seconds of a Texel fit over games games'
// training positions: the calibration's seconds per training position
// times the positions they give.
func (c *Calibration) FitSeconds(games float64) float64 {
	return c.FitSecondsPerPosition * c.PositionsPerGame * games
}

// Text is the calibration in a line for the log.
func (c *Calibration) Text() string {
	parts := []string{"fitness " + c.Fitness.String()}
	for _, s := range c.Ladder {
		parts = append(parts, "ladder "+s.String())
	}
	if c.Elo != nil {
		parts = append(parts, "Elo "+c.Elo.String())
	}
	if c.FitSecondsPerPosition > 0 {
		parts = append(parts, fmt.Sprintf("Texel's fit %.1f µs a training position (%.0f a game)", 1e6*c.FitSecondsPerPosition, c.PositionsPerGame))
	}
	return strings.Join(parts, "; ")
}
