package budget

import (
	"errors"
	"fmt"
	"time"
)

// Margin is the share of a budget a plan leaves free for what the
// calibration did not foresee (the games' lengths vary with the vectors;
// the safety valve guards the rest).
const Margin = 0.03

// State is what a budgeted run's checkpoint holds of its budget
// (checkpoint.json's "budget"; nil for a run without one).
type State struct {
	// Budget is the budget as given ("2h"; a chain's stage: its share).
	Budget string `json:"budget"`
	// Seconds is the budget in seconds.
	Seconds float64 `json:"seconds"`
	// Key is the step budget it sized ("ga.generations") and Steps the
	// count it resolved to, which config.toml holds.
	Key   string `json:"key"`
	Steps int    `json:"steps"`
	Unit  string `json:"unit"`
	// Elapsed is the run's own time so far, in seconds by the job's
	// clock: the calibration, the steps, the Elo measurements and, once
	// done, the ladder; not the time between a stop and its resume, nor
	// the step in flight when it stopped.
	Elapsed float64 `json:"elapsed"`
	// End is the planned end: when the latest session started, plus the
	// budget left then (wall-clock time, as the job's clock gives it).
	End time.Time `json:"end"`
	// Calibration is what the calibration measured, Plan what it planned.
	Calibration Calibration `json:"calibration"`
	Plan        Plan        `json:"plan"`
	// Measured is what the run's steps took, for the safety valve.
	Measured Measured `json:"measured"`
	// StoppedAt, when set, is the steps done when the safety valve ended
	// the optimisation ("stopped by the clock at step N").
	StoppedAt *int `json:"stopped_at,omitempty"`
}

// Measured is the time the run's steps took, by the job's clock.
type Measured struct {
	// Games fitness games took GameSeconds in the referee.
	Games       int     `json:"games"`
	GameSeconds float64 `json:"game_seconds"`
	// OtherSeconds is the time step OtherStep spent outside the referee
	// (Texel's fit; the method's own work).
	OtherSeconds float64 `json:"other_seconds"`
	OtherStep    int     `json:"other_step"`
	// EloSeconds is the time the latest Elo measurement took (0: none
	// yet).
	EloSeconds float64 `json:"elo_seconds,omitempty"`
}

// Plan is what a calibration planned for a budget: the steps, the
// fitness games they forecast, and the seconds of each part.
type Plan struct {
	Steps int `json:"steps"`
	Games int `json:"games"`
	// Tuning is the seconds of the steps: their games and, for Texel,
	// the fits (Fits of them).
	Tuning float64 `json:"tuning"`
	Fits   float64 `json:"fits,omitempty"`
	// Elo is the seconds of the Elo measurements (validation.elo_every),
	// Elos of them.
	Elo  float64 `json:"elo,omitempty"`
	Elos int     `json:"elos,omitempty"`
	// Ladder is the seconds of the verification ladder, LadderGames its
	// games (every rung played out: an SPRT only shortens it).
	Ladder      float64 `json:"ladder"`
	LadderGames int     `json:"ladder_games"`
	// End is the planned seconds from the run's start to its end, the
	// calibration included.
	End float64 `json:"end"`
}

// PerGame is the seconds a fitness game takes: as the run's steps
// measured, else as the calibration did.
func (s *State) PerGame() float64 {
	if s.Measured.Games > 0 {
		return s.Measured.GameSeconds / float64(s.Measured.Games)
	}
	return s.Calibration.Fitness.PerGame()
}

// LadderSeconds is the ladder's planned seconds, made longer when the
// run's games have been slower than the calibration's (a machine loaded
// since).
func (s *State) LadderSeconds() float64 {
	slow := 1.0
	if cal := s.Calibration.Fitness.PerGame(); cal > 0 && s.Measured.Games > 0 {
		slow = max(s.PerGame()/cal, 1)
	}
	return s.Plan.Ladder * slow
}

// EloSeconds is one Elo measurement's seconds of 2·pairs games, as
// measured or calibrated (0 when the calibration sampled none).
func (s *State) EloSeconds(pairs int) float64 {
	if s.Measured.EloSeconds > 0 {
		return s.Measured.EloSeconds
	}
	return s.Calibration.EloSeconds(pairs)
}

// Stop records that the safety valve ends the optimisation after steps
// steps, and returns its line for the log; unit names a step, end is the
// projected end (seconds of the run) that passed the budget.
func (s *State) Stop(unit string, steps int, end float64) string {
	n := steps
	s.StoppedAt = &n
	return StopLine(unit, steps, s.Steps, fmt.Sprintf("one more %s and the ladder would end %s into the %s budget", unit, Text(end), s.Budget))
}

// UsedLine is a budgeted run's last line: the time it used of its budget,
// and whether the clock stopped it.
func (s *State) UsedLine() string {
	line := fmt.Sprintf("by the clock: %s of the %s budget (calibration %s, planned %s)", Text(s.Elapsed), s.Budget, Text(s.Calibration.Seconds), Text(s.Plan.End))
	if s.StoppedAt != nil {
		line += "; " + StopLine(s.Unit, *s.StoppedAt, s.Steps, "")
	}
	return line
}

// StopLine is the log's and report's line of a run stopped by the clock:
// "stopped by the clock at generation 17 (of 37 planned): why".
func StopLine(unit string, steps, planned int, why string) string {
	s := fmt.Sprintf("stopped by the clock at %s %d (of %d planned)", unit, steps, planned)
	if why != "" {
		s += ": " + why
	}
	return s
}

// TooShort is Fit's error for a budget that cannot hold the least run;
// Least is that run's planned seconds.
type TooShort struct{ Least float64 }

func (e *TooShort) Error() string {
	return fmt.Sprintf("too short: the least run takes %s", Text(e.Least))
}

// ErrRefused is Fit's error when the plan refuses every step count it
// tries.
var ErrRefused = errors.New("the method refuses every step budget from 1 to 1024")

// Fit sizes a step budget for budget seconds: the most steps n whose
// plan(n) ends (Plan.End) within the budget less Margin; plan reports
// false for a step count the method refuses. It tries the fewest steps
// the method takes (from 1 to 1024), then doubles and halves. Errors: a
// *TooShort with the least run's End when even that passes the budget;
// ErrRefused when plan refuses every count from 1 to 1024.
func Fit(plan func(n int) (Plan, bool), budget float64) (Plan, error) {
	least, lo := Plan{}, 0
	for n := 1; n <= 1024 && lo == 0; n++ {
		if p, ok := plan(n); ok {
			least, lo = p, n
		}
	}
	if lo == 0 {
		return Plan{}, ErrRefused
	}
	if least.End > budget {
		return Plan{}, &TooShort{Least: least.End}
	}
	target := budget * (1 - Margin)
	fits := func(n int) (Plan, bool) {
		p, ok := plan(n)
		return p, ok && p.End <= target
	}
	best := least
	// Doubling, then halving: the last budget that fits.
	hi := lo
	for hi < 1<<26 {
		p, ok := fits(2 * hi)
		if !ok {
			break
		}
		best, hi = p, 2*hi
	}
	for step := hi / 2; step >= 1; step /= 2 {
		if p, ok := fits(best.Steps + step); ok {
			best = p
		}
	}
	return best, nil
}
