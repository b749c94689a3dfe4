package texel

import (
	"fmt"
	"math"
	"slices"

	rt "github.com/roadtune/roadtune/optimize"
)

// Round is Texel tuning's own record of one Step, the Detail of its
// optimize.Record. Every field is a function of the settings, the problem, the seed and
// the sampler's answers, so a resumed run reproduces it exactly.
type Round struct {
	// Round numbers the round from 0.
	Round int `json:"round"`
	// Seeds are the batch seeds of the round's Sample calls, in call order;
	// the sampler's positions of a batch are a function of its seed and
	// the matches, so they key the positions a refit needs.
	Seeds []uint64 `json:"seeds"`
	// Batches is len(Seeds); Games the games of all batches.
	Batches int `json:"batches"`
	Games   int `json:"games"`
	// Opponents are the B vectors of the matches (A is ThetaBefore), the
	// same in every batch of the round.
	Opponents [][]float64 `json:"opponents"`
	// Players are the A vectors of the matches when they are not θ
	// (explore rounds and Pairing "perturbed"); absent when θ played A.
	Players [][]float64 `json:"players,omitempty"`
	// WindowPositions counts the training positions of earlier rounds
	// (Settings.Window) the fit used besides Positions.
	WindowPositions int `json:"window_positions,omitempty"`
	// Outcomes are the matches' outcomes from A's view, batch after batch.
	Outcomes []rt.Outcome `json:"outcomes"`
	// Score is θ's score fraction over Outcomes (0 when no game was
	// played).
	Score float64 `json:"score"`
	// Positions and HoldoutPositions count the training and the held-out
	// positions.
	Positions        int `json:"positions"`
	HoldoutPositions int `json:"holdout_positions"`
	// ThetaBefore is θ before the round (the vector that played as A),
	// Theta after it: θ + η·(Rescale·Fit.Genes − θ) over the fitted genes.
	ThetaBefore []float64 `json:"theta_before"`
	Theta       []float64 `json:"theta"`
	// Fit is the fit on the training positions (K, b, fitted genes, LBFGS
	// status and iterations).
	Fit FitResult `json:"fit"`
	// Rescale is the factor the fitted genes were multiplied by to keep
	// θ's norm (Settings.KeepScale; 1 when off); the fitted model's scale is
	// then Fit.K / Rescale.
	Rescale float64 `json:"rescale"`
	// Best is the vector the round reports as the run's best: the mean of
	// the θ of the latest Averaged rounds, this one's included
	// (Settings.Average; θ itself when Averaged is 1).
	Best     []float64 `json:"best"`
	Averaged int       `json:"averaged"`
	// HoldoutLogLossBefore is the held-out log-loss (nats per position) of
	// ThetaBefore with Fit.K and Fit.StartTempo; HoldoutLogLoss that of
	// Theta with Fit.K/Rescale and Fit.Tempo. Both 0 when no position was held out.
	HoldoutLogLossBefore float64 `json:"holdout_log_loss_before"`
	HoldoutLogLoss       float64 `json:"holdout_log_loss"`
}

// record wraps the round in its optimize.Record; see Texel.Step for the
// metrics.
func (r Round) record() rt.Record {
	m := map[string]float64{
		"positions":         float64(r.Positions),
		"holdout_positions": float64(r.HoldoutPositions),
		"logloss_train":     r.Fit.LogLoss,
		"k":                 r.Fit.K,
		"rescale":           r.Rescale,
		"tempo":             r.Fit.Tempo,
		"games":             float64(r.Games),
		"batches":           float64(r.Batches),
	}
	if r.WindowPositions > 0 {
		m["window_positions"] = float64(r.WindowPositions)
	}
	held := "none held out"
	if r.HoldoutPositions > 0 {
		m["logloss_before"] = r.HoldoutLogLossBefore
		m["logloss"] = r.HoldoutLogLoss
		held = fmt.Sprintf("held-out log-loss %.4f → %.4f", r.HoldoutLogLossBefore, r.HoldoutLogLoss)
	}
	if r.Games > 0 {
		m["score"] = r.Score
		m["score_ci"] = ScoreCI(r.Outcomes)
	}
	var unfit []int
	for d := range r.Theta {
		if !slices.Contains(r.Fit.Fitted, d) {
			unfit = append(unfit, d)
		}
	}
	return rt.Record{
		Step:         r.Round,
		Games:        r.Games,
		Best:         slices.Clone(r.Best),
		Metrics:      m,
		Unidentified: unfit,
		Detail:       r,
		Line: fmt.Sprintf("%d positions (+%d held out) from %d games in %d batches, K %.4g, %s, score %.3f",
			r.Positions, r.HoldoutPositions, r.Games, r.Batches, r.Fit.K, held, r.Score),
	}
}

// State is everything needed to continue a run with Restore; plain data,
// JSON-serialisable. It holds no positions: a round's positions are
// replayed from its seeds or kept by the caller.
type State struct {
	// RNG is the method's *rand.PCG, from its MarshalBinary.
	RNG []byte `json:"rng"`
	// Round is the number of rounds done.
	Round int `json:"round"`
	// Theta is θ: θ0 before the first round, then the latest round's.
	Theta []float64 `json:"theta"`
	// Games is the number of games played so far.
	Games int `json:"games"`
	// Past are the earlier rounds whose training positions the next fit
	// reuses (Settings.Window), oldest first: their positions are a
	// function of the seeds and matches, so a restored run samples them
	// again (a run's positions store answers from disk).
	Past []PastRound `json:"past,omitempty"`
	// Recent are the latest rounds' θ, oldest first (at most
	// Settings.Average): the best vector is their mean.
	Recent [][]float64 `json:"recent,omitempty"`
}

// PastRound keys the positions of one earlier round of the window.
type PastRound struct {
	Round   int        `json:"round"`
	Seeds   []uint64   `json:"seeds"`
	Matches []rt.Match `json:"matches"`
}

func (p PastRound) clone() PastRound {
	p.Seeds = slices.Clone(p.Seeds)
	ms := make([]rt.Match, len(p.Matches))
	for i, m := range p.Matches {
		ms[i] = rt.Match{A: slices.Clone(m.A), B: slices.Clone(m.B), WinnerOnly: m.WinnerOnly}
	}
	p.Matches = ms
	return p
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
