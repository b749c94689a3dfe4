// Package tunecluster attaches a cluster session (package cluster: games
// played on workers through NATS) to a tuning job (package tune), for the
// tune command: the library tune links no NATS, and the cluster, which
// knows referees and games but never runs, stays below tune. It is to the
// cluster what cmd/internal/web/tuneweb is to the web pages.
package tunecluster
