package tournament

import (
	"math"

	"github.com/roadtune/roadtune/tournament/stats"
	"github.com/roadtune/roadtune/tournament/wdl"
)

// Summary is the one JSON shape of a finished match or tournament, written
// by every command that plays one (arena's summary.json, the tuning job's
// validation.json): the same keys with the same meaning everywhere.
//
// The header (Schedule … MoveTime, Seconds) describes what was scheduled and
// is the caller's; Summarize fills the rest from the Table. Counts: Pairs is
// the game pairs scheduled per pairing; Games counts the games played (fewer
// when an SPRT stopped the match); each MatchSummary's N counts its games
// and its Pairs its complete game pairs.
type Summary struct {
	// Schedule names the schedule: "head-to-head", "round-robin", ….
	Schedule string `json:"schedule"`
	// Players are the entrants, in entrant order.
	Players []PlayerInfo `json:"players"`
	// Pairs is the number of game pairs scheduled per pairing (each opening
	// played twice, colours swapped); with an SPRT, the most pairs.
	Pairs int `json:"pairs"`
	// Openings describes the opening suite in words, e.g. "generated
	// 3-stone suite, radius 3, seed 1 (162 openings)".
	Openings string `json:"openings"`
	// Depth is the in-process engines' alpha-beta depth, in moves.
	Depth int `json:"depth"`
	// Width is the in-process engines' moves kept per node.
	Width int `json:"width"`
	// MaxMoves is the move count (opening included) at which a game is
	// adjudicated a draw; 0 = none.
	MaxMoves int `json:"max_moves"`
	// MoveTime is the external engines' per-move limit as a Go duration
	// ("10s").
	MoveTime string `json:"move_time"`
	// Games is the number of games played.
	Games int `json:"games"`
	// Seconds is the wall time of the match, in seconds.
	Seconds float64 `json:"seconds"`
	// Reasons counts the games by the reason they ended (GameRecord.Reason:
	// six, full-board, move-limit, forfeit:<kind>); never null.
	Reasons map[string]int `json:"reasons"`
	// Matchups has one MatchSummary per pairing, in the table's order.
	Matchups []MatchSummary `json:"matchups"`
	// Standings ranks the players by points; only for more than two players.
	Standings []StandingSummary `json:"standings,omitempty"`
	// SPRT is the state of the sequential test when the match used one.
	SPRT *SPRTSummary `json:"sprt,omitempty"`
	// Champion is a knockout's winner.
	Champion string `json:"champion,omitempty"`
	// Resumed is the number of games read back from the games log of an
	// interrupted match rather than played in this run; Interrupted is set
	// when the match was stopped before its end (the table then holds the
	// completed game pairs).
	Resumed     int  `json:"resumed,omitempty"`
	Interrupted bool `json:"interrupted,omitempty"`
}

// PlayerInfo describes an entrant in a Summary.
type PlayerInfo struct {
	// Name is the entrant's name in the table and the game records.
	Name string `json:"name"`
	// Kind is "weights" (the in-process engine) or "external" (a protocol
	// engine).
	Kind string `json:"kind"`
	// Source is what the player was given as: a baseline name or weight
	// file path, or the engine command.
	Source string `json:"source"`
	// Settings says how the player plays: search depth and width of the
	// in-process engine, working directory and init strings of an
	// external engine, and the time control.
	Settings string `json:"settings,omitempty"`
}

// MatchSummary is one pairing from A's view: every count, score and Elo
// figure is A's against B. The Elo figures come from the pentanomial counts
// of the complete game pairs when there are any, else from the games
// (trinomial), by stats.EstimateCounts (fishtest's get_elo); they are 0
// when there are no games, and NaN or ±Inf are written as 0.
type MatchSummary struct {
	A string `json:"a"`
	B string `json:"b"`
	// Games counts all games of the pairing, {"w": …, "d": …, "l": …}.
	Games wdl.Short `json:"games"`
	// AsBlack counts the games in which A had Black, AsWhite those in which
	// A had White.
	AsBlack wdl.Short `json:"a_as_black"`
	AsWhite wdl.Short `json:"a_as_white"`
	// Pentanomial counts the complete game pairs by A's points in the pair:
	// [LL, LD, WL+DD, WD, WW] (0, ½, 1, 1½, 2 points).
	Pentanomial [5]int `json:"pentanomial"`
	// Pairs is the number of complete game pairs counted, the sum of
	// Pentanomial (a game whose partner was not played is in Games only).
	Pairs int `json:"pairs"`
	// N is the number of games, Games.Games().
	N int `json:"n"`
	// Score is A's points per game (win 1, draw ½), in [0, 1].
	Score float64 `json:"score"`
	// ScoreLo and ScoreHi bound the 95% interval of A's expected score per
	// game (not clamped to [0, 1]).
	ScoreLo float64 `json:"score_lo"`
	ScoreHi float64 `json:"score_hi"`
	// Elo is the logistic Elo difference, A minus B.
	Elo float64 `json:"elo"`
	// EloCI is the half-width of the 95% Elo interval, in Elo (±).
	EloCI float64 `json:"elo_ci"`
	// LOS is the likelihood of superiority of A, in [0, 1].
	LOS float64 `json:"los"`
}

// PairsAlike reports whether every complete game pair ended alike, and
// which way (k, the Pentanomial index they share): the pairs then have no
// spread, so the pentanomial interval of Elo (EloCI) has zero width and
// measures nothing — as when deterministic twins split every
// colour-swapped pair 1–1 (k = 2).
func (m MatchSummary) PairsAlike() (k int, ok bool) {
	for k, n := range m.Pentanomial {
		if n > 0 && n == m.Pairs {
			return k, true
		}
	}
	return 0, false
}

// StandingSummary is one player's total over a tournament, from the
// player's view, against the whole field.
type StandingSummary struct {
	Name string `json:"name"`
	// Games counts all the player's games.
	Games wdl.Short `json:"games"`
	// Points is the player's points (win 1, draw ½).
	Points float64 `json:"points"`
	// Score is Points per game, in [0, 1].
	Score float64 `json:"score"`
	// ScoreLo and ScoreHi bound the 95% interval of the expected score per
	// game, from the games (trinomial); NaN or ±Inf are written as 0.
	ScoreLo float64 `json:"score_lo"`
	ScoreHi float64 `json:"score_hi"`
}

// SPRTSummary is the state of a head-to-head match's SPRT when it ended
// (SPRTStatus; fishtest's SPRT, statistics.md "SPRT"), A's view.
type SPRTSummary struct {
	// Elo0 and Elo1 are the hypotheses H0 and H1, in logistic Elo, or in
	// normalised Elo when Normalized is set.
	Elo0 float64 `json:"elo0"`
	Elo1 float64 `json:"elo1"`
	// Normalized is set when Elo0 and Elo1 are normalised Elo.
	Normalized bool `json:"normalized,omitempty"`
	// Alpha and Beta are the type I and type II error rates (0.05 when the
	// test left them zero).
	Alpha float64 `json:"alpha"`
	Beta  float64 `json:"beta"`
	// LLR is the log-likelihood ratio of the pentanomial counts of the
	// complete game pairs; Lower and Upper are its stopping bounds.
	LLR   float64 `json:"llr"`
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
	// Decision is "continue" (no bound crossed), "H0" or "H1".
	Decision string `json:"decision"`
	// Pairs is the number of complete game pairs counted.
	Pairs int `json:"pairs"`
}

// finite maps NaN and ±Inf (which JSON cannot hold) and −0 to 0.
func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return 0
	}
	return x
}

// Summary returns the matchup as a MatchSummary from A's view, A and B
// named a and b (the caller's names for entrants m.A and m.B).
func (m Matchup) Summary(a, b string) MatchSummary {
	ms := MatchSummary{
		A: a, B: b,
		Games: wdl.Short{Count: m.Games}, AsBlack: wdl.Short{Count: m.AsBlack}, AsWhite: wdl.Short{Count: m.AsWhite},
		Pentanomial: m.Pairs, Pairs: m.Pairs.N(), N: m.Games.Games(),
	}
	if ms.N > 0 {
		ms.Score = m.Score() / float64(ms.N)
	}
	if e, err := m.Estimate(); err == nil {
		ms.ScoreLo, ms.ScoreHi = finite(e.ScoreLo), finite(e.ScoreHi)
		ms.Elo, ms.EloCI, ms.LOS = finite(e.Elo), finite(e.EloCI), finite(e.LOS)
	}
	return ms
}

// Summarize returns head completed from table t: Games (the games played),
// Reasons, Matchups (one per pairing, named by t.Players), Standings (when
// t has more than two players) and SPRT (when the run used one). The header
// fields of head (Schedule, Players, Pairs, Openings, Depth, Width,
// MaxMoves, MoveTime, Seconds) are kept as given; the fields Summarize fills
// are replaced.
func Summarize(t *Table, head Summary) Summary {
	s := head
	s.Games = t.Played
	s.Reasons = map[string]int{}
	for k, v := range t.Reasons {
		s.Reasons[k] = v
	}
	s.Matchups, s.Standings, s.SPRT = nil, nil, nil
	for _, m := range t.Matchups {
		s.Matchups = append(s.Matchups, m.Summary(t.Players[m.A], t.Players[m.B]))
	}
	if len(t.Players) > 2 {
		for _, st := range t.Standings() {
			ss := StandingSummary{Name: st.Name, Games: wdl.Short{Count: st.Games}, Points: st.Score()}
			if n := st.Games.Games(); n > 0 {
				ss.Score = st.Score() / float64(n)
			}
			if e, err := stats.EstimateCounts(st.Games.Counts()); err == nil {
				ss.ScoreLo, ss.ScoreHi = finite(e.ScoreLo), finite(e.ScoreHi)
			}
			s.Standings = append(s.Standings, ss)
		}
	}
	if st := t.SPRT; st != nil {
		s.SPRT = newSPRTSummary(*st)
	}
	return s
}

// newSPRTSummary is the summary of a test's state, with the default error
// rates filled in and a finite LLR.
func newSPRTSummary(st SPRTStatus) *SPRTSummary {
	s := &SPRTSummary{
		Elo0: st.SPRT.Elo0, Elo1: st.SPRT.Elo1, Normalized: st.SPRT.Normalized,
		Alpha: st.SPRT.Alpha, Beta: st.SPRT.Beta,
		LLR: finite(st.LLR), Lower: st.Lower, Upper: st.Upper, Decision: st.Decision, Pairs: st.Pairs,
	}
	if s.Alpha == 0 {
		s.Alpha = stats.DefaultErrorRate
	}
	if s.Beta == 0 {
		s.Beta = stats.DefaultErrorRate
	}
	return s
}
