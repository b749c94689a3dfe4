// Package ladder is the verification ladder's room below the tuning job:
// the ladder played, its rungs and its verdict.
//
// For a run given as plain values (Run: the engine's search, move cap,
// concurrency, opening suite, seed, an [external] engine in words) and
// the one interface it asks of the run's vectors (Engine: a
// referee.VectorReferee at a depth and width, the values an external
// player plays, a vector in words, the start vector), it resolves the
// opponents to players (Run.Player, Run.Opponent: baselines and weight
// files, external engines' option lists, IsEngineSpec and EngineSpec,
// Halfway, StartOpponent, DefaultsOpponent), plays head-to-head matches
// of them (Run.Play) and the whole ladder of a Plan (Run.Verify: every
// opponent at every depth and clock, At and Ats, its games, ladder.json
// and validation.json written, its charts returned), and measures the
// best vector's Elo during the run (Run.MeasureElo, Elo, MetricElo).
//
// It sums up: a rung (Rung, in ladder.json: the tuned vector against one
// opponent at one depth or clock, in arena's summary shape) and its
// verdict in words (Verdict: stronger, weaker or inconclusive when the
// 95% interval contains 0; VerdictLine, VerdictDetail; EloText and
// NoInterval for matches whose pairs all ended alike), the report's
// verification section (Section), the ladder's, each SPRT's and the
// Elo-during-the-run charts (Chart, LLRChart, EloChart), and the names of
// its game logs (Slug, Slugs, LogName).
//
// The job (package tune) fills Run and Plan from its config and
// checkpoint and saves the charts; readers of finished runs (tune/runs)
// read ladder.json as []Rung. The ladder never imports tune.
package ladder
