package results

import "fmt"

// LLRChart is the chart of a sequential probability ratio test as
// fishtest and OpenBench draw it: the log-likelihood ratio (LLR, natural
// log) against the games played, games[i] and llr[i] after each counted
// game pair, with the stopping bounds lower (accept H0) and upper (accept
// H1) and the 0 line as horizontal lines, every pair's point marked. title is set over the chart;
// hypotheses, when not empty, names the test in the caption (e.g.
// "elo0=0 elo1=5 alpha=0.05 beta=0.05 logistic", stats.SPRT.String). The arena match's
// plots/llr.png/svg, its web page and the verification ladder's SPRT
// charts all come from it. Save and SVG report what the chart lacks (no
// point, a non-finite value).
func LLRChart(title, hypotheses string, games, llr []float64, lower, upper float64) LineChart {
	note := fmt.Sprintf("One point per completed game pair (a straight run of points is a run of pairs that ended alike). The test stops when the LLR leaves [%.2f, %.2f]: above, H1 is accepted; below, H0.", lower, upper)
	if hypotheses != "" {
		note = hypotheses + ". " + note
	}
	return LineChart{
		Title: title, XLabel: "games", YLabel: "log-likelihood ratio",
		Series: []Series{{Name: "LLR after each game pair", X: games, Y: llr, Points: true}},
		HLines: []HLine{{Name: fmt.Sprintf("accept H1 (%.2f)", upper), Y: upper}, {Y: 0}, {Name: fmt.Sprintf("accept H0 (%.2f)", lower), Y: lower}},
		Note:   note,
	}
}
