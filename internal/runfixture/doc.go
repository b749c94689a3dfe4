// Package runfixture makes the configs and run directories the tests
// above package tune use: the tiny config of a method (Tiny, TinyWith),
// a finished run (Finished, Straight), a chain's configs and its played
// stages (WriteChain, SPSAStage, StraightChain), a chain stopped in its
// second stage (InterruptedChain). It plays the tiny configs of package
// tunetest with package tune, so only tests outside package tune use it.
package runfixture
