package tune

import (
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/roadtune/roadtune/optimize"
	"github.com/roadtune/roadtune/optimize/spsa"
	"github.com/roadtune/roadtune/tournament/stats"
)

// TestExternalExampleGains: the worked example's SPSA gains move an
// integer option by at least a tenth of its range over the example's
// iterations when playing it is worth a little: a synthetic gradient of
// 1 Elo per 1% of every option's range, the expected result of each iteration
// with no noise (fishtest's guidance: c_end about one unit of the
// option's resolution or more, r_end such that the steps add up to
// several c_end). With fishtest's default r_end of 0.002 the same
// gradient moves no option by a tenth of its range: the example's
// options stayed where they started with it.
func TestExternalExampleGains(t *testing.T) {
	var ex struct {
		Match struct{ Pairs int }
		SPSA  struct{ Iterations int } `toml:"spsa"`
		Param []struct {
			Name     string
			Min, Max float64
			CEnd     float64 `toml:"c_end"`
			REnd     float64 `toml:"r_end"`
		}
	}
	if _, err := toml.DecodeFile("../configs/external/roadtune-engine.toml", &ex); err != nil {
		t.Fatal(err)
	}
	const eloPerPercent = 1.0
	drift := func(rEnd func(int) float64) []float64 {
		n := ex.SPSA.Iterations
		s := spsa.Settings{Iterations: n, Alpha: spsa.DefaultAlpha, Gamma: spsa.DefaultGamma, AStability: 0.1 * float64(n),
			CEnd: spsa.PerGene{Genes: map[string]float64{}}, REnd: spsa.PerGene{Genes: map[string]float64{}}}
		var prob optimize.Problem
		for i, p := range ex.Param {
			s.CEnd.Genes[p.Name], s.REnd.Genes[p.Name] = p.CEnd, rEnd(i)
			prob.Genes = append(prob.Genes, p.Name)
			prob.InitLo, prob.InitHi = append(prob.InitLo, p.Min), append(prob.InitHi, p.Max)
		}
		moved := make([]float64, len(ex.Param))
		for k := 1; k <= n; k++ {
			ak, ck := s.Gains(prob, k)
			for d, p := range ex.Param {
				elo := eloPerPercent * 100 / (p.Max - p.Min) * 2 * ck[d] // θ + c_k against θ − c_k
				s := stats.ScoreFromElo(elo)
				r := float64(2*ex.Match.Pairs) * (2*s - 1) // expected wins − losses
				moved[d] = min(moved[d]+ak[d]*r/ck[d], p.Max-p.Min)
			}
		}
		return moved
	}
	got := drift(func(i int) float64 { return ex.Param[i].REnd })
	ok := false
	for d, p := range ex.Param {
		t.Logf("%s: moves %.1f of its range %g", p.Name, got[d], p.Max-p.Min)
		ok = ok || got[d] >= 0.1*(p.Max-p.Min)
	}
	if ex.SPSA.Iterations < 100 || !ok {
		t.Errorf("no option of the example moves by a tenth of its range: %v over %d iterations", got, ex.SPSA.Iterations)
	}
	for d, m := range drift(func(int) float64 { return spsa.DefaultREnd }) {
		if p := ex.Param[d]; m >= 0.1*(p.Max-p.Min) {
			t.Errorf("with r_end %g, %s moves %.2f: the test's gradient is too steep to tell", spsa.DefaultREnd, p.Name, m)
		}
	}
}
