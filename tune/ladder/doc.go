// Package ladder is the verification ladder's room below the tuning
// job: a rung (Rung, in ladder.json: the tuned vector against one
// opponent at one depth or clock, in arena's summary shape) and its
// verdict in words (Verdict: stronger, weaker or inconclusive when the
// 95% interval contains 0; VerdictLine, VerdictDetail; EloText and
// NoInterval for matches whose pairs all ended alike), the report's
// verification section (Section), the ladder's and
// each SPRT's charts (Chart, LLRChart), the names of its game logs
// (Slug, Slugs, LogName), and one head-to-head match played and
// summarised (Play). The job (package tune) resolves its opponents to
// entrants and plays its rungs through Play; readers of finished runs
// (tune/runs) read ladder.json as []Rung.
package ladder
