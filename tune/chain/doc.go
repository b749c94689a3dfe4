// Package chain runs a chain of tuning runs, a room above the core
// (package tune): stages of methods one after the other, each starting
// from the best vector of the stage before (config key `then`, resolved
// by tune.Stages), every stage an ordinary run directory inside the
// chain's (tune.StageDir) and the chain's directory holding tune.FileChain
// with every stage's resolved config, written before the first game. Run
// starts a chain or continues it; Resume continues one from its
// directory alone. A budget by the clock (the first stage's
// Config.Budget, -hours) covers the whole chain: a new chain calibrates
// every stage before anything is written, splits the budget by the
// stages' forecast time (package tune/budget's Chain), and each stage
// takes its share of the budget left when it starts.
//
// The core keeps what reads or resolves a chain (tune.Stages, ReadChain,
// ReadChainFile, IsChain), since a run's reader and a stage's config need
// it; this package is what plays one, through the core's Start, Resume and
// Calibrate.
package chain
