package spsa

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/roadtune/roadtune/optimize"
)

// Iteration is SPSA's own record of one Step, the Detail of its
// optimize.Record (which carries the step's index k − 1, games and wall
// time). Vectors hold genes in the schema's order, in weight units. Every
// field is a function of the settings, the problem, the seed and the referee's outcomes, so a
// resumed run reproduces it exactly.
type Iteration struct {
	// K is the iteration number of the formulas, from 1 (the record's Step
	// is K − 1).
	K int `json:"k"`
	// Seed is the seed of the iteration's Play call (its openings).
	Seed uint64 `json:"seed"`
	// ThetaBefore is θ before the update.
	ThetaBefore []float64 `json:"theta_before"`
	// Delta is the perturbation direction Δ, one ±1 per gene.
	Delta []int `json:"delta"`
	// CK and AK are the gains c_k and a_k per gene.
	CK []float64 `json:"c_k"`
	AK []float64 `json:"a_k"`
	// Plus and Minus are the vectors played, θ + c_k·Δ (as A) and
	// θ − c_k·Δ (as B), clamped to the bounds unless the bound mode is off.
	Plus  []float64 `json:"plus"`
	Minus []float64 `json:"minus"`
	// Opponent is the pool's entry the iteration played against; empty in
	// self-play.
	Opponent string `json:"opponent,omitempty"`
	// Outcome counts Plus's games against its opponent (Minus in
	// self-play, else the pool's opponent): Wins, Draws, Losses, flat in
	// the JSON as "wins", "draws", "losses".
	optimize.Outcome
	// MinusOutcome counts Minus's games against the pool's opponent; zero
	// in self-play. Its JSON is "minus_wins", "minus_draws",
	// "minus_losses", flat in the iteration and left out when zero
	// (MarshalJSON).
	MinusOutcome optimize.Outcome `json:"-"`
	// R is Wins − Losses in self-play, (Wins − Losses) − (MinusOutcome.Wins
	// − MinusOutcome.Losses) against a fixed opponent, in games.
	R int `json:"r"`
	// Theta is θ after the update and the bound mode.
	Theta []float64 `json:"theta"`
}

// Score is the plus side's score fraction, (W + D/2)/games; ½ for a match
// of no games. (it.Outcome.Score is the plus side's points.)
func (it Iteration) Score() float64 {
	if it.Games() == 0 {
		return 0.5
	}
	return it.Outcome.Score() / float64(it.Games())
}

// minusJSON is the minus side's games as an iteration's JSON holds them.
type minusJSON struct {
	MinusWins   int `json:"minus_wins,omitempty"`
	MinusDraws  int `json:"minus_draws,omitempty"`
	MinusLosses int `json:"minus_losses,omitempty"`
}

// MarshalJSON writes the iteration with MinusOutcome's counts as the keys
// "minus_wins", "minus_draws", "minus_losses" (each left out when zero)
// between "losses" and "r", as records have held them.
func (it Iteration) MarshalJSON() ([]byte, error) {
	type plain Iteration // the fields, not the methods
	m := it.MinusOutcome
	return json.Marshal(struct {
		plain
		minusJSON
		// R and Theta, written again at this depth, come after the minus
		// side and stand for plain's.
		R     int       `json:"r"`
		Theta []float64 `json:"theta"`
	}{plain(it), minusJSON{MinusWins: m.Wins, MinusDraws: m.Draws, MinusLosses: m.Losses}, it.R, it.Theta})
}

// UnmarshalJSON reads what MarshalJSON writes, ignoring keys it does not
// know as json.Unmarshal does (records are read leniently, their Detail
// kept raw); the error is encoding/json's.
func (it *Iteration) UnmarshalJSON(data []byte) error {
	type plain Iteration
	var m minusJSON
	if err := json.Unmarshal(data, &struct {
		*plain
		*minusJSON
	}{(*plain)(it), &m}); err != nil {
		return err
	}
	it.MinusOutcome = optimize.Outcome{Wins: m.MinusWins, Draws: m.MinusDraws, Losses: m.MinusLosses}
	return nil
}

// record wraps it as the optimize.Record of its step. Metrics: "score"
// (Score), "r", "theta_norm.<gene>" = (θ_d − θ0_d)/c_end[d] for every
// gene, "step_norm" = mean over genes of |Δθ_d|/c_end[d], and the
// schedule "c_k_norm" = c_k/c_end = (N/k)^γ and "a_k_norm" =
// a_k/(r_end·c_end²) = ((A + N)/(A + k))^α, the same for every gene.
func (it Iteration) record(c config, θ0 []float64, games int) optimize.Record {
	m := map[string]float64{
		"score":    it.Score(),
		"r":        float64(it.R),
		"c_k_norm": it.CK[0] / c.CEnd[0],
		"a_k_norm": it.AK[0] / (c.REnd[0] * c.CEnd[0] * c.CEnd[0]),
	}
	step := 0.0
	for d, name := range c.Genes {
		m["theta_norm."+name] = (it.Theta[d] - θ0[d]) / c.CEnd[d]
		step += math.Abs(it.Theta[d]-it.ThetaBefore[d]) / c.CEnd[d]
	}
	m["step_norm"] = step / float64(len(c.Genes))
	return optimize.Record{
		Step:    it.K - 1,
		Games:   games,
		Best:    slices.Clone(it.Theta),
		Metrics: m,
		Detail:  it,
		Line:    it.line(m["step_norm"], m["c_k_norm"]),
	}
}

// State is everything needed to continue a run with Restore; it is plain
// data and JSON-serialisable (floats round-trip exactly through
// encoding/json).
type State struct {
	// RNG is the run's *rand.PCG, from its MarshalBinary.
	RNG []byte `json:"rng"`
	// Iteration is the number of Steps done.
	Iteration int `json:"iteration"`
	// Theta0 is the starting vector θ0, Theta the current θ (Genes each).
	Theta0 []float64 `json:"theta0"`
	Theta  []float64 `json:"theta"`
	// Games is the number of games played so far.
	Games int `json:"games"`
}

// line is the console's summary of the iteration.
func (it Iteration) line(step, ck float64) string {
	if it.Opponent == "" {
		return fmt.Sprintf("plus side +%d =%d −%d (r %+d), step %.3f c_end, c_k %.3f c_end",
			it.Wins, it.Draws, it.Losses, it.R, step, ck)
	}
	return fmt.Sprintf("against %s: plus side +%d =%d −%d, minus side +%d =%d −%d (r %+d), step %.3f c_end, c_k %.3f c_end",
		it.Opponent, it.Wins, it.Draws, it.Losses, it.MinusOutcome.Wins, it.MinusOutcome.Draws, it.MinusOutcome.Losses, it.R, step, ck)
}
