// Package rogue is a hostile cluster client for tests: it holds the
// cluster's credentials, pulls batches from the workers' consumer as a
// worker does and answers each with a forged result, an error result, a
// gzip bomb, or gives each back unplayed, to show that the coordinator
// refuses or catches what it sends and that none of it ends a run.
package rogue
