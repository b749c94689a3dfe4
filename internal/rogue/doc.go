// Package rogue is a hostile cluster client for tests: it holds the
// cluster's credentials, pulls batches from the workers' consumer as a
// worker does and answers each with a forged result, to show that the
// coordinator refuses or catches what it sends.
package rogue
