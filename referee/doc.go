// Package referee turns an optimizer's matches into tournament games: the
// room that tune, the cluster and arena share.
//
// VectorReferee plays a batch of optimize.Match (two weight vectors each)
// with the in-process engine and returns their outcomes from A's view
// (optimize.Referee), or those and the positions of every game for Texel
// tuning (optimize.Sampler). A batch may be played in ranges (Range,
// PlayRange, SampleRange) anywhere and in any order with exactly the games
// of the whole batch, which is how the cluster spreads it over machines.
// ParseEarlyStop reads the early-stop rule of WinnerOnly matches, Decided
// is its curtailment test, and GameLogger is a referee that passes the
// games it plays on.
//
// Room: referee imports, of roadtune, only optimize, tournament (and
// tournament/stats) and engine (and its subpackages), plus the standard
// library; deps_test.go checks it. Configs, run directories and reports
// belong to package tune, the NATS cluster to package cluster.
package referee
