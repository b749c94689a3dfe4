package bayes

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/bayes/gp"
)

// Iteration is the optimiser's own record of one Step, the Detail of its
// optimize.Record. Every field is a function of the settings, the
// problem, the seed and the referee's outcomes, so a resumed run
// reproduces it exactly.
type Iteration struct {
	// K is the iteration, from 0 (the record's Step).
	K int `json:"k"`
	// Seed is the seed of the iteration's Play call (its openings).
	Seed uint64 `json:"seed"`
	// Points are the points played, in order.
	Points []PlayedPoint `json:"points"`
	// Games is the number of games the iteration played.
	Games int `json:"games"`
	// Kernel is the kernel after the iteration; Refit says it was fitted
	// in this iteration.
	Kernel gp.Kernel `json:"kernel"`
	Refit  bool      `json:"refit,omitempty"`
	// NoiseSD is the standard deviation of one match's score fraction
	// the model assumes after the iteration.
	NoiseSD float64 `json:"noise_sd"`
	// Optimum is the model's optimum after the iteration, gene units
	// (OptimumU in unit coordinates), with its posterior mean score
	// against the pool and the variance of that mean.
	Optimum     []float64 `json:"optimum"`
	OptimumU    []float64 `json:"optimum_u"`
	OptScore    float64   `json:"opt_score"`
	OptVariance float64   `json:"opt_variance"`
	// Profiles, in the run's last iteration only, are the model along
	// each gene through the optimum (profiles): Elo against the pool with
	// its 95% credible band, for the report's "profile" chart.
	Profiles []optimize.Profile `json:"profiles,omitempty"`
}

// profilePoints is the number of points of a profile across the box.
const profilePoints = 21

// profiles are the model along each gene across the search box, the
// other genes at the optimum u: the posterior mean as Elo and the 95%
// credible band (±1.96 posterior standard deviations of the score,
// mapped through Elo), X in gene units.
func (c config) profiles(model *gp.GP, u []float64) []optimize.Profile {
	out := make([]optimize.Profile, len(c.Genes))
	for d, g := range c.Genes {
		p := optimize.Profile{Gene: g, At: c.Lo[d] + u[d]*(c.Hi[d]-c.Lo[d])}
		x := slices.Clone(u)
		for k := range profilePoints {
			x[d] = float64(k) / (profilePoints - 1)
			m, v := model.Predict(x)
			sd := math.Sqrt(max(v, 0))
			p.X = append(p.X, c.Lo[d]+x[d]*(c.Hi[d]-c.Lo[d]))
			p.Mean = append(p.Mean, Elo(m))
			p.Lo = append(p.Lo, Elo(m-1.96*sd))
			p.Hi = append(p.Hi, Elo(m+1.96*sd))
		}
		out[d] = p
	}
	return out
}

// profilesOf is Spec.Profiles: the Profiles of a record's Iteration (its
// Detail in memory, or as JSON read back from a run's records).
func profilesOf(last optimize.Record) []optimize.Profile {
	switch d := last.Detail.(type) {
	case Iteration:
		return d.Profiles
	case json.RawMessage:
		var it struct {
			Profiles []optimize.Profile `json:"profiles"`
		}
		if json.Unmarshal(d, &it) == nil {
			return it.Profiles
		}
	}
	return nil
}

// PlayedPoint is one point of an iteration: where it came from ("design",
// "uniform", or the acquisition's name with its value), its unit
// coordinates and the vector played (gene units, inside the bounds), and
// its matches' outcomes, pool entry by pool entry, Repeats each.
type PlayedPoint struct {
	Source      string             `json:"source"`
	Acquisition float64            `json:"acquisition,omitempty"`
	U           []float64          `json:"u"`
	X           []float64          `json:"x"`
	Results     []optimize.Outcome `json:"results"`
}

// Elo is the Elo difference of a score fraction s, −400·log10(1/s − 1),
// with s kept within [0.001, 0.999] so that a certain result stays
// finite (±1,200 Elo): tournament/stats.EloFromScore's formula, which an
// optimizer may not import (optimizers see only package optimize).
func Elo(s float64) float64 {
	s = min(max(s, 0.001), 0.999)
	return -400 * math.Log10(1/s-1)
}

// OptimumElo is the optimum's posterior mean as Elo against the pool and
// its 95% credible interval (the posterior of the latent score, ±1.96
// standard deviations, mapped through Elo).
func (it Iteration) OptimumElo() (elo, lo, hi float64) {
	sd := math.Sqrt(max(it.OptVariance, 0))
	return Elo(it.OptScore), Elo(it.OptScore - 1.96*sd), Elo(it.OptScore + 1.96*sd)
}

// record wraps it as the optimize.Record of its step (Step's Metrics).
func (it Iteration) record(c config, points int) optimize.Record {
	elo, lo, hi := it.OptimumElo()
	played, games := 0.0, 0
	for _, p := range it.Points {
		for _, o := range p.Results {
			played += o.Score()
			games += o.Games()
		}
	}
	m := map[string]float64{
		"opt_elo":    elo,
		"opt_elo_lo": lo,
		"opt_elo_hi": hi,
		"opt_elo_ci": (hi - lo) / 2,
		"played_elo": Elo(played / float64(max(games, 1))),
		"signal_sd":  math.Sqrt(it.Kernel.Variance),
		"noise_sd":   it.NoiseSD,
		"points":     float64(points),
	}
	for d, g := range c.Genes {
		m["ls."+g] = it.Kernel.LengthScales[d]
	}
	refit := ""
	if it.Refit {
		refit = ", kernel refitted"
	}
	return optimize.Record{
		Step:    it.K,
		Games:   it.Games,
		Best:    slices.Clone(it.Optimum),
		Metrics: m,
		Detail:  it,
		Line: fmt.Sprintf("%d points played at %+.0f Elo; the model's optimum %+.0f Elo [%+.0f, %+.0f] against the pool, %d points in the model%s",
			len(it.Points), m["played_elo"], elo, lo, hi, points, refit),
	}
}
