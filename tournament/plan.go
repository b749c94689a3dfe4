package tournament

import "github.com/roadtune/roadtune/tournament/stats"

// MatchPlan is what a match schedules, known before its first game: the
// header of its Summary in the same words (players with their kind, source
// and settings, schedule, pairs, depth, width, move limit and time,
// openings), the games scheduled and the SPRT with its bounds. arena
// writes it as plan.json beside summary.json when a match starts, so that
// a reader of a match in progress (the web pages) learns the plan without
// reading its command line.
type MatchPlan struct {
	Schedule string       `json:"schedule"`
	Players  []PlayerInfo `json:"players"`
	// Pairs is the number of game pairs scheduled per pairing; with an
	// SPRT, the most pairs.
	Pairs int `json:"pairs"`
	// Games is the number of games scheduled, 2·Pairs per pairing; 0 when
	// it is not known before the match (a knockout). An SPRT or a stop may
	// end the match sooner.
	Games    int    `json:"games"`
	Openings string `json:"openings"`
	Depth    int    `json:"depth"`
	Width    int    `json:"width"`
	MaxMoves int    `json:"max_moves"`
	MoveTime string `json:"move_time"`
	// SPRT is the sequential test with its stopping bounds (LLR 0,
	// Decision "continue", Pairs 0: nothing is counted yet); nil without
	// one.
	SPRT *SPRTSummary `json:"sprt,omitempty"`
}

// NewMatchPlan is the plan of a match whose Summary header is head (the
// fields Schedule … MoveTime; the rest is ignored), with games scheduled
// and the sequential test sprt (nil for none).
func NewMatchPlan(head Summary, games int, sprt *stats.SPRT) MatchPlan {
	p := MatchPlan{
		Schedule: head.Schedule, Players: head.Players, Pairs: head.Pairs, Games: games,
		Openings: head.Openings, Depth: head.Depth, Width: head.Width, MaxMoves: head.MaxMoves, MoveTime: head.MoveTime,
	}
	if sprt != nil {
		lo, hi := sprt.Bounds()
		p.SPRT = newSPRTSummary(SPRTStatus{SPRT: *sprt, Lower: lo, Upper: hi, Decision: stats.Continue.String()})
	}
	return p
}

// Header is the Summary header of the plan (Schedule … MoveTime), for
// the summary of a match in progress.
func (p MatchPlan) Header() Summary {
	return Summary{
		Schedule: p.Schedule, Players: p.Players, Pairs: p.Pairs,
		Openings: p.Openings, Depth: p.Depth, Width: p.Width, MaxMoves: p.MaxMoves, MoveTime: p.MoveTime,
	}
}
