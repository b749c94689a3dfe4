// Package runfixture makes the run directories the tests of the pages
// serve: a finished run, a chain stopped in its second stage. It plays
// the tiny configs of package tunetest with package tune, so only tests
// outside package tune use it.
package runfixture
