// Package crash carries a panic of one of roadtune's goroutines to the
// goroutine that waits for it, so that the command sees it and exits
// with its own status (cmdline.ExitInternal) and a request for a report,
// instead of the process dying with Go's exit status 2, which a clean
// refusal of bad input also uses. It is a standard-library-only leaf any
// room may link: the tournament's game workers, the Texel fit's chunks,
// the protocol server's search and the cluster's loops use it.
package crash
