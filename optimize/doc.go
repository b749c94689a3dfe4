// Package optimize holds what roadtune's optimizers share: the Referee they
// ask to play matches between weight vectors and the Outcome it returns; the
// Method interface every optimizer implements (one step at a time, with a
// checkpoint and a forecast), the Options interface a method's settings
// type implements (validate, start, restore, describe) and the Spec that
// registers a method with a job runner, and Run, the one driver loop (step numbering, the stall rule, the
// recorder). The optimizers know nothing of boards, engines, files or
// processes; package referee turns matches into games, package tune steps
// into files.
//
// Data flows one way: a method hands a batch of matches down, outcomes
// come back up (in the spirit of gonum's optimize.Method).
package optimize
