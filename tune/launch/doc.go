// Package launch is what the tune command does with its flags, for any
// program to do the same: New resolves a config into one run, a sweep
// over seeds (Sweep) or a chain of stages (package tune/chain), Resume a
// stopped run or chain, and Launch.Run plays it with Hooks for live
// pages and a cluster session (joined with Hooks.Then); its Result names
// the runs, best vector and report, a sweep's comparison of ladders and
// its learning curve (package tune/runs), and Launch.Summary tells how
// it ended. It takes values, not flags: ParseSeeds reads a seed list,
// AsInput marks an error as the user's input.
package launch
